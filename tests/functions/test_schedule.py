"""Schedule arithmetic (functions/schedule.py): deadlines across time zones, daylight-saving
changes and forbidden weekdays; processing times, reminders, extensions and absences."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from functions import schedule
from functions.schedule import deadline_after, local_instant
from functions.store import Absence, GameRecord, PlayerRecord, Schedule

ZONES = (
    "Europe/Berlin",
    "America/New_York",
    "Pacific/Auckland",
    "Asia/Kolkata",
    "UTC",
    "Australia/Lord_Howe",
)
OPENED = datetime(2025, 3, 1, 12, tzinfo=UTC)

zones = st.sampled_from(ZONES)
wall_times = st.builds(lambda h, m: f"{h:02d}:{m:02d}", st.integers(0, 23), st.sampled_from([0, 15, 30, 45]))
weekday_sets = st.sets(st.integers(1, 7), min_size=1).map(lambda days: tuple(sorted(days)))
moments = st.datetimes(datetime(2024, 1, 1), datetime(2027, 12, 31), timezones=st.just(UTC))
schedules = st.builds(
    Schedule,
    deadline_time=wall_times,
    timezone=zones,
    weekdays=weekday_sets,
    min_hours=st.sampled_from([0, 1, 12, 24, 47.5]),
)


def wall(moment: datetime, zone: str) -> datetime:
    return moment.astimezone(ZoneInfo(zone)).replace(tzinfo=None)


def exists(day: datetime, zone: str) -> bool:
    """Whether the wall time ``day`` happens in ``zone`` (not skipped by a spring-forward)."""
    return wall(day.replace(tzinfo=ZoneInfo(zone)).astimezone(UTC), zone) == day


@settings(max_examples=150, deadline=None)
@given(schedules, moments)
def test_a_deadline_is_at_the_local_time_on_an_allowed_day_within_eight_days(
    plan: Schedule, opened: datetime
) -> None:
    deadline = deadline_after(plan, 24, opened)
    local = wall(deadline, plan.timezone)
    assert deadline >= opened + timedelta(hours=plan.min_hours) and deadline > opened
    assert deadline <= opened + timedelta(hours=plan.min_hours, days=8)
    assert local.isoweekday() in plan.weekdays
    asked = datetime.combine(local.date(), time.fromisoformat(str(plan.deadline_time)))
    # at the asked time, or that time does not exist that day and the deadline is the jump after it
    assert local == asked or (not exists(asked, plan.timezone) and local > asked)


@settings(max_examples=100, deadline=None)
@given(schedules, moments, st.floats(0, 24 * 10))
def test_a_later_opening_never_gives_an_earlier_deadline(
    plan: Schedule, opened: datetime, hours: float
) -> None:
    later = opened + timedelta(hours=hours)
    assert deadline_after(plan, 24, opened) <= deadline_after(plan, 24, later)


@settings(max_examples=100, deadline=None)
@given(zones, weekday_sets, moments, st.sampled_from([1.0, 24.0, 36.5]), st.sampled_from([0, 48]))
def test_without_a_deadline_time_the_turn_period_runs_on_to_an_allowed_day(
    zone: str, days: tuple[int, ...], opened: datetime, turn_hours: float, min_hours: float
) -> None:
    plan = Schedule(timezone=zone, weekdays=days, min_hours=min_hours)
    deadline = deadline_after(plan, turn_hours, opened)
    period = timedelta(hours=max(turn_hours, min_hours))
    assert opened + period <= deadline <= opened + period + timedelta(days=7, hours=1)
    assert wall(deadline, zone).isoweekday() in days


@pytest.mark.parametrize(
    ("zone", "opened", "at", "expected_local"),
    [
        # Berlin springs forward on 30 Mar 2025, 02:00 -> 03:00: 02:30 does not exist
        ("Europe/Berlin", datetime(2025, 3, 29, 12, tzinfo=UTC), "02:30", datetime(2025, 3, 30, 3, 0)),
        # ... and falls back on 26 Oct 2025, 03:00 -> 02:00: 02:30 happens twice, the first counts
        ("Europe/Berlin", datetime(2025, 10, 25, 12, tzinfo=UTC), "02:30", datetime(2025, 10, 26, 2, 30)),
        # New York springs forward on 9 Mar 2025 at 02:00
        ("America/New_York", datetime(2025, 3, 8, 12, tzinfo=UTC), "02:15", datetime(2025, 3, 9, 3, 0)),
        ("America/New_York", datetime(2025, 3, 9, 12, tzinfo=UTC), "18:00", datetime(2025, 3, 9, 18, 0)),
        # Auckland falls back on 6 Apr 2025 at 03:00 (to 02:00)
        ("Pacific/Auckland", datetime(2025, 4, 5, 0, tzinfo=UTC), "02:45", datetime(2025, 4, 6, 2, 45)),
        # Kolkata, 5:30 from UTC: opened at 17:59 the deadline is that day, at 18:01 the next
        ("Asia/Kolkata", datetime(2025, 3, 1, 12, 29, tzinfo=UTC), "18:00", datetime(2025, 3, 1, 18, 0)),
        ("Asia/Kolkata", datetime(2025, 3, 1, 12, 31, tzinfo=UTC), "18:00", datetime(2025, 3, 2, 18, 0)),
    ],
)
def test_deadlines_at_daylight_saving_changes_and_odd_offsets(
    zone: str, opened: datetime, at: str, expected_local: datetime
) -> None:
    deadline = deadline_after(Schedule(deadline_time=at, timezone=zone), 24, opened)
    assert wall(deadline, zone) == expected_local


def test_the_first_of_two_repeated_times_and_the_jump_over_a_skipped_one() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    # 02:30 on 26 Oct 2025 happens at 00:30 UTC (summer time) and 01:30 UTC: the first
    assert local_instant(datetime(2025, 10, 26).date(), time(2, 30), berlin) == datetime(
        2025, 10, 26, 0, 30, tzinfo=UTC
    )
    # 02:30 on 30 Mar 2025 never happens: 01:00 UTC is when the clocks jump to 03:00
    assert local_instant(datetime(2025, 3, 30).date(), time(2, 30), berlin) == datetime(
        2025, 3, 30, 1, 0, tzinfo=UTC
    )


def test_forbidden_weekdays_push_the_deadline_and_min_hours_hold() -> None:
    # Saturday 1 Mar 2025, noon UTC; deadlines only on Tuesdays and Fridays at 20:00 Berlin
    plan = Schedule(deadline_time="20:00", timezone="Europe/Berlin", weekdays=(2, 5))
    assert deadline_after(plan, 24, OPENED) == datetime(2025, 3, 4, 19, tzinfo=UTC)  # Tuesday
    # with at least 4 days between turns, Tuesday is too early: Friday
    plan = plan.model_copy(update={"min_hours": 96})
    assert deadline_after(plan, 24, OPENED) == datetime(2025, 3, 7, 19, tzinfo=UTC)


def test_a_schedule_refuses_unknown_zones_and_weekdays() -> None:
    with pytest.raises(ValidationError, match="IANA"):
        Schedule(timezone="Mars/Olympus_Mons")
    with pytest.raises(ValidationError, match="Monday 1 to Sunday 7"):
        Schedule(weekdays=(0, 8))
    with pytest.raises(ValidationError, match="Monday 1 to Sunday 7"):
        Schedule(weekdays=())


# --- Processing, reminders, extensions, absences ---


def a_game(**fields: object) -> GameRecord:
    values: dict[str, object] = {
        "game_id": "g1",
        "title": "Test",
        "status": "running",
        "awaiting": ("turn:1#P1", "turn:1#P2"),
        "opened_at": OPENED,
        "deadline": OPENED + timedelta(hours=48),
    }
    return GameRecord.model_validate(values | fields)


def a_player(player_id: str = "P1", **fields: object) -> PlayerRecord:
    values = {"game_id": "g1", "player_id": player_id, "name": player_id, "address": f"{player_id}@x.org"}
    return PlayerRecord.model_validate(values | {"code_hash": "x"} | fields)


def test_grace_delays_processing_only_while_orders_are_missing() -> None:
    game = a_game(schedule=Schedule(grace_hours=6))
    assert game.deadline is not None
    assert schedule.processing_due(game) == game.deadline + timedelta(hours=6)
    assert schedule.processing_due(game, orders_in=True) == game.deadline


def test_reminders_fall_between_the_opening_and_processing_and_each_comes_once() -> None:
    game = a_game(schedule=Schedule(reminders=(72, 24, 2), grace_hours=6))
    deadline = OPENED + timedelta(hours=48)
    # 72 hours before is before the period opened; the grace period adds one at the deadline
    expected = [deadline - timedelta(hours=24), deadline - timedelta(hours=2), deadline]
    assert schedule.reminder_times(game) == expected
    assert schedule.next_reminder(game) == expected[0]
    assert schedule.next_reminder(game.model_copy(update={"reminded_at": expected[1]})) == expected[2]
    assert schedule.next_reminder(game.model_copy(update={"reminded_at": expected[2]})) is None
    on_a_round = {"awaiting": ("combat:1/P1:2223:1#P1",), "round_deadline": OPENED + timedelta(hours=2)}
    assert schedule.reminder_times(game.model_copy(update=on_a_round)) == []


def test_the_game_is_due_at_its_earliest_time() -> None:
    game = a_game()
    assert schedule.due_at(game) == OPENED + timedelta(hours=24)  # the 24-hour reminder
    round_soon = game.model_copy(update={"round_deadline": OPENED + timedelta(hours=2)})
    assert schedule.due_at(round_soon) == OPENED + timedelta(hours=2)
    assert schedule.due_at(game.model_copy(update={"status": "paused"})) is None


def test_wait_turns_early_processing_off_for_its_scope_only() -> None:
    game = a_game()
    waiting = [a_player("P1", wait_scope="turn:1"), a_player("P2")]
    assert schedule.runs_early(game, "turn:1", [a_player("P1"), a_player("P2")])
    assert not schedule.runs_early(game, "turn:1", waiting)
    assert schedule.runs_early(game, "turn:2", waiting)
    # a standby's WAIT counts for nothing
    assert schedule.runs_early(game, "turn:1", [a_player("S1", role="standby", wait_scope="turn:1")])


def test_an_extension_moves_both_deadlines_and_must_be_positive() -> None:
    game = a_game(round_deadline=OPENED + timedelta(hours=2))
    longer = schedule.extended(game, 12)
    assert longer.deadline == OPENED + timedelta(hours=60)
    assert longer.round_deadline == OPENED + timedelta(hours=14)
    with pytest.raises(ValueError, match="positive"):
        schedule.extended(game, 0)


def test_waiting_for_an_absent_player_moves_the_deadline_past_the_absence() -> None:
    away = Absence(start=OPENED, end=OPENED + timedelta(days=5), declared_at=OPENED)
    players = [a_player("P1", absences=(away,)), a_player("P2")]
    plan = Schedule(deadline_time="18:00", timezone="Europe/Berlin", absence_policy="wait")
    game = a_game(schedule=plan)
    moved = schedule.waiting_for_absences(game, players)
    assert moved.deadline == deadline_after(plan, game.turn_hours, away.end)
    assert moved.deadline is not None and moved.deadline > away.end
    # the policy "play" leaves it, and so does an absence of a player the game does not await
    assert schedule.waiting_for_absences(game.model_copy(update={"schedule": Schedule()}), players) == (
        game.model_copy(update={"schedule": Schedule()})
    )
    assert schedule.waiting_for_absences(
        game.model_copy(update={"awaiting": ("turn:1#P2",)}), players
    ).deadline == (game.deadline)
