"""Lighter Than Air Warfare behind the host's game interface (engine/core/game.py)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from engine.lta.orders import Submission
from engine.lta.scenarios import Setup
from engine.lta.state import GameState, Phase
from engine.lta.turn import Outcome, new_game, play_build, play_combat, play_movement
from engine.lta.views import PlayerView, player_view


class Awaiting(BaseModel):
    """Which orders the game waits for, and from whom."""

    model_config = ConfigDict(frozen=True)

    phase: Phase
    players: tuple[str, ...]


class LighterThanAir:
    key = "lta"

    def new_game(self, setup: Setup, seed: int) -> Outcome:
        return new_game(setup, seed)

    def process(self, state: GameState, orders: Sequence[Submission]) -> Outcome:
        """One order phase: the fleets (then turn 1's initiative), movement orders (then the map
        update), or combat orders (then the wind, the map update, combat, damage, repairs and the
        next turn's initiative). Players
        who sent nothing fly the ready-made fleet, stay put and hold their fire. A game that is
        over stays as it is."""
        if state.phase is Phase.BUILD:
            return play_build(state, orders)
        if state.phase is Phase.MOVEMENT:
            return play_movement(state, orders)
        if state.phase is Phase.COMBAT:
            return play_combat(state, orders)
        return Outcome(state=state, events=[], results=[])

    def waiting(self, state: GameState) -> Awaiting:
        players = () if state.phase is Phase.OVER else tuple(state.in_play())
        return Awaiting(phase=state.phase, players=players)

    def awaiting(self, state: GameState) -> list[str]:
        return list(self.waiting(state).players)

    def view(self, state: GameState, player: str) -> PlayerView:
        return player_view(state, player)
