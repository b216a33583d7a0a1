"""The acknowledgement mail: plain text (fixed width, at most 78 columns) and HTML.

Everything the player wrote reaches the templates as data: the HTML template is autoescaped and
the text template prints strings, never evaluates them, so ``<script>`` or ``{{ x }}`` in an order
line comes out as written.
"""

from __future__ import annotations

import textwrap

from engine.warpwar.lang.ack import Acknowledgement
from functions.render.jinja import render

WIDTH = 78
INDENT = "  "
LABEL_WIDTH = 8
MAX_ITEM = 600
"""Characters of one order or problem shown: far more than a real order line and its
explanation; a pasted megabyte on one line is not echoed back whole (its start and the
explanation at its end are), so an acknowledgement stays small whatever it answers."""


def render_ack(ack: Acknowledgement) -> tuple[str, str]:
    """(plain text, HTML) of the acknowledgement."""
    title = f"Orders received: game {ack.game_id}, turn {ack.turn}, player {ack.player}"
    understood = [(_line_label(u.line), _cut(u.text)) for u in ack.understood]
    errors = [_cut(p.describe()) for p in ack.errors]
    warnings = [_cut(p.describe()) for p in ack.warnings]
    forecast = list(ack.forecast)
    text = render(
        "warpwar/ack.txt",
        title=_wrap(title, ""),
        rule="=" * min(WIDTH, len(title)),
        verdict=_wrap(ack.verdict, ""),
        deadline=_wrap(f"Deadline: {ack.deadline}", "") if ack.deadline else None,
        understood=[
            _wrap(f"{label:>{LABEL_WIDTH}}  {order}", "", " " * (LABEL_WIDTH + 2))
            for label, order in understood
        ],
        errors=[_wrap(e) for e in errors],
        warnings=[_wrap(w) for w in warnings],
        forecast=[_wrap(f) for f in forecast],
    )
    html = render(
        "warpwar/ack.html",
        title=title,
        verdict=ack.verdict,
        deadline=ack.deadline,
        submitted=ack.submitted,
        understood=understood,
        errors=errors,
        warnings=warnings,
        forecast=forecast,
    )
    return text, html


def _cut(item: str) -> str:
    """``item`` up to ``MAX_ITEM`` characters: its start and its end, the middle left out."""
    if len(item) <= MAX_ITEM:
        return item
    return f"{item[: MAX_ITEM * 2 // 3]} [...] {item[-MAX_ITEM // 3 :]}"


def _line_label(line: int | None) -> str:
    return "" if line is None else f"line {line}"


def _wrap(text: str, first: str = INDENT, rest: str = INDENT * 2) -> str:
    """One item as fixed-width lines; a long word (a pasted URL) is broken rather than overflow."""
    lines = textwrap.wrap(
        text, width=WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    )
    return "\n".join(lines) or first.rstrip()
