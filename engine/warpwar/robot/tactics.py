"""The admiral's combat arithmetic: expected hits read off the CRT (engine/warpwar/crt.py).

A robot never sees an enemy ship's attributes or its orders before they are revealed, so it
reads the CRT against a belief about what an enemy ship does in a round: which tactic it picks
and at what drive. For each own tactic and drive the table gives the chance that our Beam (or
burst of Shells) hits and the bonus it earns, and the chance that an enemy's Beam hits us. A
round's order is then the power allocation with the best expected hits dealt less hits taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.warpwar import crt
from engine.warpwar.crt import Result
from engine.warpwar.ecm import MISSILE_BASE_HITS
from engine.warpwar.orders import Tactic

ENEMY_TACTICS: dict[Tactic, float] = {Tactic.ATTACK: 0.45, Tactic.DODGE: 0.45, Tactic.RETREAT: 0.10}
"""What an enemy ship is believed to do: mostly fight, sometimes run."""

ENEMY_DRIVES: dict[int, float] = {0: 0.05, 1: 0.10, 2: 0.20, 3: 0.25, 4: 0.20, 5: 0.12, 6: 0.08}
"""Believed drive settings: a ship must keep most of its power for weapons and Screens."""

ENEMY_BEAM = 4
"""Believed power of an enemy Beam that fires at us."""

MISSILE_DRIVES = range(1, 13)

TACTICS_TO_FIGHT = (Tactic.ATTACK, Tactic.DODGE)


@dataclass(frozen=True)
class Odds:
    """A weapon's chance to hit and its expected CRT bonus (bonus hits times their chance)."""

    hit: float
    bonus: float

    def hits(self, damage: int) -> float:
        """Expected hits of a weapon doing ``damage`` when it hits."""
        return self.hit * damage + self.bonus


def _belief() -> list[tuple[Tactic, int, float]]:
    return [(t, d, pt * pd) for t, pt in ENEMY_TACTICS.items() for d, pd in ENEMY_DRIVES.items()]


def _odds(results: list[tuple[Result, float]]) -> Odds:
    return Odds(
        hit=sum(p for r, p in results if r.hits),
        bonus=sum(p * r.bonus for r, p in results if r.hits),
    )


@cache
def gun_odds(tactic: Tactic, drive: int) -> Odds:
    """Our Beam or Shells, fired at ``tactic`` and ``drive``, against a believed enemy ship."""
    return _odds([(crt.read(tactic, drive - d, t), p) for t, d, p in _belief()])


@cache
def exposure(tactic: Tactic, drive: int) -> Odds:
    """An enemy Beam against us when we are at ``tactic`` and ``drive``."""
    return _odds([(crt.read(t, d - drive, tactic), p) for t, d, p in _belief()])


@cache
def missile_odds(drive: int) -> Odds:
    """A Missile at ``drive`` (it always reads the ATTACK row) against a believed enemy ship."""
    return _odds([(crt.read(Tactic.ATTACK, drive - d, t), p) for t, d, p in _belief()])


@cache
def best_missile_drive() -> int:
    """The Missile drive with the most expected hits against a believed enemy ship (lowest on ties)."""
    return max(MISSILE_DRIVES, key=lambda d: (missile_odds(d).hits(MISSILE_BASE_HITS), -d))
