"""When a game's deadlines fall, when it is processed, and when its players are reminded: pure
arithmetic over ``GameRecord`` and its ``Schedule`` (no clock, no store).

Local times. A deadline time is a wall-clock time in the schedule's zone. On the day the clocks
spring forward a time in the skipped hour does not exist: the deadline is the first instant after
it (the moment the clocks jump, 03:00 local where 02:00-03:00 is skipped). On the day they fall
back a time in the repeated hour happens twice: the deadline is the first occurrence (``fold=0``).
A forbidden weekday (``Schedule.weekdays``, ISO numbers in the zone) pushes the deadline on to
the next allowed day, at the same local time.

Processing. Orders all in for a scope are played at once if the scope runs early (the game's
``early``, or a combat round, and no player it awaits asked to WAIT for it), else at the deadline.
Orders still missing at a turn deadline are waited for ``grace_hours`` more; a combat round
falls to standing orders at its own deadline, with no grace.

Reminders go ``Schedule.reminders`` hours before the turn deadline, and once more at the deadline
itself when there is a grace period (the rulebook's host reminded late players before waiving
their turn). Only the times after the period opened (``GameRecord.opened_at``; none when it is
not known) and before processing count.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from functions.store.records import Absence, GameRecord, PlayerRecord, Schedule, split_awaited

MAX_ABSENCE_MOVES = 20
"""Deadline moves past absences at most (each one past a later absence's end): a bound, never
reached by a game whose absences are limited in count."""


# --- Local times ---


def local_instant(day: date, wall: time, zone: ZoneInfo) -> datetime:
    """The instant the clocks in ``zone`` show ``wall`` on ``day`` (see the module doc for the
    skipped and repeated hours)."""
    naive = datetime.combine(day, wall)
    first = naive.replace(tzinfo=zone, fold=0).astimezone(UTC)
    if first.astimezone(zone).replace(tzinfo=None) == naive:
        return first
    return _gap_end(naive, zone)


def _gap_end(naive: datetime, zone: ZoneInfo) -> datetime:
    """The instant the clocks jump over ``naive``, which they skip: found between the readings
    of ``naive`` with the offsets before and after the jump, to the second."""
    low = int(naive.replace(tzinfo=zone, fold=1).timestamp())
    high = int(naive.replace(tzinfo=zone, fold=0).timestamp())
    low, high = min(low, high), max(low, high)
    while low < high:
        middle = (low + high) // 2
        if datetime.fromtimestamp(middle, zone).replace(tzinfo=None) > naive:
            high = middle
        else:
            low = middle + 1
    return datetime.fromtimestamp(low, UTC)


def _wall_time(text: str) -> time:
    hours, minutes = text.split(":")
    return time(int(hours), int(minutes))


# --- Deadlines ---


def deadline_after(schedule: Schedule, turn_hours: float, opened: datetime) -> datetime:
    """The deadline of a period opened at ``opened``: the first ``deadline_time`` on an allowed
    weekday at least ``min_hours`` after it (and after it); with no deadline time, ``turn_hours``
    (or ``min_hours``, if longer) after it, pushed on to an allowed weekday."""
    zone = ZoneInfo(schedule.timezone)
    earliest = opened + timedelta(hours=schedule.min_hours)
    if schedule.deadline_time is None:
        due = opened + timedelta(hours=max(turn_hours, schedule.min_hours))
        return _next_allowed(schedule, due, zone)
    wall = _wall_time(schedule.deadline_time)
    first_day = earliest.astimezone(zone).date()
    for days in range(9):
        day = first_day + timedelta(days=days)
        if day.isoweekday() not in schedule.weekdays:
            continue
        candidate = local_instant(day, wall, zone)
        if candidate >= earliest and candidate > opened:
            return candidate
    raise ValueError(f"no allowed weekday in {schedule.weekdays}")  # Schedule refuses an empty set


def _next_allowed(schedule: Schedule, due: datetime, zone: ZoneInfo) -> datetime:
    """``due``, or the same local time on the next allowed weekday."""
    local = due.astimezone(zone)
    for days in range(8):
        day = local.date() + timedelta(days=days)
        if day.isoweekday() in schedule.weekdays:
            return due if days == 0 else local_instant(day, local.time(), zone)
    raise ValueError(f"no allowed weekday in {schedule.weekdays}")


def absent_at(player: PlayerRecord, moment: datetime) -> Absence | None:
    """The player's absence that ``moment`` falls in, if any."""
    return next((a for a in player.absences if a.start <= moment < a.end), None)


def past_absences(
    schedule: Schedule, turn_hours: float, deadline: datetime, absentees: Iterable[PlayerRecord]
) -> datetime:
    """``deadline``, or when it falls in an absence of one of ``absentees``, the deadline of a
    period opened when that absence ends (the returning player gets a whole period), and so on."""
    players = list(absentees)
    for _ in range(MAX_ABSENCE_MOVES):
        absence = next((a for p in players if (a := absent_at(p, deadline)) is not None), None)
        if absence is None:
            return deadline
        deadline = deadline_after(schedule, turn_hours, absence.end)
    return deadline


def turn_players(game: GameRecord) -> frozenset[str]:
    """The players whose orders the game awaits by the turn deadline (none on the round clock)."""
    if game.on_round_clock:
        return frozenset()
    return frozenset(player for _, player in map(split_awaited, game.awaiting))


def seated(players: Iterable[PlayerRecord]) -> list[PlayerRecord]:
    """The players holding a seat (not standbys, not removed)."""
    return [p for p in players if p.role == "player"]


def waiting_for_absences(game: GameRecord, players: Iterable[PlayerRecord]) -> GameRecord:
    """``game`` with its turn deadline moved past the absences of the players it awaits, when its
    absence policy is "wait"; unchanged otherwise."""
    if game.schedule.absence_policy != "wait" or game.deadline is None:
        return game
    awaited = turn_players(game)
    absentees = [p for p in seated(players) if p.player_id in awaited and p.robot is None]
    deadline = past_absences(game.schedule, game.turn_hours, game.deadline, absentees)
    return game if deadline == game.deadline else game.model_copy(update={"deadline": deadline})


def extended(game: GameRecord, hours: float) -> GameRecord:
    """``game`` with its deadlines ``hours`` later (the GM's extension)."""
    if hours <= 0:
        raise ValueError(f"an extension is a positive number of hours, not {hours}")
    shift = timedelta(hours=hours)
    return game.model_copy(
        update={
            "deadline": None if game.deadline is None else game.deadline + shift,
            "round_deadline": None if game.round_deadline is None else game.round_deadline + shift,
        }
    )


# --- Processing and reminders ---


def runs_early(game: GameRecord, scope: str, players: Iterable[PlayerRecord]) -> bool:
    """Whether ``scope`` is played as soon as its orders are in: the game processes it early and
    none of the seated players it awaits asked to WAIT for it (in sequential mode the players'
    turns of one game-turn share a scope: one player's WAIT holds only their own)."""
    awaited = game.awaited_scopes().get(scope, frozenset())
    waiting = any(p.wait_scope == scope and p.player_id in awaited for p in seated(players))
    return game.prompt() and not waiting


def processing_due(game: GameRecord, orders_in: bool = False) -> datetime | None:
    """When the game's player-turn is played if it is not played early: at the deadline when
    ``orders_in`` (every awaited order is in), else after the grace period too."""
    if game.deadline is None:
        return None
    if orders_in:
        return game.deadline
    return game.deadline + timedelta(hours=game.schedule.grace_hours)


def reminder_times(game: GameRecord) -> list[datetime]:
    """The reminders of the current turn deadline, in order (see the module doc)."""
    due, opened = processing_due(game), game.opened_at
    if game.deadline is None or due is None or opened is None or not turn_players(game):
        return []
    times = {game.deadline - timedelta(hours=hours) for hours in game.schedule.reminders}
    if game.schedule.grace_hours > 0:
        times.add(game.deadline)
    return sorted(t for t in times if opened < t < due)


def next_reminder(game: GameRecord) -> datetime | None:
    """The first reminder time not yet handled (``GameRecord.reminded_at``), or None."""
    done = game.reminded_at
    return next((t for t in reminder_times(game) if done is None or t > done), None)


def due_at(game: GameRecord, orders_in: bool = False) -> datetime | None:
    """When the scheduler must next look at the game: the earliest of its processing time, its
    round deadline, and its next reminder. None when never (a game not running, or parked)."""
    if not game.schedulable():
        return None
    times = [processing_due(game, orders_in), game.round_deadline, next_reminder(game)]
    present = [t for t in times if t is not None]
    return min(present) if present else None


def oldest_due_minutes(games: Iterable[GameRecord], now: datetime) -> float:
    """How long the longest-waiting of ``games`` (all due at ``now``) has been due, in minutes: the
    turn workflow's backlog. A game due because its orders are in counts from its own due time,
    or 0 when that is still ahead."""
    waited = [now - due for game in games if (due := due_at(game)) is not None]
    return max((max(w.total_seconds(), 0.0) / 60 for w in waited), default=0.0)
