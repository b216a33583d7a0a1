"""The turn service: process one game, everything due at ``now``, and mail the results.

One *step* is what the game plays at once (a player-turn, or a round of every combat; see the
game's host, e.g. functions/host/warpwar_host.py). ``process_game`` loops: robots write their
orders for what the game waits for, the step is played if it is due (every awaited order in and
the game processes early, a combat round complete, or the deadline passed), the new state is
committed as the next version (conditional on the version read: of two concurrent runs exactly
one commits, the other stops and sends nothing), and every human player is mailed the step's
results, a copy of which is kept as their latest (``Store.keep_results``, for REPORT). It stops
when nothing more is due. Deadlines are the game's own periods (``GameRecord.turn_hours``,
``round_hours``).

Idempotency. Everything a step commits follows from the stored state, the stored orders and
``now`` (the workflow passes one ``now`` to a game's every attempt), so a retried run commits
exactly what the first would have. A run always begins by finishing the sending of the latest
version: the mails not logged as sent are rendered again from a replay of that version's step
(checked to give the very state committed), each claimed once (``Store.first_time``), sent, then
logged; a send that fails releases its claim (``Store.forget``) so the retry sends it. A version
the replay does not reproduce (a GM's change, a park) was not a step and is mailed nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Literal, Protocol

from pydantic import BaseModel

from engine.core.mailgame import ScopedOrders
from functions.host.results import (
    GameHost,
    Pending,
    Played,
    Wanted,
    deadlines_for,
    results_mail,
)
from functions.host.warpwar_host import WarpWarHost
from functions.mail.compose import compose
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.records import (
    GameRecord,
    KeptResults,
    MailLogEntry,
    NewSubmission,
    PlayerRecord,
    Submission,
    awaited,
)

HOSTS: dict[str, GameHost] = {WarpWarHost.key: WarpWarHost()}
MAX_STEPS = 100
"""Steps in one run at most (robots playing each other would otherwise run on)."""


class TurnStore(Protocol):
    """The part of functions/store ``Store`` the turn service uses."""

    def game(self, game_id: str) -> GameRecord | None: ...
    def players(self, game_id: str) -> list[PlayerRecord]: ...
    def state(self, game_id: str, version: int | None = None) -> tuple[GameRecord, str]: ...
    def commit(self, game: GameRecord, state_json: str, expected_version: int) -> bool: ...
    def add_submission(self, new: NewSubmission) -> Submission: ...
    def latest_submissions(
        self, game_id: str, scope_prefix: str = ""
    ) -> dict[tuple[str, str], Submission]: ...
    def log_mail(self, entry: MailLogEntry, ttl_days: int = 400) -> None: ...
    def mail_log(self, game_id: str | None) -> list[MailLogEntry]: ...
    def first_time(self, message_id: str, ttl_days: int = 30, now: datetime | None = None) -> bool: ...
    def forget(self, message_id: str) -> None: ...
    def keep_results(self, kept: KeptResults, raw: bytes) -> bool: ...


Result = Literal["processed", "not_due", "not_running", "lost_race", "missing"]


class TurnSummary(BaseModel):
    """What one run did: ``result``, steps committed, the version it left, mails sent (those of
    an earlier attempt's version finished here included)."""

    game_id: str
    result: Result
    steps: int = 0
    version: int = 0
    mails: int = 0


def process_game(
    game_id: str,
    now: datetime,
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    max_steps: int = MAX_STEPS,
) -> TurnSummary:
    """Process everything due in game ``game_id`` at ``now`` (see the module doc)."""
    if store.game(game_id) is None:
        return TurnSummary(game_id=game_id, result="missing")
    game, state_json = store.state(game_id)
    players = store.players(game_id)
    host = HOSTS[game.game]
    if game.status != "running" or game.parked is not None:
        return TurnSummary(game_id=game_id, result="not_running", version=game.version)
    mails = finish_sending(store, mailer, settings, host, game, state_json, players, now)
    steps = 0
    while steps < max_steps:
        pending = host.pending(state_json, game.turn_mode, game.combat_mode)
        if pending is None:
            break
        submit_robot_orders(store, host, game, state_json, players, pending, now)
        orders = gather(store, game, pending)
        if not is_due(game, pending, orders, now):
            break
        played = host.play(state_json, pending, orders)
        record = next_record(
            game,
            pending,
            host.pending(played.state_json, game.turn_mode, game.combat_mode),
            played,
            now,
        )
        if not store.commit(record, played.state_json, expected_version=game.version):
            return TurnSummary(
                game_id=game_id, result="lost_race", steps=steps, version=game.version, mails=mails
            )
        game, state_json = record.model_copy(update={"version": game.version + 1}), played.state_json
        steps += 1
        mails += send_results(store, mailer, settings, game, players, played, now)
    result: Result = "processed" if steps else "not_due"
    return TurnSummary(game_id=game_id, result=result, steps=steps, version=game.version, mails=mails)


# --- Deciding what is due ---


def submit_robot_orders(
    store: TurnStore,
    host: GameHost,
    game: GameRecord,
    state_json: str,
    players: list[PlayerRecord],
    pending: Pending,
    now: datetime,
) -> None:
    """Computer players' orders for what the game waits for, stored as a player's are."""
    robots = {p.player_id: p.robot for p in players if p.robot is not None}
    scopes: dict[str, list[str]] = {}
    for wanted in pending.wants:
        if wanted.player in robots:
            scopes.setdefault(wanted.player, []).append(wanted.scope)
    for player, wanted_scopes in sorted(scopes.items()):
        stored = _latest(store, game, wanted_scopes)
        missing = [s for s in wanted_scopes if (player, s) not in stored]
        if not missing:
            continue
        level = robots[player] or ""
        for part, text in host.robot_orders(state_json, player, level, missing):
            store.add_submission(_robot_submission(game, player, part, text, now))


def _robot_submission(
    game: GameRecord, player: str, part: ScopedOrders, text: str, now: datetime
) -> NewSubmission:
    return NewSubmission(
        game_id=game.game_id,
        player_id=player,
        scope=part.scope,
        received_at=now,
        message_id=f"robot.{game.game_id}.{game.version}.{player}.{part.scope}",
        body=text,
        orders_json=part.orders_json,
    )


def _latest(store: TurnStore, game: GameRecord, scopes: list[str]) -> dict[tuple[str, str], Submission]:
    found: dict[tuple[str, str], Submission] = {}
    for scope in sorted(set(scopes)):
        found |= {k: s for k, s in store.latest_submissions(game.game_id, scope).items() if s.scope == scope}
    return found


def gather(store: TurnStore, game: GameRecord, pending: Pending) -> dict[Wanted, str]:
    """The latest orders in for each awaited (player, scope). Scopes never recur (a combat's
    names the turn it is fought in), so whatever is stored for one is for it."""
    latest = _latest(store, game, [w.scope for w in pending.wants])
    return {
        wanted: latest[(wanted.player, wanted.scope)].orders_json
        for wanted in pending.wants
        if (wanted.player, wanted.scope) in latest
    }


def is_due(game: GameRecord, pending: Pending, orders: Mapping[Wanted, str], now: datetime) -> bool:
    """Every awaited order in (combat rounds always, player-turns when the game is ``early``),
    or the deadline passed."""
    deadline = game.round_deadline if pending.clock == "round" else game.deadline
    if deadline is not None and deadline <= now:
        return True
    complete = all(w in orders for w in pending.wants)
    return complete and (pending.clock == "round" or game.early)


def next_record(
    game: GameRecord,
    before: Pending,
    after: Pending | None,
    played: Played,
    now: datetime,
) -> GameRecord:
    """The game after a step: what it awaits, and its deadlines. A new deadline period (a new
    player-turn, or game-turn in cycle mode) gets a new deadline, ``turn_hours`` on; every step
    that leaves combats to fight restarts the round clock, ``round_hours``."""
    if after is None or played.over:
        return game.model_copy(
            update={
                "turn": played.turn,
                "status": "over",
                "awaiting": (),
                "deadline": None,
                "round_deadline": None,
            }
        )
    deadline = game.deadline
    if after.period != before.period or deadline is None:
        deadline = now + game.turn_period
    round_deadline = now + game.round_period if after.clock == "round" else None
    return game.model_copy(
        update={
            "turn": played.turn,
            "awaiting": tuple(awaited(w.scope, w.player) for w in after.wants),
            "deadline": deadline,
            "round_deadline": round_deadline,
        }
    )


# --- Sending ---


def sent_key(game: GameRecord, version: int, player: str) -> str:
    return f"results/{game.game_id}/{version}/{player}"


def send_results(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    game: GameRecord,
    players: list[PlayerRecord],
    played: Played,
    now: datetime,
    only: set[str] | None = None,
) -> int:
    """Mail every human player (or those in ``only``) their results of the step that made
    ``game``'s version; each mail is claimed once, kept as the player's latest, sent, and logged."""
    sent = 0
    for player in sorted(players, key=lambda p: p.player_id):
        if player.robot is not None or (only is not None and player.player_id not in only):
            continue
        key = sent_key(game, game.version, player.player_id)
        if not store.first_time(key, now=now):
            continue
        try:
            rendered = played.render(player.player_id, deadlines_for(game, player))
            message = compose(
                results_mail(game, player, rendered), settings.sender, settings.mail_domain, now
            )
            kept = KeptResults(
                game_id=game.game_id,
                player_id=player.player_id,
                version=game.version,
                at=now,
                subject=str(message["Subject"]),
            )
            store.keep_results(kept, message.as_bytes())
            outbox_id = mailer.send(message)
        except Exception:
            store.forget(key)
            raise
        store.log_mail(
            MailLogEntry(
                game_id=game.game_id,
                at=now,
                direction="out",
                address=player.address,
                subject=str(message["Subject"]),
                reason=f"results of version {game.version} ({outbox_id})",
                key=key,
            )
        )
        sent += 1
    return sent


def finish_sending(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    host: GameHost,
    game: GameRecord,
    state_json: str,
    players: list[PlayerRecord],
    now: datetime,
) -> int:
    """Send what an earlier attempt committed but did not mail (see the module doc)."""
    logged = {e.key for e in store.mail_log(game.game_id) if e.direction == "out"}
    unsent = {
        p.player_id
        for p in players
        if p.robot is None and sent_key(game, game.version, p.player_id) not in logged
    }
    if not unsent:
        return 0
    played = replay(store, host, game, state_json)
    if played is None:
        return 0
    return send_results(store, mailer, settings, game, players, played, now, only=unsent)


def replay(store: TurnStore, host: GameHost, game: GameRecord, state_json: str) -> Played | None:
    """The step that made ``game``'s version, played again from the version before; the game's
    opening when there is none; None when the replay does not give the state committed."""
    try:
        before, before_json = store.state(game.game_id, game.version - 1)
    except LookupError:
        return host.opening(state_json)
    pending = host.pending(before_json, before.turn_mode, before.combat_mode)
    if pending is None:
        return None
    played = host.play(before_json, pending, gather(store, before, pending))
    return played if played.state_json == state_json else None


def start(game: GameRecord, state_json: str, now: datetime) -> GameRecord:
    """A game record ready to run from ``state_json``: what it awaits and its first deadline,
    ``turn_hours`` on (for whoever creates or starts a game)."""
    first = HOSTS[game.game].pending(state_json, game.turn_mode, game.combat_mode)
    return game.model_copy(
        update={
            "status": "running",
            "awaiting": tuple(awaited(w.scope, w.player) for w in first.wants) if first else (),
            "deadline": now + game.turn_period,
            "round_deadline": None,
        }
    )
