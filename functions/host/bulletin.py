"""The GM's bulletin, printed first in every player's next results (Star Fleet Warlord rulebook,
11.4: "messages from Franz Games, LLC (preceded by a "GM>" tag), which always appear first"),
and the splice that puts a host block at the top of a game's rendered mail.

The turn service clears ``GameRecord.bulletin`` in the commit whose results carry it, so the
bulletin printed is that of the record before that commit.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap

from functions.host.results import Rendered
from functions.render.jinja import environment
from functions.store.records import GameRecord

TAG = "GM> "
WIDTH = 78
BODY_TAG = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


def with_bulletin(game: GameRecord, rendered: Rendered) -> Rendered:
    """``rendered`` with ``game``'s bulletin first, marked as the GM's; as it is without one."""
    if not game.bulletin.strip():
        return rendered
    text, html = bulletin_block(game.game_id, game.bulletin)
    return dataclasses.replace(
        rendered,
        text=text + rendered.text,
        html=after_body(rendered.html, html) if rendered.html is not None else None,
    )


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
