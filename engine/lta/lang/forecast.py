"""The forecast: what a player's orders will do before the wind, by the engine's own rules and
from the player's view only (issue 16). No die is rolled: the wind's chances are read off the
Winds Table, a shot's off the Weapons table.

Movement is walked with ``movement.move`` exactly as the turn does, the player's own Zeppelins
in the order given, every other Zeppelin where it is now (their owners' orders are not known).
A shot is checked with ``combat.aim`` against the map as it stands: the wind blows both firer
and target before the combat phase, so a shot out of reach now is a warning, not a refusal.
Fleet building needs nothing here: its answer already gives each ship's RP and slots and the
fleet's cost against the budget.
"""

from __future__ import annotations

from engine.lta.combat import Refused, aim, spend
from engine.lta.hexmap import MAX_ALTITUDE, arc_of, distance, label
from engine.lta.lang.printer import fire_text
from engine.lta.movement import Place, move
from engine.lta.orders import SMALL_ARMS, BuildOrders, CombatOrders, FireOrder, MovementOrders
from engine.lta.state import Airship, Status
from engine.lta.tables import BOMB_KILLS, WEAPONS, WIND_DIRECTION, WIND_SPEED, Cargo, Weapon, WindKind
from engine.lta.views import PlayerView, ShipSighting

DIE = 6
"""To hit and bombs both roll 1D6."""


def forecast(view: PlayerView, orders: MovementOrders | CombatOrders | BuildOrders) -> list[str]:
    """The forecast lines for orders already checked by the reader (refused lines left out)."""
    if isinstance(orders, MovementOrders):
        return movement_forecast(view, orders)
    if isinstance(orders, CombatOrders):
        return combat_forecast(view, orders)
    return []


def movement_forecast(view: PlayerView, orders: MovementOrders) -> list[str]:
    own = {s.id: s for s in view.own_ships if s.flying}
    where: dict[str, Place] = {
        s.id: (s.col, s.row, s.altitude) for s in view.ships if s.status == Status.FLYING
    }
    lines: list[str] = []
    for order in orders.moves:
        ship = own.pop(order.ship, None)
        if ship is None:
            continue
        taken = {p for i, p in where.items() if i != ship.id}
        after, spent, short = move(ship, order.steps, taken)
        points = f"{spent} of {ship.move_points} Movement Points"
        if not after.flying:
            where.pop(ship.id, None)
            lines.append(f"{ship.id} {ship.name} leaves the map by the {after.exit_edge} edge ({points})")
            continue
        where[ship.id] = (after.col, after.row, after.altitude)
        stop = f"; it stops short at {short}" if short else ""
        lines.append(
            f"{ship.id} {ship.name} ends in {label(after.col, after.row)} facing {after.facing.name}"
            f" at altitude {after.altitude}, {points}{stop}; {wind_clause(after.altitude)}"
        )
    return lines


def wind_clause(altitude: int) -> str:
    """What the Winds Table may still do to a Zeppelin at ``altitude``, in chances of 1D12."""
    kinds = [w.kind for w in WIND_DIRECTION.values()]
    turns = kinds.count(WindKind.ROTATE_LEFT) + kinds.count(WindKind.ROTATE_RIGHT)
    sides = len(WIND_DIRECTION)
    speeds = WIND_SPEED.values()
    up = "up a step" if altitude < MAX_ALTITUDE else "nothing (at the ceiling)"
    down = "down a step" if altitude > 1 else "down to the ground"
    return (
        f"then the wind (1D12): {kinds.count(WindKind.PUSH)}/{sides} blown {min(speeds)}-{max(speeds)} hexes,"
        f" {turns}/{sides} turned a hex side,"
        f" {kinds.count(WindKind.UP)}/{sides} {up}, {kinds.count(WindKind.DOWN)}/{sides} {down}"
    )


def chance(top: int) -> str:
    """``hits on 1-3 of a d6: 50 %``."""
    return f"1-{top} of a d{DIE}: {round(100 * top / DIE)} %"


def combat_forecast(view: PlayerView, orders: CombatOrders) -> list[str]:
    own = {s.id: s for s in view.own_ships if s.flying}
    seen = {s.id: s for s in view.ships if s.status == Status.FLYING}
    lines: list[str] = []
    for order in orders.fire:
        ship, target = own.get(order.ship), seen.get(order.target)
        if ship is None or target is None:
            continue
        line, own[ship.id] = _shot(ship, order, target)
        lines.append(line)
    return lines


def _shot(ship: Airship, order: FireOrder, target: ShipSighting) -> tuple[str, Airship]:
    """One shot's forecast line, and the firer after it (its shot spent when it can fire now)."""
    item = ship.item(order.item)
    kind = Weapon.SMALL_ARMS if order.item == SMALL_ARMS or item is None else item.kind
    head = f"{fire_text(order)} ({kind} at {target.name})"
    reach = aim(ship, order, target)
    if kind is Cargo.BOMBS:
        odds = f"destroys on {chance(BOMB_KILLS)}"
    else:
        stats = WEAPONS[Weapon.SMALL_ARMS if kind is Cargo.PASSENGERS else Weapon(kind)]
        arc = arc_of(ship.position, ship.facing, target.position)
        where = f"{arc.name.lower()} arc" if arc is not None else "its own hex"
        head += f": {distance(ship.position, target.position)} hexes, range {stats.range}, {where}"
        odds = f"hits on {chance(stats.to_hit)}, Damage Table column {stats.column}"
    if isinstance(reach, Refused):
        return (
            f"{head}; WARNING, not in range and arc now: {reach.reason}; if the wind brings it in, {odds}",
            ship,
        )
    after = spend(ship, order.item)
    return f"{head}; in range and arc now; {odds}; {_left(after, kind, order.item)}", after


def _left(ship: Airship, kind: Weapon | Cargo, key: int) -> str:
    """The ammunition left after a shot: the weapon's own shots and its Ammo cargo's."""
    if kind is Cargo.BOMBS:
        return f"{ship.count(Cargo.BOMBS)} Bombs left aboard"
    item = ship.item(key)
    if key == SMALL_ARMS or item is None or item.shots is None:
        return "ammunition unlimited"
    stores = sum(i.shots or 0 for i in ship.items if i.kind is Cargo.AMMO and i.ammo_for == kind)
    return f"{item.shots} shots left in it" + (f", {stores} in Ammo" if stores else "")
