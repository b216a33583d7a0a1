"""Missed turns, the GM's alert and the seat's fate, absences, WAIT, pause and resume
(functions/host/turns.py) against the real Store under moto: player P1 by mail, P2 a robot."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

from functions.host import due, turns
from functions.store import Absence, GameRecord, PlayerRecord, Schedule, Store
from tests.functions.test_turns import (  # noqa: F401 (quick_rendering: an autouse fixture)
    GAME,
    START,
    Recorder,
    mail_orders,
    new_game,
    plain_text,
    quick_rendering,
)

GM = "gm@example.org"


def current(store: Store) -> GameRecord:
    game = store.game(GAME)
    assert game is not None
    return game


def player(store: Store, player_id: str) -> PlayerRecord:
    return next(p for p in store.players(GAME) if p.player_id == player_id)


def run_to_deadline(store: Store, mailer: Recorder) -> turns.TurnSummary:
    """The workflow at the game's deadline."""
    game = current(store)
    assert game.deadline is not None
    return turns.process_game(GAME, game.deadline, store, mailer, store.settings)


def alerts(mails: list[EmailMessage]) -> list[EmailMessage]:
    return [m for m in mails if m["To"] == GM]


def test_missed_turns_are_counted_in_a_row_and_orders_reset_them(store: Store) -> None:
    new_game(store, schedule=Schedule(missed_limit=5))
    mailer = Recorder()
    counts = []
    for _ in range(3):
        assert run_to_deadline(store, mailer).steps == 2  # P1 waived, the robot plays
        counts.append(current(store).missed.get("P1"))
    deadline = current(store).deadline
    assert deadline is not None
    mail_orders(store, "P1", deadline - timedelta(hours=1))
    turns.process_game(GAME, deadline - timedelta(hours=1), store, mailer, store.settings)
    assert counts == [1, 2, 3]
    assert current(store).missed == {}  # the robot never misses; P1's orders cleared the count


def test_the_gm_is_alerted_once_at_the_limit(store: Store) -> None:
    new_game(store, gm_address=GM, schedule=Schedule(missed_limit=2))
    mailer = Recorder()
    summaries = [run_to_deadline(store, mailer) for _ in range(3)]
    # a retried run at the same time alerts nobody again
    game = current(store)
    turns.process_game(GAME, game.committed_at or START, store, mailer, store.settings)
    assert [s.alerts for s in summaries] == [0, 1, 0]
    (alert,) = alerts(mailer.sent)
    text = " ".join(plain_text(alert).split())
    assert "One (P1) missed 2 turns in a row in game g1" in str(alert["Subject"])
    assert "one@example.org" in text and "the game's limit is 2" in text
    assert "warpmail player replace g1 P1 <standby-address>" in plain_text(alert)
    assert "warpmail player robot g1 P1" in plain_text(alert)
    assert player(store, "P1").robot is None  # "alert" changes nothing
    assert current(store).missed == {"P1": 3}


def test_at_the_limit_a_robot_takes_the_seat(store: Store) -> None:
    new_game(store, schedule=Schedule(missed_limit=1, missed_action="robot"))
    mailer = Recorder()
    # (a few steps: two robots would play the game to its end)
    turns.process_game(GAME, START + timedelta(hours=24), store, mailer, store.settings, max_steps=4)
    assert player(store, "P1").robot == "cadet"
    (alert,) = alerts_to(mailer.sent, store.settings.sender)
    assert "a robot (cadet) now plays the seat" in " ".join(plain_text(alert).split())
    # the robot played P1's next player-turns in the same run, none of them missed
    game = current(store)
    assert game.turn > 2
    assert "P1" not in game.missed


def alerts_to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mails if address in str(m["To"]) and "in a row" in str(m["Subject"])]


def test_at_the_limit_the_first_standby_takes_the_seat(store: Store) -> None:
    new_game(store, gm_address=GM, schedule=Schedule(missed_limit=1, missed_action="standby"))
    spare = PlayerRecord(
        game_id=GAME, player_id="S1", name="Spare", address="spare@example.org", code_hash="x", role="standby"
    )
    store.add_player(spare)
    mailer = Recorder()
    run_to_deadline(store, mailer)
    seat = player(store, "P1")
    assert (seat.name, seat.address, seat.robot) == ("Spare", "spare@example.org", None)
    assert player(store, "S1").role == "removed"
    assert "P1" not in current(store).missed
    (alert,) = alerts(mailer.sent)
    assert "the standby Spare (spare@example.org) now holds the seat" in " ".join(plain_text(alert).split())
    assert any(m["To"] == "spare@example.org" and "Welcome" in str(m["Subject"]) for m in mailer.sent)
    # The player leaving is told once, by the missed-turn rule, not also as if the GM had done it
    to_leaver = [str(m["Subject"]) for m in mailer.sent if m["To"] == "one@example.org"]
    assert to_leaver and not any("You have left" in subject for subject in to_leaver), to_leaver


def test_an_absent_players_turn_is_waived_without_counting(store: Store) -> None:
    new_game(store, schedule=Schedule(absence_policy="play"))
    away = Absence(start=START, end=START + timedelta(days=3), declared_at=START)
    store.update_player(player(store, "P1").model_copy(update={"absences": (away,)}))
    summary = run_to_deadline(store, Recorder())
    assert summary.steps == 2
    assert current(store).missed == {}


def test_waiting_for_an_absent_player_moves_the_next_deadline_past_the_absence(store: Store) -> None:
    new_game(store, schedule=Schedule(absence_policy="wait"))
    away = Absence(start=START + timedelta(days=1), end=START + timedelta(days=4), declared_at=START)
    store.update_player(player(store, "P1").model_copy(update={"absences": (away,)}))
    # P1 plays now; the robot at once; P1's next player-turn would end in the absence
    mail_orders(store, "P1", START)
    turns.process_game(GAME, START, store, Recorder(), store.settings)
    assert current(store).deadline == away.end + timedelta(hours=24)


def test_wait_keeps_the_turn_for_its_deadline(store: Store) -> None:
    new_game(store)
    store.update_player(player(store, "P1").model_copy(update={"wait_scope": "turn:1"}))
    mail_orders(store, "P1", START)
    an_hour = START + timedelta(hours=1)
    assert GAME not in [g.game_id for g in store.due_games(an_hour)]
    assert turns.process_game(GAME, an_hour, store, Recorder(), store.settings).steps == 0
    deadline = START + timedelta(hours=24)
    assert [g.game_id for g in store.due_games(deadline)] == [GAME]
    assert turns.process_game(GAME, deadline, store, Recorder(), store.settings).steps == 2
    assert current(store).missed == {}  # the orders were in: nothing missed


def test_a_paused_game_is_not_processed_and_resuming_moves_its_deadline(store: Store) -> None:
    new_game(store)
    game = current(store)
    paused_at = START + timedelta(hours=10)
    pause = {"status": "paused", "paused_at": paused_at, "committed_at": paused_at}
    store.update_game(game.model_copy(update=pause), expected_version=game.version)
    later = START + timedelta(days=3)
    assert store.due_games(later) == []
    assert turns.process_game(GAME, later, store, Recorder(), store.settings).result == "not_running"
    paused = current(store)
    resumed = due.resumed(paused, later)
    assert resumed.status == "running" and resumed.paused_at is None
    assert resumed.deadline == START + timedelta(hours=24) + (later - paused_at)


# --- The player told (issue 14, item 7) ---


def to_player(mails: list[EmailMessage]) -> list[EmailMessage]:
    return [m for m in mails if m["To"] == "one@example.org"]


def flat(message: EmailMessage) -> str:
    return " ".join(plain_text(message).split())


def test_a_missed_turn_is_said_on_top_of_the_players_next_results_once(store: Store) -> None:
    new_game(store, gm_address=GM, schedule=Schedule(missed_limit=3))
    mailer = Recorder()
    run_to_deadline(store, mailer)
    # a retried run at the same time mails nothing again
    turns.process_game(GAME, current(store).committed_at or START, store, mailer, store.settings)
    run_to_deadline(store, mailer)
    first, second = to_player(mailer.sent)[1:]  # after the opening
    assert plain_text(first).startswith("YOU MISSED A TURN\n")
    assert (
        "You sent no orders for turn 1 by its deadline, so your turn was waived: no orders "
        "were used (your ships held, nothing was built, income still came; in combat your ships "
        "fight on their STANDING orders). That is 1 turn missed in a row. At 3 in a row the GM is "
        "told."
    ) in flat(first)
    assert "TURN 2" in plain_text(first)  # the sheet below it
    assert "turn 2 by its deadline" in flat(second) and "That is 2 turns missed in a row" in flat(second)
    assert len(to_player(mailer.sent)) == 3


def test_results_after_orders_or_an_absence_say_nothing_of_missed_turns(store: Store) -> None:
    new_game(store, schedule=Schedule(absence_policy="play"))
    mailer = Recorder()
    mail_orders(store, "P1", START)
    turns.process_game(GAME, START, store, mailer, store.settings)
    deadline = current(store).deadline
    assert deadline is not None
    away = Absence(start=deadline - timedelta(hours=1), end=deadline + timedelta(days=1), declared_at=START)
    store.update_player(player(store, "P1").model_copy(update={"absences": (away,)}))
    run_to_deadline(store, mailer)
    assert len(to_player(mailer.sent)) == 3
    assert not any("MISSED" in plain_text(m) for m in mailer.sent)


def test_at_the_limit_the_gm_alert_is_said_and_with_a_robot_rule_what_comes(store: Store) -> None:
    new_game(store, gm_address=GM, schedule=Schedule(missed_limit=2))
    mailer = Recorder()
    run_to_deadline(store, mailer)
    run_to_deadline(store, mailer)
    assert "That is 2 turns missed in a row. The GM has been told." in flat(to_player(mailer.sent)[-1])
    # and a game whose rule gives the seat to a robot says so before it does
    other = Recorder()
    store.update_game(
        current(store).model_copy(update={"schedule": Schedule(missed_limit=5, missed_action="robot")}),
        expected_version=current(store).version,
    )
    run_to_deadline(store, other)
    assert "After 5 in a row your seat goes to a computer player." in flat(to_player(other.sent)[-1])


def test_a_player_whose_seat_goes_to_a_robot_is_told_once_by_a_mail_of_its_own(store: Store) -> None:
    new_game(store, schedule=Schedule(missed_limit=1, missed_action="robot"))
    mailer = Recorder()
    deadline = START + timedelta(hours=24)
    turns.process_game(GAME, deadline, store, mailer, store.settings, max_steps=4)
    turns.process_game(GAME, deadline, store, mailer, store.settings, max_steps=4)
    [told] = [m for m in to_player(mailer.sent) if "in a row" in str(m["Subject"])]
    assert str(told["Subject"]) == "[WarpWar g1] You missed 1 turn in a row in game g1"
    assert "a computer player now plays your seat, and you get no more results" in flat(told)
    assert len(to_player(mailer.sent)) == 2  # the opening, and this: no results to a robot's seat
