"""A simple computer captain: orders written from its own view only, with no dice of its own.

It builds the scenario's ready-made fleet (what its view shows before turn 1).

Each Zeppelin closes on the nearest enemy (the convoy's freighters run for the east edge
instead), matching the enemy's altitude or sitting up to 2 above it, and every weapon fires at
the first enemy it could hit were the wind to stay still.
"""

from __future__ import annotations

from engine.lta.combat import Refused, aim
from engine.lta.fleet import design_of
from engine.lta.hexmap import MAX_ALTITUDE, distance, step
from engine.lta.orders import SMALL_ARMS, BuildOrders, CombatOrders, FireOrder, MovementOrders, MoveOrder
from engine.lta.scenarios import CONVOY
from engine.lta.state import Airship, Phase
from engine.lta.tables import Cargo, Weapon
from engine.lta.views import PlayerView, ShipSighting


def _enemies(view: PlayerView) -> list[ShipSighting]:
    friends = {view.player, *view.allies}
    return [s for s in view.ships if s.status == "flying" and s.owner not in friends]


def _course(ship: Airship, goal: tuple[int, int] | None, altitude: int | None) -> str:
    """Letters that bring ``ship`` towards ``goal`` (or due east when None) and ``altitude``."""
    letters = ""
    points = ship.move_points
    facing, here, height = ship.facing, ship.position, ship.altitude
    if altitude is not None and height != altitude and points > 0:
        letters += "U" if altitude > height else "D"
        height += 1 if altitude > height else -1
        points -= 1
    while points > 0:
        options = [facing] if ship.steering_hit else [facing, facing.turned(-1), facing.turned(1)]
        best = min(options, key=lambda f: _score(step(*here, f), goal))
        if best != facing:
            letters += "L" if best == facing.turned(-1) else "R"
            facing = best
        else:
            if goal is not None and distance(here, goal) <= 1:
                break
            letters += "F"
            here = step(*here, facing)
        points -= 1
    return letters


def _score(place: tuple[int, int], goal: tuple[int, int] | None) -> int:
    return -place[0] if goal is None else distance(place, goal)


def movement_orders(view: PlayerView) -> MovementOrders:
    enemies = _enemies(view)
    moves: list[MoveOrder] = []
    for ship in view.own_ships:
        if not ship.flying:
            continue
        if view.side == CONVOY and ship.count(Cargo.BULK_CARGO):
            moves.append(MoveOrder(ship=ship.id, steps=_course(ship, None, None)))
            continue
        if not enemies:
            continue
        near = min(enemies, key=lambda e: (distance(ship.position, (e.col, e.row)), e.id))
        wanted = min(MAX_ALTITUDE, max(1, near.altitude + 1))
        moves.append(MoveOrder(ship=ship.id, steps=_course(ship, (near.col, near.row), wanted)))
    return MovementOrders(player=view.player, initiative="last", moves=tuple(moves))


def _can_fire(ship: Airship, key: int, target: ShipSighting) -> bool:
    return not isinstance(aim(ship, FireOrder(ship=ship.id, item=key, target=target.id), target), Refused)


def combat_orders(view: PlayerView) -> CombatOrders:
    enemies = _enemies(view)
    fire: list[FireOrder] = []
    for ship in view.own_ships:
        if not ship.flying:
            continue
        keys = [i.key for i in ship.items if isinstance(i.kind, Weapon) or i.kind is Cargo.PASSENGERS]
        for key in keys + ([SMALL_ARMS] if ship.small_arms else []):
            target = next((e for e in enemies if _can_fire(ship, key, e)), None)
            if target is not None:
                fire.append(FireOrder(ship=ship.id, item=key, target=target.id))
    return CombatOrders(player=view.player, fire=tuple(fire))


def build_orders(view: PlayerView) -> BuildOrders:
    return BuildOrders(player=view.player, ships=tuple(design_of(s) for s in view.own_ships))


def orders(view: PlayerView) -> MovementOrders | CombatOrders | BuildOrders:
    """The captain's orders for the phase the game waits for."""
    if view.phase is Phase.BUILD:
        return build_orders(view)
    return combat_orders(view) if view.phase is Phase.COMBAT else movement_orders(view)
