"""Deadlines as players read them: in their own time zone, the way a person writes a date, and
as a calendar file attached to the mail that states them."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from functions.mail.compose import Attachment
from functions.mail.ics import deadline_ics
from functions.store.records import GameRecord, PlayerRecord


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


def deadline_attachments(game: GameRecord, player: PlayerRecord) -> tuple[Attachment, ...]:
    """What a mail stating the game's turn deadline carries for ``player``: the deadline as a
    calendar file (functions/mail/ics.py), or nothing while the game has no deadline."""
    if game.deadline is None or game.status not in ("running", "paused"):
        return ()
    return (deadline_ics(game, player),)
