"""Movement (sequence 2-3) and the wind (sequence 5-6): where every Zeppelin goes.

Orders are carried out ship by ship in the turn's order of play; a Zeppelin may not enter a hex
at the altitude of one already there (interpretation 8: that is what moving first buys). The
wind ignores that: it is weather, not seamanship.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.lta.dice import Dice
from engine.lta.hexmap import COLUMNS, MAX_ALTITUDE, compass_step, on_map, step
from engine.lta.state import Airship, Status
from engine.lta.tables import WIND_DIRECTION, WIND_SPEED, WindKind

Place = tuple[int, int, int]


def _exit_edge(col: int, row: int) -> str:
    if col < 1:
        return "W"
    if col > COLUMNS:
        return "E"
    return "N" if row < 1 else "S"


def leave_map(ship: Airship, col: int, row: int) -> Airship:
    edge = _exit_edge(col, row)
    return ship.model_copy(update={"status": Status.DEPARTED, "exit_edge": edge})


def move(ship: Airship, steps: str, taken: set[Place]) -> tuple[Airship, int, str]:
    """Carry out one Zeppelin's move: the ship after it, the Movement Points spent, and why it
    stopped short ("" when every step was made). ``taken`` holds the other Zeppelins' places.

    Every letter costs one Movement Point; a step that cannot be made ends the move there, so
    no Zeppelin ever spends more than it has."""
    spent = 0
    for n, letter in enumerate(steps, start=1):
        if spent >= ship.move_points:
            return (
                ship,
                spent,
                f"step {n} ({letter}): {ship.name} has only {ship.move_points} Movement Points",
            )
        if letter in "LR":
            if ship.steering_hit:
                return (
                    ship,
                    spent,
                    f"step {n} ({letter}): {ship.name}'s steering is shot away; it cannot turn",
                )
            ship = ship.model_copy(update={"facing": ship.facing.turned(-1 if letter == "L" else 1)})
        elif letter in "UD":
            altitude = ship.altitude + (1 if letter == "U" else -1)
            if altitude > MAX_ALTITUDE:
                return ship, spent, f"step {n} (U): {ship.name} is at the ceiling, altitude {MAX_ALTITUDE}"
            if altitude < 1:
                return ship, spent, f"step {n} (D): no order takes a Zeppelin down to the ground (altitude 0)"
            if (ship.col, ship.row, altitude) in taken:
                return ship, spent, f"step {n} ({letter}): another Zeppelin holds that altitude in this hex"
            ship = ship.model_copy(update={"altitude": altitude})
        else:
            col, row = step(ship.col, ship.row, ship.facing)
            if not on_map(col, row):
                return leave_map(ship, col, row), spent + 1, ""
            if (col, row, ship.altitude) in taken:
                return (
                    ship,
                    spent,
                    f"step {n} (F): another Zeppelin holds that hex at altitude {ship.altitude}",
                )
            ship = ship.model_copy(update={"col": col, "row": row})
        spent += 1
    return ship, spent, ""


def places(ships: Iterable[Airship]) -> set[Place]:
    return {(s.col, s.row, s.altitude) for s in ships if s.flying}


def blow(ship: Airship, dice: Dice) -> tuple[Airship, str]:
    """The Winds Table for one Zeppelin, on its owner's dice (interpretation 14): 1D12 for the
    direction and, for a push only, 1D6 for the speed. Returns the ship after it and what the
    wind did, in words."""
    wind = WIND_DIRECTION[dice.roll(ship.owner, 12, f"wind direction for {ship.id}")]
    if wind.kind is WindKind.ROTATE_LEFT:
        return ship.model_copy(update={"facing": ship.facing.turned(-1)}), "rotated left 60 degrees"
    if wind.kind is WindKind.ROTATE_RIGHT:
        return ship.model_copy(update={"facing": ship.facing.turned(1)}), "rotated right 60 degrees"
    if wind.kind is WindKind.UP:
        if ship.altitude >= MAX_ALTITUDE:
            return ship, f"pushed up, but already at the ceiling, altitude {MAX_ALTITUDE}"
        return ship.model_copy(update={"altitude": ship.altitude + 1}), "pushed up 1 altitude step"
    if wind.kind is WindKind.DOWN:
        if ship.altitude <= 1:
            return ship.model_copy(
                update={"altitude": 0, "status": Status.CRASHED}
            ), "pushed down to the ground"
        return ship.model_copy(update={"altitude": ship.altitude - 1}), "pushed down 1 altitude step"
    assert wind.direction is not None  # every PUSH row of the table names a direction
    speed = WIND_SPEED[dice.roll(ship.owner, 6, f"wind speed for {ship.id}")]
    for _ in range(speed):
        col, row = compass_step(ship.col, ship.row, wind.direction)
        if not on_map(col, row):
            return leave_map(ship, col, row), f"blown {wind.direction} off the map"
        ship = ship.model_copy(update={"col": col, "row": row})
    return ship, f"blown {wind.direction} {speed} hex{'es' if speed != 1 else ''}"
