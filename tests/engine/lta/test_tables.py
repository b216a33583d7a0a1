"""The rules' tables, cell by cell from the text."""

from __future__ import annotations

import pytest

from engine.lta.tables import (
    AMMO_SHOTS,
    CARGO,
    CLASSES,
    PUNCTURE_LOSS,
    WEAPONS,
    WIND_DIRECTION,
    WIND_SPEED,
    Cargo,
    Column,
    Compass,
    Damage,
    ShipClass,
    Weapon,
    WindKind,
    damage,
)


@pytest.mark.parametrize(
    ("cls", "slots", "move", "gas", "cost"),
    [
        (ShipClass.SCOUT, 2, 5, 10, 17),
        (ShipClass.ESCORT, 3, 4, 20, 27),
        (ShipClass.DESTROYER, 4, 4, 30, 38),
        (ShipClass.FRIGATE, 5, 3, 40, 48),
        (ShipClass.CRUISER, 6, 3, 50, 59),
        (ShipClass.BATTLESHIP, 7, 2, 60, 69),
    ],
)
def test_zeppelin_unit_types_table(cls: ShipClass, slots: int, move: int, gas: int, cost: int) -> None:
    stats = CLASSES[cls]
    assert (stats.slots, stats.move, stats.gas, stats.cost) == (slots, move, gas, cost)


@pytest.mark.parametrize(
    ("weapon", "slots", "range_", "ammo", "to_hit", "cost", "column"),
    [
        (Weapon.LARGE_CANNON, 2, 15, 5, 3, 18, Column.HEAVY),
        (Weapon.SMALL_CANNON, 1, 10, 10, 4, 14, Column.SMALL_CANNON),
        (Weapon.MACHINE_GUN, 1, 6, 20, 5, 11, Column.LIGHT),
        (Weapon.FLAME_THROWER, 1, 3, 5, 3, 6, Column.HEAVY),
        (Weapon.SMALL_ARMS, 0, 4, None, 3, 7, Column.LIGHT),
    ],
)
def test_weapons_cargo_table(
    weapon: Weapon, slots: int, range_: int, ammo: int | None, to_hit: int, cost: int, column: Column
) -> None:
    stats = WEAPONS[weapon]
    assert (stats.slots, stats.range, stats.ammo, stats.to_hit, stats.cost, stats.column) == (
        slots,
        range_,
        ammo,
        to_hit,
        cost,
        column,
    )


def test_other_cargo_takes_one_slot_each_and_ammo_gas_tanks_and_bombs_blow_out() -> None:
    assert {c: CARGO[c].slots for c in Cargo} == dict.fromkeys(Cargo, 1)
    assert {c for c in Cargo if CARGO[c].blows_out} == {Cargo.AMMO, Cargo.GAS_TANKS, Cargo.BOMBS}
    assert AMMO_SHOTS == {Weapon.LARGE_CANNON: 10, Weapon.SMALL_CANNON: 20}


def test_interpretation_3_costs_of_other_cargo() -> None:
    """Interpretation 3: Ammo 10, Patch Crew 10, Engine 3, Bombs 5 solve the example ships; Gas
    Tanks 5, Passengers 7 (as Small Arms) and Bulk Cargo 0 are set by us."""
    assert {c: CARGO[c].cost for c in Cargo} == {
        Cargo.ENGINE: 3,
        Cargo.AMMO: 10,
        Cargo.PATCH_CREW: 10,
        Cargo.GAS_TANKS: 5,
        Cargo.BOMBS: 5,
        Cargo.PASSENGERS: 7,
        Cargo.BULK_CARGO: 0,
    }


_HEAVY = (
    [Damage.CARGO_HIT, Damage.STEERING_HIT, Damage.ENGINE_HIT, Damage.CABIN_HIT]
    + [Damage.MINOR_PUNCTURE] * 3
    + [Damage.MAJOR_PUNCTURE] * 5
    + [Damage.CRIT_PUNCTURE] * 6
    + [Damage.BLOWOUT] * 2
)
_SMALL_CANNON = (
    [Damage.CARGO_HIT, Damage.STEERING_HIT, Damage.ENGINE_HIT, Damage.CABIN_HIT]
    + [Damage.MINOR_PUNCTURE] * 10
    + [Damage.MAJOR_PUNCTURE] * 5
    + [Damage.CRIT_PUNCTURE]
)
_LIGHT = [Damage.CARGO_HIT, Damage.STEERING_HIT, Damage.ENGINE_HIT, Damage.CABIN_HIT] + [
    Damage.MINOR_PUNCTURE
] * 16


@pytest.mark.parametrize(
    ("column", "rows"), [(Column.HEAVY, _HEAVY), (Column.SMALL_CANNON, _SMALL_CANNON), (Column.LIGHT, _LIGHT)]
)
def test_damage_table_every_d20_cell(column: Column, rows: list[Damage]) -> None:
    assert len(rows) == 20
    assert [damage(column, d20) for d20 in range(1, 21)] == rows


def test_damage_table_has_no_row_outside_1d20() -> None:
    with pytest.raises(ValueError, match="no row"):
        damage(Column.LIGHT, 21)


def test_punctures_lose_1_2_3_gas_a_turn() -> None:
    assert PUNCTURE_LOSS == {Damage.MINOR_PUNCTURE: 1, Damage.MAJOR_PUNCTURE: 2, Damage.CRIT_PUNCTURE: 3}


def test_winds_table_direction_column() -> None:
    pushes = {n: WIND_DIRECTION[n].direction for n in range(1, 9)}
    assert pushes == {
        1: Compass.NW,
        2: Compass.N,
        3: Compass.NE,
        4: Compass.SE,
        5: Compass.S,
        6: Compass.SW,
        7: Compass.W,
        8: Compass.E,
    }
    assert all(WIND_DIRECTION[n].kind is WindKind.PUSH for n in range(1, 9))
    assert [WIND_DIRECTION[n].kind for n in range(9, 13)] == [
        WindKind.ROTATE_LEFT,
        WindKind.ROTATE_RIGHT,
        WindKind.UP,
        WindKind.DOWN,
    ]


def test_winds_table_speed_column() -> None:
    assert WIND_SPEED == {1: 0, 2: 0, 3: 1, 4: 1, 5: 2, 6: 2}
