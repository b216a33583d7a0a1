"""Reading what a GM types for a schedule: weekdays, hour lists, times of day, time zones.
Each reader answers the value or raises ConsoleError saying what it expected."""

from __future__ import annotations

import math
import re
from datetime import datetime

from functions.console.errors import ConsoleError
from functions.host.dates import read_zone, zone_suggestions

WEEKDAY_NAMES = (
    ("mon", "monday"),
    ("tue", "tues", "tuesday"),
    ("wed", "weds", "wednesday"),
    ("thu", "thur", "thurs", "thursday"),
    ("fri", "friday"),
    ("sat", "saturday"),
    ("sun", "sunday"),
)
_DAYS = {name: number for number, names in enumerate(WEEKDAY_NAMES, start=1) for name in names}
_DAYS |= {str(number): number for number in range(1, 8)}
_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


def _weekday(word: str) -> int:
    """ISO number of ``word``: "mon", "Monday", "1" ... "sun", "7"."""
    number = _DAYS.get(word.strip().lower())
    if number is None:
        raise ConsoleError(
            f"'{word.strip()}' is not a weekday: write mon, tue, wed, thu, fri, sat, sun or 1-7"
        )
    return number


def read_weekdays(text: str) -> tuple[int, ...]:
    """ "mon-fri", "sat,sun", "mon,wed-fri", "1-5" as sorted ISO weekday numbers; a range may
    wrap past Sunday ("fri-mon")."""
    days: set[int] = set()
    for part in text.split(","):
        if not part.strip():
            continue
        first, dash, last = part.partition("-")
        start = _weekday(first)
        end = _weekday(last) if dash else start
        span = (end - start) % 7
        days |= {(start - 1 + step) % 7 + 1 for step in range(span + 1)}
    if not days:
        raise ConsoleError("no weekdays given: write e.g. mon-fri or sat,sun")
    return tuple(sorted(days))


def read_hours(text: str) -> tuple[float, ...]:
    """ "24,2" as hours (each at least 0), largest first; "" or "none" as none."""
    if text.strip().lower() in ("", "none"):
        return ()
    hours: list[float] = []
    for word in text.split(","):
        try:
            value = float(word.strip())
        except ValueError:
            raise ConsoleError(f"'{word.strip()}' is not a number of hours: write e.g. 24,2") from None
        if not math.isfinite(value) or value < 0:
            raise ConsoleError(f"'{word.strip()}' hours: write hours of 0 or more, e.g. 24,2")
        hours.append(value)
    return tuple(sorted(set(hours), reverse=True))


def read_time(text: str) -> str:
    """A time of day, "18:00" or "9:30", as "HH:MM"."""
    found = _TIME.match(text.strip())
    if found is None:
        raise ConsoleError(f"'{text}' is not a time of day: write HH:MM, e.g. 18:00")
    return f"{int(found.group(1)):02d}:{found.group(2)}"


def read_timezone(text: str, now: datetime) -> str:
    """An IANA time zone (Europe/Paris), also as a city (Paris) or an offset (+02:00)."""
    zone = read_zone(text)
    if zone is None:
        suggestions = zone_suggestions(text, now)
        hint = f"did you mean {', '.join(suggestions)}?" if suggestions else "write e.g. Europe/Paris"
        raise ConsoleError(f"'{text}' is not a time zone: {hint}")
    return zone
