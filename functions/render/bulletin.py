"""The GM's bulletin block (every text line tagged ``GM>``), and the splice that puts a host block at
the top of a game's rendered HTML mail."""

from __future__ import annotations

import re
import textwrap

from functions.render.jinja import environment

TAG = "GM> "
WIDTH = 78
BODY_TAG = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


def bulletin_block(game_id: str, bulletin: str) -> tuple[str, str]:
    """(plain text, HTML) of the bulletin block: every text line tagged ``GM>``, which no
    player's text can carry first (the host writes it)."""
    lines = [
        wrapped
        for line in bulletin.strip().splitlines()
        for wrapped in (textwrap.wrap(line, width=WIDTH - len(TAG), break_on_hyphens=False) or [""])
    ]
    context = {"game_id": game_id, "tag": TAG, "lines": lines, "text": bulletin.strip(), "width": WIDTH}
    templates = environment()
    return (
        templates.get_template("host/bulletin.txt").render(context),
        templates.get_template("host/bulletin.html").render(context),
    )


def after_body(html: str, block: str) -> str:
    """``block`` at the top of ``html``'s body (at its start when it has no body tag)."""
    found = BODY_TAG.search(html)
    at = found.end() if found is not None else 0
    return f"{html[:at]}\n{block}{html[at:]}"
