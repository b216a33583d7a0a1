"""WarpWar behind the host's game interface (engine/core/game.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.warpwar.classic_map import classic_map
from engine.warpwar.events import AnyEvent
from engine.warpwar.mapgen import MapSpec, generate_map
from engine.warpwar.orders import OrderResult, RoundOrders, TurnOrders
from engine.warpwar.state import GameConfig, GameState, Stage
from engine.warpwar.turn import Outcome, new_game, submit_round, submit_turn
from engine.warpwar.views import PlayerView, player_view


class Setup(BaseModel):
    """A new game: its configuration and its map (the classic map, or one generated)."""

    model_config = ConfigDict(frozen=True)

    config: GameConfig
    map: Literal["classic"] | MapSpec = "classic"


Submission = TurnOrders | RoundOrders


class WarpWar:
    key = "warpwar"

    def new_game(self, setup: Setup, seed: int) -> Outcome:
        star_map = classic_map() if setup.map == "classic" else generate_map(setup.map, seed)
        return new_game(setup.config, star_map, seed)

    def process(self, state: GameState, orders: Sequence[Submission]) -> Outcome:
        """Player-turn orders while the game waits for them; otherwise one round of every
        combat for which orders were sent (ships without orders use their standing orders)."""
        if state.stage is Stage.ORDERS:
            turn = next(
                (o for o in orders if isinstance(o, TurnOrders) and o.player == state.active_player.id), None
            )
            return submit_turn(state, turn or TurnOrders(player=state.active_player.id))
        events: list[AnyEvent] = []
        results: list[OrderResult] = []
        stars = sorted(
            {o.star for o in orders if isinstance(o, RoundOrders)} or {c.star for c in state.combats}
        )
        for star in stars:
            outcome = submit_round(
                state, star, [o for o in orders if isinstance(o, RoundOrders) and o.star == star]
            )
            state = outcome.state
            events += outcome.events
            results += outcome.results
        return Outcome(state=state, events=events, results=results)

    def awaiting(self, state: GameState) -> list[str]:
        if state.stage is Stage.ORDERS:
            return [state.active_player.id]
        if state.stage is Stage.COMBAT:
            stars = {c.star for c in state.combats}
            return sorted({s.owner for s in state.ships.values() if s.location in stars})
        return []

    def view(self, state: GameState, player: str) -> PlayerView:
        return player_view(state, player)
