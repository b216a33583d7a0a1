"""Deadlines as players read them: in their own time zone, the way a person writes a date."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


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
