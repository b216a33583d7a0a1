"""The Build event (rules III, Build (a)-(c); IV, Ship building, Repair and resupply).

Block map (tests/engine/builders.py): P1's Bases on 0101 (the middle home star), 0103 and 0301;
P2's on 1010, 1008 and 0810; Delta 0505 (value 4) and Epsilon 0808 (value 2) unowned, Baseless.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.warpwar.build import run_build_event, scrap_value
from engine.warpwar.components import Attr, Attributes
from engine.warpwar.context import Step
from engine.warpwar.economy import collect_income
from engine.warpwar.events import (
    BaseBuilt,
    BPCollected,
    HoldLoaded,
    ShipBuilt,
    ShipRepaired,
    ShipScrapped,
    ShipSighted,
    SystemshipTransferred,
)
from engine.warpwar.orders import (
    DEFAULT_DAMAGE_PRIORITY,
    BuildBase,
    BuildShip,
    CombatOrder,
    EcmPolicy,
    HexStep,
    LoadHold,
    Move,
    OrderResult,
    OrderStatus,
    Repair,
    Resupply,
    Scrap,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    Tactic,
    TurnOrder,
    UnloadHold,
)
from engine.warpwar.ships import Ship, tech_level_for_turn
from engine.warpwar.state import Base, GameState, Scenario, StarControl, Visibility
from tests.engine.builders import add_ship, carry, make_state, ship_from_record, step_for

DONE, PARTIAL, REFUSED = OrderStatus.DONE, OrderStatus.PARTIAL, OrderStatus.REFUSED
W2 = "W2: TL0 PD=7 S=2 B=3 T=1 M=3 E=2"
W7 = "W7: TL2 PD=6 A=8 H=2 SR=3 R=1"
S20 = "S20: TL0 PD=7 B=5 S=5 E=3"
S55 = "S55: TL1 PD=1 C=1 SH=12"
FREIGHTER = "W5: TL0 PD=4 H=2"
TENDER = "W8: TL0 PD=4 H=1 R=1"


def run(state: GameState, *orders: TurnOrder) -> tuple[Step, list[OrderResult]]:
    step = step_for(state)
    return step, run_build_event(step, list(enumerate(orders)))


def statuses(results: list[OrderResult]) -> list[OrderStatus]:
    return [r.status for r in results]


def stocked(state: GameState, star: str, bp: int) -> GameState:
    state.bases[star].stockpile = bp
    return state


def build_order(record: str, at: str = "0101", named: bool = True) -> BuildShip:
    """The order that builds the ship of a record in the rules' notation."""
    ship = ship_from_record(record)
    return BuildShip(
        at=at,
        warp=ship.warp_generator,
        design=ship.built,
        repair_bay=ship.repair_bay,
        name=ship.name if named else None,
    )


def only(step: Step, kind: type[ShipBuilt]) -> list[ShipBuilt]:
    return [e for e in step.events if isinstance(e, kind)]


def p1_ship(state: GameState, name: str) -> Ship:
    return state.ships[f"P1.{name}"]


# --- The rules' examples ---


def test_w2_example_built_on_turn_3_is_tl0_costs_21_bp_and_moves_4_hexes() -> None:
    """ "W2 is built during turn 3, which means its technological level is 0. 21 BP are used to
    construct it ... W2's movement allowance is 4." """
    state = stocked(make_state(turn=3), "0101", 21)

    step, results = run(state, build_order(W2))

    assert statuses(results) == [DONE]
    w2 = p1_ship(state, "W2")
    assert (w2.tech_level, w2.movement_points, w2.location) == (0, 4, "0101")
    assert w2.built == ship_from_record(W2).built
    assert w2.record() == "W2: TL0 PD=7 B=3 S=2 T=1 M=3 E=2"  # the rules list S before B
    assert state.bases["0101"].stockpile == 0
    assert only(step, ShipBuilt)[0].cost == 21


def test_w7_example_costs_23_bp_at_tl2() -> None:
    """ "W7 is built during turn 12, which means its technological level is 2. 23 BP are used to
    construct it": PD 6 + A 8 at (2 + 2) per BP + H 2 + SR 3 + WG 5 + R 5."""
    state = stocked(make_state(turn=13), "0101", 23)

    _, results = run(state, build_order(W7))

    assert statuses(results) == [DONE]
    assert p1_ship(state, "W7").record() == W7
    assert state.bases["0101"].stockpile == 0


def test_w7_built_on_turn_12_is_tl1_by_the_schedule_and_costs_24_bp() -> None:
    """The schedule ("turns 7-12 are TL 1") wins over the example's "turn 12 ... level is 2": at
    TL1 a BP builds 3 points of Armor, so A=8 costs 3 BP and W7 costs 24."""
    state = stocked(make_state(turn=12), "0101", 24)

    _, results = run(state, build_order(W7))

    assert statuses(results) == [DONE]
    assert p1_ship(state, "W7").record() == "W7: TL1 PD=6 A=8 H=2 SR=3 R=1"
    assert state.bases["0101"].stockpile == 0


def test_s20_example_built_on_turn_2_is_tl0_and_costs_20_bp() -> None:
    state = stocked(make_state(turn=2), "0101", 20)

    _, results = run(state, build_order(S20))

    assert statuses(results) == [DONE]
    s20 = p1_ship(state, "S20")
    assert (s20.record(), s20.is_warpship) == (S20, False)
    assert state.bases["0101"].stockpile == 0


def test_s55_example_built_on_turn_9_is_tl1_and_costs_4_bp() -> None:
    state = stocked(make_state(turn=9), "0101", 4)

    _, results = run(state, build_order(S55))

    assert statuses(results) == [DONE]
    assert p1_ship(state, "S55").record() == S55
    assert state.bases["0101"].stockpile == 0


@pytest.mark.parametrize(("turn", "tech_level"), [(1, 0), (6, 0), (7, 1), (12, 1), (13, 2), (18, 2), (19, 3)])
def test_new_ships_get_the_tech_level_of_the_turn_they_are_built(turn: int, tech_level: int) -> None:
    """ "Ships built on turns 1-6 are TL 0, those built during turns 7-12 are TL 1, those built
    during turns 13-18 are TL 2, and so on." """
    state = stocked(make_state(turn=turn), "0101", 1)

    run(state, BuildShip(at="0101", warp=False, design=Attributes(PD=1)))

    assert tech_level_for_turn(turn) == tech_level
    assert p1_ship(state, "S1").tech_level == tech_level


def test_basic_scenario_ships_are_tl0_on_any_turn() -> None:
    """Basic scenario: "Technology rules are not used." """
    state = stocked(make_state(Scenario.BASIC, turn=19), "0101", 1)

    run(state, BuildShip(at="0101", warp=False, design=Attributes(PD=1)))

    assert p1_ship(state, "S1").tech_level == 0


# --- Building ships ---


@pytest.mark.parametrize(
    ("at", "why"),
    [("0505", "no Base of yours"), ("1010", "no Base of yours"), ("0808", "under construction")],
)
def test_ship_cannot_be_built_at_a_star_without_a_complete_base_of_yours(at: str, why: str) -> None:
    """ "Ships may be built and scrapped only at Bases." """
    state = make_state(turn=3)
    state.control["0808"] = StarControl(owner="P1", since_turn=1)
    state.bases["0808"] = Base(star="0808", owner="P1", stockpile=0, invested=29)
    for base in state.bases.values():
        base.stockpile = 50

    _, [result] = run(state, build_order(S20, at=at))

    assert (result.status, why in result.reason) == (REFUSED, True)
    assert "P1.S20" not in state.ships


def test_ship_costing_more_than_the_base_stockpile_is_refused_and_nothing_is_spent() -> None:
    state = stocked(make_state(turn=3), "0101", 20)

    _, [result] = run(state, build_order(W2))

    assert result.status is REFUSED
    assert "21 BP" in result.reason
    assert state.bases["0101"].stockpile == 20


def test_ship_is_paid_from_the_stockpile_of_the_base_it_is_built_at() -> None:
    state = make_state(turn=3)
    state.bases["0101"].stockpile = 5
    state.bases["0103"].stockpile = 30

    _, results = run(state, build_order(W2, at="0103"), build_order(S20, at="0101"))

    assert statuses(results) == [DONE, REFUSED]
    assert (state.bases["0101"].stockpile, state.bases["0103"].stockpile) == (5, 9)
    assert p1_ship(state, "W2").location == "0103"


@pytest.mark.parametrize(
    "design",
    [Attributes(PD=2, H=1), Attributes(PD=2, SR=1)],
)
def test_systemship_may_not_have_holds_or_racks(design: Attributes) -> None:
    state = stocked(make_state(turn=3), "0101", 30)

    _, [result] = run(state, BuildShip(at="0101", warp=False, design=design))

    assert result.status is REFUSED
    assert "Systemships may not have" in result.reason


def test_systemship_may_not_have_a_repair_bay() -> None:
    state = stocked(make_state(turn=3), "0101", 30)

    _, [result] = run(state, BuildShip(at="0101", warp=False, design=Attributes(PD=2), repair_bay=True))

    assert result.status is REFUSED


@pytest.mark.parametrize(("design", "repair_bay"), [(Attributes(PD=2, H=1), False), (Attributes(PD=2), True)])
def test_basic_scenario_has_no_holds_or_repair_bays(design: Attributes, repair_bay: bool) -> None:
    state = stocked(make_state(Scenario.BASIC, turn=3), "0101", 30)

    _, [result] = run(state, BuildShip(at="0101", warp=True, design=design, repair_bay=repair_bay))

    assert result.status is REFUSED
    assert "Basic scenario" in result.reason


def test_design_with_nothing_but_a_warp_generator_is_refused() -> None:
    state = stocked(make_state(turn=3), "0101", 30)

    _, results = run(
        state,
        BuildShip(at="0101", warp=True, design=Attributes()),
        BuildShip(at="0101", warp=True, design=Attributes(), repair_bay=True),
    )

    assert statuses(results) == [REFUSED, REFUSED]
    assert state.bases["0101"].stockpile == 30


def test_unnamed_ships_get_the_next_w_and_s_numbers() -> None:
    state = stocked(make_state(turn=3), "0101", 30)
    state.players[0].warpships_named = 2
    add_ship(state, "W3: TL0 PD=1", location="0103")

    run(
        state,
        BuildShip(at="0101", warp=True, design=Attributes(PD=1)),
        BuildShip(at="0101", warp=False, design=Attributes(PD=1)),
        BuildShip(at="0101", warp=False, design=Attributes(PD=1)),
    )

    assert {"P1.W4", "P1.S1", "P1.S2"} <= set(state.ships)
    assert (state.players[0].warpships_named, state.players[0].systemships_named) == (4, 2)


def test_given_name_is_used_when_free_and_later_numbers_follow_it() -> None:
    state = stocked(make_state(turn=3), "0101", 30)

    run(
        state,
        BuildShip(at="0101", warp=False, design=Attributes(PD=1), name="S20"),
        BuildShip(at="0101", warp=False, design=Attributes(PD=1)),
    )

    assert {"P1.S20", "P1.S21"} <= set(state.ships)


@pytest.mark.parametrize(("warp", "name"), [(True, "W3"), (True, "S30"), (False, "W30")])
def test_name_taken_or_of_the_wrong_kind_is_refused(warp: bool, name: str) -> None:
    state = stocked(make_state(turn=3), "0101", 30)
    add_ship(state, "W3: TL0 PD=1", location="0103")

    _, [result] = run(state, BuildShip(at="0101", warp=warp, design=Attributes(PD=1), name=name))

    assert result.status is REFUSED
    assert state.bases["0101"].stockpile == 30


def test_build_is_seen_by_everyone_in_an_open_game_but_not_its_cost_or_record() -> None:
    """ "All moves and builds are 'seen' (but BP and ship attributes are still secret)" """
    state = stocked(make_state(turn=3), "0101", 21)

    step, _ = run(state, build_order(W2))

    mine, theirs = only(step, ShipBuilt)
    assert (mine.visible_to, mine.cost, mine.record) == (("P1",), 21, p1_ship(state, "W2").record())
    assert (theirs.visible_to, theirs.ship, theirs.star, theirs.cost, theirs.record) == (
        ("P2",),
        "P1.W2",
        "0101",
        0,
        "",
    )


def test_build_in_a_blind_game_is_seen_only_by_players_present() -> None:
    state = stocked(make_state(visibility=Visibility.BLIND, turn=3), "0101", 42)
    state.bases["0103"].stockpile = 21
    add_ship(state, "W9: TL0 PD=2", owner="P2", location="0103")

    step, _ = run(
        state, build_order(W2, at="0101"), build_order("W3: TL0 PD=7 S=2 B=3 T=1 M=3 E=2", at="0103")
    )

    assert [e.visible_to for e in only(step, ShipBuilt)] == [("P1",), ("P1",), ("P2",)]
    sightings = [e for e in step.events if isinstance(e, ShipSighted)]
    assert [(e.ship, e.hex, e.visible_to) for e in sightings] == [("P1.W3", "0103", ("P2",))]
    assert step.knowledge("P2").sightings["P1.W3"].hex == "0103"


def test_built_ship_is_in_the_hex_index_at_once() -> None:
    state = stocked(make_state(turn=3), "0101", 21)

    step, _ = run(state, build_order(W2))

    assert [s.uid for s in step.ships_at("0101")] == ["P1.W2"]


# --- (a) Holds ---


def test_holds_are_loaded_from_the_base_at_the_ships_star() -> None:
    state = stocked(make_state(turn=3), "0101", 50)
    freighter = add_ship(state, FREIGHTER, location="0101")

    step, results = run(state, LoadHold(ship="W5", amount=15))

    assert statuses(results) == [DONE]
    assert (freighter.cargo, state.bases["0101"].stockpile) == (15, 35)
    [loaded] = [e for e in step.events if isinstance(e, HoldLoaded)]
    assert (loaded.amount, loaded.visible_to) == (15, ("P1",))


def test_load_beyond_free_hold_space_is_partial() -> None:
    state = stocked(make_state(turn=3), "0101", 50)
    freighter = add_ship(state, FREIGHTER, location="0101")
    freighter.cargo = 5

    _, [result] = run(state, LoadHold(ship="W5", amount=30))

    assert result.status is PARTIAL
    assert (freighter.cargo, state.bases["0101"].stockpile) == (20, 35)


def test_holds_are_unloaded_into_the_base_stockpile() -> None:
    state = make_state(turn=3)
    freighter = add_ship(state, FREIGHTER, location="0103")
    freighter.cargo = 12

    _, results = run(state, UnloadHold(ship="W5", amount=5), UnloadHold(ship="W5", amount=20))

    assert statuses(results) == [DONE, PARTIAL]
    assert (freighter.cargo, state.bases["0103"].stockpile) == (0, 12)


def test_holds_cannot_be_loaded_or_unloaded_away_from_a_base_of_yours() -> None:
    state = make_state(turn=3)
    freighter = add_ship(state, FREIGHTER, location="0505")
    freighter.cargo = 10
    add_ship(state, "W6: TL0 PD=4 H=2", location="1010")

    _, results = run(state, UnloadHold(ship="W5", amount=5), LoadHold(ship="W6", amount=5))

    assert statuses(results) == [REFUSED, REFUSED]
    assert freighter.cargo == 10


def test_systemships_have_no_holds() -> None:
    state = stocked(make_state(turn=3), "0101", 50)
    add_ship(state, S20, location="0101")

    _, [result] = run(state, LoadHold(ship="S20", amount=5))

    assert result.status is REFUSED
    assert "Systemships may not have Holds" in result.reason


def test_holds_are_not_used_in_the_basic_scenario() -> None:
    state = stocked(make_state(Scenario.BASIC, turn=3), "0101", 50)
    add_ship(state, FREIGHTER, location="0101")

    _, [result] = run(state, LoadHold(ship="W5", amount=5))

    assert result.status is REFUSED


# --- (b) Scrapping ---


def test_ship_is_scrapped_at_a_base_for_half_its_current_value_rounded_down() -> None:
    """ "Ships may be scrapped for 1/2 their current total BP value." W4 after its first round of
    the rules' combat example is worth PD 6 + B 3 + S 2 + C 1 + SH 1 + E 1 + WG 5 = 19 BP."""
    state = make_state(turn=3)
    add_ship(state, "W4: TL0 PD={7}6 B=3 S={3}2 C=1 SH={12}6 E=1", location="0103")

    step, results = run(state, Scrap(ship="W4"))

    assert statuses(results) == [DONE]
    assert "P1.W4" not in state.ships
    assert state.bases["0103"].stockpile == 9
    mine, theirs = [e for e in step.events if isinstance(e, ShipScrapped)]
    assert (mine.bp, mine.visible_to, theirs.bp, theirs.visible_to) == (9, ("P1",), 0, ("P2",))


@pytest.mark.parametrize(
    ("record", "bp"),
    [
        ("W1: TL0 PD=4 M={3}1", 4),  # 5 + 4 + 1/3 Missile lot = 9 1/3: not 10 with the lot counted whole
        ("W1: TL0 PD=4 A={4}1", 4),  # 5 + 4 + 1/2 Armor lot = 9 1/2
        ("W1: TL1 PD=4 A=4", 5),  # 5 + 4 + 4/3 (3 Armor per BP at TL1) = 10 1/3
        ("W1: TL0 PD=4 M={3}2 SH={6}4", 5),  # 9 + 2/3 + 2/3 = 10 1/3: the parts add up before halving
        ("S1: TL0 SH={6}5", 0),  # 5/6 of a BP
    ],
)
def test_a_part_lot_is_scrapped_for_its_share_of_the_lot(record: str, bp: int) -> None:
    """ "Ships may be scrapped for 1/2 their current total BP value": Missiles, Shells and Armor are
    bought by the lot, and a part-lot is worth its share of it (docs/rules-interpretations.md, 78)."""
    state = make_state(turn=3)
    add_ship(state, record, location="0101")
    before = state.bases["0101"].stockpile
    name = record.split(":", 1)[0]

    step, results = run(state, Scrap(ship=name))

    assert statuses(results) == [DONE]
    assert state.bases["0101"].stockpile - before == bp
    [scrapped, _] = [e for e in step.events if isinstance(e, ShipScrapped)]
    assert scrapped.bp == bp


@given(
    pd=st.integers(0, 12),
    missiles=st.integers(0, 12),
    shells=st.integers(0, 20),
    armor=st.integers(0, 12),
    tech_level=st.integers(0, 4),
    fired=st.integers(0, 12),
)
@settings(max_examples=60, deadline=None)
def test_scrapping_never_pays_more_than_half_the_cost_and_full_lots_pay_exactly_half(
    pd: int, missiles: int, shells: int, armor: int, tech_level: int, fired: int
) -> None:
    built = Attributes(PD=pd, M=missiles, SH=shells, A=armor, B=1)
    ship = Ship(
        name="W1", owner="P1", tech_level=tech_level, built_turn=1, warp_generator=True,
        built=built, current=built.replace(M=max(0, missiles - fired)), location="0101",
    )  # fmt: skip
    assert scrap_value(ship) <= ship.value() // 2
    full_lots = missiles % 3 == shells % 6 == armor % (2 + tech_level) == 0
    if full_lots and fired == 0:
        assert scrap_value(ship) == ship.value() // 2


def test_ship_cannot_be_scrapped_away_from_a_base_of_yours() -> None:
    state = make_state(turn=3)
    add_ship(state, W2, location="0505")

    _, [result] = run(state, Scrap(ship="W2"))

    assert result.status is REFUSED
    assert "P1.W2" in state.ships


def test_scrapped_bp_can_pay_for_a_build_written_before_the_scrap() -> None:
    """Step (b) scrapping comes before step (c) building, whatever order the orders are written in."""
    state = make_state(turn=3)
    add_ship(state, "W1: TL0 PD=20 B=20", location="0101")  # worth 45: scraps for 22

    _, results = run(state, build_order(W2), Scrap(ship="W1"))

    assert statuses(results) == [DONE, DONE]
    assert state.bases["0101"].stockpile == 1


def test_scrapping_a_warpship_unloads_its_holds_and_sets_its_systemships_down() -> None:
    state = make_state(turn=3)
    carrier = add_ship(state, "W1: TL0 PD=2 H=1 SR=1", location="0101")
    carrier.cargo = 7
    s20 = add_ship(state, S20, location="0101")
    carry(state, carrier, s20)

    step, _ = run(state, Scrap(ship="W1"))

    assert state.bases["0101"].stockpile == 7 + 9 // 2
    assert (s20.carried_by, s20.location, "P1.S20" in state.ships) == (None, "0101", True)
    assert [e.systemship for e in step.events if isinstance(e, SystemshipTransferred)] == ["P1.S20"]


def test_carried_systemship_can_be_scrapped_at_a_base() -> None:
    state = make_state(turn=3)
    carrier = add_ship(state, "W1: TL0 PD=2 SR=1", location="0101")
    carry(state, carrier, add_ship(state, S20, location="0101"))

    _, [result] = run(state, Scrap(ship="S20"))

    assert result.status is DONE
    assert (carrier.carrying, state.bases["0101"].stockpile) == ([], 10)


# --- (c) Bases ---


def test_base_is_built_over_several_turns_from_bp_brought_in_holds() -> None:
    """ "Each Base costs 30 BP. These BP need not all be spent in the same turn, but they must be
    brought in Holds to the star on which the Base is to be built." """
    state = make_state(turn=3)
    state.control["0505"] = StarControl(owner="P1", since_turn=2)
    freighter = add_ship(state, FREIGHTER, location="0505")
    freighter.cargo = 12

    step, [first] = run(state, BuildBase(at="0505", amount=12))
    freighter.cargo = 20
    _, [second] = run(state, BuildBase(at="0505", amount=12))
    assert state.bases["0505"].invested == 24
    later, [third] = run(state, BuildBase(at="0505", amount=12))

    assert statuses([first, second, third]) == [DONE, DONE, PARTIAL]
    base = state.bases["0505"]
    assert (base.invested, base.complete, base.owner, freighter.cargo) == (30, True, "P1", 2)
    built = [e for e in later.events if isinstance(e, BaseBuilt)]
    assert [(e.invested, e.complete, e.visible_to) for e in built] == [
        (30, True, ("P1",)),
        (30, True, ("P2",)),
    ]
    [seen] = [e for e in step.events if isinstance(e, BaseBuilt) and e.visible_to == ("P2",)]
    assert seen.invested == 0  # the BP in it are secret


def test_base_completed_this_build_event_builds_from_the_next() -> None:
    state = make_state(turn=3)
    state.control["0505"] = StarControl(owner="P1", since_turn=2)
    freighter = add_ship(state, FREIGHTER, location="0505")
    freighter.cargo = 20
    state.bases["0505"] = Base(star="0505", owner="P1", stockpile=0, invested=20)

    _, results = run(
        state, BuildBase(at="0505", amount=10), BuildShip(at="0505", warp=False, design=Attributes())
    )

    assert statuses(results) == [DONE, REFUSED]
    assert "completed this Build event" in results[1].reason


def test_bp_received_from_a_star_cannot_build_a_base_there_the_same_turn() -> None:
    """ "BP received from a star may not be used to build a Base at that star in the turn they were
    received." """
    state = make_state(turn=3)
    state.control["0505"] = StarControl(owner="P1", since_turn=2)
    freighter = add_ship(state, FREIGHTER, location="0505")
    collect_income(step_for(state))
    assert state.star_pools == {"0505": 2}

    _, [refused] = run(state, BuildBase(at="0505", amount=2))
    assert refused.status is REFUSED
    assert (freighter.cargo, "0505" in state.bases) == (2, False)

    state.turn = 4
    _, [done] = run(state, BuildBase(at="0505", amount=2))
    assert done.status is DONE
    assert state.bases["0505"].invested == 2


def test_only_one_base_may_be_built_on_each_star_hex() -> None:
    state = make_state(turn=3)
    freighter = add_ship(state, FREIGHTER, location="1008")
    freighter.cargo = 10
    other = add_ship(state, "W6: TL0 PD=4 H=1", location="0103")
    other.cargo = 10

    _, results = run(state, BuildBase(at="1008", amount=10), BuildBase(at="0103", amount=10))

    assert statuses(results) == [REFUSED, REFUSED]
    assert "only one Base" in results[0].reason
    assert (freighter.cargo, other.cargo) == (10, 10)


def test_base_cannot_be_built_on_a_star_another_player_owns() -> None:
    state = make_state(turn=3)
    state.control["0808"] = StarControl(owner="P2", since_turn=2)
    freighter = add_ship(state, FREIGHTER, location="0808")
    freighter.cargo = 10

    _, [result] = run(state, BuildBase(at="0808", amount=10))

    assert result.status is REFUSED
    assert "owned by P2" in result.reason


def test_base_started_on_an_unowned_star_claims_it() -> None:
    state = make_state(turn=3)
    freighter = add_ship(state, FREIGHTER, location="0808")
    freighter.cargo = 10

    run(state, BuildBase(at="0808", amount=10))

    assert state.control["0808"] == StarControl(owner="P1", since_turn=3)


def test_base_construction_is_not_used_in_the_basic_scenario() -> None:
    state = make_state(Scenario.BASIC, turn=3)

    _, [result] = run(state, BuildBase(at="0505", amount=10))

    assert result.status is REFUSED


def test_base_is_not_built_on_a_space_hex() -> None:
    state = make_state(turn=3)
    freighter = add_ship(state, FREIGHTER, location="0303")
    freighter.cargo = 10

    _, [result] = run(state, BuildBase(at="0303", amount=10))

    assert result.status is REFUSED


# --- (c) Repair ---


def test_pd_damaged_from_7_to_2_is_repaired_to_7_for_5_bp_and_never_above() -> None:
    """ "a ship originally built at PD=7 and damaged so that its new PD is 2, may be repaired all the
    way up to 7 -- costing 5 BP -- or repaired to some PD lower than 7. It can never be repaired to
    over 7." """
    state = stocked(make_state(turn=3), "0101", 20)
    ship = add_ship(state, "W2: TL0 PD={7}2 B=3", location="0101")

    step, [result] = run(state, Repair(ship="W2", amounts=Attributes(PD=6)))

    assert result.status is PARTIAL
    assert "PD is 5 below its built 7" in result.reason
    assert (ship.current.PD, state.bases["0101"].stockpile) == (7, 15)
    [repaired] = [e for e in step.events if isinstance(e, ShipRepaired)]
    assert (repaired.amounts, repaired.cost, repaired.visible_to) == (Attributes(PD=5), 5, ("P1",))


def test_repair_to_some_lower_value_is_done() -> None:
    state = stocked(make_state(turn=3), "0101", 20)
    ship = add_ship(state, "W2: TL0 PD={7}2 B=3", location="0101")

    _, [result] = run(state, Repair(ship="W2", amounts=Attributes(PD=3)))

    assert result.status is DONE
    assert ship.current.PD == 5


def test_undamaged_ship_has_nothing_to_repair() -> None:
    state = stocked(make_state(turn=3), "0101", 20)
    add_ship(state, W2, location="0101")

    _, [result] = run(state, Repair(ship="W2", amounts=Attributes(PD=1)))

    assert result.status is REFUSED
    assert state.bases["0101"].stockpile == 20


def test_armor_is_repaired_at_1_bp_per_2_points_whatever_the_tech_level() -> None:
    """ "Armor ... is repaired at a cost of 1 BP per 2 points of Armor, regardless of tech level":
    W7 (TL2) built its 8 Armor for 2 BP, and repairs it for 4."""
    state = stocked(make_state(turn=14), "0101", 10)
    w7 = add_ship(state, "W7: TL2 PD=6 A={8}0 H=2 SR=3 R=1", location="0101")

    _, [result] = run(state, Repair(ship="W7", amounts=Attributes(A=8)))

    assert result.status is DONE
    assert (w7.current.A, state.bases["0101"].stockpile) == (8, 6)


def test_repair_the_bp_cannot_pay_for_is_partial_in_record_order() -> None:
    state = stocked(make_state(turn=3), "0101", 4)
    ship = add_ship(state, "W1: TL0 PD={7}2 B={3}0 A={6}0", location="0101")

    _, [result] = run(state, Repair(ship="W1", amounts=Attributes(PD=5, B=3, A=6)))

    assert result.status is PARTIAL
    assert (ship.current.PD, ship.current.B, ship.current.A) == (6, 0, 0)
    assert state.bases["0101"].stockpile == 0


def test_carried_systemship_is_repaired_at_a_base() -> None:
    """ "A Systemship may be repaired or resupplied even when it is loaded onto a Warpship." """
    state = stocked(make_state(turn=3), "0101", 10)
    carrier = add_ship(state, "W1: TL0 PD=2 SR=1", location="0101")
    s20 = add_ship(state, "S20: TL0 PD={7}3 B=5 S=5 E=3", location="0101")
    carry(state, carrier, s20)

    _, [result] = run(state, Repair(ship="S20", amounts=Attributes(PD=4)))

    assert result.status is DONE
    assert s20.current.PD == 7


def test_ship_away_from_a_base_or_repair_bay_cannot_be_repaired() -> None:
    state = make_state(turn=3)
    add_ship(state, "W2: TL0 PD={7}2", location="0505")

    _, [result] = run(state, Repair(ship="W2", amounts=Attributes(PD=5)))

    assert result.status is REFUSED
    assert "Repair Bay" in result.reason


def test_repair_bay_ship_repairs_others_at_its_star_from_its_hold() -> None:
    state = make_state(turn=3)
    tender = add_ship(state, TENDER, location="0505")
    tender.cargo = 8
    ship = add_ship(state, "W2: TL0 PD={7}2", location="0505")

    _, [result] = run(state, Repair(ship="W2", amounts=Attributes(PD=5), repair_bay="W8"))

    assert result.status is DONE
    assert (ship.current.PD, tender.cargo) == (7, 3)


def test_repair_bay_spends_bp_mined_at_a_baseless_star_at_once_and_the_rest_go_to_holds() -> None:
    """ "BPs mined from Baseless Stars may be used immediately to repair by ships with Repair Bays." """
    state = make_state(turn=3)
    state.control["0505"] = StarControl(owner="P1", since_turn=1)
    tender = add_ship(state, TENDER, location="0505")
    tender.cargo = 4
    ship = add_ship(state, "W2: TL0 PD={7}4", location="0505")
    collect_income(step_for(state))

    assert state.star_pools == {"0505": 2}

    step, [result] = run(state, Repair(ship="W2", amounts=Attributes(PD=1), repair_bay="W8"))

    assert result.status is DONE
    assert (ship.current.PD, tender.cargo, state.star_pools) == (5, 5, {})
    assert [(e.amount, e.where) for e in step.events if isinstance(e, BPCollected)] == [(1, "holds")]


def test_repair_bay_cannot_repair_at_a_space_hex_or_another_star() -> None:
    state = make_state(turn=3)
    for hex_ in ("0303", "0505"):
        tender = add_ship(state, f"W{hex_[-1]}: TL0 PD=4 H=1 R=1", location=hex_)
        tender.cargo = 10
    add_ship(state, "W1: TL0 PD={7}2", location="0303")
    add_ship(state, "W2: TL0 PD={7}2", location="0808")

    _, results = run(
        state,
        Repair(ship="W1", amounts=Attributes(PD=1), repair_bay="W3"),
        Repair(ship="W2", amounts=Attributes(PD=1), repair_bay="W5"),
        Repair(ship="W2", amounts=Attributes(PD=1), repair_bay="W1"),
    )

    assert statuses(results) == [REFUSED, REFUSED, REFUSED]


def test_repair_bays_are_not_used_in_the_basic_scenario() -> None:
    state = make_state(Scenario.BASIC, turn=3)
    tender = add_ship(state, TENDER, location="0505")
    tender.cargo = 10
    add_ship(state, "W2: TL0 PD={7}2", location="0505")

    _, [result] = run(state, Repair(ship="W2", amounts=Attributes(PD=1), repair_bay="W8"))

    assert result.status is REFUSED


def test_missiles_and_shells_are_resupplied_not_repaired() -> None:
    state = stocked(make_state(turn=3), "0101", 10)
    add_ship(state, "W2: TL0 PD=7 T=1 M={3}0", location="0101")

    _, [result] = run(state, Repair(ship="W2", amounts=Attributes(M=3)))

    assert result.status is REFUSED
    assert "Resupply" in result.reason


# --- (c) Resupply ---


def test_one_bp_resupplies_three_ships_with_one_missile_each() -> None:
    """ "One BP CAN be used to resupply (for instance) 3 ships with one Missile each." """
    state = stocked(make_state(turn=3), "0101", 5)
    for name in ("W1", "W2", "W3"):
        add_ship(state, f"{name}: TL0 PD=2 T=1 M={{3}}2", location="0101")

    step, results = run(state, *(Resupply(ship=n, missiles=1) for n in ("W1", "W2", "W3")))

    assert statuses(results) == [DONE, DONE, DONE]
    assert state.bases["0101"].stockpile == 4
    assert all(p1_ship(state, n).current.M == 3 for n in ("W1", "W2", "W3"))
    assert [e.cost for e in step.events if isinstance(e, ShipRepaired)] == [1, 0, 0]


def test_one_bp_replaces_up_to_6_shells_and_the_leftover_is_not_saved() -> None:
    """ "Fractions of BPs left over after resupply are not saved." """
    state = stocked(make_state(turn=3), "0101", 5)
    ship = add_ship(state, "S55: TL1 PD=1 C=1 SH={12}2", location="0101")

    run(state, Resupply(ship="S55", shells=4))
    ship.current = ship.current.replace(SH=10)
    run(state, Resupply(ship="S55", shells=2))

    assert ship.current.SH == 12
    assert state.bases["0101"].stockpile == 3


def test_ship_is_not_resupplied_beyond_its_original_stock() -> None:
    state = stocked(make_state(turn=3), "0101", 5)
    ship = add_ship(state, "W2: TL0 PD=2 T=1 M={6}4", location="0101")

    _, results = run(state, Resupply(ship="W2", missiles=5), Resupply(ship="W2", missiles=1))

    assert statuses(results) == [PARTIAL, REFUSED]
    assert (ship.current.M, state.bases["0101"].stockpile) == (6, 4)


def test_resupply_from_a_repair_bay_hold() -> None:
    state = make_state(turn=3)
    tender = add_ship(state, TENDER, location="0505")
    tender.cargo = 1
    ship = add_ship(state, "W2: TL0 PD=2 T=1 M={6}0", location="0505")

    _, [result] = run(state, Resupply(ship="W2", missiles=6, repair_bay="W8"))

    assert result.status is PARTIAL
    assert (ship.current.M, tender.cargo) == (3, 0)


# --- Standing settings ---


def test_damage_priority_keeps_the_order_given_and_appends_the_rest_in_default_order() -> None:
    state = make_state(turn=3)
    ship = add_ship(state, W2, location="0505")

    _, [result] = run(state, SetDamagePriority(ship="W2", priority=(Attr.PD, Attr.B)))

    assert result.status is DONE
    assert ship.damage_priority == (
        Attr.PD,
        Attr.B,
        *(a for a in DEFAULT_DAMAGE_PRIORITY if a not in (Attr.PD, Attr.B)),
    )
    assert sorted(ship.damage_priority) == sorted(Attr)


def test_damage_priority_naming_an_attribute_again_is_kept_to_spread_the_hits() -> None:
    state = make_state(turn=3)
    ship = add_ship(state, W2, location="0505")
    spread = (Attr.PD, Attr.S, Attr.PD, Attr.S)

    _, [result] = run(state, SetDamagePriority(ship="W2", priority=spread))

    assert result.status is DONE
    assert ship.damage_priority[:4] == spread


def test_ecm_policy_and_standing_combat_order_are_stored_on_the_ship() -> None:
    state = make_state(turn=3)
    ship = add_ship(state, W2, location="0505")
    standing = CombatOrder(tactic=Tactic.DODGE, drive=4, screen=2)

    _, results = run(
        state,
        SetEcmPolicy(ship="W2", policy=EcmPolicy.EVEN),
        SetStandingCombatOrder(ship="W2", order=standing),
    )

    assert statuses(results) == [DONE, DONE]
    assert (ship.ecm_policy, ship.standing_order) == (EcmPolicy.EVEN, standing)


def test_a_ship_built_this_turn_can_be_given_standing_settings() -> None:
    state = stocked(make_state(turn=3), "0101", 21)

    _, results = run(state, SetEcmPolicy(ship="W2", policy=EcmPolicy.FIRST_COME), build_order(W2))

    assert statuses(results) == [DONE, DONE]
    assert p1_ship(state, "W2").ecm_policy is EcmPolicy.FIRST_COME


# --- Results ---


def test_every_order_gets_a_result_at_its_own_index() -> None:
    state = make_state(turn=3)
    step = step_for(state)

    results = run_build_event(
        step,
        [
            (4, Scrap(ship="W9")),
            (1, Move(ship="W9", steps=(HexStep(to="0102"),))),
            (7, LoadHold(ship="W9", amount=1)),
        ],
    )

    assert [(r.index, r.status) for r in results] == [(1, REFUSED), (4, REFUSED), (7, REFUSED)]
    assert "no ship W9" in results[1].reason


def test_enemy_ships_cannot_be_ordered() -> None:
    state = stocked(make_state(turn=3), "0101", 10)
    enemy = add_ship(state, "W2: TL0 PD={7}2", owner="P2", location="0101")

    _, [result] = run(state, Repair(ship="W2", amounts=Attributes(PD=5)))

    assert result.status is REFUSED
    assert enemy.current.PD == 2


# --- Invariants ---

SHIP_NAMES = ("W1", "W2", "S3", "W4")
STARS = ("0101", "0505")


def build_orders() -> st.SearchStrategy[TurnOrder]:
    names = st.sampled_from(SHIP_NAMES)
    stars = st.sampled_from(STARS)
    amounts = st.integers(1, 40)
    small = st.integers(0, 4)
    design = st.builds(Attributes, PD=small, B=small, M=small, A=small, H=st.integers(0, 2), SR=small)
    bays = st.sampled_from((None, "W1"))
    repair = st.builds(Attributes, PD=small, B=small, A=small, H=small)
    return st.one_of(
        st.builds(LoadHold, ship=names, amount=amounts),
        st.builds(UnloadHold, ship=names, amount=amounts),
        st.builds(Scrap, ship=names),
        st.builds(BuildShip, at=stars, warp=st.booleans(), design=design, repair_bay=st.booleans()),
        st.builds(BuildBase, at=stars, amount=amounts),
        st.builds(Repair, ship=names, amounts=repair, repair_bay=bays),
        st.builds(Resupply, ship=names, missiles=small, shells=st.integers(0, 12), repair_bay=bays),
    )


def fleet_state(cargo: int, stockpile: int, at_base: tuple[bool, ...]) -> GameState:
    """P1's Repair Bay freighter W1, a damaged W2, a Systemship S3 and a carrier W4, each either at
    the Base 0101 or at Delta (0505, held since turn 1, no Base)."""
    state = stocked(make_state(turn=8), "0101", stockpile)
    state.control["0505"] = StarControl(owner="P1", since_turn=1)
    where = ["0101" if here else "0505" for here in at_base]
    tender = add_ship(state, "W1: TL0 PD=4 H=3 A={6}3 R=1", location=where[0])
    tender.cargo = cargo
    add_ship(state, "W2: TL1 PD={8}3 B={4}1 T=2 M={6}1 SH={12}5 A={9}2 C=1", location=where[1])
    carrier = add_ship(state, "W4: TL0 PD=2 SR=1 H=1", location=where[3])
    systemship = add_ship(state, "S3: TL0 PD={3}1 M={3}0", location=where[2])
    if where[2] == where[3]:
        carry(state, carrier, systemship)
    return state


def bp_held(state: GameState) -> int:
    return sum(b.stockpile + b.invested for b in state.bases.values() if b.owner == "P1") + sum(
        s.cargo for s in state.ships.values() if s.owner == "P1"
    )


@settings(max_examples=60, deadline=None)
@given(
    cargo=st.integers(0, 30),
    stockpile=st.integers(0, 40),
    at_base=st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    orders=st.lists(build_orders(), max_size=8),
)
def test_bp_are_conserved_and_no_attribute_exceeds_its_built_value(
    cargo: int, stockpile: int, at_base: tuple[bool, ...], orders: list[TurnOrder]
) -> None:
    """Income = spending + change in stockpiles, Bases and Holds + BP lost, through income and a
    whole Build event, whatever the orders."""
    state = fleet_state(cargo, stockpile, at_base)
    before = bp_held(state)
    step = step_for(state)
    collect_income(step)

    results = run_build_event(step, list(enumerate(orders)))

    income = sum(e.amount for e in step.events if isinstance(e, BPCollected) and e.where in ("base", "star"))
    lost = sum(e.amount for e in step.events if isinstance(e, BPCollected) and e.where == "lost")
    scrapped = sum(e.bp for e in step.events if isinstance(e, ShipScrapped) and e.visible_to == ("P1",))
    built = sum(e.cost for e in step.events if isinstance(e, ShipBuilt) and e.visible_to == ("P1",))
    repaired = sum(e.cost for e in step.events if isinstance(e, ShipRepaired))
    assert before + income + scrapped == bp_held(state) + built + repaired + lost
    assert state.star_pools == {}
    assert [r.index for r in results] == list(range(len(orders)))
    for ship in state.ships.values():
        assert all(ship.current.get(a) <= ship.built.get(a) for a in Attr)
        assert 0 <= ship.cargo <= ship.hold_capacity
    assert all(b.stockpile >= 0 and 0 <= b.invested <= 30 for b in state.bases.values())
