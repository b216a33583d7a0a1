"""Reminders (functions/host/turns.py ``send_reminders``) against the real Store under moto: only
to the players whose orders are not in, once per reminder time, at the right instants across a
daylight-saving change, with the deadline in each player's zone and as a calendar file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from functions.host import turns
from functions.store import Absence, NewSubmission, PlayerRecord, Schedule, Store
from tests.functions.test_turns import (  # noqa: F401 (quick_rendering: an autouse fixture)
    GAME,
    START,
    Recorder,
    mail_orders,
    new_game,
    plain_text,
    quick_rendering,
)

# Saturday 29 March 2025, noon UTC: Europe's clocks spring forward the next night.
BEFORE_DST = datetime(2025, 3, 29, 12, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


def reminders(mails: list[EmailMessage]) -> list[EmailMessage]:
    return [m for m in mails if str(m["Subject"]).startswith(f"[WarpWar {GAME}] Reminder")]


def set_zone(store: Store, player_id: str, zone: str) -> None:
    player = next(p for p in store.players(GAME) if p.player_id == player_id)
    store.update_player(player.model_copy(update={"timezone": zone}))


def due(store: Store, now: datetime) -> bool:
    return GAME in [g.game_id for g in store.due_games(now)]


def test_only_players_without_orders_are_reminded_and_each_reminder_comes_once(store: Store) -> None:
    # Given a game of two players who play each game-turn together, 48 hours a turn
    new_game(store, robot_seat=False, turn_mode="cycle", turn_hours=48, schedule=Schedule(reminders=(24, 2)))
    mailer = Recorder()
    turns.process_game(GAME, START, store, mailer, store.settings)  # the opening
    # When P1 sends orders and the workflow runs at each reminder time, twice
    mail_orders(store, "P1", START + timedelta(hours=1))
    assert not due(store, START + timedelta(hours=24) - MINUTE)
    assert due(store, START + timedelta(hours=24))
    first = turns.process_game(GAME, START + timedelta(hours=24), store, mailer, store.settings)
    again = turns.process_game(GAME, START + timedelta(hours=24), store, mailer, store.settings)
    assert not due(store, START + timedelta(hours=46) - MINUTE)
    last = turns.process_game(GAME, START + timedelta(hours=46), store, mailer, store.settings)
    # Then only P2 is reminded, once at each time, with the deadline and a calendar file
    assert (first.reminders, again.reminders, last.reminders) == (1, 0, 1)
    sent = reminders(mailer.sent)
    assert [m["To"] for m in sent] == ["two@example.org", "two@example.org"]
    assert "turn 1 are due Mon 3 Mar 2025, 12:00 UTC" in str(sent[0]["Subject"])
    assert "waiting for your orders for turn 1" in " ".join(plain_text(sent[0]).split())
    assert [p.get_content_type() for p in sent[0].iter_attachments()] == ["text/calendar"]
    logged = [e for e in store.mail_log(GAME) if e.reason.startswith("reminder")]
    assert len(logged) == 2
    # and with the reminders done, the game is next due at its deadline
    assert not due(store, START + timedelta(hours=48) - MINUTE)
    assert due(store, START + timedelta(hours=48))


def test_reminders_come_at_their_hours_before_the_deadline_across_a_clock_change(store: Store) -> None:
    # Given a deadline at 18:00 Berlin time, a day after the period opens: Sunday 30 March,
    # after the clocks went forward (16:00 UTC)
    plan = Schedule(deadline_time="18:00", timezone="Europe/Berlin", min_hours=24, reminders=(24, 2))
    new_game(store, start=BEFORE_DST, schedule=plan)
    game = store.game(GAME)
    assert game is not None and game.deadline == datetime(2025, 3, 30, 16, tzinfo=UTC)
    set_zone(store, "P1", "America/New_York")
    mailer = Recorder()
    # When the workflow runs just before and at each reminder time
    times = [
        datetime(2025, 3, 29, 16, tzinfo=UTC) - MINUTE,  # 24 hours before, less a minute
        datetime(2025, 3, 29, 16, tzinfo=UTC),  # 24 real hours before: 17:00 winter time in Berlin
        datetime(2025, 3, 30, 14, tzinfo=UTC) - MINUTE,
        datetime(2025, 3, 30, 14, tzinfo=UTC),  # 2 hours before
    ]
    counts = [turns.process_game(GAME, at, store, mailer, store.settings).reminders for at in times]
    # Then a reminder comes exactly at each, with the deadline in the player's own zone
    assert counts == [0, 1, 0, 1]
    sent = reminders(mailer.sent)
    assert all("Sun 30 Mar 2025, 12:00 EDT" in str(m["Subject"]) for m in sent)


def test_a_grace_period_brings_a_last_reminder_at_the_deadline_and_none_once_the_turn_is_played(
    store: Store,
) -> None:
    new_game(store, schedule=Schedule(reminders=(2,), grace_hours=12))
    mailer = Recorder()
    deadline = START + timedelta(hours=24)
    assert turns.process_game(GAME, deadline, store, mailer, store.settings).reminders == 1
    late = reminders(mailer.sent)[-1]
    text = " ".join(plain_text(late).split())
    assert "has passed: the game waits for your orders until Mon 3 Mar 2025, 00:00 UTC" in text
    # the grace period is over: the turn is waived, nobody is reminded of it
    summary = turns.process_game(GAME, deadline + timedelta(hours=12), store, mailer, store.settings)
    assert (summary.steps, summary.reminders) == (2, 0)


def test_absent_players_and_standbys_are_not_reminded(store: Store) -> None:
    new_game(store, robot_seat=False, turn_mode="cycle", schedule=Schedule(reminders=(2,)))
    away = Absence(start=START, end=START + timedelta(days=3), declared_at=START)
    two = next(p for p in store.players(GAME) if p.player_id == "P2")
    store.update_player(two.model_copy(update={"absences": (away,)}))
    standby = PlayerRecord(
        game_id=GAME, player_id="S1", name="Spare", address="spare@example.org", code_hash="x", role="standby"
    )
    store.add_player(standby)
    mailer = Recorder()
    summary = turns.process_game(GAME, START + timedelta(hours=22), store, mailer, store.settings)
    assert summary.reminders == 1
    assert [m["To"] for m in reminders(mailer.sent)] == ["one@example.org"]


def test_a_player_whose_orders_are_only_kept_is_reminded_to_confirm_them(store: Store) -> None:
    # Given a game of two who play each game-turn together, and P2's orders kept from a mail with
    # a refused line (stored, not counted as in: issue 14, item 1), P1's in
    new_game(store, robot_seat=False, turn_mode="cycle", turn_hours=48, schedule=Schedule(reminders=(24,)))
    mailer = Recorder()
    turns.process_game(GAME, START, store, mailer, store.settings)  # the opening
    mail_orders(store, "P1", START + timedelta(hours=1))
    mail_orders(store, "P2", START + timedelta(hours=1))
    kept = store.latest_submissions(GAME, "turn:1")[("P2", "turn:1")]
    again = kept.model_dump(exclude={"version"}) | {"message_id": "<kept@example.org>", "ready": False}
    store.add_submission(NewSubmission.model_validate(again))
    # When the reminder time comes
    turns.process_game(GAME, START + timedelta(hours=24), store, mailer, store.settings)
    # Then P2 alone is reminded, told their orders are kept and how to count them in
    sent = reminders(mailer.sent)
    assert [m["To"] for m in sent] == ["two@example.org"]
    words = " ".join(plain_text(sent[0]).split())
    assert "has kept your orders for turn 1, but they are not counted as in" in words
    assert "a line DONE" in words
