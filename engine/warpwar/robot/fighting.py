"""The admiral in a combat round: focused fire and power allocated from the CRT.

Every ship of the side fires at the same enemy ship (``focus``): enemy attributes are secret,
so the one sure way to fire at the most damaged enemy ship is to keep firing at the one fired
on before until it is gone. Each ship then weighs every way of splitting its Power/Drive
between Drive, Beam, Screen and ECM (or Missiles and Cannons) under each tactic, scoring the
expected hits it deals less the expected hits it takes (``tactics``), and picks among the best
at random so that it cannot be read. A hurt Warpship, or one with no weapons, RETREATs with
Drive enough to outrun what it expects to face.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.rng import Rng
from engine.warpwar.components import MAX_SHELLS_PER_CANNON
from engine.warpwar.ecm import MISSILE_BASE_HITS
from engine.warpwar.orders import CombatOrder, MissileShot, Tactic
from engine.warpwar.robot.common import hurt
from engine.warpwar.robot.tactics import (
    ENEMY_BEAM,
    ENEMY_DRIVES,
    TACTICS_TO_FIGHT,
    best_missile_drive,
    exposure,
    gun_odds,
    missile_odds,
)
from engine.warpwar.ships import Ship

LOSS_WEIGHT = 1.0
"""How much a hit taken counts against a hit dealt."""

CLOSE_TO_BEST = 0.9
"""Allocations scoring at least this share of the best are equally likely choices."""

ESCAPE_DRIVE = max(ENEMY_DRIVES) + 1
"""Drive above every believed enemy drive: ATTACKers then read "-1" or less, and ESCAPES."""


@dataclass(frozen=True)
class Allocation:
    tactic: Tactic
    drive: int
    beam: int = 0
    screen: int = 0
    ecm: int = 0
    missiles: int = 0
    cannons: tuple[int, ...] = ()


def focus(enemies: tuple[str, ...]) -> str:
    """The enemy ship every ship of the side fires at: Warpships first (they fire back hardest
    and can get away), then the lowest number, the same choice round after round."""
    return min(enemies, key=_target_key)


def _target_key(uid: str) -> tuple[bool, int, str]:
    name = uid.rsplit(".", 1)[-1]
    return not name.startswith("W"), int(name[1:]) if name[1:].isdigit() else 0, uid


def combat_order(ship: Ship, enemies: tuple[str, ...], threat: float, rng: Rng) -> CombatOrder:
    """``threat``: how many enemy ships are expected to fire at this one."""
    power = ship.current.PD
    if not enemies or power == 0:
        return CombatOrder(tactic=Tactic.DODGE, screen=min(ship.current.S, power))
    armed = ship.current.B or min(ship.current.T, ship.current.M) or min(ship.current.C, ship.current.SH)
    if ship.is_warpship and (hurt(ship) or not armed):
        return _retreat(ship)
    target = focus(enemies)
    chosen = _choose(ship, threat, rng)
    missile = MissileShot(target=target, drive=best_missile_drive())
    return CombatOrder(
        tactic=chosen.tactic,
        drive=chosen.drive,
        beam=chosen.beam,
        beam_target=target if chosen.beam else None,
        screen=chosen.screen,
        ecm=chosen.ecm,
        missiles=(missile,) * chosen.missiles,
        cannons=chosen.cannons,
        cannon_target=target if chosen.cannons else None,
    )


def _retreat(ship: Ship) -> CombatOrder:
    """All the Drive an escape needs, the rest in Screens and ECM."""
    power = ship.current.PD
    drive = min(power, ESCAPE_DRIVE)
    screen = min(ship.current.S, power - drive)
    ecm = min(ship.current.E, power - drive - screen)
    return CombatOrder(tactic=Tactic.RETREAT, drive=drive, screen=screen, ecm=ecm)


def _choose(ship: Ship, threat: float, rng: Rng) -> Allocation:
    scored = sorted(((_score(ship, a, threat), a) for a in _allocations(ship)), key=lambda x: -x[0])
    best = scored[0][0]
    floor = best * CLOSE_TO_BEST if best > 0 else best
    return rng.choice([a for score, a in scored if score >= floor])


def _allocations(ship: Ship) -> list[Allocation]:
    """Every sensible split of power: Beam and Screens, or Missiles and Cannons (never both, by
    the rules), Drive as set, and what is left in Screens then ECM."""
    now = ship.current
    power = now.PD
    options: list[Allocation] = []
    launch = min(now.T, now.M)
    bursts = _bursts(now.C, now.SH)
    for tactic in TACTICS_TO_FIGHT:
        for drive in range(power + 1):
            left = power - drive
            for beam in range(min(now.B, left) + 1):
                screen = min(now.S, left - beam)
                ecm = min(now.E, left - beam - screen)
                options.append(Allocation(tactic, drive, beam=beam, screen=screen, ecm=ecm))
            missiles = min(launch, left)
            cannons = bursts[: left - missiles]
            if missiles or cannons:
                ecm = min(now.E, left - missiles - len(cannons))
                options.append(Allocation(tactic, drive, ecm=ecm, missiles=missiles, cannons=cannons))
    return options


def _bursts(cannons: int, shells: int) -> tuple[int, ...]:
    """The Shells each Cannon fires this round: full bursts first, as the Shells last."""
    bursts = []
    for _ in range(cannons):
        burst = min(MAX_SHELLS_PER_CANNON, shells)
        if burst == 0:
            break
        bursts.append(burst)
        shells -= burst
    return tuple(bursts)


def _score(ship: Ship, plan: Allocation, threat: float) -> float:
    return _dealt(ship, plan) - LOSS_WEIGHT * _taken(ship, plan, threat)


def _dealt(ship: Ship, plan: Allocation) -> float:
    tl = ship.tech_level
    guns = gun_odds(plan.tactic, plan.drive)
    hits = guns.hits(plan.beam + tl) if plan.beam else 0.0
    hits += sum(guns.hits(shells + tl) for shells in plan.cannons)
    return hits + plan.missiles * missile_odds(best_missile_drive()).hits(MISSILE_BASE_HITS + tl)


def _taken(ship: Ship, plan: Allocation, threat: float) -> float:
    """Expected hits past the Screen from ``threat`` enemy Beams (the enemy's tech level taken
    as our own); a powered Screen stops its power plus tech level once per round."""
    tl = ship.tech_level
    odds = exposure(plan.tactic, plan.drive)
    incoming = threat * odds.hits(ENEMY_BEAM + tl)
    if not plan.screen:
        return incoming
    struck: float = 1 - (1 - odds.hit) ** threat
    return max(0.0, incoming - (plan.screen + tl) * struck)
