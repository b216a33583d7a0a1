"""A game's turn deadline as a calendar file (RFC 5545, ``text/calendar; method=PUBLISH``), sent
with every mail that states it: a player opens it once and the deadline is in their calendar.

Updates, not duplicates. A calendar keeps one event per ``UID``: every mail about one deadline
period carries the same UID (the game and when the period opened), and a later ``SEQUENCE`` when
the deadline has moved (the GM's extension, a pause, an absence), so a calendar that already has
the event moves it. The sequence is the deadline's minutes after the period opened, which grows
whenever the deadline moves on. Times are UTC: every calendar shows them in its owner's zone.
"""

from __future__ import annotations

from datetime import datetime

from engine.games import GAME_NAMES
from functions.mail.compose import Attachment
from functions.store.records import GameRecord, PlayerRecord, split_awaited

PRODUCT = "-//WarpMail//Deadlines//EN"
UID_DOMAIN = "deadline.warpmail"
CONTENT_TYPE = "text/calendar; method=PUBLISH; charset=UTF-8"


def deadline_uid(game: GameRecord, deadline: datetime) -> str:
    """The event's id: the same for every mail about the current deadline period."""
    opened = game.opened_at or deadline
    return f"{game.game_id}.{opened:%Y%m%dT%H%M%SZ}@{UID_DOMAIN}"


def deadline_ics(game: GameRecord, player: PlayerRecord) -> Attachment:
    """The game's turn deadline as an event for ``player``'s calendar. ValueError when the game
    has no deadline."""
    # Imported here: icalendar takes longer to import than the rest of the inbound function
    # (benchmarks/import_time.py), and only results, reminders and welcomes carry a calendar.
    from icalendar import Calendar, Event

    deadline = game.deadline
    if deadline is None:
        raise ValueError(f"game {game.game_id} has no deadline")
    opened = game.opened_at or deadline
    own = any(who == player.player_id for _, who in map(split_awaited, game.awaiting))
    what = "your orders are due" if own else "next deadline"
    event = Event()
    event.add("uid", deadline_uid(game, deadline))
    event.add("sequence", max(0, int((deadline - opened).total_seconds() // 60)))
    event.add("dtstamp", game.committed_at or opened)
    event.add("dtstart", deadline)
    event.add("summary", f"{GAME_NAMES[game.game]} {game.game_id}, turn {game.turn}: {what}")
    event.add(
        "description",
        f"{game.title}: orders for turn {game.turn} by mail to the game's address before this time. "
        "Send REPORT to the game for your latest results and orders sheet.",
    )
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("method", "PUBLISH")
    calendar.add_component(event)
    return Attachment(
        filename=f"{game.game_id}-deadline.ics", content_type=CONTENT_TYPE, data=calendar.to_ical()
    )
