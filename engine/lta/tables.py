"""The rules' tables as data, cell by cell from the text (Zeppelin Unit Types, Weapons Cargo,
Other Cargo, Winds, Damage). Costs the text does not give are settled in
docs/lta-rules-interpretations.md (interpretation 3) and marked here."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class ShipClass(StrEnum):
    SCOUT = "Scout"
    ESCORT = "Escort"
    DESTROYER = "Destroyer"
    FRIGATE = "Frigate"
    CRUISER = "Cruiser"
    BATTLESHIP = "Battleship"


class ClassStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    slots: int
    move: int
    gas: int
    cost: int


CLASSES: dict[ShipClass, ClassStats] = {
    ShipClass.SCOUT: ClassStats(slots=2, move=5, gas=10, cost=17),
    ShipClass.ESCORT: ClassStats(slots=3, move=4, gas=20, cost=27),
    ShipClass.DESTROYER: ClassStats(slots=4, move=4, gas=30, cost=38),
    ShipClass.FRIGATE: ClassStats(slots=5, move=3, gas=40, cost=48),
    ShipClass.CRUISER: ClassStats(slots=6, move=3, gas=50, cost=59),
    ShipClass.BATTLESHIP: ClassStats(slots=7, move=2, gas=60, cost=69),
}


class Weapon(StrEnum):
    LARGE_CANNON = "L.Cannon"
    SMALL_CANNON = "S.Cannon"
    MACHINE_GUN = "Machine Gun"
    FLAME_THROWER = "Flamethrower"
    SMALL_ARMS = "Small Arms"


class Column(StrEnum):
    """The Damage Table's three columns, each shared by the weapons printed above it."""

    HEAVY = "Flamethrw/L.Cannon"
    SMALL_CANNON = "Small Cannon"
    LIGHT = "Machine Gun/Small Arms"


class WeaponStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    slots: int
    range: int
    ammo: int | None
    """Shots carried with the weapon; None is the text's "Unlimited"."""
    to_hit: int
    """Hits on 1..to_hit of 1D6."""
    cost: int
    column: Column


WEAPONS: dict[Weapon, WeaponStats] = {
    Weapon.LARGE_CANNON: WeaponStats(slots=2, range=15, ammo=5, to_hit=3, cost=18, column=Column.HEAVY),
    Weapon.SMALL_CANNON: WeaponStats(
        slots=1, range=10, ammo=10, to_hit=4, cost=14, column=Column.SMALL_CANNON
    ),
    Weapon.MACHINE_GUN: WeaponStats(slots=1, range=6, ammo=20, to_hit=5, cost=11, column=Column.LIGHT),
    Weapon.FLAME_THROWER: WeaponStats(slots=1, range=3, ammo=5, to_hit=3, cost=6, column=Column.HEAVY),
    Weapon.SMALL_ARMS: WeaponStats(slots=0, range=4, ammo=None, to_hit=3, cost=7, column=Column.LIGHT),
}


class Cargo(StrEnum):
    ENGINE = "Engine"
    AMMO = "Ammo"
    PATCH_CREW = "Patch Crew"
    GAS_TANKS = "Gas Tanks"
    BOMBS = "Bombs"
    PASSENGERS = "Passengers"
    BULK_CARGO = "Bulk Cargo"


class CargoStats(BaseModel):
    model_config = ConfigDict(frozen=True)

    slots: int
    cost: int
    """Not in the text: solved from the example ships (interpretation 3)."""
    blows_out: bool
    """"if Ammo, Gas Tanks, or Bombs are hit, the Zep suffers Blowout"."""


CARGO: dict[Cargo, CargoStats] = {
    Cargo.ENGINE: CargoStats(slots=1, cost=3, blows_out=False),
    Cargo.AMMO: CargoStats(slots=1, cost=10, blows_out=True),
    Cargo.PATCH_CREW: CargoStats(slots=1, cost=10, blows_out=False),
    Cargo.GAS_TANKS: CargoStats(slots=1, cost=5, blows_out=True),
    Cargo.BOMBS: CargoStats(slots=1, cost=5, blows_out=True),
    Cargo.PASSENGERS: CargoStats(slots=1, cost=7, blows_out=False),
    Cargo.BULK_CARGO: CargoStats(slots=1, cost=0, blows_out=False),
}

AMMO_SHOTS: dict[Weapon, int] = {Weapon.LARGE_CANNON: 10, Weapon.SMALL_CANNON: 20}
"""One Ammo cargo: "10 Large or 20 Small Cannon Shots"."""
GAS_TANK_GAS = 10
ENGINE_SPEED = 1
BOMB_KILLS = 3
"""Bombs: "Target destroyed on roll of 1-3 on 1D6"."""


class Damage(StrEnum):
    CARGO_HIT = "Cargo Hit"
    STEERING_HIT = "Steering Hit"
    ENGINE_HIT = "Engine Hit"
    CABIN_HIT = "Cabin Hit"
    MINOR_PUNCTURE = "Minor Puncture"
    MAJOR_PUNCTURE = "Major Puncture"
    CRIT_PUNCTURE = "Crit Puncture"
    BLOWOUT = "Blowout"


PUNCTURE_LOSS: dict[Damage, int] = {
    Damage.MINOR_PUNCTURE: 1,
    Damage.MAJOR_PUNCTURE: 2,
    Damage.CRIT_PUNCTURE: 3,
}
"""Gas lost per turn until patched."""

_DAMAGE_TOPS: dict[Column, tuple[int, ...]] = {
    Column.HEAVY: (1, 2, 3, 4, 7, 12, 18, 20),
    Column.SMALL_CANNON: (1, 2, 3, 4, 14, 19, 20),
    Column.LIGHT: (1, 2, 3, 4, 20),
}
"""The Damage Table by column: the highest 1D20 roll of each result, in ``Damage`` order (each
result's rolls start above the one before; a column ends at its last result)."""


def damage(column: Column, d20: int) -> Damage:
    """The Damage Table's result for a 1D20 roll in a weapon's column."""
    if d20 >= 1:
        for result, top in zip(Damage, _DAMAGE_TOPS[column], strict=False):
            if d20 <= top:
                return result
    raise ValueError(f"no row for {d20} on 1D20")


class WindKind(StrEnum):
    PUSH = "push"
    ROTATE_LEFT = "rotate left"
    ROTATE_RIGHT = "rotate right"
    UP = "up"
    DOWN = "down"


class Compass(StrEnum):
    N = "N"
    NE = "NE"
    E = "E"
    SE = "SE"
    S = "S"
    SW = "SW"
    W = "W"
    NW = "NW"


class WindResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: WindKind
    direction: Compass | None = None
    """Where a PUSH blows the Zeppelin; the speed is rolled only for a push."""


WIND_DIRECTION: dict[int, WindResult] = {
    1: WindResult(kind=WindKind.PUSH, direction=Compass.NW),
    2: WindResult(kind=WindKind.PUSH, direction=Compass.N),
    3: WindResult(kind=WindKind.PUSH, direction=Compass.NE),
    4: WindResult(kind=WindKind.PUSH, direction=Compass.SE),
    5: WindResult(kind=WindKind.PUSH, direction=Compass.S),
    6: WindResult(kind=WindKind.PUSH, direction=Compass.SW),
    7: WindResult(kind=WindKind.PUSH, direction=Compass.W),
    8: WindResult(kind=WindKind.PUSH, direction=Compass.E),
    9: WindResult(kind=WindKind.ROTATE_LEFT),
    10: WindResult(kind=WindKind.ROTATE_RIGHT),
    11: WindResult(kind=WindKind.UP),
    12: WindResult(kind=WindKind.DOWN),
}
"""The Winds Table's 1D12 column."""

WIND_SPEED: dict[int, int] = {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2}
"""The Winds Table's 1D6 column: hexes pushed."""
