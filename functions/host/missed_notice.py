"""What a results mail tells a player at its top (below the GM's bulletin) when their player-turn
was waived for want of orders (issue 14, item 7): which orders were used, how many turns they have
missed in a row, and what happens at the game's limit.

It is part of the results mail, not a mail of its own: the player reads it where they read the
turn that was waived, it is sent exactly once with that mail (its claim, the same bytes from
the stored records whichever attempt sends it), and it adds no mail to a mailbox that gets one a
turn already. Only when the seat changes hands at the limit (a robot or a standby takes it) is
the player, who gets no more results, told by a mail of its own (functions/host/missed.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from functions.host.hosts import HOSTS
from functions.render.bulletin import after_body
from functions.render.notice import missed_block
from functions.render.results import Rendered
from functions.store.records import GameRecord


def missed_words(before: GameRecord | None, made: GameRecord, player: str) -> str | None:
    """The notice for ``player`` of the step from the record ``before`` to ``made``, when it
    waived their player-turn for want of orders (their count of turns missed in a row went up;
    an absence waives without counting, and needs no notice); None otherwise, and None when the
    count reached the limit at which the seat changes hands."""
    if before is None:
        return None
    count = made.missed.get(player, 0)
    if count <= before.missed.get(player, 0):
        return None
    limit, action = made.schedule.missed_limit, made.schedule.missed_action
    if count % limit == 0 and action != "alert":
        return None
    host = HOSTS[made.game]
    words = WAIVED.format(
        turn=before.turn,
        count=count,
        turns="turn" if count == 1 else "turns",
        held=host.without_orders("turn", "past"),
        # The rounds of a combat that is still to come follow the rule, not a past step.
        rounds=host.without_orders("round"),
    )
    if action == "alert":
        at = count + limit - count % limit
        words += " " + (TOLD_GM if count % limit == 0 else TELL_GM.format(at=at))
    else:
        words += " " + SEAT_GOES.format(limit=limit, to=ROBOT if action == "robot" else STANDBY)
    return words + " " + NEXT


def with_missed(rendered: Rendered, notices: Sequence[str | None]) -> Rendered:
    """``rendered`` with the notices given (None: none for that step) on top."""
    paragraphs = [notice for notice in notices if notice is not None]
    if not paragraphs:
        return rendered
    text, html = missed_block(paragraphs)
    return dataclasses.replace(
        rendered,
        text=text + rendered.text,
        html=after_body(rendered.html, html) if rendered.html is not None else None,
    )


WAIVED = (
    "You sent no orders for turn {turn} by its deadline, so your turn was waived: no "
    "orders were used ({held}; {rounds}). That is {count} {turns} missed in a row."
)
TELL_GM = "At {at} in a row the GM is told."
TOLD_GM = "The GM has been told."
SEAT_GOES = "After {limit} in a row your seat goes to {to}."
ROBOT = "a computer player"
STANDBY = "a standby player, if the game has one"
NEXT = "Send your orders before the deadline below, or ABSENT if you will be away."
