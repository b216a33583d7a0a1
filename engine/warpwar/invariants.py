"""Facts that hold in every legal game state. A host checks them before saving a new state;
tests check them after every step."""

from __future__ import annotations

from engine.warpwar.components import Attr
from engine.warpwar.ships import Ship
from engine.warpwar.state import GameState, Stage


def violations(state: GameState) -> list[str]:
    """Every broken invariant, in words; empty for a sound state."""
    problems: list[str] = []
    for uid, ship in sorted(state.ships.items()):
        problems += [f"{uid}: {p}" for p in _ship_problems(state, uid, ship)]
    for star, base in sorted(state.bases.items()):
        if not state.map.is_star(star) or base.star != star:
            problems.append(f"Base at {star} is not on its star")
    problems += [f"control of {h}: not a star" for h in sorted(state.control) if not state.map.is_star(h)]
    problems += _stage_problems(state)
    return problems


def _ship_problems(state: GameState, uid: str, ship: Ship) -> list[str]:
    problems: list[str] = []
    if uid != ship.uid:
        problems.append("stored under the wrong key")
    if ship.location not in state.map.hex_set:
        problems.append(f"off the map at {ship.location}")
    problems += [
        f"{a.value} {ship.current.get(a)} above its built {ship.built.get(a)}"
        for a in Attr
        if ship.current.get(a) > ship.built.get(a)
    ]
    if ship.destroyed:
        problems.append("has nothing left but is still in play")
    if ship.cargo > ship.hold_capacity:
        problems.append(f"cargo {ship.cargo} BP exceeds Hold capacity {ship.hold_capacity}")
    if not ship.warp_generator:
        problems += _systemship_problems(state, ship)
    if len(ship.carrying) > ship.built.SR:
        problems.append("carries more Systemships than it has racks")
    for carried in ship.carrying:
        held = state.ships.get(carried)
        if held is None or held.carried_by != uid or held.location != ship.location:
            problems.append(f"carries {carried}, which is not aboard")
    return problems


def _systemship_problems(state: GameState, ship: Ship) -> list[str]:
    problems: list[str] = []
    if ship.built.H or ship.built.SR or ship.repair_bay:
        problems.append("a Systemship with Holds, racks or a Repair Bay")
    if ship.carried_by is None and not state.map.is_star(ship.location):
        problems.append(f"a Systemship left in space at {ship.location}")
    if ship.carried_by is not None:
        carrier = state.ships.get(ship.carried_by)
        if carrier is None or ship.uid not in carrier.carrying or carrier.owner != ship.owner:
            problems.append(f"carried by {ship.carried_by}, which does not carry it")
    return problems


def _stage_problems(state: GameState) -> list[str]:
    problems: list[str] = []
    if (state.stage is Stage.COMBAT) != bool(state.combats):
        problems.append(f"stage {state.stage.value} with {len(state.combats)} combats pending")
    if (state.stage is Stage.OVER) != bool(state.winners):
        problems.append(f"stage {state.stage.value} with winners {state.winners}")
    if state.stage is Stage.ORDERS:
        for star in sorted({s.location for s in state.ships.values() if state.map.is_star(s.location)}):
            owners = {s.owner for s in state.ships.values() if s.location == star}
            if len(owners) > 1:
                problems.append(f"{star}: ships of {sorted(owners)} together with no combat")
    return problems
