"""The turn service (functions/host/turns.py) against the real Store under moto: a two-player
WarpWar game, one side a robot seat and the other a player whose orders arrive as mail."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest

from benchmarks.mailed import submit_orders
from engine.core.picture import Picture
from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.report import Report
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.views import player_view
from functions.host import due, inbound, turns
from functions.mail.codes import hash_code
from functions.render import results as render_results
from functions.render.report import RenderedReport
from functions.resources import Settings
from functions.store import GameRecord, PlayerRecord, Store, split_awaited

START = datetime(2025, 3, 1, 12, tzinfo=UTC)
GAME = "g1"


class Recorder:
    """A mailer that keeps what it is given."""

    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []

    def send(self, message: EmailMessage) -> str:
        self.sent.append(message)
        return f"m{len(self.sent)}"


class Broken:
    """A mailer that fails, as SES does when it is down."""

    def send(self, message: EmailMessage) -> str:
        raise ConnectionError("SES unreachable")


def new_game(store: Store, robot_seat: bool = True, start: datetime = START, **record: object) -> None:
    config = GameConfig(
        game_id=GAME,
        scenario=Scenario.BASIC,
        visibility=Visibility.OPEN,
        players=(PlayerSpec(id="P1", name="One"), PlayerSpec(id="P2", name="Two")),
        turn_limit=8,
    )
    state_json = WarpWar().new_game(Setup(config=config), 7).state.model_dump_json()
    game = due.start(GameRecord(game_id=GAME, title="Test", status="open", **record), state_json, start)
    players = [
        PlayerRecord(game_id=GAME, player_id="P1", name="One", address="one@example.org", code_hash="x"),
        PlayerRecord(
            game_id=GAME,
            player_id="P2",
            name="Two",
            address="two@example.org",
            code_hash="x",
            robot="cadet" if robot_seat else None,
        ),
    ]
    store.create_game(game, players, state_json)


def mail_orders(store: Store, player: str, now: datetime) -> None:
    """``player`` answers what the game awaits of them, by mail (written as a cadet would)."""
    game, state_json = store.state(GAME)
    state = GameState.model_validate_json(state_json)
    view = player_view(state, player)
    for entry in game.awaiting:
        scope, awaited = split_awaited(entry)
        if awaited != player:
            continue
        text = robot.write_for(state, view, scope)
        stored = submit_orders(store, GAME, state_json, player, text, now)
        assert stored, f"{player} answers {scope}: with nothing to order, an empty order block"


def subjects(mails: list[EmailMessage]) -> list[str]:
    return [str(m["Subject"]) for m in mails]


@pytest.fixture(autouse=True)
def quick_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports rendered without drawing the map (tests/functions/test_results_mail.py draws it)."""

    def render(game: str, report: Report, picture: Picture, templates: Path) -> RenderedReport:
        return RenderedReport(text=report.sheet, html="<p></p>", png=b"", svg="", json="{}")

    monkeypatch.setattr(render_results, "render_report", render)


@pytest.fixture
def settings(store: Store) -> Settings:
    return store.settings


def test_turns_and_a_combat_by_mail_are_played_and_mailed(store: Store, settings: Settings) -> None:
    # Given a game against a robot, the player mailing orders every ten minutes
    new_game(store)
    mailer, now, combat_rounds, runs = Recorder(), START, 0, 0
    # When the workflow processes the game until the first combat is over
    for _ in range(12):
        mail_orders(store, "P1", now)
        summary = turns.process_game(GAME, now, store, mailer, settings)
        assert summary.result == "processed"
        runs += 1
        game = store.game(GAME)
        assert game is not None
        if any(scope.startswith("combat:") for scope in game.awaited_scopes()):
            combat_rounds += 1
        elif combat_rounds:
            break
        now += timedelta(minutes=10)
    # Then each step is a version, the combat went round by round, and the player got one mail a
    # run: the robot's player-turns played at once after theirs are in it (issue 14, item 5)
    game, state_json = store.state(GAME)
    assert combat_rounds >= 2
    assert len(mailer.sent) == runs + 1  # the opening (version 0) too
    assert game.version > runs
    assert all(m["To"] == "one@example.org" for m in mailer.sent)
    assert any("combat at" in s for s in subjects(mailer.sent))
    assert GameState.model_validate_json(state_json).stage is Stage.ORDERS
    assert game.deadline == now + timedelta(hours=24)
    assert store.state(GAME, 1)[0].turn == 1


def test_a_missed_deadline_waives_the_player_turn(store: Store, settings: Settings) -> None:
    # Given a game whose player sends nothing
    new_game(store)
    mailer = Recorder()
    # When the workflow runs before and after the deadline
    early = turns.process_game(GAME, START + timedelta(hours=1), store, mailer, settings)
    late = turns.process_game(GAME, START + timedelta(hours=25), store, mailer, settings)
    # Then only the opening is mailed before; after it the turn is waived and the robot plays
    assert (early.result, early.steps, early.mails) == ("not_due", 0, 1)
    assert (late.result, late.steps) == ("processed", 2)
    assert store.game(GAME) == store.state(GAME)[0].model_copy(update={})  # record and state agree
    assert store.state(GAME)[0].turn == 2


def test_without_early_processing_orders_wait_for_the_deadline(store: Store, settings: Settings) -> None:
    new_game(store, early=False)
    mail_orders(store, "P1", START)
    assert turns.process_game(GAME, START + timedelta(hours=1), store, Recorder(), settings).steps == 0
    assert turns.process_game(GAME, START + timedelta(hours=24), store, Recorder(), settings).steps == 1
    # the robot's player-turn has its own deadline too
    assert turns.process_game(GAME, START + timedelta(hours=25), store, Recorder(), settings).steps == 0
    assert turns.process_game(GAME, START + timedelta(hours=48), store, Recorder(), settings).steps == 1


def test_two_concurrent_runs_commit_once(store: Store, settings: Settings) -> None:
    # Given two runs that read the same version
    new_game(store)
    mail_orders(store, "P1", START)
    first, second = Recorder(), Recorder()
    commit = store.commit
    raced: list[bool] = []

    def the_other_run_commits_first(game: GameRecord, state_json: str, expected_version: int) -> bool:
        if not raced:
            raced.append(True)
            turns.process_game(GAME, START, store, first, settings)
        return commit(game, state_json, expected_version)

    store.commit = the_other_run_commits_first  # type: ignore[method-assign]
    # When both process the game
    summary = turns.process_game(GAME, START, store, second, settings)
    # Then the second finds the version taken and mails nothing of it; each mail went once
    assert summary.result == "lost_race"
    assert store.game(GAME).version == 2  # type: ignore[union-attr]
    assert subjects(second.sent) == ["[WarpWar g1] Turn 1: P1's player-turn"]  # the opening, claimed first
    # P1's player-turn and the robot's, played at once, are one mail
    assert subjects(first.sent) == ["[WarpWar g1] Turn 2: P1's player-turn"]


def test_a_crash_between_commit_and_send_then_a_retry_sends_each_mail_once(
    store: Store, settings: Settings
) -> None:
    # Given the opening mailed, then orders in and a mailer that fails after the commit
    new_game(store)
    delivered = Recorder()
    turns.process_game(GAME, START, store, delivered, settings)
    mail_orders(store, "P1", START)
    with pytest.raises(ConnectionError):
        turns.process_game(GAME, START, store, Broken(), settings)
    committed = store.state(GAME)
    # When the workflow retries with the same input
    summary = turns.process_game(GAME, START, store, delivered, settings)
    again = turns.process_game(GAME, START, store, delivered, settings)
    # Then the run committed before the crash (P1's player-turn and the robot's) is mailed once,
    # as one mail
    assert committed[0].version == 2
    assert summary.mails == 1 and summary.steps == 0
    assert again.mails == 0 and again.steps == 0
    assert subjects(delivered.sent) == [
        "[WarpWar g1] Turn 1: P1's player-turn",
        "[WarpWar g1] Turn 2: P1's player-turn",
    ]
    assert store.state(GAME, 2) == committed


def counting_orders(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports rendered as the count of the player's own orders' results, then the sheet."""

    def render(game: str, report: Report, picture: Picture, templates: Path) -> RenderedReport:
        text = f"results of {len(report.orders)} orders\n{report.sheet}"
        return RenderedReport(text=text, html="<p></p>", png=b"", svg="", json="{}")

    monkeypatch.setattr(render_results, "render_report", render)


def test_a_crash_between_two_steps_of_a_run_then_a_retry_mails_each_step_once(
    store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given orders in, and a run killed after committing P1's player-turn, before the robot's
    counting_orders(monkeypatch)
    new_game(store)
    delivered = Recorder()
    turns.process_game(GAME, START, store, delivered, settings)
    mail_orders(store, "P1", START)
    commit = store.commit

    def killed_at_the_second(game: GameRecord, state_json: str, expected_version: int) -> bool:
        if expected_version == 1:
            raise ConnectionError("killed")
        return commit(game, state_json, expected_version)

    store.commit = killed_at_the_second  # type: ignore[method-assign]
    with pytest.raises(ConnectionError):
        turns.process_game(GAME, START, store, Broken(), settings)
    store.commit = commit  # type: ignore[method-assign]
    # When the workflow retries with the same input, the robot's player-turn committed at the
    # same moment as P1's
    turns.process_game(GAME, START, store, delivered, settings)
    # Then P1's player-turn is mailed on its own first (the retry finds it unsent), and the
    # robot's mail does not carry it again
    first, second = delivered.sent[1:]
    assert subjects([first, second]) == [
        "[WarpWar g1] Your turn 1 played: orders for turn 2",
        "[WarpWar g1] Turn 2: P1's player-turn",
    ]
    assert store.state(GAME, 1)[0].committed_at == store.state(GAME, 2)[0].committed_at
    assert "results of 0 orders" not in plain_text(first)
    assert "results of 0 orders" in plain_text(second)


def test_a_player_turn_and_the_robots_played_at_once_are_one_mail_with_both(
    store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given P1's orders in, and a robot that plays at once after them
    counting_orders(monkeypatch)
    new_game(store)
    mailer = Recorder()
    turns.process_game(GAME, START, store, mailer, settings)
    mail_orders(store, "P1", START)
    # When the run plays both player-turns
    summary = turns.process_game(GAME, START, store, mailer, settings)
    # Then P1 gets one mail, with the results of their own orders and the sheet for turn 2
    assert (summary.steps, summary.mails) == (2, 1)
    folded = mailer.sent[-1]
    assert "results of 0 orders" not in plain_text(folded)
    assert "TURN 2" in plain_text(folded)
    assert str(folded["Subject"]) == "[WarpWar g1] Turn 2: P1's player-turn"


def test_standing_combat_mode_fights_every_round_at_once(store: Store, settings: Settings) -> None:
    # Given the game of the first test, its combats fought from standing orders
    new_game(store, combat_mode="standing")
    mailer, now = Recorder(), START
    # When it is played past turn 6 (the first test's combat at Umma)
    while store.state(GAME)[0].turn < 7:
        mail_orders(store, "P1", now)
        turns.process_game(GAME, now, store, mailer, settings)
        now += timedelta(minutes=10)
    # Then every player-turn is one step, whatever combats it held: no combat mail
    game = store.state(GAME)[0]
    assert game.version == 2 * (game.turn - 1)
    assert not any("combat at" in s for s in subjects(mailer.sent))


def test_cycle_mode_waits_for_every_player_then_plays_the_turns_in_order(
    store: Store, settings: Settings
) -> None:
    new_game(store, robot_seat=False, turn_mode="cycle")
    mailer = Recorder()
    mail_orders(store, "P1", START)
    assert turns.process_game(GAME, START, store, mailer, settings).steps == 0
    mail_orders(store, "P2", START)
    summary = turns.process_game(GAME, START, store, mailer, settings)
    game = store.game(GAME)
    assert summary.steps == 2
    assert game is not None and game.turn == 2
    assert game.awaiting == ("turn:2#P1", "turn:2#P2")


def test_the_results_of_a_players_own_turn_are_headed_with_the_turn_of_their_sheet(
    store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given two players by mail, reports rendered in full
    monkeypatch.undo()
    new_game(store, robot_seat=False)
    mailer = Recorder()
    turns.process_game(GAME, START, store, mailer, settings)
    # When P1's player-turn 1 is played, P2's still to come
    mail_orders(store, "P1", START)
    turns.process_game(GAME, START, store, mailer, settings)
    # Then P1's mail is headed with the turn of the sheet it holds, and says turn 1 was theirs
    mine, theirs = mailer.sent[-2:]
    assert str(mine["Subject"]) == "[WarpWar g1] Your turn 1 played: orders for turn 2"
    assert plain_text(mine).startswith("WARPWAR RESULTS - game g1, your turn 1 played: orders for turn 2")
    assert "WarpWar results: game g1, your turn 1 played: orders for turn 2</h1>" in html_of(mine)
    assert "TURN 2" in plain_text(mine)
    assert str(theirs["Subject"]) == "[WarpWar g1] Turn 1: P2's player-turn"
    assert plain_text(theirs).startswith("WARPWAR RESULTS - game g1, turn 1\n")


def test_the_answer_to_orders_sent_early_for_the_next_turn_names_that_turn(
    store: Store, settings: Settings
) -> None:
    # Given P1's player-turn 1 played, P2's to come
    new_game(store, robot_seat=False)
    code = "k3zz9q"
    store.update_player(next(p for p in store.players(GAME) if p.player_id == "P1").model_copy(
        update={"code_hash": hash_code(code)}
    ))  # fmt: skip
    mail_orders(store, "P1", START)
    turns.process_game(GAME, START, store, Recorder(), settings)
    # When P1 mails orders for their next player-turn already
    request = EmailMessage()
    request["From"] = "one@example.org"
    request["To"] = f"{GAME}@{settings.mail_domain}"
    request["Message-ID"] = "<early@example.org>"
    request.set_content(f"GAME {GAME}\nPLAYER P1\nCODE {code}\nEND\n")
    mailer = Recorder()
    trusted = settings.model_copy(update={"trust_intake": True})
    outcome = inbound.receive(bytes(request), "inbound/early", START, store, mailer, trusted)
    # Then the acknowledgement names turn 2, in its subject (the mail had none) and its title
    assert outcome.scopes == ("turn:2",)
    [ack] = mailer.sent
    assert "Orders for turn 2" in str(ack["Subject"])
    assert "Orders received: game g1, turn 2, player P1" in plain_text(ack)


def html_of(message: EmailMessage) -> str:
    part = message.get_body(("html",))
    assert isinstance(part, EmailMessage)
    return str(part.get_content())


def test_a_parked_game_is_left_alone(store: Store, settings: Settings) -> None:
    new_game(store)
    game = store.game(GAME)
    assert game is not None
    store.update_game(game.model_copy(update={"parked": "boom"}), expected_version=game.version)
    summary = turns.process_game(GAME, START + timedelta(days=2), store, Recorder(), settings)
    assert summary.result == "not_running"
    assert turns.process_game("nope", START, store, Recorder(), settings).result == "missing"


def test_a_games_own_periods_set_its_deadlines(store: Store, settings: Settings) -> None:
    # Given a fast game: an hour a player-turn, half an hour a combat round
    new_game(store, turn_hours=1, round_hours=0.5)
    game = store.game(GAME)
    assert game is not None and game.deadline == START + timedelta(hours=1)
    # When its player sends nothing for an hour
    summary = turns.process_game(GAME, START + timedelta(hours=1), store, Recorder(), settings)
    # Then the player-turn is waived, and the robot's own player-turn gets the same hour
    assert summary.steps == 2
    game = store.game(GAME)
    assert game is not None and game.deadline == START + timedelta(hours=2)


def test_each_players_latest_results_mail_is_kept_and_report_sends_it_again(
    store: Store, settings: Settings
) -> None:
    # Given a game played for a turn, its player mailed the results
    new_game(store)
    mailer = Recorder()
    mail_orders(store, "P1", START)
    turns.process_game(GAME, START, store, mailer, settings)
    game = store.game(GAME)
    assert game is not None
    kept = store.latest_results(GAME, "P1")
    assert kept is not None and kept[0].version == game.version
    assert store.latest_results(GAME, "P2") is None  # robots get no mail
    # When the player asks for a REPORT
    request = EmailMessage()
    request["From"] = "one@example.org"
    request["To"] = f"{GAME}@{settings.mail_domain}"
    request["Subject"] = "REPORT"
    request["Message-ID"] = "<report-please@example.org>"
    request.set_content("REPORT")
    later = START + timedelta(hours=1)
    trusted = settings.model_copy(update={"trust_intake": True})  # as the local intake hands it
    outcome = inbound.receive(bytes(request), "inbound/report", later, store, mailer, trusted)
    # Then the latest results mail comes again, as it was, with a new Message-ID and Date
    again, last = mailer.sent[-1], mailer.sent[-2]
    assert outcome.reason == f"REPORT: the results of version {game.version} sent again"
    assert again["Subject"] == last["Subject"] and again["To"] == "one@example.org"
    assert again["Message-ID"] != last["Message-ID"]
    assert again["Date"] == format_datetime(later)
    assert plain_text(again) == plain_text(last)
    assert [p.get_filename() for p in again.iter_attachments()] == [
        p.get_filename() for p in last.iter_attachments()
    ]


def plain_text(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert isinstance(part, EmailMessage)
    return str(part.get_content()).replace("\r\n", "\n")
