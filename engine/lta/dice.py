"""Dice every player can audit.

Each player has a die-roll stream of their own: ``Rng(seed)`` (engine/core/rng.py, SplitMix64) on
a per-player seed drawn when the game is made. The game publishes the SHA-256 of each seed at the
start (:func:`commitment`) and keeps the seed secret until the game is over; every die drawn from
a stream is logged with its purpose, in the order drawn, so ``Rng(seed).d(sides)`` called once per
logged roll gives back exactly the logged values (docs/lta-dice.md has a script that checks it).

Whose stream rolls what is interpretation 14: there is no game stream, every die is a player's.
"""

from __future__ import annotations

import hashlib

from pydantic import BaseModel, ConfigDict

from engine.core.rng import Rng

COMMITMENT_PREFIX = "warpmail-lta-dice"


def commitment(player: str, seed: int) -> str:
    """The published hash of a player's seed: SHA-256 of ``warpmail-lta-dice:<player>:<seed>``
    (the seed in decimal), so a seed cannot be swapped after the game has started."""
    return hashlib.sha256(f"{COMMITMENT_PREFIX}:{player}:{seed}".encode()).hexdigest()


def player_seed(game_seed: int, player: str) -> int:
    """A player's stream seed: derived from the game's seed and the player's id, so knowing one
    player's seed (revealed at the end) tells nothing of another's."""
    return Rng(game_seed).derive(f"lta-dice:{player}").seed


class Roll(BaseModel):
    """One die drawn from one player's stream."""

    model_config = ConfigDict(frozen=True)

    stream: str
    """The player whose stream it came from."""
    n: int
    """Its place in that stream, from 1."""
    sides: int
    value: int
    turn: int
    phase: str
    purpose: str


class Dice:
    """The streams while one phase is played: rebuilt from the seeds and the rolls already logged
    (a state holds no generator), then drawn from in order, each draw logged."""

    def __init__(
        self, seeds: dict[str, int], logged: dict[str, tuple[Roll, ...]], turn: int, phase: str
    ) -> None:
        self._rngs: dict[str, Rng] = {}
        self._count: dict[str, int] = {}
        for player, seed in seeds.items():
            rng = Rng(seed)
            for roll in logged.get(player, ()):
                rng.d(roll.sides)
            self._rngs[player] = rng
            self._count[player] = len(logged.get(player, ()))
        self._turn = turn
        self._phase = phase
        self.rolled: list[Roll] = []

    def roll(self, player: str, sides: int, purpose: str) -> int:
        value = self._rngs[player].d(sides)
        self._count[player] += 1
        self.rolled.append(
            Roll(
                stream=player,
                n=self._count[player],
                sides=sides,
                value=value,
                turn=self._turn,
                phase=self._phase,
                purpose=purpose,
            )
        )
        return value

    def relabel(self, turn: int, phase: str) -> None:
        """Log the draws from here on under another turn and phase (the next turn's initiative is
        rolled at the end of this turn's combat)."""
        self._turn = turn
        self._phase = phase

    def new_rolls(self, player: str) -> tuple[Roll, ...]:
        return tuple(r for r in self.rolled if r.stream == player)
