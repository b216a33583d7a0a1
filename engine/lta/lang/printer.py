"""Orders printed back as the player would write them: one line per order, canonical."""

from __future__ import annotations

from engine.lta.fleet import cost, slots_used
from engine.lta.lang.shipline import ship_line
from engine.lta.orders import SMALL_ARMS, BuildOrders, CombatOrders, FireOrder, MovementOrders, MoveOrder
from engine.lta.tables import CLASSES


def move_text(move: MoveOrder) -> str:
    return f"MOVE {move.ship} {move.steps or 'STAY'}"


def fire_text(order: FireOrder) -> str:
    item = "SA" if order.item == SMALL_ARMS else str(order.item)
    return f"FIRE {order.ship} {item} AT {order.target}"


def movement_lines(orders: MovementOrders) -> list[str]:
    head = [f"INITIATIVE {orders.initiative.upper()}"] if orders.initiative else []
    return head + [move_text(m) for m in orders.moves]


def combat_lines(orders: CombatOrders) -> list[str]:
    return [fire_text(f) for f in orders.fire]


def build_lines(orders: BuildOrders) -> list[str]:
    """Each ship with its Resource Points and slots as a comment, so the answer to a fleet mail
    can be mailed back as it is."""
    return [
        f"{ship_line(d)}   # {cost(d)} RP, {slots_used(d)} of {CLASSES[d.cls].slots} slots"
        for d in orders.ships
    ]
