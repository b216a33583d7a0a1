"""Taking effective hits in a ship's attributes (rules VI, "Recording ship damage from combat").

"The remaining hits ("effective" hits) are taken somewhere in the target's attributes. ... The
player owning a ship decides where the hits are to be taken." The owner decides in advance with
a damage priority, read like this:

* Hits go to the attributes in the order listed, each attribute taking hits until it is gone.
* An attribute listed again further down takes only ONE hit at each earlier place and fills at
  its last place, so exact placements can be written: ``PD S SH PD S SH`` puts one hit each in
  PD, S and SH (the rules' W4 example took exactly that), then fills PD, then S, then SH.
* Attributes not listed come after the list, in ``DEFAULT_DAMAGE_PRIORITY`` order, so every
  hit is taken while anything is left.

What one hit removes: 1 point of PD, B, S, T, C, E or SR; 1 point of Armor ("One point of Armor
will absorb one point of damage"); 3 Missiles and 6 Shells ("if a ship has 6 or more Shells, a
hit in Shells must take out 6 ... The same is true for Missiles, except that 1 hit of damage will
destroy 3 Missiles"; fewer left than that can still take a hit); one Hold "AND 10 cargo BP, or
fraction thereof", empty Holds first (the owner "may choose to damage empty Holds before
BP-carrying Holds", and always would). Warp Generators and Repair Bays never take damage.

A Systemship Rack holding a Systemship is damaged only when no empty rack is left. When that
happens the Systemship is not destroyed: the carrier drops it at the star (see ``unracked``).
One hit is one BP of damage; taking a whole Systemship with a 1-BP rack would not be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.warpwar.components import HITS_TO_DESTROY_ONE, HOLD_CAPACITY, Attr, Attributes, ceil_div
from engine.warpwar.orders import DEFAULT_DAMAGE_PRIORITY
from engine.warpwar.ships import Ship


@dataclass(frozen=True)
class DamageResult:
    """What a ship lost to one round's effective hits."""

    losses: Attributes
    cargo_lost: int = 0


@dataclass(frozen=True)
class Placement:
    """One place in the damage priority: ``single`` takes one hit, otherwise it fills."""

    attr: Attr
    single: bool


def placements(priority: Sequence[Attr]) -> tuple[Placement, ...]:
    """The damage priority as places to put hits, completed with the unlisted attributes."""
    listed = list(priority)
    places = [Placement(attr, attr in listed[i + 1 :]) for i, attr in enumerate(listed)]
    places += [Placement(attr, False) for attr in DEFAULT_DAMAGE_PRIORITY if attr not in listed]
    return tuple(places)


_HOLDS = Attr.H.value
_NOTHING_LOST = Attributes()


def apply_hits(ship: Ship, hits: int, priority: Sequence[Attr]) -> DamageResult:
    """Take ``hits`` effective hits in ``ship``'s attributes, following ``priority``.

    Hits beyond what the ship has left are lost with it: a ship whose attributes are all 0 is
    destroyed ("When all of a ship's attributes are reduced to 0, the ship is destroyed")."""
    before = ship.current
    was = before.amounts()
    now = dict(was)
    left = max(0, hits)
    for name, single, per_hit in _places(tuple(priority)):
        if left == 0:
            break
        amount = now[name]
        if amount == 0:
            continue
        # A last Missile or Shell short of a full hit's worth still takes a whole hit.
        taken = 1 if single else min(left, ceil_div(amount, per_hit))
        now[name] = max(0, amount - taken * per_hit)
        left -= taken
    changes = {name: value for name, value in now.items() if value != was[name]}
    if changes:
        ship.current = before.replace(**changes)
    cargo_before = ship.cargo
    if _HOLDS in changes:
        # Empty Holds go first, so cargo is lost only once it no longer fits in what is left.
        ship.cargo = min(cargo_before, changes[_HOLDS] * HOLD_CAPACITY)
    # What was lost, as a copy of nothing lost: validating all eleven amounts costs four times more.
    losses = _NOTHING_LOST.replace(**{name: was[name] - value for name, value in changes.items()})
    return DamageResult(losses=losses, cargo_lost=cargo_before - ship.cargo)


@cache
def _places(priority: tuple[Attr, ...]) -> tuple[tuple[str, bool, int], ...]:
    """``placements`` as (attribute name, single, what one hit removes): worked out once for
    each damage priority, since every damaged ship in every round needs it."""
    return tuple((p.attr.value, p.single, HITS_TO_DESTROY_ONE[p.attr]) for p in placements(priority))


def unracked(ship: Ship) -> list[str]:
    """Carried Systemships left without a rack after damage (racks carrying nothing were lost
    first): the last ones loaded, which the carrier drops at the star."""
    return ship.carrying[ship.current.SR :]
