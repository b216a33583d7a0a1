"""The end of a game (issue 14, item 8): a blind two-player game by mail played to its turn
limit through the turn service (the real Store under moto), both seats players whose orders
arrive as mail. Each player's last mail is the final one: the standings, the whole map revealed
(only there: every earlier map is the player's fogged view), the replay attached, sent once;
``warpmail game show`` names the winner.

The game is played once for the module (about 5 s); each test reads what it left.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from html.parser import HTMLParser
from typing import Any

import pytest
from moto import mock_aws

from benchmarks.mailed import submit_orders
from engine.core.turnhost import Seat
from engine.warpwar import robot
from engine.warpwar.demo import PLAYERS as DEMO_PLAYERS
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.host import WarpWarTurns
from engine.warpwar.options import WarpWarOptions
from engine.warpwar.standings import REVEALED, standings
from engine.warpwar.state import GameConfig, GameState, Scenario, Stage, Visibility
from engine.warpwar.views import player_view
from functions import cli
from functions.console import backend as backends
from functions.host import due, sending, turns
from functions.mail.compose import KIND_HEADER
from functions.resources import Settings
from functions.store import (
    GameRecord,
    GameSetup,
    PlayerRecord,
    Store,
    provision,
    split_awaited,
)
from tests.functions.conftest import deployment

GAME = "endgame"
SEED = 3
TURN_LIMIT = 3
START = datetime(2025, 3, 1, 12, tzinfo=UTC)
PLAYERS = {"P1": "Ann", "P2": "Bob"}
MAX_TICKS = 60


def address(player: str) -> str:
    return f"{PLAYERS[player].lower()}@example.org"


class Recorder:
    """A mailer that keeps each mail as sent (its bytes parsed again, as a client reads it)."""

    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []

    def send(self, message: EmailMessage) -> str:
        parsed = BytesParser(policy=policy.default).parsebytes(message.as_bytes())
        assert isinstance(parsed, EmailMessage)
        self.sent.append(parsed)
        return f"m{len(self.sent)}"

    def to(self, player: str) -> list[EmailMessage]:
        return [m for m in self.sent if address(player) in str(m["To"])]


@dataclass
class Ended:
    store: Store
    settings: Settings
    mailer: Recorder
    state: GameState
    now: datetime


def new_game(store: Store) -> None:
    options = WarpWarOptions(scenario=Scenario.BASIC, visibility=Visibility.BLIND, turn_limit=TURN_LIMIT)
    players = [
        PlayerRecord(game_id=GAME, player_id=p, name=name, address=address(p), code_hash="x")
        for p, name in PLAYERS.items()
    ]
    seats = [Seat(player_id=p.player_id, name=p.name) for p in players]
    state_json = WarpWarTurns().new_state(GAME, options.model_dump_json(), seats, SEED)
    record = GameRecord(
        game_id=GAME, title="End", status="open", setup=GameSetup(options_json=options.model_dump_json())
    )
    store.create_game(due.start(record, state_json, START), players, state_json)


def mail_orders(store: Store, now: datetime) -> None:
    """Every player answers what the game awaits of them (written as the cadet would)."""
    game, state_json = store.state(GAME)
    state = GameState.model_validate_json(state_json)
    for scope, player in map(split_awaited, game.awaiting):
        text = robot.write_for(state, player_view(state, player), scope)
        submit_orders(store, GAME, state_json, player, text, now)


@pytest.fixture(scope="module")
def ended(aws_clients: dict[str, Any]) -> Iterator[Ended]:
    with mock_aws():
        described = deployment()
        provision(described, aws_clients["dynamodb"], aws_clients["s3"])
        store = Store(described.settings(), aws_clients["dynamodb"], aws_clients["s3"])
        new_game(store)
        mailer, now = Recorder(), START
        for _ in range(MAX_TICKS):
            turns.process_game(GAME, now, store, mailer, store.settings)
            game, state_json = store.state(GAME)
            if game.status == "over":
                break
            mail_orders(store, now)
            now += timedelta(minutes=10)
        state = GameState.model_validate_json(state_json)
        assert state.stage is Stage.OVER, "the game was played to its end"
        yield Ended(store, store.settings, mailer, state, now)


def text_of(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert isinstance(body, EmailMessage)
    return str(body.get_content())


def attachment(message: EmailMessage, suffix: str) -> str | None:
    found = [p for p in message.walk() if (p.get_filename() or "").endswith(suffix)]
    return str(found[0].get_content()) if found else None


def final_mail(ended: Ended, player: str) -> EmailMessage:
    return ended.mailer.to(player)[-1]


# --- The final mail ---


@pytest.mark.parametrize("player", sorted(PLAYERS))
def test_each_player_gets_a_final_mail_with_the_standings(ended: Ended, player: str) -> None:
    final = standings(ended.state)
    mail = final_mail(ended, player)
    text = text_of(mail)
    html = mail.get_body(("html",))
    assert isinstance(html, EmailMessage)
    assert mail[KIND_HEADER] == "results"
    assert str(mail["Subject"]).endswith(f"Turn {TURN_LIMIT}: the game is over, a draw between Ann and Bob")
    assert "FINAL STANDINGS" in text and "Final standings" in html.get_content()
    assert "Orders due" not in text and "ORDERS FOR TURN" not in text, "nothing more to order"
    # How it ended, by which measure, and every side's line, the winner marked
    assert f"turn limit ({TURN_LIMIT} game-turns)" in final.ending
    assert re.sub(r"\s+", " ", final.ending) in re.sub(r"\s+", " ", text)
    for side in final.sides:
        line = next(row for row in text.splitlines() if row.startswith(f"{side.name} ({side.player})"))
        assert f"{side.warpships}/{side.systemships}" in line
        assert ("WINNER" in line) == side.winner


def test_the_whole_map_is_revealed_in_the_final_mail_only(ended: Ended) -> None:
    state = ended.state
    for player in PLAYERS:
        mails = [m for m in ended.mailer.to(player) if m[KIND_HEADER] in ("results", "combat")]
        maps = [attachment(m, "-map.svg") for m in mails]
        assert all(maps) and len(maps) > TURN_LIMIT
        # Every earlier map is the fogged view; the last one says the fog is lifted
        assert not [svg for svg in maps[:-1] if svg and REVEALED in svg]
        final_svg = maps[-1]
        assert final_svg is not None and REVEALED in final_svg
        # and shows every enemy ship on the map, the unseen ones too
        enemies = {u for u, s in state.ships.items() if s.owner != player and s.carried_by is None}
        unseen = enemies - {s.ship for s in player_view(state, player).enemy_ships}
        assert unseen, "the game left enemy ships the player never saw"
        assert all(uid in final_svg for uid in enemies)
        assert not [uid for uid in unseen if any(m and uid in m for m in maps[:-1])]
        assert any(p.get_content_type() == "image/png" for p in final_mail(ended, player).walk())


class Replay(HTMLParser):
    """The replay page's parts: its turn sections, SVGs and scripts, and any address it would fetch."""

    def __init__(self) -> None:
        super().__init__()
        self.turns: list[str] = []
        self.svgs = self.scripts = 0
        self.fetches: list[str] = []
        self.hidden: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "section" and "turn" in (named.get("class") or "").split():
            self.turns.append(named.get("id") or "")
            if "hidden" in named:
                self.hidden.append(tag)
        self.svgs += tag == "svg"
        self.scripts += tag == "script"
        self.fetches += [f"{tag} {k}={v}" for k, v in attrs if k in ("src", "href") and v]


@pytest.mark.parametrize("player", sorted(PLAYERS))
def test_the_replay_is_attached_one_frame_per_turn_self_contained(ended: Ended, player: str) -> None:
    page = attachment(final_mail(ended, player), "-replay.html")
    assert page is not None
    replay = Replay()
    replay.feed(page)
    # One section per game-turn, in order, each with its map
    assert replay.turns == [f"turn-{t}" for t in range(1, TURN_LIMIT + 1)]
    assert replay.svgs == TURN_LIMIT
    # Nothing fetched; without script every turn shows (the buttons are hidden until it runs)
    assert replay.fetches == [] and replay.scripts == 1
    assert not replay.hidden and '<nav id="steps" hidden>' in page
    # The moves of every side are in it: the fog is lifted for the history too
    for other in PLAYERS:
        assert re.search(rf"\b{other}\.W\d+ moves", page), other
    # and no earlier mail had one
    assert not [m for m in ended.mailer.to(player)[:-1] if attachment(m, "-replay.html")]


def test_the_final_mail_is_sent_once(ended: Ended) -> None:
    sent = len(ended.mailer.sent)
    later = ended.now + timedelta(days=3)
    summary = turns.process_game(GAME, later, ended.store, ended.mailer, ended.settings)
    game, state_json = ended.store.state(GAME)
    host, players = WarpWarTurns(), ended.store.players(GAME)
    again = sending.finish_sending(
        ended.store, ended.mailer, ended.settings, host, game, state_json, players, later
    )
    assert (summary.result, summary.mails, again) == ("not_running", 0, 0)
    assert len(ended.mailer.sent) == sent
    finals = [m for m in ended.mailer.sent if attachment(m, "-replay.html")]
    assert sorted(str(m["To"]) for m in finals) == sorted(address(p) for p in PLAYERS)


# --- The GM's view ---


class Backend:
    def __init__(self, store: Store) -> None:
        self.store = store

    def close(self) -> None:
        """Nothing to close: the store is the module's."""


def won_by_red() -> str:
    """The state of the demo's game (engine/warpwar/demo.py: seed 4, seven game-turns) between two
    robots, which Red wins at the turn limit."""
    config = GameConfig(game_id="won", scenario=Scenario.BASIC, players=DEMO_PLAYERS, turn_limit=7)
    state = WarpWar().new_game(Setup(config=config), 4).state
    while state.stage is not Stage.OVER:
        state = robot.play_turn(state).state
    assert state.winners == ["Red"]
    return state.model_dump_json()


def test_game_show_names_the_winner_and_how_it_ended(
    ended: Ended, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the drawn game, and a game Red won, both over
    players = [
        PlayerRecord(game_id="won", player_id=p.id, name=p.name, address="", code_hash="")
        for p in DEMO_PLAYERS
    ]
    won = GameRecord(game_id="won", title="Won", status="over")
    ended.store.create_game(won, players, won_by_red())
    monkeypatch.setattr(backends, "open_backend", lambda choice: Backend(ended.store))
    monkeypatch.setenv("COLUMNS", "300")
    # When the GM shows each
    shown = {}
    for game_id in (GAME, "won"):
        assert cli.main(["game", "show", game_id]) == 0
        shown[game_id] = re.sub(r"\s+", " ", capsys.readouterr().out)
    # Then each names how it ended: the draw and its measure, the winner and theirs
    assert (
        f"over: A draw between Ann (P1) and Bob (P2) at the turn limit ({TURN_LIMIT} game-turns)"
        in shown[GAME]
    )
    assert "over: Red Fleet (Red) wins at the turn limit (7 game-turns) on the most" in shown["won"]


def test_game_show_of_a_game_the_gm_ended_says_so(
    ended: Ended, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ended.store.create_game(GameRecord(game_id="stopped", title="Stopped", status="over"), [], "")
    monkeypatch.setattr(backends, "open_backend", lambda choice: Backend(ended.store))
    assert cli.main(["game", "show", "stopped"]) == 0
    assert "over: ended by the GM before the game was decided" in capsys.readouterr().out
