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
READY = "Your orders are in."
NOT_READY = (
    "Kept, but not counted as in until you fix the {lines} with problems (send them again, with ADD) "
    "or send DONE; at the deadline these orders are used as they are."
)


def render_ack(ack: Acknowledgement) -> tuple[str, str]:
    """(plain text, HTML) of the acknowledgement."""
    title = f"Orders received: game {ack.game_id}, turn {ack.turn}, player {ack.player}"
    understood = [(_line_label(u.line), _cut(u.text)) for u in ack.understood]
    errors = [_cut(p.describe()) for p in ack.errors]
    warnings = [_cut(p.describe()) for p in ack.warnings]
    forecast = list(ack.forecast)
    ready = ready_line(ack)
    text = render(
        "warpwar/ack.txt",
        title=_wrap(title, ""),
        rule="=" * min(WIDTH, len(title)),
        verdict=_wrap(ack.verdict, ""),
        ready=_wrap(ready, "") if ready else None,
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
        ready=ready,
        counted=ack.ready,
        deadline=ack.deadline,
        understood=understood,
        errors=errors,
        warnings=warnings,
        forecast=forecast,
    )
    return text, html


def ready_line(ack: Acknowledgement) -> str | None:
    """Whether the orders submitted count as in (the game may play before the deadline), in
    plain words; None when nothing was submitted."""
    if not ack.submitted:
        return None
    if ack.ready:
        return READY
    refused = len({problem.line for problem in ack.errors})
    return NOT_READY.format(lines="line" if refused == 1 else f"{refused} lines")


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
