"""Blind games leak nothing by mail (issue 13): a three-player blind WarpWar game on a generated map,
played by mail through the real pipeline (inbound mail -> the store under moto -> the turn
service -> the mailer), checked byte by byte against what each player may know.

Every player's orders are written by the cadet robot from their own view and mailed with their
code; a player the game does not wait for mails STATUS or their next orders instead. Over seven
game-turns combats are fought at several stars, each between two of the three players. Every mail
sent (results, combat mails, acknowledgements, STATUS answers, reminders: subject, headers, and
every MIME part decoded: text, HTML, SVG, JSON, the calendar file, the PNG's bytes) is checked
against the player's entitlement at the moment it was sent: the engine's views of every version
committed so far (engine/warpwar/views.py ``player_view``) and the events the engine let the
player see (``events_for``). An enemy ship's id or a combat's star the player never had in a view
must never appear; the round deadline reaches only the players fighting; a step that fought only
combat rounds a player is not in mails them nothing, and their mail at the end of the player-turn
carries the whole player-turn.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from engine.core.mailgame import combat_parts
from engine.core.turnhost import Results, Seat
from engine.warpwar import host as warpwar_host
from engine.warpwar import robot
from engine.warpwar.events import AnyEvent, CombatBegan
from engine.warpwar.mapgen import MapSpec
from engine.warpwar.options import WarpWarOptions
from engine.warpwar.state import GameState, Stage, Visibility
from engine.warpwar.views import PlayerView, events_for, player_view
from functions.host import due, inbound, turns
from functions.host.deadlines import deadline_text
from functions.mail.codes import hash_code
from functions.mail.compose import KIND_HEADER, game_address
from functions.resources import Settings
from functions.store import GameRecord, GameSetup, PlayerRecord, Store, split_awaited

GAME = "blind"
SEED = 2
TURN_LIMIT = 7
START = datetime(2025, 3, 1, 12, tzinfo=UTC)
TICK = timedelta(minutes=10)
MAX_TICKS = 120
PLAYERS = {"P1": "Ann", "P2": "Bob", "P3": "Cy"}
CODES = {"P1": "AAAA-BBBB-CC", "P2": "DDDD-EEEE-FF", "P3": "GGGG-HHHH-JJ"}
ZONES = {"P1": "UTC", "P2": "Europe/Paris", "P3": "America/New_York"}
UID = re.compile(r"\bP[123]\.[WS]\d+\b")
UNDER_WAY = re.compile(r"combat is being fought|round deadline|\"stage\":\s*\"combat\"", re.IGNORECASE)
"""Words telling a player that a combat is fought somewhere."""


def address(player: str) -> str:
    return f"{PLAYERS[player].lower()}@example.org"


@dataclass(frozen=True)
class Entitled:
    """What a player may know at one moment: enemy ships and combat stars they were shown."""

    ships: frozenset[str]
    combat_stars: frozenset[str]


@dataclass(frozen=True)
class Sent:
    """One mail sent, with the game as it stood and the player's entitlement then."""

    player: str
    message: EmailMessage
    version: int
    game: GameRecord
    entitled: Entitled
    events: tuple[AnyEvent, ...] | None
    """For results: every event the game rendered them from (before the player's filter)."""


class Watch:
    """The mailer, and the referee's record of what each player is entitled to see."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.sent: list[Sent] = []
        self.states: dict[int, GameState] = {}
        self.ships: dict[str, set[str]] = {p: set() for p in PLAYERS}
        self.stars: dict[str, set[str]] = {p: set() for p in PLAYERS}
        self.rendered: dict[str, tuple[AnyEvent, ...]] = {}

    def views(self, version: int) -> dict[str, PlayerView]:
        return {p: player_view(self.states[version], p) for p in PLAYERS}

    def catch_up(self) -> tuple[int, GameRecord]:
        """Read every version committed since the last look, and what each player saw in it."""
        game = self.store.game(GAME)
        assert game is not None
        for version in range(len(self.states), game.version + 1):
            self.states[version] = GameState.model_validate_json(self.store.state(GAME, version)[1])
            for player, view in self.views(version).items():
                self.ships[player] |= {s.ship for s in view.enemy_ships}
                self.stars[player] |= {c.star for c in view.combats}
            if self.states[version].stage is Stage.OVER:
                # The fog lifts at the end (issue 14, item 8): the final mail shows everything.
                for player in PLAYERS:
                    self.ships[player] |= {u for s in self.states.values() for u in s.ships}
                    self.stars[player] |= {c.star for s in self.states.values() for c in s.combats}
        return game.version, game

    def saw(self, player: str, events: Sequence[AnyEvent]) -> None:
        """Events the engine lets ``player`` see (ships passing by, a combat's aftermath)."""
        seen = events_for(list(events), player)
        for event in seen:
            self.ships[player] |= set(UID.findall(event.model_dump_json()))
            if isinstance(event, CombatBegan):
                self.stars[player].add(event.star)
        self.rendered[player] = tuple(events)

    def send(self, message: EmailMessage) -> str:
        version, game = self.catch_up()
        player = next(p for p in PLAYERS if address(p) in str(message["To"]))
        entitled = Entitled(frozenset(self.ships[player]), frozenset(self.stars[player]))
        events = self.rendered.pop(player, None) if message[KIND_HEADER] in ("results", "combat") else None
        if events is not None:
            # A run mails each player by the newest of its steps that tells them, which may be
            # older than the run's last: the mail's own version is the one kept (keep, then send).
            kept = self.store.latest_results(GAME, player)
            assert kept is not None
            version = kept[0].version
            game = self.store.state(GAME, version)[0]
        self.sent.append(Sent(player, message, version, game, entitled, events))
        return f"m{len(self.sent)}"


def new_game(store: Store) -> None:
    options = WarpWarOptions(
        visibility=Visibility.BLIND, map=MapSpec(players=3, hexes=400), turn_limit=TURN_LIMIT
    )
    players = [
        PlayerRecord(
            game_id=GAME,
            player_id=p,
            name=name,
            address=address(p),
            code_hash=hash_code(CODES[p]),
            timezone=ZONES[p],
        )
        for p, name in PLAYERS.items()
    ]
    seats = [Seat(player_id=p.player_id, name=p.name) for p in players]
    state_json = warpwar_host.WarpWarTurns().new_state(GAME, options.model_dump_json(), seats, SEED)
    setup = GameSetup(options_json=options.model_dump_json(), seats=3)
    record = GameRecord(game_id=GAME, title="Blind", status="open", setup=setup)
    store.create_game(due.start(record, state_json, START), players, state_json)


def mail(store: Store, watch: Watch, settings: Settings, player: str, body: str, now: datetime) -> None:
    message = EmailMessage()
    message["From"] = f"{PLAYERS[player]} <{address(player)}>"
    message["To"] = game_address(GAME, settings.mail_domain)
    message["Subject"] = "Orders"
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content(body)
    key = f"inbound/{len(watch.sent)}-{player}"
    outcome = inbound.receive(bytes(message), key, now, store, watch, settings)
    assert outcome.status in ("accepted", "acknowledged", "command"), outcome.reason


def orders(state: GameState, player: str, scopes: Sequence[str]) -> str:
    """The cadet's orders for ``scopes`` (the player's next player-turn when none), with the code."""
    view = player_view(state, player)
    texts = []
    for scope in scopes:
        fight = combat_parts(scope)
        if fight is not None:
            combat = next(c for c in state.combats if c.star == fight.star)
            stream = robot.stream_for(state, player, combat)
            texts.append(robot.write_round(view, fight.star, fight.round, stream))
    if not texts:
        texts.append(robot.write_turn(view, robot.stream_for(state, player)))
    # One mail: the first block's header with the code, the other blocks' orders inside it.
    lines = [line for text in texts for line in text.splitlines() if line.strip() != "END"]
    header = [line for line in lines if line.split(" ", 1)[0] in {"GAME", "PLAYER", "TURN"}]
    body = [line for line in lines if line.split(" ", 1)[0] not in {"GAME", "PLAYER", "TURN"}]
    return "\n".join([*dict.fromkeys(header), f"CODE {CODES[player]}", *body, "END"]) + "\n"


def play(store: Store, settings: Settings, watch: Watch) -> None:
    """Tick by tick: the game is processed, then every player mails orders for what the game
    awaits of them; the others, every other tick, STATUS or their next orders in turn."""
    now = START
    for tick in range(MAX_TICKS):
        turns.process_game(GAME, now, store, watch, settings)
        game, state_json = store.state(GAME)
        if game.status == "over":
            return
        state = GameState.model_validate_json(state_json)
        owed: dict[str, list[str]] = {}
        for scope, player in map(split_awaited, game.awaiting):
            owed.setdefault(player, []).append(scope)
        for player in PLAYERS:
            if player in owed:
                mail(store, watch, settings, player, orders(state, player, owed[player]), now)
            elif tick % 4 == 1:
                mail(store, watch, settings, player, "STATUS\n", now)
            elif tick % 4 == 3:
                mail(store, watch, settings, player, orders(state, player, ()), now)
        now += TICK
    pytest.fail(f"the game did not end in {MAX_TICKS} ticks")


def readable(message: EmailMessage) -> str:
    """Every byte of the mail as text: headers, and each part decoded (HTML and SVG also without
    their tags and entities, so that a name split by markup is found)."""
    chunks = [f"{name}: {value}" for name, value in message.items()]
    for part in message.walk():
        if part.is_multipart():
            continue
        chunks += [f"{name}: {value}" for name, value in part.items()]
        data = part.get_payload(decode=True)
        assert isinstance(data, bytes)
        text = data.decode("utf-8", errors="replace") if part.get_content_maintype() == "text" else ""
        if not text:
            text = data.decode("latin-1")
        chunks.append(text)
        if "html" in part.get_content_type() or "svg" in part.get_content_type():
            chunks.append(html.unescape(re.sub(r"<[^>]*>", " ", text)))
    return "\n".join(chunks)


def combat_mentions(star: str, name: str) -> re.Pattern[str]:
    """A combat at the star, as any mail would name it: its scope, "combat at ...", a sheet's
    "COMBAT <star> ROUND"."""
    place = f"(?:{re.escape(star)}|{re.escape(name)})"
    return re.compile(rf"combat:[^:\s]+:{re.escape(star)}:|combat\s+(?:at\s+)?{place}\b", re.IGNORECASE)


@pytest.fixture
def settings(store: Store) -> Settings:
    # The mails here come as the local intake hands them over: no SES verdicts.
    return store.settings.model_copy(update={"trust_intake": True})


@pytest.fixture
def watched(store: Store, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Watch:
    """The game played to its end, every mail kept with what its player was entitled to."""
    watch = Watch(store)
    results_of = warpwar_host.results_of

    def noted(
        player: str, state: GameState, events: Sequence[AnyEvent], *rest: object, **named: object
    ) -> Results:
        watch.saw(player, events)
        return results_of(player, state, events, *rest, **named)  # type: ignore[arg-type]

    monkeypatch.setattr(warpwar_host, "results_of", noted)
    new_game(store)
    play(store, settings, watch)
    watch.catch_up()
    return watch


def test_a_blind_game_by_mail_leaks_nothing(watched: Watch) -> None:
    names_only_what_each_player_may_see(watched)
    only_the_players_fighting_are_mailed_per_round_or_told_its_deadline(watched)
    each_mail_gives_a_deadline_the_player_works_to(watched)


def names_only_what_each_player_may_see(watched: Watch) -> None:
    states = watched.states
    combats = {(c.star, s.turn) for s in states.values() for c in s.combats}
    fought_by = {
        (c.star, s.turn): {p.owner for p in s.ships.values() if p.location == c.star}
        for s in states.values()
        for c in s.combats
    }
    # The game had combats at several stars, and a player out of each
    assert len({star for star, _ in combats}) >= 3
    assert all(len(sides) < len(PLAYERS) for sides in fought_by.values())
    names = {star.hex: star.name for s in states.values() for star in s.map.stars}
    checked = 0
    for sent in watched.sent:
        text = readable(sent.message)
        enemy = {
            uid
            for s in list(states.values())[: sent.version + 1]
            for uid, ship in s.ships.items()
            if ship.owner != sent.player
        }
        for uid in sorted(enemy - sent.entitled.ships):
            found = re.search(rf"(?<![\w.]){re.escape(uid)}(?!\d)", text)
            assert found is None, f"{sent.player} was mailed {uid}: {sent.message['Subject']}"
        stars = {c.star for s in list(states.values())[: sent.version + 1] for c in s.combats}
        for star in sorted(stars - sent.entitled.combat_stars):
            found = combat_mentions(star, names[star]).search(text)
            assert found is None, f"{sent.player} was told of the combat at {star}: {found.group(0)!r}"
        checked += 1
    assert checked == len(watched.sent) > 100


def only_the_players_fighting_are_mailed_per_round_or_told_its_deadline(watched: Watch) -> None:
    states = watched.states
    fighting = {
        version: {p for p in PLAYERS if player_view(state, p).combats} for version, state in states.items()
    }
    previous: dict[str, int] = {}
    skipped = 0
    for sent in watched.sent:
        player, version = sent.player, sent.version
        awaited = {
            who for scope, who in map(split_awaited, sent.game.awaiting) if scope.startswith("combat:")
        }
        in_combat = player in awaited or player in fighting[version]
        round_deadline = deadline_text(sent.game.round_deadline, ZONES[player])
        if not in_combat and round_deadline is not None:
            assert round_deadline not in readable(sent.message), f"{player}: {sent.message['Subject']}"
        if not in_combat and player != states[version].active_player.id:
            found = UNDER_WAY.search(readable(sent.message))
            assert found is None, f"{player} was told a combat is fought: {found.group(0)!r}"
        if sent.events is None:
            continue
        # A results mail comes at the end of a player-turn, or to a player in the combat fought
        told = states[version].stage is not Stage.COMBAT or player in fighting[version] | fighting.get(
            version - 1, set()
        )
        assert told, f"{player} mailed the combat round of version {version}: {sent.message['Subject']}"
        # and tells the whole player-turn: a movement that began combats, though told later
        since = previous.get(player, version - 1)
        began = [
            w
            for w in range(max(since, 0) + 1, version + 1)
            if states[w - 1].stage is Stage.ORDERS and states[w].stage is Stage.COMBAT
        ]
        if began and version - since > 1:
            skipped += 1
            assert any(isinstance(e, CombatBegan) for e in sent.events), f"{player}, version {version}"
        previous[player] = version
    assert skipped >= 3


def each_mail_gives_a_deadline_the_player_works_to(watched: Watch) -> None:
    # The acknowledgements and STATUS answers of players outside every combat give the turn's
    # deadline, as their results do
    quiet = [
        s
        for s in watched.sent
        if s.events is None
        and s.game.round_deadline is not None
        and not any(who == s.player for _, who in map(split_awaited, s.game.awaiting))
    ]
    assert quiet
    for sent in quiet:
        turn_deadline = deadline_text(sent.game.deadline, ZONES[sent.player])
        assert turn_deadline is not None and turn_deadline in readable(sent.message), sent.message["Subject"]
