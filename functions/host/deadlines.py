"""Deadlines as players read them: in their own time zone, the way a person writes a date, and
as a calendar file attached to the mail that states them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine.core.mailgame import combat_parts
from functions.mail.compose import Attachment
from functions.mail.ics import deadline_ics
from functions.store.records import GameRecord, PlayerRecord, split_awaited


def deadline_text(moment: datetime | None, timezone: str = "UTC") -> str | None:
    """``moment`` in the player's time zone, "Fri 5 Jan 2024, 18:00 CET"; UTC when the zone is
    unknown (a player's setting must never stop their mail)."""
    if moment is None:
        return None
    try:
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    local = moment.astimezone(zone)
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} {local.tzname()}"


def fighting(game: GameRecord, player_id: str) -> bool:
    """Whether the game waits for ``player_id``'s orders for a round of a combat."""
    awaited = map(split_awaited, game.awaiting)
    return any(who == player_id and combat_parts(scope) is not None for scope, who in awaited)


def own_deadline(game: GameRecord, player: PlayerRecord) -> datetime | None:
    """The deadline ``player`` works to: their combat round's while the game waits for their
    round orders, else the turn's. The round deadline of combats they are not in is never
    theirs: in a blind game it would tell them a combat is being fought."""
    if game.round_deadline is not None and fighting(game, player.player_id):
        return game.round_deadline
    return game.deadline


def deadline_attachments(game: GameRecord, player: PlayerRecord) -> tuple[Attachment, ...]:
    """What a mail stating the game's turn deadline carries for ``player``: the deadline as a
    calendar file (functions/mail/ics.py), or nothing while the game has no deadline."""
    if game.deadline is None or game.status not in ("running", "paused"):
        return ()
    return (deadline_ics(game, player),)
