"""A whole game by mail through the local pipeline (issue 4, "Tests"): order mails as ``.eml``
files dropped into the inbox -> the mail bucket (S3) -> the inbound function -> the store; the
schedule's ticks -> the turn workflow (Step Functions) -> the outbox.

The demo game (functions/local/demo.py: Red a player whose mails are examples/demo/, Blue the
cadet robot, classic map, seed 4), cut to seven game-turns: a combat starts at Mari (1415) in
turn 7. The game is played once for the module (about 25 s); each test reads what it left: the
mails in the outbox, the mail log, the stored submissions and every stored state version.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from engine.core.mailgame import combat_parts
from engine.warpwar.state import GameState, Stage
from functions.local.demo import GAME_ID, RED, create_game, file_name, red_mail, red_mail_text
from functions.local.host import LocalHost
from functions.mail.compose import KIND_HEADER
from functions.store import GameRecord, Store, split_awaited

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "demo"
SEED = 4
TURN_LIMIT = 7
MAX_TICKS = 40
START = datetime(2025, 3, 3, 18, 0, tzinfo=UTC)


@dataclass(frozen=True)
class Delivery:
    """One order mail Red sent: the file it came from, what it answered, where it was stored."""

    name: str
    scope: str
    message_id: str
    key: str
    from_examples: bool
    version_before: int
    version_after: int


@dataclass(frozen=True)
class Tick:
    number: int
    status: str
    version_before: int
    version_after: int
    turn: int


@dataclass
class Played:
    host: LocalHost
    store: Store
    first_version: int
    ticks: list[Tick] = field(default_factory=list)
    deliveries: list[Delivery] = field(default_factory=list)
    outbox: list[EmailMessage] = field(default_factory=list)

    @property
    def final(self) -> GameRecord:
        game = self.store.game(GAME_ID)
        assert game is not None
        return game

    def mails(self, kind: str | None = None) -> list[EmailMessage]:
        """The mails in the outbox (read once, when the game is over), in the order sent."""
        if not self.outbox:
            self.outbox = [read(entry.path) for entry in self.host.outbox()]
        return [mail for mail in self.outbox if kind is None or mail[KIND_HEADER] == kind]


def read(path: Path) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert isinstance(message, EmailMessage)
    return message


def message_id(raw: bytes) -> str:
    return str(BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)["Message-ID"]).strip()


def red_owes(game: GameRecord, sent: set[tuple[int, str]]) -> list[str]:
    """The scopes Red owes at this version and has not sent yet."""
    return [
        scope
        for scope, player in map(split_awaited, game.awaiting)
        if player == RED.player_id and (game.version, scope) not in sent
    ]


def send_red_mail(played: Played, game: GameRecord, state_json: str, scope: str) -> None:
    """Red's mail for ``scope``: the example file when there is one, else written by the robot;
    dropped into the inbox and delivered from there, as a mail client's would be."""
    name = file_name(scope)
    example = EXAMPLES / name
    if example.exists():
        raw = example.read_bytes()
    else:
        text = red_mail_text(state_json, scope)
        raw = red_mail(text, played.host.resources.mail_domain, scope)
    (played.host.inbox / name).write_bytes(raw)
    [key] = played.host.scan_inbox()
    after = played.final.version
    played.deliveries.append(
        Delivery(name, scope, message_id(raw), key, example.exists(), game.version, after)
    )


def play(played: Played) -> None:
    """Tick and answer until the game is over (the clock jumps to a deadline when nothing is due)."""
    clock = START
    sent: set[tuple[int, str]] = set()
    game = played.final
    while game.status == "running" and len(played.ticks) < MAX_TICKS:
        before = game.version
        execution = played.host.tick(now=clock)
        game, state_json = played.store.state(GAME_ID)
        played.ticks.append(Tick(len(played.ticks) + 1, execution.status, before, game.version, game.turn))
        assert execution.status == "SUCCEEDED", execution
        assert game.parked is None, game.parked
        owed = red_owes(game, sent)
        if not owed and game.version == before:
            deadline = game.round_deadline or game.deadline
            assert deadline is not None and deadline > clock, "stuck: nothing due, no deadline ahead"
            clock = deadline
            continue
        sent |= {(game.version, scope) for scope in owed}
        for scope in owed:
            send_red_mail(played, game, state_json, scope)
        clock += timedelta(minutes=1)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    with LocalHost(tmp_path_factory.mktemp("e2e")) as host:
        store = Store(host.resources.settings(), dynamodb=host.client("dynamodb"), s3=host.client("s3"))
        create_game(store, SEED, TURN_LIMIT, START)
        created = store.game(GAME_ID)
        assert created is not None
        game = Played(host, store, created.version)
        play(game)
        yield game


# --- The game ---


def test_the_game_is_played_to_its_end_by_mail(played: Played) -> None:
    final = played.final
    assert final.status == "over"
    assert final.turn == TURN_LIMIT
    assert played.deliveries, "Red sent order mails"
    assert all(delivery.from_examples for delivery in played.deliveries if delivery.scope.startswith("turn:"))


def test_every_order_mail_is_acknowledged_in_its_thread_at_the_registered_address(played: Played) -> None:
    acks = played.mails("ack")
    by_reply = {str(ack["In-Reply-To"]).strip(): ack for ack in acks}
    assert len(acks) == len(played.deliveries)
    for delivery in played.deliveries:
        ack = by_reply[delivery.message_id]
        assert ack["To"] == RED.address
        assert ack["Reply-To"].addresses[0].addr_spec == f"{GAME_ID}@{played.host.resources.mail_domain}"
        body = ack.get_body(("plain",))
        assert isinstance(body, EmailMessage)
        text = body.get_content()
        assert "not understood" not in text and "REFUSED" not in text, (delivery.name, text)


def test_every_order_mail_is_stored_as_a_submission_and_logged(played: Played) -> None:
    log = played.store.mail_log(GAME_ID)
    logged_in = {entry.key for entry in log if entry.direction == "in"}
    for delivery in played.deliveries:
        [submission] = played.store.submissions(GAME_ID, delivery.scope, RED.player_id)
        assert submission.message_id == delivery.message_id
        assert delivery.key in logged_in
    assert not [entry for entry in log if entry.direction == "rejected"]


def test_an_order_mail_does_not_change_the_game_version(played: Played) -> None:
    assert all(d.version_after == d.version_before for d in played.deliveries)


def test_every_raw_mail_is_kept_in_the_mail_bucket(played: Played) -> None:
    resources = played.host.resources
    listing = played.host.client("s3").list_objects_v2(
        Bucket=resources.mail_bucket, Prefix=resources.inbound_prefix
    )
    keys = {item["Key"] for item in listing.get("Contents", [])}
    assert keys == {delivery.key for delivery in played.deliveries}


# --- Results, combat and game over mails ---


def test_red_gets_results_for_every_player_turn(played: Played) -> None:
    results = played.mails("results")
    subjects = [str(mail["Subject"]) for mail in results]
    for turn in range(1, TURN_LIMIT + 1):
        assert any(f"Turn {turn}: Red's player-turn" in s for s in subjects), (turn, subjects)
    # Blue, a robot, plays at once after Red: Red's player-turn and Blue's are one mail, headed
    # with the turn of Red's next sheet (issue 14, item 5), which tells what became of Red's orders
    assert not any("Blue's player-turn" in s or " played: orders for turn" in s for s in subjects), subjects
    second = next(mail for mail in results if "Turn 2: Red's player-turn" in str(mail["Subject"]))
    body = second.get_body(("plain",))
    assert isinstance(body, EmailMessage)
    assert "YOUR ORDERS" in body.get_content()


def test_results_carry_the_map_inline_by_content_id_and_the_svg_and_json_attached(played: Played) -> None:
    for mail in played.mails("results"):
        html = mail.get_body(("html",))
        assert isinstance(html, EmailMessage)
        images = [part for part in mail.walk() if part.get_content_type() == "image/png"]
        assert len(images) == 1, mail["Subject"]
        content_id = str(images[0]["Content-ID"]).strip("<> ")
        assert f"cid:{content_id}" in html.get_content()
        assert images[0].get_content_disposition() == "inline"
        attached = {part.get_content_type(): part for part in mail.iter_attachments()}
        assert {"image/svg+xml", "application/json"} <= set(attached), mail["Subject"]
        assert json.loads(attached["application/json"].get_content())


def test_a_combat_mail_asks_for_each_round_red_fights(played: Played) -> None:
    combats = [str(mail["Subject"]) for mail in played.mails("combat")]
    rounds = [d.scope for d in played.deliveries if d.scope.startswith("combat:")]
    assert rounds, "a combat was fought by mail"
    for scope in rounds:
        fight = combat_parts(scope)
        assert fight is not None
        wanted = f"Turn {fight.turn.split('/')[0]}: combat at"
        assert any(wanted in s and f"({fight.star}) round {fight.round}" in s for s in combats), scope


def test_the_last_mail_says_the_game_is_over(played: Played) -> None:
    last = played.mails()[-1]
    assert last[KIND_HEADER] == "results"
    assert "the game is over" in str(last["Subject"])
    body = last.get_body(("plain",))
    assert isinstance(body, EmailMessage)
    assert "GAME OVER" in body.get_content()


REPLAY_BYTES = 1_000_000
"""The demo's replay is about 0.57 MB (docs/gm.md): seven game-turns of the classic map."""


def test_the_last_mail_carries_the_standings_and_the_replay_of_every_game_turn(played: Played) -> None:
    last = played.mails()[-1]
    body = last.get_body(("plain",))
    assert isinstance(body, EmailMessage) and "FINAL STANDINGS" in body.get_content()
    assert re.search(r"the game is over, (won by|a draw between) ", str(last["Subject"]))
    [replay] = [part for part in last.iter_attachments() if part.get_filename() == f"{GAME_ID}-replay.html"]
    page = replay.get_payload(decode=True)
    assert isinstance(page, bytes) and len(page) < REPLAY_BYTES
    turns = re.findall(rb'<section class="turn" id="turn-(\d+)">', page)
    assert [int(t) for t in turns] == list(range(1, TURN_LIMIT + 1))
    assert not [
        m
        for m in played.mails()[:-1]
        if any(p.get_filename() == replay.get_filename() for p in m.iter_attachments())
    ]


def test_only_the_human_player_gets_mail(played: Played) -> None:
    assert {str(mail["To"]) for mail in played.mails()} == {RED.address}


# --- Stored versions ---


def test_every_commit_is_a_stored_version_and_ticks_with_nothing_due_commit_nothing(played: Played) -> None:
    final = played.final
    numbers = list(range(played.first_version, final.version + 1))
    versions = [played.store.state(GAME_ID, version) for version in numbers]
    assert [game.version for game, _ in versions] == numbers
    turns = [game.turn for game, _ in versions]
    assert turns == sorted(turns), "the game never goes back a turn"
    assert versions[-1][1] == played.store.state(GAME_ID)[1]
    for tick in played.ticks:
        assert tick.version_after >= tick.version_before
    assert (
        sum(t.version_after - t.version_before for t in played.ticks) == final.version - played.first_version
    )


def test_the_last_stored_state_is_the_finished_game(played: Played) -> None:
    _, state_json = played.store.state(GAME_ID)
    state = GameState.model_validate_json(state_json)
    assert state.turn == TURN_LIMIT
    assert state.stage is Stage.OVER
    assert state.winners
