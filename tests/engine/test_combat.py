"""Combat (rules VI): orders, fire, ECM, damage, retreats, pick-up and drop, the end of a fight.

Every worked example of rules IV and VI about combat is here, under the example's name.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.warpwar import combat, damage, ecm
from engine.warpwar.combat import check_order, default_order, resolve_round, start_combat
from engine.warpwar.components import Attr, Attributes
from engine.warpwar.context import Step
from engine.warpwar.events import (
    CombatBegan,
    CombatEnded,
    CombatRoundResolved,
    ShipDestroyed,
    ShipRetreated,
    SystemshipTransferred,
)
from engine.warpwar.orders import CombatOrder, EcmPolicy, MissileShot, Tactic
from engine.warpwar.state import Combat, GameState, Player
from tests.engine.builders import add_ship, carry, make_state, ship_from_record, step_for

STAR = "0505"
P1_RETREAT_HEX = "0404"  # of 0505's neighbours, nearest to P1's Bases (3 hexes), lowest number
P2_RETREAT_HEX = "0506"  # nearest to P2's Bases (4 hexes), lowest number


# --- Builders for this module ---


def fight(p1: list[str], p2: list[str]) -> tuple[GameState, Step, Combat]:
    """P1's and P2's ships (rules' notation) at 0505, and the combat there begun."""
    state = make_state()
    for record in p1:
        add_ship(state, record, "P1", STAR)
    for record in p2:
        add_ship(state, record, "P2", STAR)
    step = step_for(state)
    return state, step, start_combat(step, STAR)


def rounds_for(step: Step, player: str) -> list[CombatRoundResolved]:
    return [e for e in step.events if isinstance(e, CombatRoundResolved) and e.visible_to == (player,)]


def last_round(step: Step, player: str = "P1") -> CombatRoundResolved:
    return rounds_for(step, player)[-1]


def events_of(step: Step, kind: type) -> list:  # type: ignore[type-arg]
    return [e for e in step.events if isinstance(e, kind)]


def dodge(**fields: object) -> CombatOrder:
    return CombatOrder(tactic=Tactic.DODGE, **fields)  # type: ignore[arg-type]


def attack(**fields: object) -> CombatOrder:
    return CombatOrder(tactic=Tactic.ATTACK, **fields)  # type: ignore[arg-type]


def retreat(**fields: object) -> CombatOrder:
    return CombatOrder(tactic=Tactic.RETREAT, **fields)  # type: ignore[arg-type]


def checked(step: Step, fight_: Combat, uid: str, order: CombatOrder) -> tuple[CombatOrder, str | None]:
    return check_order(step, fight_, step.state.ships[uid], order)


# --- Rules IV: Technological levels ---


def test_technology_example_tl2_beam_4_against_tl1_screen_3_leaves_2_effective_hits() -> None:
    """ "The firing ship adds 2 to its Beam strength of 4, for a total of 6 hits. The target ship
    had Screens powered at 3. It adds its tech level of 1 ... 4 hits absorbed ... leaves 2"."""
    # Given a TL2 ship with Beam 4 and a TL1 ship with Screens 3 (a plain Hit: ATTACK at -1)
    state, step, fight_ = fight(["W1: TL2 PD=10 B=4"], ["W2: TL1 PD=10 S=3 A=10"])
    orders = {
        "P1.W1": attack(drive=0, beam=4, beam_target="P2.W2"),
        "P2.W2": attack(drive=1, screen=3),
    }
    # When the round is fought
    resolve_round(step, fight_, orders)
    # Then 6 hits, 4 absorbed, 2 effective, taken in Armor
    (shot,) = last_round(step).shots
    assert (shot.row, shot.result, shot.hits) == ("ATTACK (-1, -2)", "Hit", 6)
    (taken,) = last_round(step, "P2").damage
    assert (taken.hits, taken.absorbed, taken.effective) == (6, 4, 2)
    assert state.ships["P2.W2"].current.A == 8


def test_unpowered_screen_gets_no_tech_level() -> None:
    """ "(If the Screen is not powered, no tech level is added to the S=0.)" """
    _state, step, fight_ = fight(["W1: TL0 PD=10 B=4"], ["W2: TL3 PD=10 S=3 A=10"])
    resolve_round(step, fight_, {"P1.W1": attack(beam=4, beam_target="P2.W2"), "P2.W2": attack(drive=1)})
    (taken,) = last_round(step).damage
    assert (taken.hits, taken.absorbed, taken.effective) == (4, 0, 4)


# --- Rules VI: Power allocation and ship orders ---


def test_power_allocation_example_pd_6_of_9_allocates_5() -> None:
    """A ship built with PD 9, damaged to 6, allocates D=1 B=2 S=2 T=0: 5 of 6, legal."""
    _state, step, fight_ = fight(["W1: TL0 PD={9}6 B=2 S=2 T=1 M=3"], ["W2: TL0 PD=5"])
    order = attack(drive=1, beam=2, beam_target="P2.W2", screen=2)
    executed, note = checked(step, fight_, "P1.W1", order)
    assert (executed, note) == (order, None)
    assert executed.power() == 5


def test_power_allocation_example_tubes_cannot_fire_while_beams_and_screens_are_powered() -> None:
    """ "(The ship could not power its Tubes to fire Missiles, since it was using Beams and Screens.)" """
    _state, step, fight_ = fight(["W1: TL0 PD={9}6 B=2 S=2 T=1 M=3"], ["W2: TL0 PD=5"])
    order = attack(
        drive=1, beam=2, beam_target="P2.W2", screen=2, missiles=(MissileShot(target="P2.W2", drive=3),)
    )
    executed, note = checked(step, fight_, "P1.W1", order)
    assert executed.missiles == ()
    assert (executed.beam, executed.screen) == (2, 2)
    assert note is not None and "Beams or Screens" in note


def test_beam_fire_example_w3_order_is_legal_with_pd_5() -> None:
    """ "W3 (TL0) ATTACKS S25: D=0 B=3 S=2 T=0 ... W3 would have needed a minimum of PD=5"."""
    _state, step, fight_ = fight(["W3: TL0 PD=5 B=3 S=2"], ["S25: TL0 PD=5 T=1 M=3"])
    order = attack(drive=0, beam=3, beam_target="P2.S25", screen=2)
    assert checked(step, fight_, "P1.W3", order) == (order, None)


def test_beam_fire_example_w3_with_pd_4_has_its_order_cut() -> None:
    _state, step, fight_ = fight(["W3: TL0 PD=4 B=3 S=2"], ["S25: TL0 PD=5 T=1 M=3"])
    executed, note = checked(step, fight_, "P1.W3", attack(drive=0, beam=3, beam_target="P2.S25", screen=2))
    assert executed.power() == 4
    assert (executed.beam, executed.screen) == (3, 1)
    assert note is not None and "PD=4" in note and "Screen by 1" in note


def test_beam_fire_example_beam_cannot_be_powered_past_its_capacity() -> None:
    """ "if W3 had not been built with a Beam of at least 3 ... it could not have carried out
    this order. Beams and Screens and ECM cannot be powered past their capacity"."""
    _state, step, fight_ = fight(["W3: TL0 PD=9 B=2 S=1 E=1"], ["S25: TL0 PD=5"])
    executed, note = checked(
        step, fight_, "P1.W3", attack(drive=0, beam=3, beam_target="P2.S25", screen=2, ecm=3)
    )
    assert (executed.beam, executed.screen, executed.ecm) == (2, 1, 1)
    assert note is not None and note.count("capacity") == 3


def test_missile_fire_example_s25_needs_pd_5_and_the_missile_drive_costs_nothing() -> None:
    """ "S25 (TL0) DODGE: D=4 B=0 S=0 T=1 / M ATTACKS W3: D=3 ... S25 needed a PD of at least five
    ... The D=3 for the Missile did NOT come out of the firing ship's PD"."""
    _state, step, fight_ = fight(["W3: TL0 PD=5 B=3 S=2"], ["S25: TL0 PD=5 T=1 M=3"])
    order = dodge(drive=4, missiles=(MissileShot(target="P1.W3", drive=3),))
    assert checked(step, fight_, "P2.S25", order) == (order, None)
    assert order.power() == 5


def test_missile_fire_example_with_pd_4_the_missile_is_cut_before_the_drive() -> None:
    _state, step, fight_ = fight(["W3: TL0 PD=5 B=3 S=2"], ["S25: TL0 PD=4 T=1 M=3"])
    executed, note = checked(
        step, fight_, "P2.S25", dodge(drive=4, missiles=(MissileShot(target="P1.W3", drive=3),))
    )
    assert (executed.drive, executed.missiles) == (4, ())
    assert note is not None and "Missiles by 1" in note


def test_cannon_fire_order_s32_two_cannons_firing_3_and_1_shells() -> None:
    """ "S32 (TL1) ATTACKS W3: D=3 C=1 (firing 3 shells) C=1 (firing 1 shell)": 5 PD."""
    _state, step, fight_ = fight(["W3: TL0 PD=5 A=20"], ["S32: TL1 PD=5 C=2 SH=12"])
    order = attack(drive=3, cannons=(3, 1), cannon_target="P1.W3")
    assert checked(step, fight_, "P2.S32", order) == (order, None)
    assert order.power() == 5


def test_cannon_damage_adds_tech_level_and_bonus_per_burst_and_uses_the_shells() -> None:
    """ "Hit +1 and +2 and TL extra damage is added per burst of Shells, not per individual Shell"."""
    # Given S32 (TL1) firing bursts of 3 and 1 Shells at W3, both at Drive 3 and ATTACK (Hit +2)
    state, step, fight_ = fight(["W3: TL0 PD=5 A=20"], ["S32: TL1 PD=5 C=2 SH=12"])
    orders = {
        "P2.S32": attack(drive=3, cannons=(3, 1), cannon_target="P1.W3"),
        "P1.W3": attack(drive=3),
    }
    resolve_round(step, fight_, orders)
    # Then each burst is a shot: 3+1+2 and 1+1+2 hits, and 4 Shells are gone
    shots = last_round(step).shots
    assert [(s.weapon, s.result, s.hits) for s in shots] == [("cannon", "Hit +2", 6), ("cannon", "Hit +2", 4)]
    assert state.ships["P2.S32"].current.SH == 8
    assert state.ships["P1.W3"].current.A == 10


# --- Rules VI: ECM ---


def test_ecm_use_example_tl2_ship_lowers_a_tl3_missile_from_hit_plus_2_to_hit() -> None:
    """ECM Use Example: a TL2 ship, ATTACK, Drive 3, 2 ECM, against a TL3 Missile at Drive 3:
    effective ECM 2 + (2 - 3) = 1, the Missile flies at 2, ATTACK (-1,-2): "just a Hit"."""
    _state, step, fight_ = fight(["W1: TL2 PD=5 E=2 A=20"], ["S1: TL3 PD=1 T=1 M=3"])
    orders = {
        "P1.W1": attack(drive=3, ecm=2),
        "P2.S1": attack(drive=0, missiles=(MissileShot(target="P1.W1", drive=3),)),
    }
    resolve_round(step, fight_, orders)
    (shot,) = last_round(step).shots
    assert (shot.ecm, shot.difference, shot.row, shot.result) == (1, -1, "ATTACK (-1, -2)", "Hit")
    assert shot.hits == 2 + 3


def test_ecm_use_example_only_works_with_the_defender_at_tl2_not_tl1() -> None:
    """The example calls the defender TL 2, then subtracts from "the ship's tech level of 1";
    only TL 2 gives its "1 effective ECM point"."""
    assert ecm.effective_ecm(2, defender_tl=2, missile_tl=3) == 1
    assert ecm.effective_ecm(2, defender_tl=1, missile_tl=3) == 0


def test_ecm_tech_level_difference_applies_only_to_allocated_points() -> None:
    assert ecm.effective_ecm(0, defender_tl=3, missile_tl=0) == 0
    assert ecm.effective_ecm(1, defender_tl=3, missile_tl=0) == 4
    assert ecm.effective_ecm(1, defender_tl=0, missile_tl=3) == 0


def test_without_ecm_the_example_missile_hits_plus_2() -> None:
    """ "Normally ... a difference of 0, then read ... ATTACK (0,+1) ... giving a result of Hit +2"."""
    defender = ecm.Defender(tech_level=2, drive=3, tactic=Tactic.ATTACK, ecm=0)
    (outcome,) = ecm.defend([ecm.IncomingMissile(drive=3, tech_level=3)], defender, EcmPolicy.FIRST_COME)
    assert (outcome.result.value, outcome.hits) == ("Hit +2", 2 + 3 + 2)


def test_ecm_lowers_a_missile_only_as_far_as_it_helps() -> None:
    """ "The player using ECM chooses to lower the Missile's Drive setting": against a DODGEing
    ship a Missile at +3 Hits, at +2 it would Hit +1, at +1 it Misses."""
    missile = ecm.IncomingMissile(drive=3, tech_level=0)
    defender = ecm.Defender(tech_level=0, drive=0, tactic=Tactic.DODGE, ecm=2)
    one_point = ecm.outcome(missile, 1, defender)
    assert (one_point.effective, one_point.drive, one_point.result.value) == (1, 3, "Hit")
    (outcome,) = ecm.defend([missile], defender, EcmPolicy.FIRST_COME)
    assert (outcome.allocated, outcome.drive, outcome.result.value, outcome.hits) == (2, 1, "Miss", 0)


# Two Missiles at a DODGEing ship, Drive 0, TL 0, 3 ECM: the first (Drive 4) needs all 3 points to
# miss, the second (Drive 2, Hit +1) only 1.
TWO_MISSILES = [ecm.IncomingMissile(drive=4, tech_level=0), ecm.IncomingMissile(drive=2, tech_level=0)]
DODGING = ecm.Defender(tech_level=0, drive=0, tactic=Tactic.DODGE, ecm=3)


def test_ecm_minimise_damage_finds_the_best_allocation() -> None:
    outcomes = ecm.defend(TWO_MISSILES, DODGING, EcmPolicy.MINIMISE_DAMAGE)
    assert [o.allocated for o in outcomes] == [0, 1]
    assert sum(o.hits for o in outcomes) == 2


def test_ecm_first_come_spends_on_the_first_missile_first() -> None:
    outcomes = ecm.defend(TWO_MISSILES, DODGING, EcmPolicy.FIRST_COME)
    assert [o.allocated for o in outcomes] == [3, 0]
    assert sum(o.hits for o in outcomes) == 3


def test_ecm_even_shares_points_with_leftovers_to_the_first() -> None:
    outcomes = ecm.defend(TWO_MISSILES, DODGING, EcmPolicy.EVEN)
    assert [o.allocated for o in outcomes] == [2, 1]


@settings(max_examples=60, deadline=None)
@given(
    drives=st.lists(st.integers(1, 9), min_size=1, max_size=4),
    missile_tls=st.lists(st.integers(0, 3), min_size=4, max_size=4),
    points=st.integers(0, 5),
    defender_tl=st.integers(0, 3),
    drive=st.integers(0, 6),
    tactic=st.sampled_from(list(Tactic)),
)
def test_ecm_minimise_damage_is_never_beaten_by_another_policy(
    drives: list[int], missile_tls: list[int], points: int, defender_tl: int, drive: int, tactic: Tactic
) -> None:
    missiles = [ecm.IncomingMissile(drive=d, tech_level=t) for d, t in zip(drives, missile_tls, strict=False)]
    defender = ecm.Defender(tech_level=defender_tl, drive=drive, tactic=tactic, ecm=points)
    best = sum(o.hits for o in ecm.defend(missiles, defender, EcmPolicy.MINIMISE_DAMAGE))
    for policy in EcmPolicy:
        outcomes = ecm.defend(missiles, defender, policy)
        assert sum(o.allocated for o in outcomes) <= points
        assert best <= sum(o.hits for o in outcomes)


# --- Rules VI: Recording ship damage ---


@settings(max_examples=60, deadline=None)
@given(
    amounts=st.lists(st.integers(0, 13), min_size=len(Attr), max_size=len(Attr)),
    cargo=st.integers(0, 130),
    hits=st.integers(0, 40),
    priority=st.lists(st.sampled_from(list(Attr)), max_size=6),
)
def test_damage_losses_are_exactly_what_the_ship_lost(
    amounts: list[int], cargo: int, hits: int, priority: list[Attr]
) -> None:
    current = Attributes(**dict(zip((a.value for a in Attr), amounts, strict=True)))
    ship = ship_from_record("W1: TL0 PD=1")
    ship.built = ship.current = current
    ship.cargo = min(cargo, current.H * 10)
    before_cargo = ship.cargo
    taken = damage.apply_hits(ship, hits, tuple(priority))
    for attr in Attr:
        assert taken.losses.get(attr) == current.get(attr) - ship.current.get(attr) >= 0
    assert taken.cargo_lost == before_cargo - ship.cargo >= 0
    assert ship.cargo <= ship.current.H * 10


def test_damage_recording_example_w4_takes_one_hit_each_in_pd_screens_and_shells() -> None:
    """ "The player chose to take one hit in PD, one in Screens, and one in Shells. Since 6 Shells
    cost 1 BP, the one hit took out 6 Shells": AFTER: W4: TL 0  PD={7}6 B=3 S={3}2 C=1 SH={12}6 E=1."""
    w4 = ship_from_record("W4: TL0 PD=7 B=3 S=3 C=1 SH=12 E=1")
    taken = damage.apply_hits(w4, 3, (Attr.PD, Attr.S, Attr.SH, Attr.PD, Attr.S, Attr.SH))
    assert w4.record() == "W4: TL0 PD={7}6 B=3 S={3}2 C=1 SH={12}6 E=1"
    assert taken.losses == Attributes(PD=1, S=1, SH=6)


def test_damage_recording_example_screens_cannot_be_powered_at_4_on_a_ship_with_s_3() -> None:
    """The example's W4 "has Screens powered at 4" though its record says S=3: the order is cut
    to 3, so 7 hits leave 4 effective hits, not the example's 3."""
    _state, step, fight_ = fight(["W4: TL0 PD=7 B=3 S=3 C=1 SH=12 E=1"], ["W9: TL0 PD=5"])
    executed, note = checked(step, fight_, "P1.W4", dodge(drive=3, screen=4))
    assert executed.screen == 3
    assert note is not None and "Screen powered at 3, not 4" in note


def s35_against_w4(w4_priority: tuple[Attr, ...] | None, policy: EcmPolicy) -> tuple[GameState, Step, bool]:
    state, step, fight_ = fight(
        ["W4: TL0 PD={7}6 B=3 S={3}2 C=1 SH={12}6 E=1"], ["S35: TL1 PD=6 S=3 T=2 M={9}7"]
    )
    orders = {
        "P2.S35": dodge(
            drive=4,
            missiles=(MissileShot(target="P1.W4", drive=3), MissileShot(target="P1.W4", drive=4)),
        ),
        "P1.W4": attack(
            drive=2,
            beam=2,
            beam_target="P2.S35",
            screen=1,
            ecm=1,
            damage_priority=w4_priority,
            ecm_policy=policy,
        ),
    }
    over = resolve_round(step, fight_, orders)
    return state, step, over


S35_PRIORITIES = [(Attr.B, Attr.S, Attr.C, Attr.SH, Attr.E, Attr.PD), None]


@pytest.mark.parametrize("priority", S35_PRIORITIES)
@pytest.mark.parametrize("policy", list(EcmPolicy))
def test_s35_against_w4_round_leaves_w4_with_only_its_pd(
    priority: tuple[Attr, ...] | None, policy: EcmPolicy
) -> None:
    """S35 (TL1) DODGE D=4 with Missiles at D=3 and D=4; W4 (TL0) ATTACK D=2 B=2 S=1 E=1. "The two
    Missiles inflict 5 and 4 hits ... W4's ECM ineffective ... leaving 8 effective hits ... After
    taking 8 hits ... W4: TL 0  PD={7}6 B={3}0 S={3}0 C={1}0 SH={12}0 E={1}0" (PD preserved; the
    default damage priority, which keeps PD last, gives the same)."""
    state, step, over = s35_against_w4(priority, policy)
    shots = {(s.firer, s.weapon, s.difference): s for s in last_round(step).shots}
    first = shots[("P2.S35", "missile", 1)]
    second = shots[("P2.S35", "missile", 2)]
    assert (first.row, first.column, first.ecm, first.result, first.hits) == (
        "ATTACK (0, +1)",
        "ATTACK",
        0,
        "Hit +2",
        5,
    )
    assert (second.row, second.column, second.ecm, second.result, second.hits) == (
        "ATTACK (+2)",
        "ATTACK",
        0,
        "Hit +1",
        4,
    )
    (taken,) = last_round(step).damage
    assert (taken.ship, taken.hits, taken.absorbed, taken.effective) == ("P1.W4", 9, 1, 8)
    assert state.ships["P1.W4"].record() == "W4: TL0 PD={7}6 B={3}0 S={3}0 C={1}0 SH={12}0 E={1}0"
    assert not over


def test_s35_against_w4_round_w4s_beam_misses_at_attack_minus_2_against_dodge() -> None:
    """ "S35 took no damage, because W4 missed with its Beam fire. The Drive difference ... was a
    -2. Reading the ATTACK (-1,-2) row ... and the DODGE column ... gives a result of MISS." The
    order says B=2, though the text says "firing its Beam at 3"; the order is what is fought."""
    state, step, _ = s35_against_w4(None, EcmPolicy.MINIMISE_DAMAGE)
    beam = next(s for s in last_round(step).shots if s.weapon == "beam")
    assert (beam.firer, beam.target, beam.difference) == ("P1.W4", "P2.S35", -2)
    assert (beam.row, beam.column, beam.result, beam.hits) == ("ATTACK (-1, -2)", "DODGE", "Miss", 0)
    assert last_round(step).orders["P1.W4"].beam == 2
    assert state.ships["P2.S35"].current == Attributes(PD=6, S=3, T=2, M=5)


# --- The damage rules in detail ---


def test_one_hit_destroys_three_missiles_and_fewer_left_can_take_a_hit() -> None:
    ship = ship_from_record("S1: TL0 PD=1 M=5")
    damage.apply_hits(ship, 1, (Attr.M,))
    assert ship.current.M == 2
    damage.apply_hits(ship, 1, (Attr.M,))
    assert ship.current.M == 0


def test_a_hit_in_shells_must_take_out_six_when_six_or_more_are_left() -> None:
    """ "if a ship has 6 or more Shells, a hit in Shells must take out 6"; "If a ship has only one
    or two Shells left, it can use them to take a hit"."""
    ship = ship_from_record("S1: TL0 PD=1 SH=8")
    damage.apply_hits(ship, 1, (Attr.SH,))
    assert ship.current.SH == 2
    taken = damage.apply_hits(ship, 1, (Attr.SH, Attr.PD))
    assert (ship.current.SH, ship.current.PD, taken.losses.SH) == (0, 1, 2)


def test_one_point_of_armor_absorbs_one_hit() -> None:
    ship = ship_from_record("W1: TL1 PD=3 A=6")
    damage.apply_hits(ship, 4, ())
    assert (ship.current.A, ship.current.PD) == (2, 3)


def test_holds_lose_empty_holds_first_then_ten_cargo_bp_each() -> None:
    """ "1 point of damage will destroy one 10 BP-capacity Hold AND 10 cargo BP, or fraction
    thereof ... the player may choose to damage empty Holds before BP-carrying Holds"."""
    ship = ship_from_record("W1: TL0 PD=3 H=3")
    ship.cargo = 15
    first = damage.apply_hits(ship, 1, (Attr.H,))
    assert (ship.current.H, ship.cargo, first.cargo_lost) == (2, 15, 0)
    second = damage.apply_hits(ship, 1, (Attr.H,))
    assert (ship.current.H, ship.cargo, second.cargo_lost) == (1, 10, 5)
    third = damage.apply_hits(ship, 1, (Attr.H,))
    assert (ship.current.H, ship.cargo, third.cargo_lost) == (0, 0, 10)


def test_damage_priority_fills_in_order_and_unlisted_attributes_come_last() -> None:
    ship = ship_from_record("W1: TL0 PD=4 B=2 S=2")
    damage.apply_hits(ship, 5, (Attr.S, Attr.B))
    assert ship.current == Attributes(PD=3)


def test_hits_beyond_all_attributes_destroy_the_ship_but_not_its_warp_generator_count() -> None:
    """ "Any ship that has received enough hits to reduce all its attributes to zero, except for
    the warp generator and repair bay, is destroyed"."""
    ship = ship_from_record("W1: TL0 PD=2 B=1 R=1")
    damage.apply_hits(ship, 9, ())
    assert ship.destroyed
    assert ship.current == Attributes()


def test_round_damage_priority_wins_over_the_ships_standing_priority() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=5 B=4"], ["W2: TL0 PD=3 A=4 S=2"])
    state.ships["P2.W2"].damage_priority = (Attr.A,)
    orders = {
        "P1.W1": attack(beam=4, beam_target="P2.W2"),
        "P2.W2": attack(drive=1, damage_priority=(Attr.S, Attr.PD)),
    }
    resolve_round(step, fight_, orders)
    assert state.ships["P2.W2"].current == Attributes(A=4, PD=1)


# --- Retreat and escape ---


def test_retreating_ship_escapes_with_escapes_against_every_firing_ship() -> None:
    """ "a retreating ship must simultaneously obtain the ESCAPE result against EACH enemy ship
    (not Missile) that fired on it"; "Ships that successfully retreat are moved to any hex
    adjacent to the star hex"; the combat ends and the player left holds the star."""
    state, step, fight_ = fight(["W1: TL0 PD=6 A=3"], ["W2: TL0 PD=5 B=2", "W3: TL0 PD=5 B=2"])
    orders = {
        "P1.W1": retreat(drive=3),
        "P2.W2": dodge(drive=0, beam=2, beam_target="P1.W1"),
        "P2.W3": attack(drive=0, beam=2, beam_target="P1.W1"),  # ATTACK -3 against RETREAT: Escapes
    }
    over = resolve_round(step, fight_, orders)
    assert [s.result for s in last_round(step).shots] == ["Escapes", "Escapes"]
    assert state.ships["P1.W1"].location == P1_RETREAT_HEX
    assert last_round(step).escaped == ("P1.W1",)
    (retreated,) = events_of(step, ShipRetreated)
    assert (retreated.ship, retreated.star, retreated.to) == ("P1.W1", STAR, P1_RETREAT_HEX)
    assert over
    (ended,) = events_of(step, CombatEnded)
    assert (ended.reason, ended.holder, ended.rounds) == ("retreated", "P2", 1)
    assert state.control[STAR].owner == "P2"
    assert state.combats == []


def test_retreating_ship_does_not_escape_if_one_firing_ship_misses_instead() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=6 A=3"], ["W2: TL0 PD=5 B=2", "W3: TL0 PD=5 B=2"])
    orders = {
        "P1.W1": retreat(drive=3),
        "P2.W2": dodge(drive=0, beam=2, beam_target="P1.W1"),
        "P2.W3": attack(drive=3, beam=2, beam_target="P1.W1"),  # ATTACK 0 against RETREAT: Miss
    }
    over = resolve_round(step, fight_, orders)
    assert [s.result for s in last_round(step).shots] == ["Escapes", "Miss"]
    assert state.ships["P1.W1"].location == STAR
    assert not over


def test_missiles_do_not_count_for_escape_but_still_hit() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=6 A=10"], ["S2: TL0 PD=2 T=1 M=3"])
    orders = {
        "P1.W1": retreat(drive=3),
        "P2.S2": dodge(missiles=(MissileShot(target="P1.W1", drive=6),)),  # ATTACK +3 vs RETREAT: Hit
    }
    resolve_round(step, fight_, orders)
    (shot,) = last_round(step).shots
    assert (shot.result, shot.hits) == ("Hit", 2)
    assert state.ships["P1.W1"].location == P1_RETREAT_HEX
    assert state.ships["P1.W1"].current.A == 8


def test_retreating_ship_nobody_fires_on_escapes() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=6"], ["W2: TL0 PD=5 B=2"])
    resolve_round(step, fight_, {"P1.W1": retreat(drive=6), "P2.W2": dodge(drive=5)})
    assert state.ships["P1.W1"].location == P1_RETREAT_HEX


def test_retreating_ship_destroyed_in_the_round_does_not_escape() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=1"], ["S2: TL0 PD=2 T=1 M=3"])
    orders = {"P1.W1": retreat(drive=1), "P2.S2": dodge(missiles=(MissileShot(target="P1.W1", drive=4),))}
    resolve_round(step, fight_, orders)
    assert "P1.W1" not in state.ships
    assert last_round(step).escaped == ()
    assert events_of(step, CombatEnded)[0].reason == "destroyed"


def test_retreat_goes_to_the_adjacent_hex_the_order_names() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=6"], ["W2: TL0 PD=5"])
    resolve_round(step, fight_, {"P1.W1": retreat(drive=6, retreat_to="0606"), "P2.W2": dodge()})
    assert state.ships["P1.W1"].location == "0606"


def test_retreat_to_a_hex_not_adjacent_is_noted_and_the_nearest_base_side_is_taken() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=6"], ["W2: TL0 PD=5"])
    resolve_round(step, fight_, {"P2.W2": retreat(drive=5, retreat_to="0909"), "P1.W1": dodge()})
    assert state.ships["P2.W2"].location == P2_RETREAT_HEX
    assert "cannot retreat to 0909" in last_round(step, "P2").order_notes["P2.W2"]


def test_systemship_may_never_retreat_and_dodges_instead() -> None:
    """ "In combat, a Systemship may never select the RETREAT tactic" (rules IV)."""
    state, step, fight_ = fight(["S1: TL0 PD=4 S=2"], ["W2: TL0 PD=5"])
    executed, note = checked(step, fight_, "P1.S1", retreat(drive=4))
    assert executed.tactic is Tactic.DODGE
    assert note is not None and "may never select the RETREAT" in note
    resolve_round(step, fight_, {"P1.S1": retreat(drive=4), "P2.W2": dodge()})
    assert state.ships["P1.S1"].location == STAR


def test_warpship_with_pd_0_may_not_retreat_and_dodges_instead() -> None:
    """ "A Warpship whose PD is reduced to zero may not move" (rules V): with nothing fired at it,
    a RETREAT would escape; it DODGEs and stays, and its owner is told why."""
    state, step, fight_ = fight(["W1: TL0 PD={4}0 B=2 SR=1"], ["W2: TL0 PD=5"])
    executed, note = checked(step, fight_, "P1.W1", retreat(retreat_to="0606"))
    assert executed == retreat(retreat_to="0606").model_copy(update={"tactic": Tactic.DODGE})
    assert note == (
        "W1 DODGEs instead of RETREATing: its PD is 0, and a Warpship whose PD is reduced to zero "
        "may not move (rules V, Movement)"
    )
    over = resolve_round(step, fight_, {"P1.W1": retreat(retreat_to="0606"), "P2.W2": dodge()})
    assert not over
    assert state.ships["P1.W1"].location == STAR
    assert last_round(step).orders["P1.W1"].tactic is Tactic.DODGE
    assert last_round(step).escaped == ()
    assert last_round(step).order_notes["P1.W1"] == note
    assert events_of(step, ShipRetreated) == []


def test_pd_0_warpship_on_a_retreating_standing_order_dodges_too() -> None:
    state, step, fight_ = fight(["W1: TL0 PD={4}0 A=2"], ["W2: TL0 PD=5"])
    state.ships["P1.W1"].standing_order = retreat()
    resolve_round(step, fight_, {"P2.W2": dodge()})
    assert state.ships["P1.W1"].location == STAR
    assert "its PD is 0" in last_round(step).order_notes["P1.W1"]


def test_pd_lost_in_the_round_does_not_stop_a_retreat_ordered_with_pd_left() -> None:
    """The PD that counts is the PD the round began with: orders are written, then "all weapons
    fire", then "Ships that successfully retreat are moved". W1 starts with PD=1, loses it to a
    Missile (which does not count against escape) and still gets away; from now on it may not move."""
    state, step, fight_ = fight(["W1: TL0 PD=1 A=2"], ["S2: TL0 PD=2 T=1 M=3"])
    state.ships["P1.W1"].damage_priority = (Attr.PD, Attr.A)
    orders = {
        "P1.W1": retreat(drive=1),
        "P2.S2": dodge(missiles=(MissileShot(target="P1.W1", drive=4),)),  # ATTACK +3 vs RETREAT: Hit
    }
    resolve_round(step, fight_, orders)
    assert state.ships["P1.W1"].current == Attributes(A=1)
    assert state.ships["P1.W1"].location == P1_RETREAT_HEX
    assert last_round(step).escaped == ("P1.W1",)
    assert "P1.W1" not in last_round(step).order_notes


def test_escaping_warpship_takes_carried_systemships_and_leaves_dropped_ones() -> None:
    """ "If the Warpship successfully retreats on the round it drops Systemships, the Systemships
    stay in the star hex"; those still in its racks go with it."""
    state, step, fight_ = fight(["W1: TL0 PD=6 SR=2", "S1: TL0 PD=2", "S2: TL0 PD=2"], ["W2: TL0 PD=5"])
    carry(state, state.ships["P1.W1"], state.ships["P1.S1"])
    carry(state, state.ships["P1.W1"], state.ships["P1.S2"])
    step = step_for(state)
    resolve_round(step, fight_, {"P1.W1": retreat(drive=0, drop=("S1",)), "P2.W2": dodge()})
    assert state.ships["P1.W1"].location == P1_RETREAT_HEX
    assert state.ships["P1.S2"].location == P1_RETREAT_HEX
    assert (state.ships["P1.S1"].location, state.ships["P1.S1"].carried_by) == (STAR, None)
    assert state.ships["P1.W1"].carrying == ["P1.S2"]


# --- Systemship pick-up and drop in combat ---


def systemship_fight(p1_extra: list[str] | None = None) -> tuple[GameState, Step, Combat]:
    state, _, fight_ = fight(
        ["W1: TL0 PD=2 B=1 SR=2 A=1", "S1: TL0 PD=3 B=2 S=2", *(p1_extra or [])], ["W9: TL0 PD=9 B=6 A=9"]
    )
    return state, step_for(state), fight_


def test_warpship_with_drive_0_screen_0_dodging_picks_up_a_systemship() -> None:
    """ "A Warpship may pick up or drop Systemships during a combat round if it allocates Drive = 0
    and Screen = 0 and selects the Dodge or Retreat tactic. The Warpship may fire its Beam"."""
    state, step, fight_ = systemship_fight()
    orders = {"P1.W1": dodge(beam=1, beam_target="P2.W9", pick_up=("S1",)), "P2.W9": dodge(drive=9)}
    resolve_round(step, fight_, orders)
    assert state.ships["P1.S1"].carried_by == "P1.W1"
    assert state.ships["P1.W1"].carrying == ["P1.S1"]
    (moved,) = events_of(step, SystemshipTransferred)
    assert (moved.systemship, moved.from_ship, moved.to_ship) == ("P1.S1", None, "P1.W1")


@pytest.mark.parametrize(
    ("order", "needs"),
    [
        (dodge(drive=1, pick_up=("S1",)), "Drive = 0"),
        (dodge(screen=1, pick_up=("S1",)), "Screen = 0"),
        (attack(pick_up=("S1",)), "DODGE or RETREAT"),
    ],
)
def test_pick_up_breaking_the_conditions_is_cancelled_with_a_note(order: CombatOrder, needs: str) -> None:
    _state, step, fight_ = fight(["W1: TL0 PD=4 S=1 SR=2", "S1: TL0 PD=3"], ["W9: TL0 PD=9"])
    executed, note = checked(step, fight_, "P1.W1", order)
    assert executed.pick_up == ()
    assert note is not None and needs in note


def test_pick_up_is_cancelled_when_missiles_are_fired() -> None:
    """ "but may NOT fire Missiles or Cannons"."""
    _state, step, fight_ = fight(["W1: TL0 PD=4 T=1 M=3 SR=2", "S1: TL0 PD=3"], ["W9: TL0 PD=9"])
    order = dodge(pick_up=("S1",), missiles=(MissileShot(target="P2.W9", drive=2),))
    executed, note = checked(step, fight_, "P1.W1", order)
    assert (executed.pick_up, len(executed.missiles)) == ((), 1)
    assert note is not None and "no Missiles or Cannons" in note


def test_pick_up_and_drop_no_more_than_the_undamaged_racks() -> None:
    """ "as many Systemships as it has undamaged Systemship Racks"."""
    _state, step, fight_ = fight(["W1: TL0 PD=4 SR={3}1", "S1: TL0 PD=3", "S2: TL0 PD=3"], ["W9: TL0 PD=9"])
    executed, note = checked(step, fight_, "P1.W1", dodge(pick_up=("S1", "S2")))
    assert executed.pick_up == ("S1",)
    assert note is not None and "1 undamaged Systemship Rack" in note


def test_only_warpships_pick_up_and_only_own_loose_systemships() -> None:
    _state, step, fight_ = fight(
        ["W1: TL0 PD=4 SR=2", "W2: TL0 PD=4", "S1: TL0 PD=3"], ["W9: TL0 PD=9", "S9: TL0 PD=1"]
    )
    executed, note = checked(step, fight_, "P1.W1", dodge(pick_up=("W2", "S9", "S7")))
    assert executed.pick_up == ()
    assert note is not None and "Warpship may NOT be carried" in note and "S9" in note
    executed, note = checked(step, fight_, "P1.S1", dodge(pick_up=("S1",)))
    assert executed.pick_up == ()
    assert note is not None and "only Warpships" in note


def test_systemship_picked_up_fires_no_weapons_but_powers_screens_and_can_be_hit() -> None:
    """ "Systemships picked up during a combat round may not fire any weapons during that round,
    but may power Screens and ECM. They may be fired upon by enemy ships." """
    state, step, fight_ = systemship_fight()
    orders = {
        "P1.W1": dodge(pick_up=("S1",)),
        "P1.S1": dodge(drive=0, beam=1, beam_target="P2.W9", screen=2),
        "P2.W9": attack(drive=0, beam=6, beam_target="P1.S1"),  # ATTACK 0 vs DODGE: Miss
    }
    resolve_round(step, fight_, orders)
    shown = last_round(step)
    assert (shown.orders["P1.S1"].beam, shown.orders["P1.S1"].screen) == (0, 2)
    assert "being picked up" in shown.order_notes["P1.S1"]
    assert [(s.firer, s.target) for s in shown.shots] == [("P2.W9", "P1.S1")]
    assert state.ships["P1.S1"].carried_by == "P1.W1"


def test_systemship_dropped_this_round_cannot_fire_or_be_fired_on() -> None:
    """ "Systemships dropped during a combat round may NOT fire weapons (or be fired on)"."""
    state, step, fight_ = systemship_fight()
    carry(state, state.ships["P1.W1"], state.ships["P1.S1"])
    step = step_for(state)
    orders = {
        "P1.W1": dodge(drop=("S1",)),
        "P1.S1": attack(beam=2, beam_target="P2.W9"),
        "P2.W9": attack(beam=6, beam_target="P1.S1"),
    }
    resolve_round(step, fight_, orders)
    shown = last_round(step)
    assert shown.shots == ()
    assert "carried by W1" in shown.order_notes["P1.S1"]
    assert "not an enemy ship in this fight" in last_round(step, "P2").order_notes["P2.W9"]
    assert state.ships["P1.S1"].carried_by is None


def test_warpship_destroyed_while_dropping_leaves_the_dropped_systemships_alive() -> None:
    """ "If the Warpship dropping Systemships is destroyed on the round it drops the Systemships,
    the Systemships are NOT destroyed." """
    state, step, fight_ = systemship_fight()
    carry(state, state.ships["P1.W1"], state.ships["P1.S1"])
    step = step_for(state)
    orders = {"P1.W1": dodge(drop=("S1",)), "P2.W9": dodge(drive=0, beam=6, beam_target="P1.W1")}
    resolve_round(step, fight_, orders)
    assert "P1.W1" not in state.ships
    assert state.ships["P1.S1"].location == STAR
    assert state.ships["P1.S1"].carried_by is None


def test_warpship_destroyed_while_picking_up_leaves_the_systemship_on_the_star() -> None:
    """ "If a Systemship was to be picked up by a Warpship on a given combat round, but the Warpship
    is destroyed during that round, the Systemship ... remains on the star hex." """
    state, step, fight_ = systemship_fight()
    orders = {"P1.W1": dodge(pick_up=("S1",)), "P2.W9": dodge(drive=0, beam=6, beam_target="P1.W1")}
    resolve_round(step, fight_, orders)
    assert "P1.W1" not in state.ships
    assert (state.ships["P1.S1"].location, state.ships["P1.S1"].carried_by) == (STAR, None)


def test_destroyed_warpship_takes_its_carried_systemships_with_it() -> None:
    """ "If a Warpship is destroyed, all Systemships and cargo it was carrying when destroyed are
    also destroyed." """
    state, step, fight_ = systemship_fight()
    carry(state, state.ships["P1.W1"], state.ships["P1.S1"])
    step = step_for(state)
    resolve_round(step, fight_, {"P1.W1": dodge(), "P2.W9": dodge(drive=0, beam=6, beam_target="P1.W1")})
    assert "P1.W1" not in state.ships and "P1.S1" not in state.ships
    assert last_round(step).destroyed == ("P1.W1", "P1.S1")
    causes = {e.ship: e.cause for e in events_of(step, ShipDestroyed)}
    assert causes == {"P1.W1": "destroyed in combat", "P1.S1": "carried by P1.W1 when it was destroyed"}


def test_empty_racks_are_lost_first_then_a_systemship_whose_rack_is_lost_is_left_on_the_star() -> None:
    # Given W1 with 2 racks carrying S1 only, and hits aimed at the racks
    state, step, fight_ = fight(["W1: TL0 PD=4 SR=2", "S1: TL0 PD=3"], ["W9: TL0 PD=9 B=2"])
    carry(state, state.ships["P1.W1"], state.ships["P1.S1"])
    step = step_for(state)
    orders = {
        "P1.W1": dodge(drive=4, damage_priority=(Attr.SR,)),
        "P2.W9": dodge(drive=4, beam=1, beam_target="P1.W1"),  # DODGE 0 vs DODGE: Hit, 1 hit
    }
    resolve_round(step, fight_, orders)
    # Then the empty rack goes first
    assert state.ships["P1.S1"].carried_by == "P1.W1"
    # And when the last rack goes, S1 is dropped at the star, unharmed
    resolve_round(step, fight_, orders)
    assert state.ships["P1.W1"].current.SR == 0
    assert (state.ships["P1.S1"].carried_by, state.ships["P1.S1"].location) == (None, STAR)
    assert "its rack on W1 was destroyed" in last_round(step).order_notes["P1.S1"]


def test_a_systemship_wanted_by_two_warpships_goes_to_the_first() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=4 SR=1", "W2: TL0 PD=4 SR=1", "S1: TL0 PD=3"], ["W9: TL0 PD=9"])
    resolve_round(step, fight_, {"P1.W1": dodge(pick_up=("S1",)), "P1.W2": dodge(pick_up=("S1",))})
    assert state.ships["P1.S1"].carried_by == "P1.W1"
    assert "being picked up by W1" in last_round(step).order_notes["P1.W2"]


# --- The end of a combat ---


def test_three_quiet_rounds_make_the_player_whose_turn_it_is_withdraw() -> None:
    """ "Three consecutive combat rounds pass in which no ships take any damage not absorbed by
    Screens. In that case, the player whose turn it is must withdraw all his ships ...
    Systemships are assumed picked up by any Warpship the retreating player wishes. If there are
    no Warpships capable of carrying a Systemship, the Systemship is destroyed." """
    # Given P1 (whose turn it is) with one free rack and two loose Systemships, the bigger S2
    state, step, fight_ = fight(
        ["W1: TL0 PD=4 SR=1", "S1: TL0 PD=1", "S2: TL0 PD=5 B=2"], ["W9: TL0 PD=5 B=1 S=3"]
    )
    # When nobody fires for two rounds, and in the third only Screens take the hits
    assert not resolve_round(step, fight_, {})
    assert not resolve_round(step, fight_, {})
    assert fight_.quiet_rounds == 2
    over = resolve_round(step, fight_, {"P1.S2": dodge(beam=2, beam_target="P2.W9", drive=2)})
    # Then P1 withdraws: S2 rides in W1's rack, S1 is lost, W1 goes to an adjacent hex
    assert over
    assert state.ships["P1.W1"].location == P1_RETREAT_HEX
    assert (state.ships["P1.S2"].carried_by, state.ships["P1.S2"].location) == ("P1.W1", P1_RETREAT_HEX)
    assert "P1.S1" not in state.ships
    (ended,) = events_of(step, CombatEnded)
    assert (ended.reason, ended.holder, ended.rounds) == ("withdrawal", "P2", 3)
    assert state.control[STAR].owner == "P2"


def test_a_warpship_with_pd_0_still_withdraws_after_three_quiet_rounds() -> None:
    """The withdrawal sends away "all his ships", so a Warpship that may not RETREAT (PD 0)
    leaves with the rest: only Systemships are named as left behind."""
    state, step, fight_ = fight(["W1: TL0 PD={4}0 A=2"], ["W9: TL0 PD=5"])
    orders = {"P1.W1": retreat()}
    assert not resolve_round(step, fight_, orders)
    assert not resolve_round(step, fight_, orders)
    assert state.ships["P1.W1"].location == STAR
    assert resolve_round(step, fight_, orders)
    assert state.ships["P1.W1"].location == P1_RETREAT_HEX
    (ended,) = events_of(step, CombatEnded)
    assert (ended.reason, ended.holder) == ("withdrawal", "P2")


def test_damage_past_screens_resets_the_quiet_rounds() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=5 B=2 A=9"], ["W9: TL0 PD=5 A=9"])
    resolve_round(step, fight_, {})
    resolve_round(step, fight_, {})
    resolve_round(
        step, fight_, {"P1.W1": dodge(drive=3, beam=2, beam_target="P2.W9"), "P2.W9": dodge(drive=4)}
    )
    assert fight_.quiet_rounds == 0
    assert state.combats == [fight_]


def test_combat_ends_when_all_of_one_players_ships_are_destroyed() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=9 B=6"], ["S2: TL0 PD=2"])
    over = resolve_round(
        step, fight_, {"P1.W1": attack(drive=2, beam=6, beam_target="P2.S2"), "P2.S2": attack(drive=2)}
    )
    assert over
    (ended,) = events_of(step, CombatEnded)
    assert (ended.reason, ended.holder) == ("destroyed", "P1")
    assert state.control[STAR].owner == "P1"


def test_with_three_players_each_other_player_is_an_enemy_and_the_fight_goes_on() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=9 B=6"], ["S2: TL0 PD=2"])
    state.players.append(Player(id="P3", name="Three", home=()))
    add_ship(state, "W3: TL0 PD=4 B=1", "P3", STAR)
    step = step_for(state)
    orders = {
        "P1.W1": attack(drive=2, beam=6, beam_target="P2.S2"),
        "P2.S2": attack(drive=2),
        "P3.W3": attack(drive=2, beam=1, beam_target="P2.S2"),
    }
    assert not resolve_round(step, fight_, orders)
    assert "P2.S2" not in state.ships
    executed, _ = check_order(step, fight_, state.ships["P3.W3"], attack(beam=1, beam_target="P1.W1"))
    assert executed.beam_target == "P1.W1"


# --- Starting combat, default orders, visibility ---


def test_start_combat_records_the_combat_and_tells_the_participants() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=4"], ["W9: TL0 PD=9", "S9: TL0 PD=1"])
    assert state.combats == [fight_]
    assert (fight_.star, fight_.round, fight_.quiet_rounds) == (STAR, 1, 0)
    (began,) = events_of(step, CombatBegan)
    assert began.sides == {"P1": ("P1.W1",), "P2": ("P2.S9", "P2.W9")}
    assert began.visible_to == ("P1", "P2")
    assert start_combat(step, STAR) is fight_


def test_default_order_dodges_with_screens_then_ecm_up_and_fires_nothing() -> None:
    ship = ship_from_record("S1: TL0 PD=6 B=4 S=3 E=2 T=2 M=6")
    assert default_order(ship) == CombatOrder(tactic=Tactic.DODGE, drive=1, screen=3, ecm=2)
    weak = ship_from_record("S2: TL0 PD={6}2 S=3 E=2")
    assert default_order(weak) == CombatOrder(tactic=Tactic.DODGE, drive=0, screen=2, ecm=0)


def test_ship_without_round_order_follows_its_standing_order() -> None:
    state, step, fight_ = fight(["W1: TL0 PD=9 B=6"], ["W9: TL0 PD=5 A=9"])
    state.ships["P1.W1"].standing_order = attack(drive=4, beam=5, beam_target="P2.W9")
    resolve_round(step, fight_, {"P2.W9": attack(drive=4)})
    assert last_round(step).orders["P1.W1"].beam == 5


def test_each_player_sees_the_round_but_only_his_own_ships_losses_and_notes() -> None:
    """Orders are revealed ("they show them to each other"), "ship attributes are still secret"."""
    _state, step, fight_ = fight(["W1: TL0 PD=9 B=6 A=9"], ["W9: TL0 PD=9 B=6 A=9"])
    orders = {
        "P1.W1": attack(drive=2, beam=7, beam_target="P2.W9", damage_priority=(Attr.A,)),
        "P2.W9": attack(drive=2, beam=6, beam_target="P1.W1"),
    }
    resolve_round(step, fight_, orders)
    mine, theirs = last_round(step, "P1"), last_round(step, "P2")
    assert mine.shots == theirs.shots
    p1_view = {d.ship: d for d in mine.damage}
    p2_view = {d.ship: d for d in theirs.damage}
    assert p1_view["P1.W1"].record == "W1: TL0 PD=9 B=6 A={9}1"
    assert (p1_view["P2.W9"].record, p1_view["P2.W9"].losses) == ("", Attributes())
    assert p1_view["P2.W9"].effective == p2_view["P2.W9"].effective == 8
    assert p2_view["P2.W9"].losses == Attributes(A=8)
    assert "P1.W1" in mine.order_notes and theirs.order_notes == {}
    assert mine.orders["P1.W1"].damage_priority == (Attr.A,)
    assert theirs.orders["P1.W1"].damage_priority is None


# --- Illegal orders: adjusted with a note, never raising ---


def test_illegal_order_parts_are_dropped_with_a_note_in_the_players_words() -> None:
    _state, step, fight_ = fight(["W1: TL0 PD=6 B=2 T=1 M=2 C=1 SH=2"], ["W9: TL0 PD=9"])
    order = dodge(
        drive=2,
        cannons=(3, 3),
        cannon_target="W9",
        missiles=(MissileShot(target="P2.W9", drive=2), MissileShot(target="P1.W1", drive=2)),
    )
    executed, note = checked(step, fight_, "P1.W1", order)
    assert executed.cannons == (2,) and executed.cannon_target == "P2.W9"
    assert [m.target for m in executed.missiles] == ["P2.W9"]
    assert executed.power() <= 6
    assert note is not None
    assert "Missile 2 is not fired: P1.W1 is not an enemy ship" in note
    assert "fires 1 Cannon(s), not 2" in note and "fires 2 Shell(s)" in note


def test_cannons_are_not_fired_with_beams() -> None:
    _state, step, fight_ = fight(["W1: TL0 PD=6 B=2 C=1 SH=6"], ["W9: TL0 PD=9"])
    executed, note = checked(
        step, fight_, "P1.W1", attack(beam=2, beam_target="P2.W9", cannons=(2,), cannon_target="P2.W9")
    )
    assert (executed.beam, executed.cannons, executed.cannon_target) == (2, (), None)
    assert note is not None and "Missiles or Shells" in note


def test_beam_without_a_target_is_not_fired() -> None:
    _state, step, fight_ = fight(["W1: TL0 PD=6 B=2"], ["W9: TL0 PD=9"])
    executed, note = checked(step, fight_, "P1.W1", attack(beam=2))
    assert executed.beam == 0
    assert note is not None and "no target was given" in note


def test_power_is_cut_ecm_then_screen_then_beam_then_drive() -> None:
    _state, step, fight_ = fight(["W1: TL0 PD={9}3 B=4 S=3 E=2"], ["W9: TL0 PD=9"])
    executed, note = checked(
        step, fight_, "P1.W1", attack(drive=2, beam=2, beam_target="P2.W9", screen=1, ecm=2)
    )
    assert (executed.ecm, executed.screen, executed.beam, executed.drive) == (0, 0, 1, 2)
    assert note is not None and "cut ECM by 2, Screen by 1, Beam by 1" in note


SHIPS_P1 = ["W1: TL1 PD={8}5 B=3 S=2 T=2 M={6}4 C=1 SH={6}4 E=2 SR=2 A=3", "S1: TL0 PD=3 B=2 S=1 T=1 M=3"]
SHIPS_P2 = ["W9: TL2 PD=6 B=2 S=3 C=2 SH=9 E=1 A=2", "S9: TL1 PD=4 T=2 M=6 E=2"]
REFS = ["P1.W1", "P1.S1", "P2.W9", "P2.S9", "W9", "S1", "P3.W7", "XX"]
NAMES = ["W1", "S1", "W9", "S9", "S4"]

orders_strategy = st.builds(
    CombatOrder,
    tactic=st.sampled_from(list(Tactic)),
    drive=st.integers(0, 12),
    beam=st.integers(0, 8),
    beam_target=st.none() | st.sampled_from(REFS),
    screen=st.integers(0, 8),
    ecm=st.integers(0, 5),
    missiles=st.lists(
        st.builds(MissileShot, target=st.sampled_from(REFS), drive=st.integers(1, 9)), max_size=4
    ).map(tuple),
    cannons=st.lists(st.integers(1, 3), max_size=3).map(tuple),
    cannon_target=st.none() | st.sampled_from(REFS),
    pick_up=st.lists(st.sampled_from(NAMES), max_size=3).map(tuple),
    drop=st.lists(st.sampled_from(NAMES), max_size=3).map(tuple),
    retreat_to=st.none() | st.sampled_from(["0404", "0606", "0909", "0505"]),
    damage_priority=st.none() | st.lists(st.sampled_from(list(Attr)), max_size=6).map(tuple),
    ecm_policy=st.none() | st.sampled_from(list(EcmPolicy)),
)


def arbitrary_fight() -> tuple[GameState, Step, Combat]:
    state, _, fight_ = fight(SHIPS_P1, SHIPS_P2)
    return state, step_for(state), fight_


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=orders_strategy, who=st.sampled_from(["P1.W1", "P1.S1", "P2.W9", "P2.S9"]))
def test_any_order_is_checked_without_raising_and_fits_the_ship(order: CombatOrder, who: str) -> None:
    state, step, fight_ = arbitrary_fight()
    ship = state.ships[who]
    executed, _ = check_order(step, fight_, ship, order)
    now = ship.current
    assert executed.power() <= now.PD
    assert executed.beam <= now.B and executed.screen <= now.S and executed.ecm <= now.E
    assert len(executed.missiles) <= min(now.T, now.M)
    assert len(executed.cannons) <= now.C and sum(executed.cannons) <= now.SH
    assert not ((executed.beam or executed.screen) and (executed.missiles or executed.cannons))
    assert ship.is_warpship or executed.tactic is not Tactic.RETREAT
    enemies = {s.uid for s in combat.fighters(step, STAR) if s.owner != ship.owner}
    targets = [executed.beam_target, executed.cannon_target, *(m.target for m in executed.missiles)]
    assert all(t in enemies for t in targets if t is not None)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(orders=st.lists(orders_strategy, min_size=4, max_size=4), rounds=st.integers(1, 4))
def test_any_rounds_resolve_without_raising_and_keep_attributes_within_built(
    orders: list[CombatOrder], rounds: int
) -> None:
    state, step, fight_ = arbitrary_fight()
    carry(state, state.ships["P1.W1"], state.ships["P1.S1"])
    step = step_for(state)
    by_uid = dict(zip(["P1.W1", "P1.S1", "P2.W9", "P2.S9"], orders, strict=True))
    for _ in range(rounds):
        if resolve_round(step, fight_, by_uid):
            break
    for ship in state.ships.values():
        for attr in Attr:
            assert 0 <= ship.current.get(attr) <= ship.built.get(attr)
        assert len(ship.carrying) <= ship.current.SR
        for uid in ship.carrying:
            assert state.ships[uid].carried_by == ship.uid
            assert state.ships[uid].location == ship.location


def play(orders: dict[str, CombatOrder]) -> tuple[str, str]:
    state, step, fight_ = arbitrary_fight()
    for _ in range(3):
        if resolve_round(step, fight_, orders):
            break
    events = "\n".join(e.model_dump_json() for e in step.events)
    return events, state.model_dump_json()


def test_same_state_and_orders_give_the_same_events_and_state() -> None:
    orders = {
        "P1.W1": attack(drive=2, beam=3, beam_target="P2.S9", ecm=0),
        "P1.S1": dodge(drive=1, missiles=(MissileShot(target="P2.W9", drive=3),)),
        "P2.W9": attack(drive=1, cannons=(3, 2), cannon_target="P1.W1", ecm=1),
        "P2.S9": dodge(
            drive=1, missiles=(MissileShot(target="P1.W1", drive=2), MissileShot(target="P1.S1", drive=4))
        ),
    }
    assert play(orders) == play(orders)


def test_ammunition_fired_is_taken_from_the_stock() -> None:
    """ "As Missiles are fired, they must be subtracted from the ship's Missile stock"."""
    state, step, fight_ = fight(["W1: TL0 PD=5 T=2 M=4"], ["W9: TL0 PD=9 A=9"])
    resolve_round(
        step,
        fight_,
        {
            "P1.W1": dodge(
                missiles=(MissileShot(target="P2.W9", drive=1), MissileShot(target="P2.W9", drive=1))
            )
        },
    )
    assert state.ships["P1.W1"].current.M == 2
