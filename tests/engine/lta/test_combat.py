"""Combat and damage, and repairs."""

from __future__ import annotations

import pytest

from engine.lta.combat import Refused, aim, apply, burn, fire, lose_gas, repair, spend
from engine.lta.dice import Dice
from engine.lta.hexmap import Arc, Facing
from engine.lta.orders import SMALL_ARMS, CombatOrders, FireOrder
from engine.lta.state import Status
from engine.lta.tables import Cargo, Damage, ShipClass, Weapon
from engine.lta.turn import play_combat
from tests.engine.lta.builders import STILL_AIR, cargo, game, gun, seed_opening, zeppelin


def _dice(*opening: tuple[int, int | tuple[int, ...]], player: str = "Red") -> Dice:
    return Dice({player: seed_opening(*opening)}, {}, 1, "combat")


def test_a_weapon_fires_only_into_its_arc_in_range_at_the_same_altitude_or_up_to_2_below() -> None:
    shooter = zeppelin(
        fittings=(gun(Weapon.SMALL_CANNON, Arc.FORWARD),), at=(10, 10), facing=Facing.N, altitude=5
    )
    order = FireOrder(ship="A1", item=1, target="B1")
    assert aim(shooter, order, zeppelin("B1", "Blue", at=(10, 3), altitude=5)) is Weapon.SMALL_CANNON
    assert aim(shooter, order, zeppelin("B1", "Blue", at=(10, 3), altitude=3)) is Weapon.SMALL_CANNON
    for target, why in [
        (zeppelin("B1", "Blue", at=(10, 3), altitude=6), "altitude 6"),
        (zeppelin("B1", "Blue", at=(10, 3), altitude=2), "altitude 2"),
        (zeppelin("B1", "Blue", at=(10, 16), altitude=5), "aft"),
        (zeppelin("B1", "Blue", at=(10, 20), altitude=5), "aft"),
    ]:
        refused = aim(shooter, order, target)
        assert isinstance(refused, Refused) and why in refused.reason
    far = aim(shooter, order, zeppelin("B1", "Blue", at=(10, 1), altitude=5))
    assert aim(shooter.model_copy(update={"row": 11}), order, zeppelin("B1", "Blue", at=(10, 0))) is not None
    assert isinstance(
        aim(shooter.model_copy(update={"row": 20}), order, zeppelin("B1", "Blue", at=(10, 9))), Refused
    )
    assert far is Weapon.SMALL_CANNON


def test_small_arms_and_passengers_fire_in_any_arc() -> None:
    """Interpretation 21: Passengers "May function as 'Small Arms' weapon"."""
    shooter = zeppelin(fittings=(cargo(Cargo.PASSENGERS),), small_arms=True, facing=Facing.N)
    behind = zeppelin("B1", "Blue", at=(10, 13))
    assert aim(shooter, FireOrder(ship="A1", item=SMALL_ARMS, target="B1"), behind) is Weapon.SMALL_ARMS
    assert aim(shooter, FireOrder(ship="A1", item=1, target="B1"), behind) is Cargo.PASSENGERS
    out_of_range = zeppelin("B1", "Blue", at=(10, 15))
    assert isinstance(aim(shooter, FireOrder(ship="A1", item=1, target="B1"), out_of_range), Refused)


def test_cargo_that_is_not_a_weapon_does_not_fire_and_a_ship_without_small_arms_has_none() -> None:
    shooter = zeppelin(fittings=(cargo(Cargo.PATCH_CREW),))
    target = zeppelin("B1", "Blue", at=(10, 8))
    assert isinstance(aim(shooter, FireOrder(ship="A1", item=1, target="B1"), target), Refused)
    assert isinstance(aim(shooter, FireOrder(ship="A1", item=SMALL_ARMS, target="B1"), target), Refused)
    assert isinstance(aim(shooter, FireOrder(ship="A1", item=7, target="B1"), target), Refused)


def test_interpretation_18_a_cannon_uses_its_own_shots_then_its_ammo_cargo_then_cannot_fire() -> None:
    """Interpretation 18."""
    ship = zeppelin(fittings=(gun(Weapon.LARGE_CANNON), cargo(Cargo.AMMO, Weapon.LARGE_CANNON)))
    target = zeppelin("B1", "Blue", at=(10, 8))
    order = FireOrder(ship="A1", item=1, target="B1")
    for _ in range(15):
        assert aim(ship, order, target) is Weapon.LARGE_CANNON
        ship = spend(ship, 1)
    assert [i.shots for i in ship.items] == [0, 0]
    refused = aim(ship, order, target)
    assert isinstance(refused, Refused) and "out of ammunition" in refused.reason


def test_to_hit_on_1d6_then_damage_on_1d20_in_the_weapons_column_on_the_firers_dice() -> None:
    """Interpretation 14: the firer's stream rolls to hit and for damage."""
    shooter, target = zeppelin(), zeppelin("B1", "Blue")
    hit = fire(shooter, target, Weapon.SMALL_CANNON, _dice((6, 4), (20, 15)))
    assert hit is not None and hit.result is Damage.MAJOR_PUNCTURE and hit.firer == "Red"
    assert fire(shooter, target, Weapon.SMALL_CANNON, _dice((6, 5))) is None
    assert fire(shooter, target, Weapon.MACHINE_GUN, _dice((6, 5), (20, 20))) is not None
    heavy = fire(shooter, target, Weapon.LARGE_CANNON, _dice((6, 3), (20, 19)))
    assert heavy is not None and heavy.result is Damage.BLOWOUT


def test_interpretation_20_a_bomb_destroys_on_1_to_3_and_is_used_up() -> None:
    """Interpretation 20."""
    bomber = zeppelin(fittings=(cargo(Cargo.BOMBS),), altitude=6)
    below = zeppelin("B1", "Blue", altitude=4)
    order = FireOrder(ship="A1", item=1, target="B1")
    assert aim(bomber, order, below) is Cargo.BOMBS
    assert isinstance(aim(bomber, order, below.model_copy(update={"altitude": 6})), Refused)
    assert isinstance(aim(bomber, order, below.model_copy(update={"row": 9})), Refused)
    hit = fire(bomber, below, Cargo.BOMBS, _dice((6, 3)))
    assert hit is not None and hit.result is None
    assert fire(bomber, below, Cargo.BOMBS, _dice((6, 4))) is None
    assert apply(below, None, False, _dice(), "Red")[0].status is Status.DESTROYED
    assert spend(bomber, 1).items == ()


@pytest.mark.parametrize("kind", [Cargo.AMMO, Cargo.GAS_TANKS, Cargo.BOMBS])
def test_interpretation_19_a_cargo_hit_on_ammo_gas_tanks_or_bombs_is_a_blowout(kind: Cargo) -> None:
    """Interpretation 19: the cargo is picked with one die as many-sided as the items aboard."""
    fittings = (gun(Weapon.MACHINE_GUN), cargo(kind, Weapon.SMALL_CANNON if kind is Cargo.AMMO else None))
    ship = zeppelin("B1", "Blue", fittings=fittings)
    blown, what = apply(ship, Damage.CARGO_HIT, False, _dice((2, 2)), "Red")
    assert blown.status is Status.DESTROYED and "Blowout" in what
    spared, what = apply(ship, Damage.CARGO_HIT, False, _dice((2, 1)), "Red")
    assert spared.flying and [i.kind for i in spared.items] == [kind] and "Machine Gun" in what


def test_other_damage_results() -> None:
    ship = zeppelin("B1", "Blue")
    dice = _dice()
    assert apply(ship, Damage.STEERING_HIT, False, dice, "Red")[0].steering_hit
    assert apply(ship, Damage.ENGINE_HIT, False, dice, "Red")[0].engine_hits == 1
    assert apply(ship, Damage.CABIN_HIT, False, dice, "Red")[0].on_fire
    assert apply(ship, Damage.CRIT_PUNCTURE, False, dice, "Red")[0].punctures == (3,)
    assert apply(ship, Damage.BLOWOUT, False, dice, "Red")[0].status is Status.DESTROYED
    assert apply(ship, Damage.CARGO_HIT, False, dice, "Red")[1] == "a cargo hit, but the hold is empty"
    assert dice.rolled == []


def test_interpretation_17_a_flamethrower_hit_sets_the_target_in_flames_whatever_the_result() -> None:
    """Interpretation 17."""
    hit = fire(zeppelin(), zeppelin("B1", "Blue"), Weapon.FLAME_THROWER, _dice((6, 1), (20, 6)))
    assert hit is not None and hit.flames and hit.result is Damage.MINOR_PUNCTURE
    burning, _ = apply(zeppelin("B1", "Blue"), hit.result, hit.flames, _dice(), "Red")
    assert burning.on_fire and burning.punctures == (1,)


def test_interpretation_17_a_burning_zeppelin_rolls_on_the_flamethrower_column_on_its_owners_dice() -> None:
    dice = _dice((20, 13), player="Blue")
    after, what = burn(zeppelin("B1", "Blue").model_copy(update={"on_fire": True}), dice)
    assert after.punctures == (3,) and what == "fire: a Crit Puncture"
    assert [(r.stream, r.purpose) for r in dice.rolled] == [("Blue", "fire aboard B1")]


def test_interpretation_15_punctures_leak_then_half_gas_loses_1_step_and_a_quarter_loses_2() -> None:
    """Interpretation 15: the check is made after the leak, against full gas (with Gas Tanks)."""
    scout = zeppelin(cls=ShipClass.SCOUT, altitude=5)  # 10 gas
    after, _ = lose_gas(scout.model_copy(update={"gas": 6, "punctures": (1,)}))
    assert (after.gas, after.altitude) == (5, 4)
    after, _ = lose_gas(scout.model_copy(update={"gas": 6}))
    assert (after.gas, after.altitude) == (6, 5)
    after, _ = lose_gas(scout.model_copy(update={"gas": 5, "punctures": (3,)}))
    assert (after.gas, after.altitude) == (2, 3)
    tanks = zeppelin(cls=ShipClass.SCOUT, fittings=(cargo(Cargo.GAS_TANKS),))
    assert tanks.gas_max == 20
    assert lose_gas(tanks.model_copy(update={"gas": 10}))[0].altitude == 4


def test_interpretation_9_all_gas_gone_destroys_and_altitude_0_crashes() -> None:
    """Interpretation 9: "if you lose all of your Gas, you plummet to the ground!"."""
    scout = zeppelin(cls=ShipClass.SCOUT, altitude=2)
    assert lose_gas(scout.model_copy(update={"gas": 2, "punctures": (3,)}))[0].status is Status.DESTROYED
    assert lose_gas(scout.model_copy(update={"gas": 2}))[0].status is Status.CRASHED


def test_interpretation_16_each_patch_crew_puts_out_fire_first_then_patches_the_worst_puncture() -> None:
    """Interpretation 16: no dice and no orders for repairs."""
    ship = zeppelin(fittings=(cargo(Cargo.PATCH_CREW), cargo(Cargo.PATCH_CREW)))
    ship = ship.model_copy(update={"on_fire": True, "punctures": (1, 3)})
    after, done = repair(ship)
    assert not after.on_fire and after.punctures == (1, 2)
    assert done == ["put out the fire", "patched a critical puncture to major"]
    after, done = repair(after)
    assert after.punctures == (1,)
    assert done == ["patched a major puncture to minor", "patched a minor puncture"]
    assert repair(after)[0].punctures == ()
    assert repair(zeppelin().model_copy(update={"on_fire": True}))[0].on_fire


def test_fire_is_simultaneous_a_zeppelin_blown_out_this_turn_still_fires() -> None:
    """Both sides' shots are rolled before any damage is applied."""
    red = zeppelin("A1", "Red", fittings=(gun(Weapon.LARGE_CANNON),), at=(10, 10), facing=Facing.N)
    blue = zeppelin("B1", "Blue", fittings=(gun(Weapon.LARGE_CANNON),), at=(10, 5), facing=Facing.S)
    seeds = {
        "Red": seed_opening(*STILL_AIR, (6, 1), (20, 20)),
        "Blue": seed_opening(*STILL_AIR, (6, 1), (20, 19)),
    }
    state = game((red, blue), seeds=seeds)
    orders = [
        CombatOrders(player="Red", fire=(FireOrder(ship="A1", item=1, target="B1"),)),
        CombatOrders(player="Blue", fire=(FireOrder(ship="B1", item=1, target="A1"),)),
    ]
    outcome = play_combat(state, orders)
    assert [s.status for s in outcome.state.ships] == [Status.DESTROYED, Status.DESTROYED]
    assert [r.ok for r in outcome.results] == [True, True]


def test_interpretations_24_and_25_refusals_cost_no_die_and_no_shot() -> None:
    """Interpretation 24: no fire on your own side; 25: each weapon once a turn, refused orders
    roll nothing."""
    red = zeppelin("A1", "Red", fittings=(gun(Weapon.SMALL_CANNON),), at=(10, 10))
    mate = zeppelin("A2", "Red", at=(10, 8))
    blue = zeppelin("B1", "Blue", at=(10, 7), facing=Facing.S)
    seeds = {"Red": seed_opening(*STILL_AIR, *STILL_AIR, (6, 6)), "Blue": seed_opening(*STILL_AIR)}
    state = game((red, mate, blue), seeds=seeds)
    fire_at = (
        FireOrder(ship="A1", item=1, target="A2"),
        FireOrder(ship="A1", item=1, target="B1"),
        FireOrder(ship="A1", item=1, target="B1"),
        FireOrder(ship="B1", item=SMALL_ARMS, target="A1"),
    )
    outcome = play_combat(state, [CombatOrders(player="Red", fire=fire_at)])
    assert [(r.index, r.ok) for r in outcome.results] == [(1, False), (2, True), (3, False), (4, False)]
    assert "your side" in outcome.results[0].note and "once a turn" in outcome.results[2].note
    red_rolls = [r.purpose for r in outcome.state.player("Red").rolls if r.phase == "combat"]
    assert [p for p in red_rolls if not p.startswith("wind")] == ["to hit: A1 S.Cannon at B1"]
    assert outcome.state.ship("A1") is not None and outcome.state.ship("A1").items[0].shots == 9  # type: ignore[union-attr]
