"""Deciding what is due: robots' orders, the orders in, whether a step is due, and the game's record
after a step (its deadlines and the turns missed); a game's start and resumption."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from engine.core.mailgame import ScopedOrders
from engine.core.turnhost import Pending, Played, TurnGame, Wanted
from functions import schedule
from functions.host.hosts import HOSTS
from functions.host.ports import TurnStore
from functions.store.records import (
    GameRecord,
    NewSubmission,
    PlayerRecord,
    Submission,
    awaited,
)

# --- Deciding what is due ---


def submit_robot_orders(
    store: TurnStore,
    host: TurnGame,
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
        stored = latest_of(store, game, wanted_scopes)
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


def latest_of(store: TurnStore, game: GameRecord, scopes: list[str]) -> dict[tuple[str, str], Submission]:
    found: dict[tuple[str, str], Submission] = {}
    for scope in sorted(set(scopes)):
        found |= {k: s for k, s in store.latest_submissions(game.game_id, scope).items() if s.scope == scope}
    return found


class Gathered(dict[Wanted, str]):
    """The latest orders in for each awaited (player, scope), and those of them that are not
    ready (``Submission.ready``): stored, used at the deadline, but not yet counted as in."""

    def __init__(self, orders: Mapping[Wanted, str], unready: frozenset[Wanted]) -> None:
        super().__init__(orders)
        self.unready = unready


def gather(store: TurnStore, game: GameRecord, pending: Pending) -> Gathered:
    """The latest orders in for each awaited (player, scope). Scopes never recur (a combat's
    names the turn it is fought in), so whatever is stored for one is for it."""
    latest = latest_of(store, game, [w.scope for w in pending.wants])
    found = {
        wanted: latest[(wanted.player, wanted.scope)]
        for wanted in pending.wants
        if (wanted.player, wanted.scope) in latest
    }
    return Gathered(
        {wanted: sub.orders_json for wanted, sub in found.items()},
        frozenset(wanted for wanted, sub in found.items() if not sub.ready),
    )


def is_due(
    game: GameRecord,
    pending: Pending,
    orders: Gathered,
    players: list[PlayerRecord],
    now: datetime,
) -> bool:
    """Every awaited order in and ready, and its scopes run early (``schedule.runs_early``); else
    a combat round at its deadline, a player-turn at its deadline with every order in (ready or
    not: the deadline uses what is stored), or after the grace period without."""
    complete = all(w in orders for w in pending.wants)
    ready = complete and not orders.unready
    if ready and all(schedule.runs_early(game, w.scope, players) for w in pending.wants):
        return True
    due = game.round_deadline if pending.clock == "round" else schedule.processing_due(game, complete)
    return due is not None and due <= now


def next_record(
    game: GameRecord,
    before: Pending,
    after: Pending | None,
    played: Played,
    now: datetime,
    orders: Mapping[Wanted, str],
    players: list[PlayerRecord],
) -> GameRecord:
    """The game after a step: what it awaits, its deadlines, the turns missed in a row, and no
    bulletin (the step's results carry it). A new deadline period (a new player-turn, or
    game-turn in cycle mode) opens now, with its deadline from the schedule; every step that
    leaves combats to fight restarts the round clock, ``round_hours``."""
    changes: dict[str, object] = {
        "turn": played.turn,
        "missed": missed_turns(game, before, orders, players, now),
        "bulletin": "",
        "committed_at": now,
    }
    if after is None or played.over:
        return game.model_copy(
            update=changes | {"status": "over", "awaiting": (), "deadline": None, "round_deadline": None}
        )
    changes |= {
        "awaiting": tuple(awaited(w.scope, w.player) for w in after.wants),
        "round_deadline": now + game.round_period if after.clock == "round" else None,
    }
    if after.period != before.period or game.deadline is None:
        deadline = schedule.deadline_after(game.schedule, game.turn_hours, now)
        changes |= {"deadline": deadline, "opened_at": now, "reminded_at": None}
        return schedule.waiting_for_absences(game.model_copy(update=changes), players)
    return game.model_copy(update=changes)


def missed_turns(
    game: GameRecord,
    before: Pending,
    orders: Mapping[Wanted, str],
    players: list[PlayerRecord],
    now: datetime,
) -> dict[str, int]:
    """``GameRecord.missed`` after the step ``before``: a player-turn without a player's orders
    adds one to their count, with orders it is back to none; a player absent at the deadline
    (or now) is waived without counting. Combat rounds count nothing."""
    if before.clock != "turn":
        return game.missed
    counts = dict(game.missed)
    by_id = {p.player_id: p for p in players}
    for wanted in before.wants:
        player = by_id.get(wanted.player)
        if wanted in orders:
            counts.pop(wanted.player, None)
        elif player is None or not _absent(player, game, now):
            counts[wanted.player] = counts.get(wanted.player, 0) + 1
    return dict(sorted(counts.items()))


def _absent(player: PlayerRecord, game: GameRecord, now: datetime) -> bool:
    moments = [now] if game.deadline is None else [game.deadline, now]
    return any(schedule.absent_at(player, moment) is not None for moment in moments)


# --- Starting and pausing ---


def start(game: GameRecord, state_json: str, now: datetime) -> GameRecord:
    """A game record ready to run from ``state_json``: what it awaits, the period opened now and
    its deadline from the schedule (for whoever creates or starts a game)."""
    host = HOSTS[game.game]
    first = host.pending(state_json, game.turn_mode, game.combat_mode)
    return game.model_copy(
        update={
            "status": "running",
            "turn": host.opening(state_json).turn,
            "awaiting": tuple(awaited(w.scope, w.player) for w in first.wants) if first else (),
            "deadline": schedule.deadline_after(game.schedule, game.turn_hours, now),
            "round_deadline": None,
            "opened_at": now,
            "reminded_at": None,
            "missed": {},
        }
    )


def resumed(game: GameRecord, now: datetime) -> GameRecord:
    """A paused game running again: its deadlines, and the reminders handled, moved on by the
    time it was paused (since ``paused_at``; the pausing change's ``committed_at`` when unset)."""
    since = game.paused_at or game.committed_at or now
    shift = max(now - since, timedelta(0))

    def moved(moment: datetime | None) -> datetime | None:
        return None if moment is None else moment + shift

    return game.model_copy(
        update={
            "status": "running",
            "pause_reason": "",
            "paused_at": None,
            "deadline": moved(game.deadline),
            "round_deadline": moved(game.round_deadline),
            "reminded_at": moved(game.reminded_at),
        }
    )
