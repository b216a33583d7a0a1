"""Finding what a GM names (a game in the right status, a player by id, name or address, who
holds the seats) and changing a game's record as a new version."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from functions.console.errors import ConsoleError
from functions.store import GameRecord, PlayerRecord, Store

_NUMBERED = re.compile(r"^P(\d+)$")


def require_game(store: Store, game_id: str, *statuses: str) -> GameRecord:
    """Game ``game_id``, which must be in one of ``statuses`` (any when none are given)."""
    game = store.game(game_id.lower())
    if game is None:
        raise ConsoleError(f"there is no game {game_id}: 'warpmail game list' shows the games")
    if statuses and game.status not in statuses:
        raise ConsoleError(f"game {game.game_id} is {game.status}, not {' or '.join(statuses)}")
    return game


def find_player(players: Iterable[PlayerRecord], written: str) -> PlayerRecord | None:
    """The player whose id, name or address ``written`` is (any case; removed players last)."""
    wanted = written.strip().lower()
    found = [p for p in players if wanted in {p.player_id.lower(), p.name.lower(), p.address}]
    return min(found, key=lambda p: p.role == "removed", default=None)


def require_player(store: Store, game: GameRecord, written: str) -> PlayerRecord:
    found = find_player(store.players(game.game_id), written)
    if found is None:
        raise ConsoleError(
            f"game {game.game_id} has no player {written}: 'warpmail player list {game.game_id}' shows them"
        )
    return found


def seat_order(player: PlayerRecord) -> tuple[int, str]:
    """P2 before P10; other ids after the numbered ones, by id."""
    numbered = _NUMBERED.match(player.player_id)
    return (int(numbered.group(1)), "") if numbered else (1 << 30, player.player_id)


def seated(players: Iterable[PlayerRecord]) -> list[PlayerRecord]:
    """The players holding a seat, in seat order."""
    return sorted((p for p in players if p.role == "player"), key=seat_order)


def human_seats(players: Iterable[PlayerRecord]) -> list[PlayerRecord]:
    """The seats a person plays (mail goes to them), in seat order."""
    return [p for p in seated(players) if p.robot is None]


def change_game(store: Store, game: GameRecord, now: datetime, **changes: Any) -> GameRecord:
    """``game`` with ``changes``, stored as its next version (metadata only; the state stays)."""
    changed = game.model_copy(update={**changes, "committed_at": now})
    if not store.update_game(changed, expected_version=game.version):
        raise ConsoleError(f"game {game.game_id} changed meanwhile: run the command again")
    return changed.model_copy(update={"version": game.version + 1})
