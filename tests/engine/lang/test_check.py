"""Checking orders against what the player knows (engine/warpwar/lang/check.py).

Block map (tests/engine/builders.py): P1's Bases on Alpha 0101, Beta 0103, Gamma 0301; P2's on
Zeta 1010, Eta 1008, Theta 0810; Delta 0505 and Epsilon 0808 unowned. Warplines Alpha-Delta,
Delta-Epsilon, Epsilon-Zeta.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.orderblock import Header, Problem
from engine.warpwar import robot
from engine.warpwar.components import Attributes
from engine.warpwar.context import Step
from engine.warpwar.knowledge import refresh_knowledge
from engine.warpwar.lang import check as checks
from engine.warpwar.lang import messages as msg
from engine.warpwar.lang.check import check_rounds, check_turn, orders_turn
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.forecast import forecast
from engine.warpwar.lang.messages import as_listed
from engine.warpwar.lang.parser import ParsedOrders, parse_mail
from engine.warpwar.lang.printer import mail_text
from engine.warpwar.orders import HexStep, Move, Repair, RoundOrders, Scrap, TurnOrders
from engine.warpwar.state import Combat, GameState, Knowledge, Scenario, Stage, StarControl, Visibility
from engine.warpwar.turn import play_player_turn
from engine.warpwar.views import PlayerView, player_view
from tests.engine.builders import add_ship, carry, make_state, robot_game_states

HERE = Path(__file__).resolve().parent


def view_of(state: GameState, player: str = "P1") -> PlayerView:
    """The player's view, with the whole map known and the knowledge brought up to date."""
    for p in state.players:
        state.knowledge.setdefault(p.id, Knowledge(stars=sorted(s.hex for s in state.map.stars)))
    refresh_knowledge(Step(state))
    return player_view(state, player)


def stocked(scenario: Scenario = Scenario.ADVANCED, bp: int = 40, turn: int = 2) -> GameState:
    state = make_state(scenario=scenario, turn=turn)
    for base in state.bases.values():
        base.stockpile = bp
    return state


def parse(orders: str, view: PlayerView) -> ParsedOrders:
    body = f"GAME test\nPLAYER {view.player}\nTURN {view.turn}\n{orders}\nEND\n"
    parsed = parse_mail(body, LangContext.from_view(view))
    assert [p for p in parsed.problems if p.severity == "error"] == [], parsed.problems
    return parsed


def problems(orders: str, view: PlayerView) -> list[Problem]:
    parsed = parse(orders, view)
    return [*check_turn(parsed, view), *check_rounds(parsed, view)]


def errors(orders: str, view: PlayerView) -> list[str]:
    return [p.message for p in problems(orders, view) if p.severity == "error"]


def warnings(orders: str, view: PlayerView) -> list[str]:
    return [p.message for p in problems(orders, view) if p.severity == "warning"]


@pytest.fixture
def fleet() -> GameState:
    """P1: W1 (damaged, a Hold and a rack) and Systemship S2 at Alpha; W3 at Delta with S4 aboard
    and 8 BP in its Hold; P2's W9 seen at Epsilon."""
    state = stocked()
    add_ship(state, "W1: TL0 PD={6}4 B=3 S={2}1 T=1 M={6}3 C=1 SH={6}2 E=1 H=1 SR=1", location="0101")
    add_ship(state, "S2: TL0 PD=5 B=3 S=2", location="0101")
    w3 = add_ship(state, "W3: TL0 PD=4 B=2 H=1 SR=1", location="0505")
    w3.cargo = 8
    carry(state, w3, add_ship(state, "S4: TL0 PD=2 B=1", location="0505"))
    add_ship(state, "W9: TL0 PD=4 B=1", owner="P2", location="0808")
    return state


def test_a_turn_of_good_orders_has_no_problems(fleet: GameState) -> None:
    orders = "\n".join(
        [
            "BUILD WARPSHIP AT Alpha PD=6 B=3 S=2",
            "REPAIR W1 PD=2 S=1",
            "RESUPPLY W1 M=3 SH=4",
            "LOAD W1 5",
            "MOVE W1 PICKUP S2 0102",
            "MOVE W3 DROP S4",
            "BASE AT Delta 8",
            "PRIORITY W1 A H",
            "ECM W1 EVEN",
            "STANDING W1 ATTACK: D=2 B=3 S=1",
        ]
    )
    assert problems(orders, view_of(fleet)) == []


# --- Every robot order is accepted: the engine is the final authority ---


@pytest.mark.parametrize("visibility", [Visibility.OPEN, Visibility.BLIND])
def test_robot_orders_never_get_an_error(visibility: Visibility) -> None:
    for state in robot_game_states(visibility, 5, 40)[::2]:
        if state.stage is not Stage.ORDERS:
            continue
        player = state.active_player.id
        view = player_view(state, player)
        orders = robot.turn_orders(view, robot.stream_for(state, player))
        body = mail_text(Header(game=view.game_id, player=player, turn=view.turn), orders)
        parsed = parse_mail(body, LangContext.from_view(view))
        found = [p for p in (*parsed.problems, *check_turn(parsed, view)) if p.severity == "error"]
        assert found == [], (state.turn, player, found)


# --- The whole mail ---


def test_orders_for_another_game_player_or_turn_are_named(fleet: GameState) -> None:
    view = view_of(fleet)
    body = "GAME other\nPLAYER P2\nTURN 9\nSCRAP W1\nEND\n"
    found = [p.message for p in check_turn(parse_mail(body, LangContext.from_view(view)), view)]
    assert checks.WRONG_GAME.format(written="other", game="test") in found
    assert checks.WRONG_PLAYER.format(written="P2", player="P1") in found
    assert checks.WRONG_TURN.format(written=9, turn=2) in found


def test_orders_out_of_turn_are_checked_with_a_warning(fleet: GameState) -> None:
    fleet.active = 1
    view = view_of(fleet)
    assert checks.NOT_YOUR_TURN.format(active="P2") in warnings("ECM W1 EVEN", view)
    assert orders_turn(view) == view.turn + 1


def test_orders_during_combat_or_after_the_game_are_flagged(fleet: GameState) -> None:
    fleet.stage = Stage.COMBAT
    assert checks.COMBAT_UNDER_WAY in warnings("ECM W1 EVEN", view_of(fleet))
    fleet.stage = Stage.OVER
    assert checks.GAME_OVER in errors("ECM W1 EVEN", view_of(fleet))


# --- Holds ---


def test_holds_need_the_advanced_scenario() -> None:
    state = stocked(Scenario.BASIC)
    add_ship(state, "W1: TL0 PD=4 B=1", location="0101")
    assert errors("LOAD W1 5", view_of(state)) == [checks.HOLDS_BASIC]


def test_loading_needs_a_warpship_with_room_at_a_base(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("LOAD S2 5", view) == [checks.SYSTEMSHIP_HOLDS.format(ship="S2")]
    where = "Delta (0505)"
    assert errors("LOAD W3 1", view) == [
        checks.NOT_AT_YOUR_BASE.format(ship="W3", where=where, doing="loading BP")
    ]
    assert errors("LOAD W1 10\nUNLOAD W1 1", view) == []


def test_loading_more_than_fits_is_a_warning_and_a_full_hold_an_error(fleet: GameState) -> None:
    fleet.ships["P1.W1"].cargo = 4
    view = view_of(fleet)
    limit = "its Holds have room for 6"
    assert warnings("LOAD W1 20", view) == [
        checks.LOAD_PARTLY.format(ship="W1", amount=6, asked=20, limit=limit)
    ]
    fleet.ships["P1.W1"].cargo = 10
    assert errors("LOAD W1 1", view_of(fleet)) == [
        checks.NO_FREE_HOLD.format(ship="W1", capacity=10, cargo=10)
    ]


def test_loading_from_an_empty_base_is_refused(fleet: GameState) -> None:
    fleet.bases["0101"].stockpile = 0
    assert errors("LOAD W1 1", view_of(fleet)) == [checks.BASE_EMPTY.format(where="Alpha (0101)")]


def test_unloading_what_is_not_carried(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("UNLOAD W1 1", view) == [checks.NO_CARGO.format(ship="W1")]
    fleet.ships["P1.W1"].cargo = 3
    assert warnings("UNLOAD W1 5", view_of(fleet)) == [
        checks.UNLOAD_PARTLY.format(ship="W1", amount=3, asked=5)
    ]


# --- Bases that do not work yet ---


def test_an_unfinished_base_builds_nothing(fleet: GameState) -> None:
    fleet.bases["0101"].invested = 20
    message = checks.BASE_UNFINISHED.format(where="Alpha (0101)", invested=20, cost=30)
    assert errors("BUILD WARPSHIP AT Alpha PD=1", view_of(fleet)) == [message]


def test_a_base_completed_this_turn_works_from_the_next(fleet: GameState) -> None:
    fleet.ships["P1.W3"].cargo = 10
    fleet.ships["P1.W3"].built = fleet.ships["P1.W3"].built.replace(H=3)
    fleet.ships["P1.W3"].current = fleet.ships["P1.W3"].current.replace(H=3)
    fleet.ships["P1.W3"].cargo = 30
    view = view_of(fleet)
    found = errors("BASE AT Delta 30\nBUILD WARPSHIP AT Delta PD=1", view)
    assert found == [checks.BASE_COMPLETED_NOW.format(where="Delta (0505)")]


# --- Building ---


def test_ships_are_built_only_at_own_bases(fleet: GameState) -> None:
    assert errors("BUILD WARPSHIP AT Delta PD=1", view_of(fleet)) == [
        checks.NO_BASE_AT.format(where="Delta (0505)")
    ]


def test_designs_follow_the_rules(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("BUILD WARPSHIP AT Alpha R=1", view) == [checks.DESIGN_EMPTY]
    assert errors("BUILD SYSTEMSHIP AT Alpha PD=2 SR=1", view) == [checks.SYSTEMSHIP_DESIGN]
    basic = stocked(Scenario.BASIC)
    assert errors("BUILD WARPSHIP AT Alpha PD=2 H=1", view_of(basic)) == [checks.BASIC_DESIGN]


def test_names_given_must_fit_and_be_free(fleet: GameState) -> None:
    view = view_of(fleet)
    wrong = checks.WRONG_LETTER.format(kind="Systemship", name="W7")
    assert errors("BUILD SYSTEMSHIP AT Alpha PD=2 AS W7", view) == [wrong]
    twice = "BUILD WARPSHIP AT Alpha PD=2 AS W7\nBUILD WARPSHIP AT Beta PD=2 AS W7"
    assert errors(twice, view) == [checks.NAME_TAKEN.format(name="W7")]


def test_bp_run_out_across_orders_in_the_engines_order(fleet: GameState) -> None:
    view = view_of(fleet)
    orders = "BUILD WARPSHIP AT Alpha PD=20 B=10\nBUILD WARPSHIP AT Alpha PD=5 B=5"
    assert errors(orders, view) == [
        checks.BUILD_TOO_DEAR.format(name="W4", cost=15, where="Alpha (0101)", have=5)
    ]


def test_build_names_follow_the_engines_numbering(fleet: GameState) -> None:
    fleet.players[0].warpships_named = 7
    view = view_of(fleet)
    message = checks.BUILD_TOO_DEAR.format(name="W8", cost=105, where="Alpha (0101)", have=40)
    assert errors("BUILD WARPSHIP AT Alpha PD=100", view) == [message]


# --- Bases ---


def test_base_building_needs_the_advanced_scenario_and_a_star() -> None:
    basic = stocked(Scenario.BASIC)
    assert errors("BASE AT Delta 5", view_of(basic)) == [checks.BASES_BASIC]


def test_base_building_rules(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("BASE AT 0506 5", view) == [checks.NOT_A_STAR.format(where="0506")]
    assert errors("BASE AT Zeta 5", view) == [checks.BASE_TAKEN.format(where="Zeta (1010)")]
    assert errors("BASE AT Alpha 5", view) == [checks.BASE_DONE.format(where="Alpha (0101)")]
    assert errors("BASE AT Epsilon 5", view) == [checks.NO_BP_IN_HOLDS.format(where="Epsilon (0808)")]
    limit = "your ships there carry 8"
    assert warnings("BASE AT Delta 20", view) == [
        checks.BASE_PARTLY.format(amount=8, asked=20, where="Delta (0505)", limit=limit)
    ]


def test_a_base_goes_only_on_a_star_the_player_owns(fleet: GameState) -> None:
    fleet.control["0505"] = StarControl(owner="P2", since_turn=1)
    assert errors("BASE AT Delta 5", view_of(fleet)) == [
        checks.STAR_NOT_YOURS.format(where="Delta (0505)", owner="P2")
    ]


# --- Repair and resupply ---


def test_repair_rules(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("REPAIR S2 PD=1", view) == [checks.NOTHING_TO_REPAIR.format(ship="S2", attrs="PD")]
    capped = checks.REPAIR_CAPPED.format(ship="W1", attr="PD", missing=2, built=6, asked=5)
    assert warnings("REPAIR W1 PD=5", view) == [capped]
    cannot = checks.CANNOT_REPAIR_HERE.format(ship="W3", doing="repaired", where="Delta (0505)")
    assert errors("REPAIR W3 PD=1", view) == [cannot]


def test_repairs_are_paid_as_far_as_the_bp_go(fleet: GameState) -> None:
    fleet.bases["0101"].stockpile = 1
    view = view_of(fleet)
    paid = checks.PAID_PARTLY.format(payer="the Base at Alpha (0101)", cost=1, ship="W1", got="PD+1")
    assert warnings("REPAIR W1 PD=2", view) == [paid]
    fleet.bases["0101"].stockpile = 0
    assert errors("REPAIR W1 PD=2", view_of(fleet)) == [
        checks.NO_BP_TO_PAY.format(payer="the Base at Alpha (0101)")
    ]


def test_repair_bays_rules(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("REPAIR W1 PD=1 FROM S2", view) == [checks.NO_REPAIR_BAY.format(bay="S2")]
    add_ship(fleet, "W5: TL0 PD=2 R=1", location="0505")
    assert errors("REPAIR W1 PD=1 FROM W5", view_of(fleet)) == [
        checks.BAY_ELSEWHERE.format(bay="W5", ship="W1")
    ]
    basic = stocked(Scenario.BASIC)
    add_ship(basic, "W1: TL0 PD={6}4", location="0101")
    assert errors("REPAIR W1 PD=1 FROM W1", view_of(basic)) == [checks.REPAIR_BAYS_BASIC]


def test_resupply_rules(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("RESUPPLY S2 M=3", view) == [
        checks.NOTHING_TO_RESUPPLY.format(ship="S2", missiles=0, shells=0)
    ]
    assert warnings("RESUPPLY W1 M=9", view) == [
        checks.RESUPPLY_CAPPED.format(ship="W1", missiles=3, shells=0)
    ]


def test_ammunition_in_a_repair_order_is_refused(fleet: GameState) -> None:
    view = view_of(fleet)
    parsed = parse("ECM W1 EVEN", view)
    turn = TurnOrders(player="P1", orders=(Repair(ship="W1", amounts=Attributes(M=3)),))
    found = check_turn(parsed.model_copy(update={"turn": turn, "turn_lines": (4,)}), view)
    assert [p.message for p in found] == [checks.AMMUNITION_IN_REPAIR.format(ship="W1")]


def test_orders_for_ships_the_player_does_not_have(fleet: GameState) -> None:
    view = view_of(fleet)
    parsed = parse("ECM W1 EVEN", view)
    turn = TurnOrders(player="P1", orders=(Scrap(ship="W77"),))
    found = check_turn(parsed.model_copy(update={"turn": turn, "turn_lines": (4,)}), view)
    assert [(p.line, p.text, p.message) for p in found] == [
        (4, "SCRAP W77", checks.NO_SHIP.format(ship="W77"))
    ]


def test_a_ship_scrapped_is_gone_for_later_orders(fleet: GameState) -> None:
    assert errors("SCRAP W1\nMOVE W1 0102", view_of(fleet)) == [checks.NO_SHIP.format(ship="W1")]


# --- Ships built in the same mail (the Build event comes before Movement, rules III) ---


def numbered(state: GameState) -> PlayerView:
    """The fleet's view with the W and S numbers given so far, as the engine counts them."""
    state.players[0].warpships_named = 3
    state.players[0].systemships_named = 4
    return view_of(state)


def test_a_ship_built_in_the_same_mail_can_be_moved_as_the_engine_moves_it(fleet: GameState) -> None:
    view = numbered(fleet)
    parsed = parse("MOVE W4 0102\nBUILD WARPSHIP AT Alpha PD=4 B=1", view)
    assert [*check_turn(parsed, view)] == []
    assert forecast(parsed.turn, view).moves[0].model_dump(include={"ship", "end"}) == {
        "ship": "W4",
        "end": "0102",
    }
    outcome = play_player_turn(fleet, parsed.turn, lambda state, combat: [])
    assert outcome.state.ships["P1.W4"].location == "0102"


def test_a_just_built_warpship_carries_a_just_built_systemship(fleet: GameState) -> None:
    orders = "\n".join(
        [
            "BUILD WARPSHIP AT Alpha PD=6 B=1 SR=1",
            "BUILD SYSTEMSHIP AT Alpha PD=2 B=1",
            "MOVE W4 PICKUP S5 WARP Delta DROP S5",
            "STANDING W4 DODGE: D=2",
        ]
    )
    assert problems(orders, numbered(fleet)) == []
    kept = "BUILD WARPSHIP AT Alpha PD=4 SR=1\nBUILD SYSTEMSHIP AT Alpha PD=2\nREARRANGE S5 ONTO W4"
    assert problems(kept, numbered(fleet)) == []


def test_holds_and_scrapping_come_before_building(fleet: GameState) -> None:
    view = numbered(fleet)
    build = "BUILD WARPSHIP AT Alpha PD=4 H=1\n"
    assert errors(build + "LOAD W4 5", view) == [checks.BUILT_LATER.format(ship="W4", doing="loaded")]
    assert errors(build + "UNLOAD W4 5", view) == [checks.BUILT_LATER.format(ship="W4", doing="unloaded")]
    assert errors(build + "SCRAP W4", view) == [checks.BUILT_LATER.format(ship="W4", doing="scrapped")]


def test_only_the_names_the_builds_give_are_taken(fleet: GameState) -> None:
    view = numbered(fleet)
    parsed = parse_mail(
        "GAME test\nPLAYER P1\nTURN 2\nBUILD WARPSHIP AT Alpha PD=4 B=1\nMOVE W5 0102\nEND\n",
        LangContext.from_view(view),
    )
    assert [p.message for p in parsed.problems] == [msg.NO_SUCH_SHIP.format(ship="W5")]
    named = "BUILD WARPSHIP AT Alpha PD=4 B=1 AS W9\nMOVE W9 0102\nBUILD SYSTEMSHIP AT Alpha PD=1 AS S7"
    assert problems(named, view) == []
    too_dear = "BUILD WARPSHIP AT Alpha PD=50\nMOVE W4 0102"
    assert errors(too_dear, view) == [
        checks.BUILD_TOO_DEAR.format(name="W4", cost=55, where="Alpha (0101)", have=40),
        checks.NO_SHIP.format(ship="W4"),
    ]


# --- Movement ---


def test_route_length_against_movement_points(fleet: GameState) -> None:
    message = checks.TOO_FEW_MP.format(ship="W1", mp=2, pd=4, needed=3)
    assert errors("MOVE W1 0102 0203 0204", view_of(fleet)) == [message]


def test_repairs_come_before_movement(fleet: GameState) -> None:
    assert errors("REPAIR W1 PD=2\nMOVE W1 0102 0203 0204", view_of(fleet)) == []


def test_each_step_must_be_possible_from_where_the_ship_is(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("MOVE W1 0203", view) == [
        checks.NOT_ADJACENT.format(ship="W1", here="Alpha (0101)", to="0203")
    ]
    assert errors("MOVE W1 0102 WARP Delta", view) == [
        checks.JUMP_NOT_FROM_STAR.format(ship="W1", here="0102")
    ]
    assert errors("MOVE W1 WARP Epsilon", view) == [
        checks.NO_WARPLINE.format(ship="W1", here="Alpha (0101)", to="Epsilon (0808)")
    ]


def test_systemships_and_carried_ships_do_not_move_alone(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("MOVE S2 0102", view) == [checks.SYSTEMSHIP_CANNOT_MOVE.format(ship="S2")]
    assert errors("MOVE S4 0506", view) == [checks.CARRIED_CANNOT_MOVE.format(ship="S4", carrier="W3")]
    fleet.ships["P1.W3"].current = fleet.ships["P1.W3"].current.replace(PD=0)
    assert errors("MOVE W3 0506", view_of(fleet)) == [checks.PD_ZERO.format(ship="W3")]


def test_a_known_enemy_forces_a_stop(fleet: GameState) -> None:
    found = warnings("MOVE W3 WARP Epsilon 0809", view_of(fleet))
    assert found == [checks.ENEMY_STOP.format(ship="W3", where="Epsilon (0808)")]


def test_no_move_onto_an_enemy_base_on_the_first_turn() -> None:
    state = stocked(turn=1)
    add_ship(state, "W1: TL0 PD=4 B=1", location="1009")
    message = checks.ENEMY_BASE_FIRST_TURN.format(ship="W1", where="Zeta (1010)")
    assert errors("MOVE W1 1010", view_of(state)) == [message]


def test_drops_and_pick_ups(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("MOVE W3 0506 DROP S4", view) == [
        checks.DROP_NOT_AT_STAR.format(ship="W3", systemship="S4", here="0506")
    ]
    assert errors("MOVE W1 DROP S2", view) == [checks.NOT_CARRYING.format(ship="W1", systemship="S2")]
    assert errors("MOVE W3 0506 PICKUP S4", view) == [
        checks.PICKUP_NOT_AT_STAR.format(ship="W3", systemship="S4", here="0506")
    ]
    assert errors("MOVE W1 PICKUP W3", view) == [checks.IS_A_WARPSHIP.format(systemship="W3")]
    assert errors("MOVE W3 PICKUP S2", view) == [
        checks.NOT_THERE.format(systemship="S2", there="Alpha (0101)", where="Delta (0505)", ship="W3")
    ]
    carried = checks.ALREADY_CARRIED.format(
        systemship="S4", carrier="W3", doing="there is nothing to pick up"
    )
    assert errors("MOVE W3 PICKUP S4", view) == [carried]


def test_pick_ups_need_a_free_rack(fleet: GameState) -> None:
    add_ship(fleet, "S6: TL0 PD=1", location="0505")
    message = checks.NO_FREE_RACK.format(ship="W3", racks=1, carried=1)
    assert errors("MOVE W3 PICKUP S6", view_of(fleet)) == [message]
    assert errors("MOVE W3 DROP S4 PICKUP S6", view_of(fleet)) == []


def test_a_systemship_carried_by_another_is_not_picked_up_in_a_move(fleet: GameState) -> None:
    add_ship(fleet, "W7: TL0 PD=2 SR=1", location="0505")
    doing = "in a move only a Systemship left at the star is picked up (REARRANGE moves it between Warpships)"
    message = checks.ALREADY_CARRIED.format(systemship="S4", carrier="W3", doing=doing)
    assert errors("MOVE W7 PICKUP S4", view_of(fleet)) == [message]


def test_only_warpships_carry(fleet: GameState) -> None:
    add_ship(fleet, "S8: TL0 PD=1", location="0505")
    message = checks.CARRIER_IS_SYSTEMSHIP.format(ship="S8")
    assert errors("REARRANGE S4 ONTO S8", view_of(fleet)) == [message]


def test_off_the_map(fleet: GameState) -> None:
    view = view_of(fleet)
    parsed = parse("ECM W1 EVEN", view)
    turn = TurnOrders(player="P1", orders=(Move(ship="W1", steps=(HexStep(to="0001"),)),))
    found = check_turn(parsed.model_copy(update={"turn": turn, "turn_lines": (4,)}), view)
    assert [p.message for p in found] == [checks.OFF_MAP.format(ship="W1", to="0001")]


# --- Rearrangement after combat ---


def test_rearrangement_checks(fleet: GameState) -> None:
    view = view_of(fleet)
    assert errors("REARRANGE S2 OFF", view) == [checks.NOTHING_TO_DROP.format(systemship="S2")]
    assert errors("REARRANGE S2 ONTO W1", view) == []
    assert errors("MOVE W3 0506\nREARRANGE S4 OFF", view) == [
        checks.REARRANGE_NOT_AT_STAR.format(systemship="S4", there="0506")
    ]


# --- Standing orders: warnings, since the engine adjusts them in combat ---


def test_standing_orders_beyond_the_ship_are_warnings(fleet: GameState) -> None:
    found = warnings("STANDING W3 ATTACK: D=4 B=3", view_of(fleet))
    assert found == [
        checks.STANDING_WARNING.format(
            problem=checks.OVER_CAPACITY.format(ship="W3", attr="B", have=2, wanted=3)
        ),
        checks.STANDING_WARNING.format(problem=checks.OVER_POWER.format(ship="W3", power=7, pd=4)),
    ]


def test_a_standing_retreat_for_a_warpship_with_pd_0_is_a_warning(fleet: GameState) -> None:
    w3 = fleet.ships["P1.W3"]
    w3.current = w3.current.replace(PD=0)
    found = warnings("STANDING W3 RETREAT: D=0", view_of(fleet))
    assert found == [checks.STANDING_WARNING.format(problem=checks.PD_ZERO_RETREAT.format(ship="W3"))]
    assert warnings("STANDING W3 DODGE: D=0", view_of(fleet)) == []


# --- Combat rounds ---


@pytest.fixture
def battle(fleet: GameState) -> GameState:
    """W3 (carrying S4) and P2's W9 fight at Delta, round 2; W1 is at Alpha."""
    fleet.ships["P2.W9"].location = "0505"
    fleet.stage = Stage.COMBAT
    fleet.combats = [Combat(star="0505", round=2)]
    return fleet


def round_errors(lines: str, state: GameState, round_: int = 2) -> list[str]:
    return errors(f"COMBAT Delta ROUND {round_}\n{lines}", view_of(state))


def test_a_good_round_order_has_no_problems(battle: GameState) -> None:
    assert round_errors("W3 ATTACK P2.W9: D=2 B=2", battle) == []
    assert round_errors("W3 DODGE: D=0 DROP S4", battle) == []


def test_round_orders_for_the_wrong_combat_or_round(battle: GameState) -> None:
    assert round_errors("W3 DODGE: D=4", battle, round_=1) == [
        checks.WRONG_ROUND.format(where="Delta (0505)", round=2, written=1)
    ]
    found = errors("COMBAT Alpha ROUND 2\nW1 DODGE: D=4", view_of(battle))
    assert found == [checks.NO_COMBAT.format(where="Alpha (0101)")]


def test_round_orders_for_ships_not_in_the_fight(battle: GameState) -> None:
    assert round_errors("W1 DODGE: D=4", battle) == [
        checks.NOT_IN_COMBAT.format(ship="W1", where="Delta (0505)")
    ]
    assert round_errors("S4 DODGE: D=2", battle) == [checks.CARRIED_IN_COMBAT.format(ship="S4", carrier="W3")]


def test_powering_rules(battle: GameState) -> None:
    found = round_errors("W3 ATTACK P2.W9: D=2 B=3 S=1", battle)
    assert found == [
        checks.OVER_CAPACITY.format(ship="W3", attr="B", have=2, wanted=3),
        checks.OVER_CAPACITY.format(ship="W3", attr="S", have=0, wanted=1),
        checks.OVER_POWER.format(ship="W3", power=6, pd=4),
    ]


def test_targets_must_be_enemies_in_this_combat(battle: GameState) -> None:
    add_ship(battle, "W5: TL0 PD=1", owner="P2", location="0808")
    listed = "P2.W9"
    assert round_errors("W3 ATTACK P2.W5: D=2 B=2", battle) == [
        checks.NOT_AN_ENEMY_HERE.format(ship="W3", weapon="Beam", target="P2.W5", enemies=listed)
    ]
    assert round_errors("W3 ATTACK: D=2 B=2", battle) == [checks.NO_TARGET.format(ship="W3", weapon="Beam")]


def test_missiles_cannons_and_shells(battle: GameState) -> None:
    battle.ships["P1.W1"].location = "0505"
    battle.ships["P1.S2"].location = "0505"
    found = round_errors("W1 ATTACK P2.W9: D=0 M=@2,@2 C=2", battle)
    assert found == [checks.TOO_MANY_MISSILES.format(ship="W1", most=1, tubes=1, missiles=3)]
    assert round_errors("W1 ATTACK P2.W9: D=0 C=3", battle) == [
        checks.TOO_MANY_SHELLS.format(ship="W1", wanted=3, shells=2)
    ]
    assert round_errors("W1 ATTACK P2.W9: D=0 C=1,1", battle) == [
        checks.TOO_MANY_CANNONS.format(ship="W1", wanted=2, cannons=1)
    ]
    assert round_errors("W1 ATTACK P2.W9: D=0 S=1 M=@2", battle) == [checks.WEAPON_MIX.format(ship="W1")]
    assert round_errors("S2 RETREAT: D=5", battle) == [checks.SYSTEMSHIP_RETREAT.format(ship="S2")]


def test_a_warpship_with_pd_0_may_not_retreat(battle: GameState) -> None:
    """ "A Warpship whose PD is reduced to zero may not move": the engine would make it DODGE."""
    w3 = battle.ships["P1.W3"]
    w3.current = w3.current.replace(PD=0)
    assert round_errors("W3 RETREAT: D=0", battle) == [checks.PD_ZERO_RETREAT.format(ship="W3")]
    assert round_errors("W3 DODGE: D=0 DROP S4", battle) == []


def test_pick_up_and_drop_in_combat(battle: GameState) -> None:
    assert round_errors("W3 ATTACK P2.W9: D=1 B=2 DROP S4", battle) == [
        checks.TRANSFER_NEEDS.format(ship="W3", needs="Drive = 0, the DODGE or RETREAT tactic")
    ]
    add_ship(battle, "S6: TL0 PD=1", location="0505")
    assert round_errors("W3 DODGE: D=0 PICKUP S6", battle) == [
        checks.TOO_MANY_TRANSFERS.format(ship="W3", racks=1)
    ]


def test_retreat_goes_to_an_adjacent_hex(battle: GameState) -> None:
    found = round_errors("W3 RETREAT: D=4 RETREAT-TO 0707", battle)
    assert found == [checks.RETREAT_NOT_ADJACENT.format(ship="W3", where="Delta (0505)", to="0707")]


def test_problems_name_the_line_and_the_order(battle: GameState) -> None:
    found = problems("COMBAT Delta ROUND 2\nW3 ATTACK P2.W9: D=2 B=3", view_of(battle))
    assert [(p.line, p.text) for p in found] == [
        (5, "W3 ATTACK P2.W9: D=2 B=3"),
        (5, "W3 ATTACK P2.W9: D=2 B=3"),
    ]


# --- The message list ---


def test_every_message_is_produced_by_a_test() -> None:
    sources = "".join(path.read_text(encoding="utf-8") for path in HERE.glob("test_*.py"))
    used = set(re.findall(r"\bchecks\.([A-Z_]+)\b", sources))
    names = {name for name in dir(checks) if name.isupper() and getattr(checks, name) in checks.MESSAGES}
    assert names - used == set()


def test_every_message_is_listed_in_the_players_guide() -> None:
    guide = (HERE.parents[2] / "docs" / "players.md").read_text(encoding="utf-8")
    section = guide[guide.index("<!-- checks:begin -->") : guide.index("<!-- checks:end -->")]
    assert [m for m in checks.MESSAGES if f"- `{as_listed(m)}`" not in section] == []


def test_robot_combat_orders_never_get_an_error() -> None:
    checked: list[str] = []

    def checked_rounds(state: GameState, combat: Combat) -> list[RoundOrders]:
        sides = robot.rounds_for(state, combat)
        for side in sides:
            view = player_view(state, side.player)
            lines = {name: number for number, name in enumerate(sorted(side.ships), start=1)}
            parsed = ParsedOrders(
                header=Header(),
                turn=TurnOrders(player=side.player),
                turn_lines=(),
                rounds=(side,),
                round_lines=(lines,),
                problems=(),
            )
            checked.extend(side.ships)
            assert check_rounds(parsed, view) == ()
        return sides

    for state in robot_game_states(Visibility.OPEN, 5, 40)[::2]:
        if state.stage is Stage.ORDERS:
            player = state.active_player.id
            orders = robot.turn_orders(player_view(state, player), robot.stream_for(state, player))
            play_player_turn(state, orders, checked_rounds)
    assert len(checked) > 50
