"""Combat and damage (sequence 7) and repairs (sequence 8).

Fire is simultaneous: every order is checked against the map after the wind and every die for
it is rolled before any damage is applied, so a Zeppelin destroyed this turn still fires.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from engine.lta.dice import Dice
from engine.lta.hexmap import arc_of, distance
from engine.lta.orders import SMALL_ARMS, FireOrder
from engine.lta.state import Airship, Status
from engine.lta.tables import (
    BOMB_KILLS,
    CARGO,
    PUNCTURE_LOSS,
    WEAPONS,
    Cargo,
    Column,
    Damage,
    Weapon,
    damage,
)

MAX_BELOW = 2
""""targets must be at the same altitude or up to 2 altitude steps below"."""


class Hit(BaseModel):
    """A shot that struck, waiting to be applied with the others."""

    model_config = ConfigDict(frozen=True)

    firer: str
    """The player whose dice pick a cargo hit's cargo."""
    target: str
    result: Damage | None
    """The Damage Table's result; None for a bomb, which destroys."""
    flames: bool


class Target(Protocol):
    """Where a target is: a Zeppelin, or a player's sighting of one."""

    @property
    def position(self) -> tuple[int, int]: ...

    @property
    def altitude(self) -> int: ...

    @property
    def name(self) -> str: ...


class Refused(BaseModel):
    """Why an order cannot fire."""

    model_config = ConfigDict(frozen=True)

    reason: str


def _weapon_of(ship: Airship, order: FireOrder) -> Weapon | Cargo | Refused:
    """The weapon an order fires (Small Arms, Passengers as Small Arms, Bombs), or why not."""
    if order.item == SMALL_ARMS:
        return Weapon.SMALL_ARMS if ship.small_arms else Refused(reason=f"{ship.name} carries no Small Arms")
    item = ship.item(order.item)
    if item is None:
        return Refused(reason=f"{ship.name} has no item {order.item} (any more)")
    if item.kind in (Cargo.PASSENGERS, Cargo.BOMBS) or isinstance(item.kind, Weapon):
        return item.kind
    return Refused(reason=f"item {order.item} of {ship.name} is {item.kind}, which does not fire")


def aim(ship: Airship, order: FireOrder, target: Target) -> Weapon | Cargo | Refused:
    """What the order fires, or why it cannot fire at ``target`` now (after the wind)."""
    weapon = _weapon_of(ship, order)
    if isinstance(weapon, Refused):
        return weapon
    below = ship.altitude - target.altitude
    if weapon is Cargo.BOMBS:
        if target.position != ship.position or not 1 <= below <= MAX_BELOW:
            return Refused(
                reason=f"Bombs fall only on a Zeppelin in the same hex 1 or 2 steps below: not {target.name}"
            )
        return weapon
    stats = WEAPONS[Weapon.SMALL_ARMS if weapon is Cargo.PASSENGERS else Weapon(weapon)]
    if not 0 <= below <= MAX_BELOW:
        return Refused(
            reason=f"{target.name} is at altitude {target.altitude}: not {ship.altitude} or 1-2 steps below"
        )
    if distance(ship.position, target.position) > stats.range:
        return Refused(reason=f"{target.name} is out of range ({stats.range} hexes)")
    item = ship.item(order.item)
    arc = arc_of(ship.position, ship.facing, target.position)
    if item is not None and item.arc is not None and arc is not None and arc != item.arc:
        return Refused(
            reason=f"{target.name} is {arc.name.lower()}; item {item.key} fires {item.arc.name.lower()}"
        )
    if item is not None and isinstance(weapon, Weapon) and not _has_shot(ship, item.key):
        return Refused(reason=f"{ship.name}'s item {item.key} ({weapon}) is out of ammunition")
    return weapon


def _has_shot(ship: Airship, key: int) -> bool:
    item = ship.item(key)
    assert item is not None and isinstance(item.kind, Weapon)
    if item.shots is None or item.shots > 0:
        return True
    return any(i.kind is Cargo.AMMO and i.ammo_for == item.kind and (i.shots or 0) > 0 for i in ship.items)


def spend(ship: Airship, key: int) -> Airship:
    """One shot used: from the weapon's own, then from an Ammo cargo for its cannon; a Bombs
    cargo is dropped, gone."""
    if key == SMALL_ARMS:
        return ship
    item = ship.item(key)
    assert item is not None
    if item.kind is Cargo.BOMBS:
        return ship.model_copy(update={"items": tuple(i for i in ship.items if i.key != key)})
    if item.shots is None:
        return ship
    if item.shots == 0:
        item = next(
            i for i in ship.items if i.kind is Cargo.AMMO and i.ammo_for == item.kind and (i.shots or 0) > 0
        )
    assert item.shots is not None
    used = item.model_copy(update={"shots": item.shots - 1})
    return ship.model_copy(update={"items": tuple(used if i.key == item.key else i for i in ship.items)})


def fire(ship: Airship, target: Airship, weapon: Weapon | Cargo, dice: Dice) -> Hit | None:
    """Roll for one shot on the firer's dice: 1D6 to hit, then 1D20 on the weapon's column."""
    what = f"{ship.id} {weapon} at {target.id}"
    if weapon is Cargo.BOMBS:
        struck = dice.roll(ship.owner, 6, f"bomb: {what}") <= BOMB_KILLS
        return Hit(firer=ship.owner, target=target.id, result=None, flames=False) if struck else None
    stats = WEAPONS[Weapon.SMALL_ARMS if weapon is Cargo.PASSENGERS else Weapon(weapon)]
    if dice.roll(ship.owner, 6, f"to hit: {what}") > stats.to_hit:
        return None
    result = damage(stats.column, dice.roll(ship.owner, 20, f"damage: {what}"))
    return Hit(firer=ship.owner, target=target.id, result=result, flames=weapon is Weapon.FLAME_THROWER)


def apply(ship: Airship, result: Damage | None, flames: bool, dice: Dice, roller: str) -> tuple[Airship, str]:
    """One result of the Damage Table on ``ship`` (None: a bomb), and what it did in words. A cargo
    hit picks the cargo with one die as many-sided as the cargo aboard, on ``roller``'s dice."""
    if result is None:
        return _down(ship, Status.DESTROYED), "destroyed by a bomb"
    if flames:
        ship = ship.model_copy(update={"on_fire": True})
    if result is Damage.CARGO_HIT:
        if not ship.items:
            return ship, "a cargo hit, but the hold is empty"
        item = ship.items[dice.roll(roller, len(ship.items), f"cargo hit on {ship.id}") - 1]
        ship = ship.model_copy(update={"items": tuple(i for i in ship.items if i.key != item.key)})
        if isinstance(item.kind, Cargo) and CARGO[item.kind].blows_out:
            return _down(ship, Status.DESTROYED), f"a cargo hit on its {item.kind}: Blowout"
        return ship, f"a cargo hit destroys its item {item.key} ({item.kind})"
    if result is Damage.STEERING_HIT:
        return ship.model_copy(update={"steering_hit": True}), "a steering hit: it cannot turn"
    if result is Damage.ENGINE_HIT:
        return ship.model_copy(update={"engine_hits": ship.engine_hits + 1}), "an engine hit: base speed -1"
    if result is Damage.CABIN_HIT:
        return ship.model_copy(update={"on_fire": True}), "a cabin hit: it catches fire"
    if result is Damage.BLOWOUT:
        return _down(ship, Status.DESTROYED), "Blowout"
    return ship.model_copy(update={"punctures": (*ship.punctures, PUNCTURE_LOSS[result])}), f"a {result}"


def _down(ship: Airship, status: Status) -> Airship:
    return ship.model_copy(update={"status": status, "on_fire": False})


def burn(ship: Airship, dice: Dice) -> tuple[Airship, str]:
    """A Zeppelin in flames rolls on the flamethrower column, on its owner's dice."""
    result = damage(Column.HEAVY, dice.roll(ship.owner, 20, f"fire aboard {ship.id}"))
    ship, what = apply(ship, result, False, dice, ship.owner)
    return ship, f"fire: {what}"


def lose_gas(ship: Airship) -> tuple[Airship, list[str]]:
    """Punctures leak; then the altitude a Zeppelin at half or a quarter of its gas loses (after
    the leak, interpretation 15). All gas gone, or down to altitude 0: it falls."""
    said: list[str] = []
    leak = sum(ship.punctures)
    if leak:
        ship = ship.model_copy(update={"gas": max(0, ship.gas - leak)})
        said.append(f"loses {leak} gas, {ship.gas} of {ship.gas_max} left")
    if ship.gas == 0:
        return _down(ship, Status.DESTROYED), [*said, "all its gas is gone: it plummets to the ground"]
    drop = 2 if 4 * ship.gas <= ship.gas_max else 1 if 2 * ship.gas <= ship.gas_max else 0
    if drop:
        altitude = max(0, ship.altitude - drop)
        ship = ship.model_copy(update={"altitude": altitude})
        said.append(f"low on gas: loses {drop} altitude step{'s' if drop > 1 else ''}")
        if altitude == 0:
            return _down(ship, Status.CRASHED), [*said, "it comes down to the ground"]
    return ship, said


def repair(ship: Airship) -> tuple[Airship, list[str]]:
    """Each Patch Crew does one thing: put out the fire first, then patch the worst puncture one
    grade (critical to major, major to minor, minor closed). Interpretation 16: no dice, no orders."""
    done: list[str] = []
    for _ in range(ship.count(Cargo.PATCH_CREW)):
        if ship.on_fire:
            ship = ship.model_copy(update={"on_fire": False})
            done.append("put out the fire")
        elif ship.punctures:
            worst = max(ship.punctures)
            rest = list(ship.punctures)
            rest.remove(worst)
            ship = ship.model_copy(
                update={"punctures": tuple(sorted([*rest, worst - 1] if worst > 1 else rest))}
            )
            done.append(
                {3: "patched a critical puncture to major", 2: "patched a major puncture to minor"}.get(
                    worst, "patched a minor puncture"
                )
            )
    return ship, done


def resolve(hits: Sequence[Hit], ships: dict[str, Airship], dice: Dice) -> list[tuple[Hit, str]]:
    """Apply every hit, in the order fired, to ``ships`` (changed in place: the working copy of
    one phase), each with what it did. A hit on a Zeppelin already down does nothing."""
    done: list[tuple[Hit, str]] = []
    for hit in hits:
        target = ships[hit.target]
        if not target.flying:
            done.append((hit, "it was already down"))
            continue
        ships[target.id], what = apply(target, hit.result, hit.flames, dice, hit.firer)
        done.append((hit, what))
    return done
