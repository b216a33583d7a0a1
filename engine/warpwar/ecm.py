"""Electronic countermeasures against incoming Missiles (rules IV, "ECM"; VI, "ECM Use Example").

"After orders are revealed, the player using ECM allocates his ECM points among the attacking
Missiles, and then adds or subtracts the difference between the defending ship's tech level and
each Missile's tech level from the ECM points allocated to that Missile ONLY." The effective ECM
against a Missile (never below 0) is how far the defender may lower that Missile's drive
setting: "The player using ECM chooses to lower the Missile's Drive setting to 2."

Readings (the owner cannot be asked once orders are revealed, so the engine decides for him):

* The tech-level difference modifies only ECM points actually allocated to the Missile: a
  Missile given no ECM is not affected, as an unpowered Screen gets no tech level ("If the
  Screen is not powered, no tech level is added to the S=0").
* The defender lowers each Missile's drive by the amount, up to its effective ECM, that leaves
  the least damage from that Missile (lowering is not always better: against a DODGEing ship a
  Missile at +3 only Hits, at +2 it Hits +1). Ties go to the larger lowering. A drive setting
  is never lowered below 0.
* How the points are spread is the ship's ``EcmPolicy``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.warpwar import crt
from engine.warpwar.crt import Result
from engine.warpwar.orders import EcmPolicy, Tactic

MISSILE_BASE_HITS = 2


@dataclass(frozen=True)
class IncomingMissile:
    """A Missile attacking the defender: its drive setting and its firer's tech level."""

    drive: int
    tech_level: int


@dataclass(frozen=True)
class Defender:
    """What the CRT needs of the Missiles' target, and its ECM."""

    tech_level: int
    drive: int
    tactic: Tactic
    ecm: int


@dataclass(frozen=True)
class MissileOutcome:
    """One Missile after ECM: points allocated, effective ECM, the drive it flew at, the result."""

    allocated: int
    effective: int
    drive: int
    result: Result
    hits: int


def effective_ecm(allocated: int, defender_tl: int, missile_tl: int) -> int:
    """ECM points allocated, plus the defender's tech level minus the Missile's; at least 0."""
    if allocated <= 0:
        return 0
    return max(0, allocated + defender_tl - missile_tl)


def missile_result(drive: int, tech_level: int, defender: Defender) -> tuple[Result, int]:
    """A Missile "always attacks": the ATTACK row at its drive minus the target's, the target's
    tactic column; a hit does "2 hits damage, plus tech level", plus the CRT's +1 or +2."""
    result = crt.read(Tactic.ATTACK, drive - defender.drive, defender.tactic)
    hits = MISSILE_BASE_HITS + tech_level + result.bonus if result.hits else 0
    return result, hits


def outcome(missile: IncomingMissile, allocated: int, defender: Defender) -> MissileOutcome:
    """The least damaging drive the defender can lower this Missile to with ``allocated`` ECM."""
    effective = effective_ecm(allocated, defender.tech_level, missile.tech_level)
    best: MissileOutcome | None = None
    for lowering in range(min(effective, missile.drive), -1, -1):
        drive = missile.drive - lowering
        result, hits = missile_result(drive, missile.tech_level, defender)
        if best is None or hits < best.hits:
            best = MissileOutcome(allocated, effective, drive, result, hits)
    assert best is not None
    return best


def defend(
    missiles: Sequence[IncomingMissile], defender: Defender, policy: EcmPolicy
) -> list[MissileOutcome]:
    """Spread the defender's powered ECM over the Missiles (in order of launch) by ``policy``."""
    if policy is EcmPolicy.EVEN:
        allocation = _even(len(missiles), defender.ecm)
    elif policy is EcmPolicy.FIRST_COME:
        allocation = _first_come(missiles, defender)
    else:
        allocation = _least_damage(missiles, defender)
    return [outcome(m, a, defender) for m, a in zip(missiles, allocation, strict=True)]


def _even(count: int, points: int) -> list[int]:
    """The same number of points against every Missile, leftovers one each to the first ones."""
    if count == 0:
        return []
    share, extra = divmod(points, count)
    return [share + (1 if i < extra else 0) for i in range(count)]


def _hits_by_points(missile: IncomingMissile, defender: Defender) -> list[int]:
    return [outcome(missile, a, defender).hits for a in range(defender.ecm + 1)]


def _first_come(missiles: Sequence[IncomingMissile], defender: Defender) -> list[int]:
    """Each Missile in turn gets the fewest points that do the most against it, from what is left."""
    left = defender.ecm
    allocation = []
    for missile in missiles:
        table = _hits_by_points(missile, defender)[: left + 1]
        points = table.index(min(table))
        allocation.append(points)
        left -= points
    return allocation


def _least_damage(missiles: Sequence[IncomingMissile], defender: Defender) -> list[int]:
    """The allocation with the least total damage, by dynamic programming over Missiles and ECM
    points; among equals, each Missile in launch order takes the fewest points."""
    points = defender.ecm
    tables = [_hits_by_points(m, defender) for m in missiles]
    # best[i][p]: least damage from Missiles i.. with p points to spend on them.
    best = [[0] * (points + 1) for _ in range(len(missiles) + 1)]
    for i in range(len(missiles) - 1, -1, -1):
        for p in range(points + 1):
            best[i][p] = min(tables[i][a] + best[i + 1][p - a] for a in range(p + 1))
    allocation = []
    left = points
    for i in range(len(missiles)):
        a = next(a for a in range(left + 1) if tables[i][a] + best[i + 1][left - a] == best[i][left])
        allocation.append(a)
        left -= a
    return allocation
