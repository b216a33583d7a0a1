"""The GM's games: create, open for sign-up, list, show, start, pause, resume, end.

A game is created in status "setup" with no state (its state JSON is ""): the engine state is
made when it starts, from its ``GameSetup`` and the players then seated. "open" takes sign-ups
by mail (JOIN).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from engine.core.turnhost import Seat, TurnGame
from engine.games import DEFAULT_GAME, TURN_GAMES
from functions.console.backend import Backend
from functions.console.errors import ConsoleError, one_line
from functions.console.lookup import change_game, require_game, seated
from functions.console.mail import SentMail, is_problem, notify_all
from functions.host import due, sending
from functions.host.commands.join import free_player_id
from functions.mail.compose import valid_game_id
from functions.mail.ses import MailNotSent
from functions.store import (
    GameExistsError,
    GameRecord,
    GameSetup,
    MailLogEntry,
    PlayerRecord,
    Schedule,
)
from functions.store.records import split_awaited

PROBLEMS_SHOWN = 10
"""Mail problems ``show`` lists (the latest)."""


def default_game() -> str:
    """The game ``create`` makes when none is named."""
    return DEFAULT_GAME


class NewGame(BaseModel):
    """What ``create`` makes: the game's own options are in ``setup`` (checked by its host)."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    title: str = ""
    game: str = Field(default_factory=default_game)
    setup: GameSetup = GameSetup()
    schedule: Schedule = Schedule()
    turn_mode: str = "sequential"
    combat_mode: str = "mail"
    early: bool = True
    turn_hours: float = 24
    round_hours: float = 2
    gm_address: str = ""


def game_setup(game: str, options: Mapping[str, object], seats: int, seed: int) -> GameSetup:
    """The ``GameSetup`` of a game of ``game`` (a key of engine/games.py) with the options the GM
    gave (the game's own, by name: ``{"scenario": "advanced"}``), checked and completed with
    their defaults by the game; ConsoleError names the option that does not fit."""
    host = host_of(game)
    try:
        options_json = host.check_options(json.dumps(options))
    except ValueError as error:
        raise ConsoleError(f"the {host.name} options do not fit: {one_line(error)}") from error
    return GameSetup(options_json=options_json, seed=seed, seats=seats)


def host_of(game: str) -> TurnGame:
    if game not in TURN_GAMES:
        raise ConsoleError(f"this host plays {', '.join(sorted(TURN_GAMES))}, not {game}")
    return TURN_GAMES[game]


def check_options(host: TurnGame, game_id: str, setup: GameSetup) -> None:
    """The game's options make a game for ``setup.seats`` players (its host builds one)."""
    stand_ins = [Seat(player_id=f"P{n}", name=f"Seat {n}") for n in range(1, setup.seats + 1)]
    try:
        host.new_state(game_id, setup.options_json, stand_ins, setup.seed)
    except ValueError as error:
        raise ConsoleError(f"the game's options do not make a game: {one_line(error)}") from error


def create_game(backend: Backend, spec: NewGame, now: datetime) -> GameRecord:
    if not valid_game_id(spec.game_id):
        raise ConsoleError(
            f"'{spec.game_id}' cannot be a game id (it is the game's mail address): use lower-case "
            "letters, digits, - and _, starting with a letter or digit"
        )
    check_options(host_of(spec.game), spec.game_id, spec.setup)
    try:
        game = GameRecord.model_validate(
            spec.model_dump() | {"title": spec.title or spec.game_id, "status": "setup", "committed_at": now}
        )
    except ValueError as error:
        raise ConsoleError(one_line(error)) from error
    try:
        backend.store.create_game(game, [], "")
    except GameExistsError as error:
        raise ConsoleError(f"game {spec.game_id} exists already: choose another id") from error
    return game


def open_game(backend: Backend, game_id: str, now: datetime) -> GameRecord:
    """Open for sign-up: JOIN by mail seats players until the game starts."""
    game = require_game(backend.store, game_id, "setup")
    return change_game(backend.store, game, now, status="open")


class GameSummary(BaseModel):
    game: GameRecord
    seated: int
    standby: int


def list_games(backend: Backend) -> list[GameSummary]:
    summaries = []
    for game in backend.store.games():
        players = backend.store.players(game.game_id)
        standby = sum(p.role == "standby" for p in players)
        summaries.append(GameSummary(game=game, seated=len(seated(players)), standby=standby))
    return summaries


class AwaitedOrders(BaseModel):
    """Orders the game waits for, and whether they are in (the latest version, when)."""

    scope: str
    player: PlayerRecord | None
    player_id: str
    version: int = 0
    received_at: datetime | None = None


class GameView(BaseModel):
    game: GameRecord
    players: list[PlayerRecord]
    awaited: list[AwaitedOrders]
    problems: list[MailLogEntry]
    """The latest mail rejected or not sent."""
    last_mail: dict[str, datetime]
    """Player id -> when the latest mail from the player's address reached the game."""
    ending: str | None = None
    """How a game that is over ended: the winners and by which rule (or that the GM ended it)."""


def last_mail(log: list[MailLogEntry], players: list[PlayerRecord]) -> dict[str, datetime]:
    """Player id -> when the game's mail log last has mail in from the player's address
    (accepted or rejected: a mail with a wrong code is still the player's sign of life)."""
    latest: dict[str, datetime] = {}
    for entry in log:
        if entry.direction != "out":
            latest[entry.address] = max(entry.at, latest.get(entry.address, entry.at))
    return {p.player_id: latest[p.address] for p in players if p.address in latest}


def show_game(backend: Backend, game_id: str) -> GameView:
    game = require_game(backend.store, game_id)
    players = backend.store.players(game.game_id)
    by_id = {p.player_id: p for p in players}
    awaited = []
    for entry in game.awaiting:
        scope, player_id = split_awaited(entry)
        latest = backend.store.latest_submissions(game.game_id, scope).get((player_id, scope))
        awaited.append(
            AwaitedOrders(
                scope=scope,
                player=by_id.get(player_id),
                player_id=player_id,
                version=latest.version if latest else 0,
                received_at=latest.received_at if latest else None,
            )
        )
    log = backend.store.mail_log(game.game_id)
    problems = [e for e in log if is_problem(e)][-PROBLEMS_SHOWN:]
    return GameView(
        game=game,
        players=players,
        awaited=awaited,
        problems=problems,
        last_mail=last_mail(log, players),
        ending=_ending(backend, game),
    )


class Late(BaseModel):
    """A player whose awaited orders are not in: how many turns in a row they have missed, the
    latest mail from them, and the deadline the orders are due by."""

    game: GameRecord
    player: PlayerRecord
    scope: str
    missed: int
    last_mail: datetime | None
    deadline: datetime | None


def late_players(backend: Backend) -> list[Late]:
    """Across the running games, each awaited player (not a robot) whose orders are not in,
    by deadline, the soonest first."""
    late = []
    for game in backend.store.games():
        if game.status != "running" or not game.awaiting:
            continue
        players = {p.player_id: p for p in backend.store.players(game.game_id)}
        seen = last_mail(backend.store.mail_log(game.game_id), list(players.values()))
        for scope, awaited in game.awaited_scopes().items():
            sent = backend.store.latest_submissions(game.game_id, scope)
            for player_id in sorted(awaited):
                player = players.get(player_id)
                if player is None or player.robot is not None or (player_id, scope) in sent:
                    continue
                deadline = game.round_deadline if game.on_round_clock else game.deadline
                late.append(
                    Late(
                        game=game,
                        player=player,
                        scope=scope,
                        missed=game.missed.get(player_id, 0),
                        last_mail=seen.get(player_id),
                        deadline=deadline,
                    )
                )
    return sorted(late, key=lambda row: (row.deadline is None, row.deadline, row.game.game_id))


def _ending(backend: Backend, game: GameRecord) -> str | None:
    if game.status != "over":
        return None
    _, state_json = backend.store.state(game.game_id)
    ended = host_of(game.game).ending(state_json) if state_json else None
    return ended or "ended by the GM before the game was decided"


class Started(BaseModel):
    game: GameRecord
    players: list[PlayerRecord]
    mails: int
    unsent: str = ""
    """Why some opening results were not sent (the next workflow run sends them)."""


def start_game(backend: Backend, game_id: str, now: datetime, fill: str | None = None) -> Started:
    """The engine state from the setup and the seated players (``fill``: empty seats to robots
    of that level), the game running, and every player's opening results mailed."""
    store = backend.store
    game = require_game(store, game_id, "setup", "open")
    players = store.players(game.game_id)
    seats = seated(players)
    empty = game.setup.seats - len(seats)
    if empty < 0:
        raise ConsoleError(
            f"game {game.game_id} has {len(seats)} players for {game.setup.seats} seats: make some "
            "standbys ('warpmail player remove') first"
        )
    if empty and fill is None:
        raise ConsoleError(
            f"game {game.game_id} has {len(seats)} of {game.setup.seats} seats taken: invite more "
            "players, or start it with --robots cadet (or admiral) for the empty seats"
        )
    robots: list[PlayerRecord] = []
    for _ in range(empty):
        player_id = free_player_id([*players, *robots])
        robots.append(
            PlayerRecord(
                game_id=game.game_id,
                player_id=player_id,
                name=f"Robot {player_id}",
                address="",
                code_hash="",
                robot=fill,
            )
        )
    seats += robots
    host = host_of(game.game)
    try:
        in_order = [Seat(player_id=p.player_id, name=p.name) for p in seats]
        state_json = host.new_state(game.game_id, game.setup.options_json, in_order, game.setup.seed)
    except ValueError as error:
        raise ConsoleError(f"the game's options do not make a game: {one_line(error)}") from error
    for robot in robots:
        store.add_player(robot)
    record = due.start(game.model_copy(update={"committed_at": now}), state_json, now)
    if not store.commit(record, state_json, expected_version=game.version):
        raise ConsoleError(f"game {game.game_id} changed meanwhile: run the command again")
    record = record.model_copy(update={"version": game.version + 1})
    # The robots' first orders, written now as a run writes them after every step: a game that
    # waits for a robot from the start (each seat ordering at once, as in Lighter Than Air) is
    # then played as soon as the players' orders are in, not at its first deadline.
    pending = host.pending(state_json, record.turn_mode, record.combat_mode)
    if pending is not None:
        due.submit_robot_orders(store, host, record, state_json, seats, pending, now)
    started = Started(game=record, players=seats, mails=0)
    try:
        mails = sending.send_results(
            store, backend.mailer, backend.settings, record, seats, host.opening(state_json), now
        )
    except MailNotSent as error:
        return started.model_copy(update={"unsent": str(error)})
    return started.model_copy(update={"mails": mails})


class Changed(BaseModel):
    """A game changed by the GM, and the notices mailed about it."""

    game: GameRecord
    mails: list[SentMail]


def pause_game(backend: Backend, game_id: str, reason: str, now: datetime) -> Changed:
    """No processing while paused; its deadlines shift by the paused time on resuming."""
    game = require_game(backend.store, game_id, "running")
    paused = change_game(backend.store, game, now, status="paused", pause_reason=reason, paused_at=now)
    paragraphs = [PAUSED.format(game_id=game.game_id), *([f"The reason: {reason}"] if reason else [])]
    return Changed(game=paused, mails=notify_all(backend, paused, "The game is paused", paragraphs, now))


def resume_game(backend: Backend, game_id: str, now: datetime) -> Changed:
    game = require_game(backend.store, game_id, "paused")
    changed = change_game(backend.store, due.resumed(game, now), now)
    paragraphs = [RESUMED.format(game_id=game.game_id)]
    return Changed(game=changed, mails=notify_all(backend, changed, "The game goes on", paragraphs, now))


def end_game(backend: Backend, game_id: str, reason: str, now: datetime) -> Changed:
    game = require_game(backend.store, game_id, "setup", "open", "running", "paused")
    ended = change_game(
        backend.store, game, now, status="over", awaiting=(), deadline=None, round_deadline=None
    )
    paragraphs = [ENDED.format(game_id=game.game_id), *([f"The reason: {reason}"] if reason else [])]
    return Changed(game=ended, mails=notify_all(backend, ended, "The game is over", paragraphs, now))


PAUSED = (
    "The GM has paused game {game_id}: no turn is processed until it goes on, and the deadline "
    "moves on by the time the game was paused. Orders you send meanwhile are kept."
)
RESUMED = "Game {game_id} goes on. Your deadline is in the next mail from the game, and in STATUS."
ENDED = "The GM has ended game {game_id}. Thank you for playing."
