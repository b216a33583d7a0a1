"""Dates and time zones as players write them in mail commands (ABSENT, TIMEZONE), read
forgivingly.

A date is ``2026-12-24``, ``24.12.``, ``24.12.2026``, ``24/12`` (day first; ``12/24`` when
that is the only reading), ``24 Dec``, ``24th December 2026`` or ``Dec 24, 2026``. Without a
year it is the first such day from ``today`` on. A time zone is an IANA name in any case, with
spaces for underscores (``europe/paris``, ``America/New York``), a city alone when only one zone
has it (``Paris``), ``UTC``, or a whole-hour offset from UTC (``+01:00``, ``UTC-5``), which
becomes the fixed zone ``Etc/GMT-1`` (the IANA names of fixed zones have the sign turned round).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)  # fmt: skip
ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
NUMERIC_DATE = re.compile(r"(\d{1,2})[./](\d{1,2})(?:[./](\d{4}|\d{2})?)?\.?")
ORDINAL = re.compile(r"(?<=\d)(st|nd|rd|th)\b")
SEPARATORS = frozenset({"to", "until", "till", "-", "\u2013", "\u2014"})
YEARS_AHEAD = 8
"""A date without a year is looked for this many years on (29 Feb comes within 8)."""

OFFSET = re.compile(r"(?:utc|gmt)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?")
UTC_NAMES = frozenset({"utc", "gmt", "z", "zulu"})
NOT_ZONES = frozenset({"localtime", "Factory"})
MOST_AHEAD, MOST_BEHIND = 14, 12
"""The whole-hour offsets IANA has fixed zones for: Etc/GMT-14 ... Etc/GMT+12."""


# --- Dates ---


def read_date(text: str, today: date) -> date | None:
    """The date ``text`` names (see the module doc), or None."""
    written = ORDINAL.sub("", text.strip().lower().replace(",", " ")).strip()
    iso = ISO_DATE.fullmatch(written)
    if iso is not None:
        return _valid(int(iso[1]), int(iso[2]), int(iso[3]))
    numeric = NUMERIC_DATE.fullmatch(written)
    if numeric is not None:
        first, second, year = int(numeric[1]), int(numeric[2]), _year(numeric[3])
        found = _dated(second, first, year, today)
        return found if found is not None or "/" not in written else _dated(first, second, year, today)
    return _worded(written, today)


def read_period(words: Sequence[str], today: date) -> tuple[date, date] | None:
    """(first day, last day) of ``<date> [TO] <date>``; None when the words are not two dates.
    Without TO, the first way of cutting the words in two that gives two dates is taken."""
    lowered = [word.lower() for word in words]
    cuts = [i for i, word in enumerate(lowered) if word in SEPARATORS]
    if cuts:
        at = cuts[0]
        return _both(" ".join(words[:at]), " ".join(words[at + 1 :]), today)
    for at in range(1, len(words)):
        found = _both(" ".join(words[:at]), " ".join(words[at:]), today)
        if found is not None:
            return found
    return None


def read_days(words: Sequence[str]) -> int | None:
    """n of ``<n> DAYS`` (or ``<n> DAY``, ``<n>D``), or None."""
    written = "".join(words).lower()
    found = re.fullmatch(r"(\d{1,4})(days?|d)", written)
    return int(found[1]) if found else None


def _both(first: str, last: str, today: date) -> tuple[date, date] | None:
    start = read_date(first, today)
    end = read_date(last, start or today)
    return (start, end) if start is not None and end is not None else None


def _worded(written: str, today: date) -> date | None:
    """``24 dec [2026]``, ``december 24 [2026]``, ``24-Dec-2026``."""
    words = [word for word in re.split(r"[\s\-/.]+", written) if word]
    months = [_month(word) for word in words]
    named = [month for month in months if month is not None]
    numbers = [int(word) for word in words if word.isdigit()]
    if len(named) != 1 or len(words) != 1 + len(numbers) or not 1 <= len(numbers) <= 2:
        return None
    day = numbers[0]
    year = _year(str(numbers[1])) if len(numbers) == 2 else None
    return _dated(named[0], day, year, today)


def _month(word: str) -> int | None:
    """1 for ``jan``, ``january`` or ``janu``; None for any other word."""
    if len(word) < 3 or not word.isalpha():
        return None
    for number, name in enumerate(MONTH_NAMES, start=1):
        if name.startswith(word) or (word == "sept" and number == 9):
            return number
    return None


def _year(written: str | None) -> int | None:
    if not written:
        return None
    year = int(written)
    return year + 2000 if year < 100 else year


def _dated(month: int, day: int, year: int | None, today: date) -> date | None:
    """The date, or without a year the first such date from ``today`` on."""
    if year is not None:
        return _valid(year, month, day)
    for ahead in range(YEARS_AHEAD + 1):
        found = _valid(today.year + ahead, month, day)
        if found is not None and found >= today:
            return found
    return None


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def day_start(day: date, zone: ZoneInfo) -> datetime:
    """Midnight at the start of ``day`` in ``zone``."""
    return datetime(day.year, day.month, day.day, tzinfo=zone)


def day_after(day: date, zone: ZoneInfo) -> datetime:
    return day_start(day + timedelta(days=1), zone)


# --- Time zones ---


def zone_of(name: str) -> ZoneInfo:
    """The player's zone (UTC when the stored name is not one: a setting must never stop mail)."""
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError):
        return ZoneInfo("UTC")


def read_zone(text: str) -> str | None:
    """The IANA name ``text`` means (see the module doc), or None."""
    written = text.strip()
    lowered = written.lower().replace(" ", "_")
    if lowered in UTC_NAMES:
        return "UTC"
    offset = OFFSET.fullmatch(written.lower())
    if offset is not None:
        return _fixed_zone(offset[1], int(offset[2]), int(offset[3] or 0))
    names = _zones()
    if lowered in names:
        return names[lowered]
    cities = _cities().get(lowered, ())
    return cities[0] if len(cities) == 1 else None


def zone_suggestions(text: str, now: datetime, most: int = 4) -> list[str]:
    """Zones ``text`` may have meant: those at the offset it gives (at ``now``), or the names
    closest to it."""
    offset = OFFSET.fullmatch(text.strip().lower())
    if offset is not None:
        sign = 1 if offset[1] == "+" else -1
        wanted = sign * timedelta(hours=int(offset[2]), minutes=int(offset[3] or 0))
        return [name for name in _places() if now.astimezone(ZoneInfo(name)).utcoffset() == wanted][:most]
    lowered = text.strip().lower().replace(" ", "_")
    cities = list(_cities().get(lowered, ()))
    names = _zones()
    close = difflib.get_close_matches(lowered, list(names), n=most, cutoff=0.6)
    close_cities = difflib.get_close_matches(lowered, list(_cities()), n=most, cutoff=0.7)
    found = cities + [names[name] for name in close]
    found += [zone for city in close_cities for zone in _cities()[city]]
    return list(dict.fromkeys(found))[:most]


def _fixed_zone(sign: str, hours: int, minutes: int) -> str | None:
    """The Etc zone of a whole-hour offset (None for another one, or one no zone has)."""
    if minutes or hours > (MOST_AHEAD if sign == "+" else MOST_BEHIND):
        return None
    if hours == 0:
        return "UTC"
    return f"Etc/GMT{'-' if sign == '+' else '+'}{hours}"


@cache
def _zones() -> dict[str, str]:
    """Lower-cased IANA name -> the name."""
    return {name.lower(): name for name in available_timezones() if name not in NOT_ZONES}


@cache
def _places() -> tuple[str, ...]:
    """The zones named for a place (``Europe/Paris``), sorted: what a player is offered."""
    return tuple(sorted(name for name in _zones().values() if "/" in name and not name.startswith("Etc/")))


@cache
def _cities() -> dict[str, tuple[str, ...]]:
    """Lower-cased last part of a place's zone name (``paris``, ``new_york``) -> its zones."""
    cities: dict[str, list[str]] = {}
    for name in _places():
        cities.setdefault(name.rsplit("/", 1)[-1].lower(), []).append(name)
    return {city: tuple(zones) for city, zones in cities.items()}
