"""Building your fleet: a design's Resource Point cost and cargo slots, its problems, and the
Zeppelin it becomes."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.lta.hexmap import Arc, Facing
from engine.lta.state import Airship, Item
from engine.lta.tables import AMMO_SHOTS, CARGO, CLASSES, GAS_TANK_GAS, WEAPONS, Cargo, ShipClass, Weapon


class Fitting(BaseModel):
    """One line of a design: a weapon with its arc, or a cargo (an Ammo cargo names its cannon)."""

    model_config = ConfigDict(frozen=True)

    kind: Weapon | Cargo
    arc: Arc | None = None
    ammo_for: Weapon | None = None


class Design(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=1, max_length=24, pattern=r"^[A-Za-z][A-Za-z0-9'-]*$")
    cls: ShipClass
    fittings: tuple[Fitting, ...] = ()
    small_arms: bool = False
    """"every Zeppelin can be equipped with one Small Arms, at no Cargo Slot cost" (7 RP)."""


def slots_used(design: Design) -> int:
    return sum(
        WEAPONS[f.kind].slots if isinstance(f.kind, Weapon) else CARGO[f.kind].slots for f in design.fittings
    )


def cost(design: Design) -> int:
    """Resource Points: the class, each weapon and cargo, and the Small Arms if fitted."""
    parts = sum(
        WEAPONS[f.kind].cost if isinstance(f.kind, Weapon) else CARGO[f.kind].cost for f in design.fittings
    )
    return CLASSES[design.cls].cost + parts + (WEAPONS[Weapon.SMALL_ARMS].cost if design.small_arms else 0)


def problems(design: Design) -> list[str]:
    """Why the design cannot be built, each in a sentence; empty when it can."""
    found: list[str] = []
    slots = CLASSES[design.cls].slots
    if slots_used(design) > slots:
        found.append(
            f"{design.name} needs {slots_used(design)} cargo slots; its class, {design.cls}, has {slots}."
        )
    for f in design.fittings:
        if f.kind is Weapon.SMALL_ARMS:
            found.append(
                f"{design.name}: Small Arms take no slot and fire in any arc; fit them as small_arms."
            )
        elif isinstance(f.kind, Weapon) and f.arc is None:
            found.append(f"{design.name}: its {f.kind} needs an arc (F, S, A or P).")
        elif isinstance(f.kind, Cargo) and f.arc is not None:
            found.append(f"{design.name}: a {f.kind} has no arc.")
        if f.kind is Cargo.AMMO and f.ammo_for not in AMMO_SHOTS:
            found.append(f"{design.name}: Ammo holds L.Cannon or S.Cannon shots; say which.")
        if f.kind is not Cargo.AMMO and f.ammo_for is not None:
            found.append(f"{design.name}: only Ammo feeds a cannon.")
    return found


def fleet_problems(designs: tuple[Design, ...], budget: int) -> list[str]:
    found = [p for d in designs for p in problems(d)]
    total = sum(cost(d) for d in designs)
    if total > budget:
        found.append(f"The fleet costs {total} Resource Points; the budget is {budget}.")
    names = [d.name.lower() for d in designs]
    if len(set(names)) != len(names):
        found.append("Each Zeppelin of a fleet needs its own name.")
    if not designs:
        found.append("A fleet needs at least one Zeppelin.")
    return found


def build(
    design: Design, ship_id: str, owner: str, at: tuple[int, int], facing: Facing, altitude: int
) -> Airship:
    """The Zeppelin a design makes, full of gas and shots, at its starting place."""
    items = tuple(
        Item(
            key=n,
            kind=f.kind,
            arc=f.arc,
            shots=_starting_shots(f),
            ammo_for=f.ammo_for,
        )
        for n, f in enumerate(design.fittings, start=1)
    )
    gas = CLASSES[design.cls].gas + GAS_TANK_GAS * sum(
        1 for f in design.fittings if f.kind is Cargo.GAS_TANKS
    )
    return Airship(
        id=ship_id,
        name=design.name,
        owner=owner,
        cls=design.cls,
        cost=cost(design),
        items=items,
        small_arms=design.small_arms,
        col=at[0],
        row=at[1],
        facing=facing,
        altitude=altitude,
        gas=gas,
        gas_max=gas,
    )


def _starting_shots(fitting: Fitting) -> int | None:
    if isinstance(fitting.kind, Weapon):
        return WEAPONS[fitting.kind].ammo
    if fitting.kind is Cargo.AMMO and fitting.ammo_for is not None:
        return AMMO_SHOTS[fitting.ammo_for]
    return None


def design_of(ship: Airship) -> Design:
    """The design a Zeppelin was built from."""
    fittings = tuple(Fitting(kind=i.kind, arc=i.arc, ammo_for=i.ammo_for) for i in ship.items)
    return Design(name=ship.name, cls=ship.cls, fittings=fittings, small_arms=ship.small_arms)
