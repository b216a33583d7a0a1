"""The text's example Zeppelins ("Building Your Fleet"), as printed, with the total it lists.

Each is one cargo slot over its class's limit; they are read as costing examples, not as legal
builds (interpretation 6), and the text's repeated first line of the Victoria and the Liverpool
is a page-break reprint, not a second weapon (interpretation 7). The Liverpool's Machine Gun has
no arc in the text; none is given here.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.lta.fleet import Design, Fitting
from engine.lta.hexmap import Arc
from engine.lta.tables import Cargo, ShipClass, Weapon


class PrintedShip(BaseModel):
    model_config = ConfigDict(frozen=True)

    design: Design
    listed_cost: int


def _w(kind: Weapon, arc: Arc | None) -> Fitting:
    return Fitting(kind=kind, arc=arc)


def _ammo(cannon: Weapon) -> Fitting:
    return Fitting(kind=Cargo.AMMO, ammo_for=cannon)


_PATCH = Fitting(kind=Cargo.PATCH_CREW)
_ENGINE = Fitting(kind=Cargo.ENGINE)

EXAMPLES: tuple[PrintedShip, ...] = (
    PrintedShip(
        design=Design(
            name="Blitzkrieger",
            cls=ShipClass.ESCORT,
            fittings=(
                _w(Weapon.LARGE_CANNON, Arc.FORWARD),
                _w(Weapon.SMALL_CANNON, Arc.FORWARD),
                _w(Weapon.MACHINE_GUN, Arc.AFT),
            ),
        ),
        listed_cost=70,
    ),
    PrintedShip(
        design=Design(
            name="Bismark",
            cls=ShipClass.BATTLESHIP,
            fittings=(
                _w(Weapon.FLAME_THROWER, Arc.FORWARD),
                _w(Weapon.SMALL_CANNON, Arc.STARBOARD),
                _w(Weapon.SMALL_CANNON, Arc.PORT),
                _w(Weapon.LARGE_CANNON, Arc.AFT),
                _PATCH,
                _ENGINE,
                Fitting(kind=Cargo.BOMBS),
            ),
        ),
        listed_cost=139,
    ),
    PrintedShip(
        design=Design(
            name="Victoria",
            cls=ShipClass.CRUISER,
            fittings=(
                _w(Weapon.LARGE_CANNON, Arc.FORWARD),
                _w(Weapon.MACHINE_GUN, Arc.FORWARD),
                _w(Weapon.SMALL_CANNON, Arc.AFT),
                _ammo(Weapon.LARGE_CANNON),
                _PATCH,
                _PATCH,
            ),
        ),
        listed_cost=132,
    ),
    PrintedShip(
        design=Design(
            name="Liverpool",
            cls=ShipClass.DESTROYER,
            fittings=(
                _w(Weapon.SMALL_CANNON, Arc.FORWARD),
                _w(Weapon.SMALL_CANNON, Arc.FORWARD),
                _w(Weapon.MACHINE_GUN, None),
                _ammo(Weapon.SMALL_CANNON),
                _ENGINE,
            ),
        ),
        listed_cost=90,
    ),
)
