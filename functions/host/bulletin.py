"""The GM's bulletin, printed first in every player's next results (Star Fleet Warlord rulebook,
11.4: "messages from Franz Games, LLC (preceded by a "GM>" tag), which always appear first").

The turn service clears ``GameRecord.bulletin`` in the commit whose results carry it, so the
bulletin printed is that of the record before that commit.
"""

from __future__ import annotations

import dataclasses

from functions.render.bulletin import after_body, bulletin_block
from functions.render.results import Rendered
from functions.store.records import GameRecord


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
