"""The acknowledgement of an order mail, for every game: the game's own model (its mailgame's
``Reading.ack``: WarpWar's is engine/warpwar/lang/ack.py) rendered as ``ack`` with the game's
templates ``<game key>/ack.txt`` (fixed width, at most 78 columns) and ``<game key>/ack.html``.

Everything the player wrote reaches the templates as data: the HTML template is autoescaped and
the text template prints strings, never evaluates them, so ``<script>`` or ``{{ x }}`` in an order
line comes out as written. The templates get two helpers: ``cut`` (an item shortened, so a pasted
megabyte is not echoed back) and ``item`` (an item as fixed-width lines)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pydantic import BaseModel

from functions.render.jinja import TEMPLATES, render

WIDTH = 78
INDENT = "  "
MAX_ITEM = 600
"""Characters of one order or problem shown: far more than a real order line and its
explanation; a pasted megabyte on one line is not echoed back whole (its start and the
explanation at its end are), so an acknowledgement stays small whatever it answers."""


def render_game_ack(game: str, ack: BaseModel, templates: Path = TEMPLATES) -> tuple[str, str]:
    """(plain text, HTML) of game ``game``'s acknowledgement ``ack``."""
    text = render(f"{game}/ack.txt", templates, ack=ack, cut=cut, item=item, width=WIDTH)
    html = render(f"{game}/ack.html", templates, ack=ack, cut=cut)
    return text, html


def cut(text: str) -> str:
    """``text`` up to ``MAX_ITEM`` characters: its start and its end, the middle left out."""
    if len(text) <= MAX_ITEM:
        return text
    return f"{text[: MAX_ITEM * 2 // 3]} [...] {text[-MAX_ITEM // 3 :]}"


def item(text: str, first: str = INDENT, rest: str = INDENT * 2) -> str:
    """One item as fixed-width lines; a long word (a pasted URL) is broken rather than overflow."""
    lines = textwrap.wrap(
        text, width=WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    )
    return "\n".join(lines) or first.rstrip()
