"""Orders in, or only kept (issue 14, item 1), through the inbound mail service and the turn
service on the moto store: a mail with a refused line is stored but does not let the turn (or
combat round) run early; DONE does; the deadline uses the kept orders either way."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from engine.warpwar import robot
from engine.warpwar.state import GameState
from engine.warpwar.views import player_view
from functions.host import due, turns
from functions.host.inbound import receive
from functions.host.received import InboundOutcome
from functions.mail.codes import hash_code
from functions.resources import PK, SK
from functions.store import GameRecord, NewSubmission, PlayerRecord, Store, keys
from functions.store.attributes import to_item
from tests.engine.test_mailgame import battle
from tests.functions.conftest import Aws
from tests.functions.test_inbound import SETTINGS, ListMailer, raw_mail, text_of
from tests.functions.test_turns import GAME, START, Recorder, new_game
from tests.functions.test_turns import quick_rendering as quick_rendering  # autouse: no map drawn

CODE = "K7QM-9XDA-2P"
ONE = "one@example.org"
BAD = "MOVE W99 0101"
"""P1 has no W99: a refused line."""
SOON = START + timedelta(minutes=1)
ROUND_DEADLINE = START + timedelta(hours=2)


def with_code(store: Store, game_id: str = GAME) -> None:
    """P1 given a secret code to write orders with."""
    one = next(p for p in store.players(game_id) if p.player_id == "P1")
    store.update_player(one.model_copy(update={"code_hash": hash_code(CODE)}))


def send(store: Store, body: str, mailer: ListMailer | None = None, game_id: str = GAME) -> InboundOutcome:
    raw = raw_mail(body, sender=ONE, to=f"{game_id}@{SETTINGS.mail_domain}")
    key = f"inbound/{hashlib.sha256(raw).hexdigest()[:16]}"
    return receive(raw, key, SOON, store, mailer or ListMailer(), SETTINGS)


def turn_mail(store: Store, *extra: str) -> str:
    """P1's orders for turn 1 as the cadet writes them (two BUILDs), with ``extra`` lines added."""
    state = GameState.model_validate_json(store.state(GAME)[1])
    text = robot.write_turn(player_view(state, "P1"), robot.stream_for(state, "P1"))
    return text.replace("TURN 1\n", f"TURN 1\nCODE {CODE}\n").replace("END\n", "\n".join((*extra, "END\n")))


def done(game_id: str = GAME) -> str:
    return f"GAME {game_id}\nPLAYER P1\nCODE {CODE}\nDONE\nEND\n"


def p1_ships(store: Store) -> int:
    state = GameState.model_validate_json(store.state(GAME)[1])
    return sum(1 for ship in state.ships.values() if ship.owner == "P1")


def game_of(store: Store, game_id: str = GAME) -> GameRecord:
    game = store.game(game_id)
    assert game is not None
    return game


def test_a_mail_with_a_refused_line_does_not_run_the_turn_early_and_done_does(store: Store) -> None:
    # Given a game against a robot, and P1's orders mailed with one bad line
    new_game(store)
    with_code(store)
    mailer = ListMailer()
    outcome = send(store, turn_mail(store, BAD), mailer)
    ack = text_of(mailer.sent[0])
    # Then they are kept, the acknowledgement says they are not counted as in, and the game is
    # not due before its deadline
    assert outcome.status == "accepted"
    assert "Kept, but not counted as in until you fix the line with problems" in ack
    assert [s.ready for s in store.latest_submissions(GAME, "turn:1").values()] == [False]
    assert GAME not in list(store.due_game_ids(SOON))
    assert turns.process_game(GAME, SOON, store, Recorder(), store.settings).steps == 0
    # When P1 sends DONE alone
    mailer = ListMailer()
    send(store, done(), mailer)
    # Then the kept orders count as in, the game is due at once, and the turn is played with them
    assert "Your orders are in." in text_of(mailer.sent[0])
    assert GAME in list(store.due_game_ids(SOON))
    before = p1_ships(store)
    assert turns.process_game(GAME, SOON, store, Recorder(), store.settings).steps >= 1
    assert p1_ships(store) == before + 2


def test_at_the_deadline_the_kept_orders_are_played_ready_or_not(store: Store) -> None:
    new_game(store)
    with_code(store)
    send(store, turn_mail(store, BAD))
    before = p1_ships(store)
    assert turns.process_game(GAME, START + timedelta(hours=23), store, Recorder(), store.settings).steps == 0
    deadline = game_of(store).deadline
    assert deadline is not None
    assert turns.process_game(GAME, deadline, store, Recorder(), store.settings).steps >= 1
    assert p1_ships(store) == before + 2
    assert game_of(store).missed == {}  # orders were in at the deadline: not a missed turn


def test_a_clean_mail_runs_the_turn_early(store: Store) -> None:
    new_game(store)
    with_code(store)
    mailer = ListMailer()
    send(store, turn_mail(store), mailer)
    assert "Your orders are in." in text_of(mailer.sent[0])
    assert turns.process_game(GAME, SOON, store, Recorder(), store.settings).steps >= 1


def test_a_sign_off_without_end_is_a_warning_and_the_turn_runs_early(store: Store) -> None:
    new_game(store)
    with_code(store)
    mailer = ListMailer()
    body = turn_mail(store).replace("END\n", "\nThanks,\nAnn\n\nSent from my iPhone\n")
    send(store, body, mailer)
    ack = text_of(mailer.sent[0])
    assert "PROBLEMS" not in ack
    assert "this and what follows is not orders (a sign-off" in ack
    assert turns.process_game(GAME, SOON, store, Recorder(), store.settings).steps >= 1


def combat_game(store: Store) -> None:
    """Game "test": P1's W3 and P2's W9 fight at Delta (0505), round 2, by mail; P2 a robot."""
    state_json = battle().model_dump_json()
    record = GameRecord(game_id="test", title="Test", status="open")
    game = due.start(record, state_json, START).model_copy(
        update={"round_deadline": START + timedelta(hours=2)}
    )
    players = [
        PlayerRecord(game_id="test", player_id="P1", name="One", address=ONE, code_hash=hash_code(CODE)),
        PlayerRecord(
            game_id="test", player_id="P2", name="Two", address="two@x.org", code_hash="x", robot="cadet"
        ),
    ]
    store.create_game(game, players, state_json)


def round_mail(*ships: str) -> str:
    lines = "\n".join(ships)
    return f"GAME test\nPLAYER P1\nCODE {CODE}\nCOMBAT Delta ROUND 2\n{lines}\nEND\n"


def test_a_combat_round_with_a_refused_line_waits_for_done_or_the_round_deadline(store: Store) -> None:
    # Given a combat by mail, and P1's round orders with a line for a ship P1 does not have
    combat_game(store)
    send(store, round_mail("W3 DODGE: D=1", "W7 DODGE: D=1"), game_id="test")
    # Then the round is not fought early
    assert turns.process_game("test", SOON, store, Recorder(), store.settings).steps == 0
    # When P1 sends DONE, it is
    send(store, done("test"), game_id="test")
    assert turns.process_game("test", SOON, store, Recorder(), store.settings).steps >= 1


def test_a_combat_round_with_kept_orders_is_fought_at_its_deadline(store: Store) -> None:
    combat_game(store)
    send(store, round_mail("W3 DODGE: D=1", "W7 DODGE: D=1"), game_id="test")
    late = START + timedelta(hours=2)
    assert (
        turns.process_game("test", late - timedelta(minutes=1), store, Recorder(), store.settings).steps == 0
    )
    assert turns.process_game("test", late, store, Recorder(), store.settings).steps >= 1


def test_a_submission_stored_before_the_flag_reads_as_ready(aws: Aws, store: Store) -> None:
    # Given a submission item written without "ready", as every one was before it existed
    new_game(store)
    old = NewSubmission(
        game_id=GAME, player_id="P1", scope="turn:1", received_at=START, message_id="<old@x>", body="",
        orders_json='{"player": "P1", "orders": []}',
    )  # fmt: skip
    item = {
        PK: keys.game_pk(GAME),
        SK: keys.submission_sk("turn:1", "P1", 1),
        "kind": "submission",
        "version": 1,
        **old.model_dump(mode="json", exclude={"ready"}),
    }
    aws.dynamodb.put_item(TableName=store.settings.table, Item=to_item(item))
    # Then it reads as ready, and it lets the turn run early as before
    assert [s.ready for s in store.latest_submissions(GAME, "turn:1").values()] == [True]
    assert turns.process_game(GAME, SOON, store, Recorder(), store.settings).steps >= 1


def test_status_says_kept_orders_are_not_in_and_the_game_waits_for_them(store: Store) -> None:
    new_game(store)
    with_code(store)
    send(store, turn_mail(store, BAD))
    mailer = ListMailer()
    send(store, "STATUS", mailer)
    status = text_of(mailer.sent[0])
    kept = "Kept, but not counted as in: fix the lines with problems or send DONE."
    assert f"turn 1 (mail 1):\n  {kept}" in status
    assert "THE GAME WAITS FOR\n  turn 1: One" in status
    send(store, done())
    mailer = ListMailer()
    send(store, "STATUS", mailer)
    status = text_of(mailer.sent[0])
    assert "turn 1 (mail 2, in):" in status
    assert "Kept" not in status
    assert "THE GAME WAITS FOR" not in status
