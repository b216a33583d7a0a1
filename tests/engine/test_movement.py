"""The Movement event (rules V) and the Systemship rearrangement after combat (rules III, VI).

The block map (tests/engine/builders.py) has stars at 0101, 0103, 0301 (P1's Bases), 1010, 1008,
0810 (P2's Bases), 0505 and 0808 (unowned), and warplines 0101-0505, 0505-0808, 0808-1010.
Column 3 below row 1 is open space: 0302 ... 0307 make a straight run of space hexes.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.warpwar.context import Step
from engine.warpwar.events import ShipMoved, ShipSighted, StarOwnerChanged, SystemshipTransferred
from engine.warpwar.hexgrid import adjacent
from engine.warpwar.movement import run_movement_event, run_rearrangement
from engine.warpwar.orders import (
    DropStep,
    HexStep,
    Move,
    MoveStep,
    OrderResult,
    OrderStatus,
    PickUpStep,
    Rearrange,
    WarplineStep,
)
from engine.warpwar.state import GameState, Visibility
from tests.engine.builders import add_ship, block_map, carry, make_state, step_for

SPACE_RUN = ("0303", "0304", "0305", "0306", "0307")


def move(ship: str, *steps: MoveStep) -> Move:
    return Move(ship=ship, steps=steps)


def hexes(*to: str) -> tuple[HexStep, ...]:
    return tuple(HexStep(to=h) for h in to)


def run(state: GameState, *moves: Move) -> tuple[Step, list[OrderResult]]:
    step = step_for(state)
    return step, run_movement_event(step, list(enumerate(moves)))


def rearrange(state: GameState, *orders: Rearrange) -> tuple[Step, list[OrderResult]]:
    step = step_for(state)
    return step, run_rearrangement(step, list(enumerate(orders)))


def moved(step: Step) -> list[ShipMoved]:
    return [e for e in step.events if isinstance(e, ShipMoved)]


def sighted(step: Step) -> list[ShipSighted]:
    return [e for e in step.events if isinstance(e, ShipSighted)]


def transfers(step: Step) -> list[SystemshipTransferred]:
    return [e for e in step.events if isinstance(e, SystemshipTransferred)]


# --- Movement allowance ---


def test_pd_7_ship_has_4_movement_points() -> None:
    # Given "A ship with an undamaged PD = 7 would have 4 Movement Points" (rules V)
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=7 B=3", location="0302")
    # When it is ordered five hexes
    step, results = run(state, move("W1", *hexes(*SPACE_RUN)))
    # Then it goes four, and the fifth is refused for want of MP
    assert results[0].status is OrderStatus.PARTIAL
    assert "no Movement Points left" in results[0].reason
    assert ship.location == "0306"
    assert moved(step)[0].mp_used == 4
    assert moved(step)[0].path == ("0302", "0303", "0304", "0305", "0306")


def test_movement_allowance_uses_present_damaged_pd() -> None:
    # Given a ship built with PD 7 and damaged to PD 3: "taking any damage into account"
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD={7}3 B=3", location="0302")
    # When it is ordered five hexes
    _, results = run(state, move("W1", *hexes(*SPACE_RUN)))
    # Then half of 3 rounded up: 2 MP
    assert results[0].status is OrderStatus.PARTIAL
    assert ship.location == "0304"


def test_pd_1_ship_has_1_movement_point() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=1", location="0302")
    _, results = run(state, move("W1", *hexes("0303", "0304")))
    assert results[0].status is OrderStatus.PARTIAL
    assert ship.location == "0303"


def test_warpship_with_pd_reduced_to_zero_may_not_move() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD={4}0 B=2", location="0302")
    step, results = run(state, move("W1", HexStep(to="0303")))
    assert results[0].status is OrderStatus.REFUSED
    assert "PD is reduced to zero may not move" in results[0].reason
    assert ship.location == "0302"
    assert moved(step) == []


# --- Hex movement ---


def test_move_within_allowance_is_done_and_seen_by_everyone_in_open_games() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0302")
    step, results = run(state, move("W1", *hexes("0303", "0304", "0305")))
    assert results == [OrderResult(index=0, status=OrderStatus.DONE)]
    assert ship.location == "0305"
    event = moved(step)[0]
    assert (event.ship, event.path, event.mp_used, event.stopped_by) == (
        "P1.W1",
        ("0302", "0303", "0304", "0305"),
        3,
        None,
    )
    assert event.visible_to == ("P1", "P2")


def test_move_to_a_hex_that_is_not_adjacent_stops_the_move_there() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0302")
    _, results = run(state, move("W1", *hexes("0303", "0305", "0306")))
    assert results[0].status is OrderStatus.PARTIAL
    assert "0305" in results[0].reason and "not adjacent to 0303" in results[0].reason
    assert ship.location == "0303"


def test_move_whose_first_step_is_not_adjacent_is_refused() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0302")
    step, results = run(state, move("W1", HexStep(to="0304")))
    assert results[0].status is OrderStatus.REFUSED
    assert "not adjacent" in results[0].reason
    assert ship.location == "0302"
    assert moved(step) == []


def test_move_off_the_map_is_refused() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="1005")
    _, results = run(state, move("W1", HexStep(to="1105")))
    assert results[0].status is OrderStatus.REFUSED
    assert "off the map" in results[0].reason
    assert ship.location == "1005"


def test_warpline_hexes_are_space_hexes_for_hex_movement() -> None:
    # Given 0202, 0303 and 0404 lie on the warpline Alpha 0101 - Delta 0505
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0201")
    # When the ship walks along them hex by hex
    _, results = run(state, move("W1", *hexes("0202", "0303", "0404")))
    # Then each costs 1 MP like any space hex
    assert results[0].status is OrderStatus.DONE
    assert ship.location == "0404"


# --- Warpline movement ---


def test_warpline_jump_goes_end_to_end_for_one_mp_each() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=4", location="0101")
    step, results = run(state, move("W1", WarplineStep(to="0505"), WarplineStep(to="0808")))
    assert results[0].status is OrderStatus.DONE
    assert ship.location == "0808"
    assert moved(step)[0].path == ("0101", "0505", "0808")
    assert moved(step)[0].mp_used == 2


def test_warpline_cannot_be_entered_in_the_middle() -> None:
    # Given a ship on 0303, a space hex the warpline 0101-0505 passes through
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0303")
    # When it tries to jump to the end of that warpline
    _, results = run(state, move("W1", WarplineStep(to="0505")))
    # Then "Warpships may only enter warplines for warpline movement at one end ... NOT in the middle"
    assert results[0].status is OrderStatus.REFUSED
    assert "NOT in the middle" in results[0].reason
    assert ship.location == "0303"


def test_warpline_jump_cannot_stop_in_the_middle() -> None:
    # "A Warpship may NOT stop at any intermediate on the warpline"
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0101")
    _, results = run(state, move("W1", WarplineStep(to="0303")))
    assert results[0].status is OrderStatus.REFUSED
    assert "no warpline joins them" in results[0].reason
    assert ship.location == "0101"


def test_warpline_jump_to_a_star_not_joined_by_a_warpline_is_refused() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0505")
    _, results = run(state, move("W1", WarplineStep(to="1010")))
    assert results[0].status is OrderStatus.REFUSED
    assert "Delta (0505)" in results[0].reason and "Zeta (1010)" in results[0].reason
    assert ship.location == "0505"


# --- Enemy ships ---


def test_warpship_must_stop_on_a_star_hex_occupied_by_an_enemy_ship() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0606")
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0808")
    step, results = run(state, move("W1", *hexes("0707", "0808", "0909")))
    assert results[0].status is OrderStatus.PARTIAL
    assert "must stop movement on any star hex occupied by an enemy ship" in results[0].reason
    assert ship.location == "0808"
    assert moved(step)[0].stopped_by == results[0].reason
    assert moved(step)[0].mp_used == 2


def test_warpline_movement_must_stop_on_a_star_occupied_by_an_enemy_ship() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0505")
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0808")
    _, results = run(state, move("W1", WarplineStep(to="0808"), WarplineStep(to="1010")))
    assert results[0].status is OrderStatus.PARTIAL
    assert ship.location == "0808"


def test_stop_at_enemy_star_that_was_the_destination_is_a_complete_move() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0606")
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0808")
    step, results = run(state, move("W1", *hexes("0707", "0808")))
    assert results[0].status is OrderStatus.DONE
    assert ship.location == "0808"
    assert moved(step)[0].stopped_by is None


def test_warpships_move_freely_through_space_hexes_occupied_by_enemy_ships() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0606")
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0707")
    _, results = run(state, move("W1", *hexes("0707", "0708")))
    assert results[0].status is OrderStatus.DONE
    assert ship.location == "0708"


def test_star_with_an_enemy_ship_is_not_claimed_by_the_ship_stopped_there() -> None:
    state = make_state()
    add_ship(state, "W1: TL0 PD=8", location="0606")
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0808")
    run(state, move("W1", *hexes("0707", "0808")))
    assert "0808" not in state.control


def test_no_move_onto_an_enemy_base_star_during_the_first_turn() -> None:
    # "Ships may NOT move onto an enemy Base star during the first turn."
    state = make_state(turn=1)
    ship = add_ship(state, "W1: TL0 PD=8", location="0909")
    _, results = run(state, move("W1", *hexes("1009", "1010")))
    assert results[0].status is OrderStatus.PARTIAL
    assert "enemy Base star during the first turn" in results[0].reason
    assert ship.location == "1009"


def test_no_warpline_jump_onto_an_enemy_base_star_during_the_first_turn() -> None:
    state = make_state(turn=1)
    ship = add_ship(state, "W1: TL0 PD=8", location="0808")
    _, results = run(state, move("W1", WarplineStep(to="1010")))
    assert results[0].status is OrderStatus.REFUSED
    assert ship.location == "0808"


def test_enemy_base_star_without_ships_may_be_entered_and_passed_after_the_first_turn() -> None:
    state = make_state(turn=2)
    ship = add_ship(state, "W1: TL0 PD=8", location="0909")
    _, results = run(state, move("W1", *hexes("1009", "1010", "0910")))
    assert results[0].status is OrderStatus.DONE
    assert ship.location == "0910"
    assert state.control["1010"].owner == "P2"


def test_own_base_star_may_be_entered_on_the_first_turn() -> None:
    state = make_state(turn=1)
    ship = add_ship(state, "W1: TL0 PD=8", location="0202")
    _, results = run(state, move("W1", HexStep(to="0101")))
    assert results[0].status is OrderStatus.DONE
    assert ship.location == "0101"


# --- Systemships during movement ---


def test_systemships_may_never_move_under_their_own_power() -> None:
    state = make_state()
    systemship = add_ship(state, "S1: TL0 PD=7 B=5 S=5 E=3", location="0505")
    _, results = run(state, move("S1", HexStep(to="0606")))
    assert results[0].status is OrderStatus.REFUSED
    assert "Systemships may NEVER move from one hex to another under their own power" in results[0].reason
    assert systemship.location == "0505"


def test_carried_systemship_cannot_be_moved_on_its_own() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=1", location="0505")
    systemship = add_ship(state, "S1: TL0 PD=7 B=5", location="0505")
    carry(state, carrier, systemship)
    _, results = run(state, move("S1", HexStep(to="0606")))
    assert results[0].status is OrderStatus.REFUSED
    assert "carried by W1" in results[0].reason


def test_carried_systemships_move_with_their_carrier() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=1", location="0505")
    systemship = add_ship(state, "S1: TL0 PD=7 B=5", location="0505")
    carry(state, carrier, systemship)
    step, _ = run(state, move("W1", *hexes("0606", "0707")))
    assert systemship.location == "0707"
    assert [s.uid for s in step.ships_at("0707")] == ["P1.S1", "P1.W1"]


def test_each_drop_costs_one_movement_point() -> None:
    # Given a 2-MP Warpship carrying two Systemships at a star
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=2", location="0505")
    first = add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    second = add_ship(state, "S2: TL0 PD=1 C=1", location="0505")
    carry(state, carrier, first)
    carry(state, carrier, second)
    # When it drops both and then tries to move on
    step, results = run(
        state, move("W1", DropStep(systemship="S1"), DropStep(systemship="S2"), HexStep(to="0606"))
    )
    # Then the two drops used both MP
    assert results[0].status is OrderStatus.PARTIAL
    assert "no Movement Points left" in results[0].reason
    assert carrier.location == "0505" and carrier.carrying == []
    assert first.carried_by is None and second.carried_by is None
    assert moved(step)[0].mp_used == 2
    assert [(t.systemship, t.from_ship, t.to_ship) for t in transfers(step)] == [
        ("P1.S1", "P1.W1", None),
        ("P1.S2", "P1.W1", None),
    ]


def test_pick_up_costs_one_movement_point_and_the_systemship_travels_on() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=1", location="0505")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    step, results = run(state, move("W1", PickUpStep(systemship="S1"), HexStep(to="0606")))
    assert results[0].status is OrderStatus.DONE
    assert systemship.carried_by == "P1.W1" and carrier.carrying == ["P1.S1"]
    assert systemship.location == "0606"
    assert moved(step)[0].mp_used == 2
    assert transfers(step)[0].to_ship == "P1.W1"


def test_drop_on_the_way_leaves_the_systemship_at_that_star() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=8 SR=1", location="0404")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0404")
    carry(state, carrier, systemship)
    _, results = run(state, move("W1", HexStep(to="0505"), DropStep(systemship="S1"), HexStep(to="0606")))
    assert results[0].status is OrderStatus.DONE
    assert systemship.location == "0505" and systemship.carried_by is None
    assert carrier.location == "0606"


def test_systemships_are_dropped_only_at_a_star() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=8 SR=1", location="0606")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0606")
    carry(state, carrier, systemship)
    _, results = run(state, move("W1", DropStep(systemship="S1")))
    assert results[0].status is OrderStatus.REFUSED
    assert "may exist only on star hexes" in results[0].reason
    assert systemship.carried_by == "P1.W1"


def test_pick_up_needs_a_free_undamaged_rack() -> None:
    # Given a Warpship whose second rack is damaged, already carrying one Systemship
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=8 SR={2}1", location="0505")
    aboard = add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    carry(state, carrier, aboard)
    waiting = add_ship(state, "S2: TL0 PD=1 C=1", location="0505")
    _, results = run(state, move("W1", PickUpStep(systemship="S2")))
    assert results[0].status is OrderStatus.REFUSED
    assert "no free undamaged Systemship Rack" in results[0].reason
    assert waiting.carried_by is None


def test_pick_up_of_a_systemship_elsewhere_or_not_ones_own_is_refused() -> None:
    state = make_state()
    add_ship(state, "W1: TL0 PD=8 SR=2", location="0505")
    add_ship(state, "S1: TL0 PD=1 C=1", location="0808")
    add_ship(state, "S2: TL0 PD=1 C=1", owner="P2", location="0505")
    _, results = run(state, move("W1", PickUpStep(systemship="S1")))
    assert results[0].status is OrderStatus.REFUSED
    assert "not at Delta (0505)" in results[0].reason
    _, results = run(state, move("W1", PickUpStep(systemship="S2")))
    assert results[0].reason == "you have no ship S2"


def test_planned_drop_at_a_star_where_the_enemy_is_found_is_still_made() -> None:
    # "If enemy ships are found to be present at that star, the Systemships are dropped and
    # available for use on the first round of combat" (rules V)
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=8 SR=1", location="0606")
    systemship = add_ship(state, "S1: TL0 PD=7 B=5 S=5", location="0606")
    carry(state, carrier, systemship)
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0808")
    step, results = run(
        state, move("W1", *hexes("0707", "0808"), DropStep(systemship="S1"), HexStep(to="0909"))
    )
    assert results[0].status is OrderStatus.PARTIAL
    assert "enemy ships are there" in results[0].reason
    assert carrier.location == "0808"
    assert systemship.location == "0808" and systemship.carried_by is None
    assert moved(step)[0].mp_used == 3


def test_planned_drop_at_an_enemy_star_needs_movement_points_left() -> None:
    # "The Warpship must have sufficient movement points remaining to drop the Systemships."
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=1", location="0606")
    systemship = add_ship(state, "S1: TL0 PD=7 B=5 S=5", location="0606")
    carry(state, carrier, systemship)
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0808")
    _, results = run(state, move("W1", *hexes("0707", "0808"), DropStep(systemship="S1")))
    assert results[0].status is OrderStatus.PARTIAL
    assert "no Movement Points left" in results[0].reason
    assert systemship.carried_by == "P1.W1"


def test_pick_up_planned_after_a_forced_stop_is_cancelled() -> None:
    state = make_state()
    add_ship(state, "W1: TL0 PD=8 SR=1", location="0606")
    waiting = add_ship(state, "S1: TL0 PD=1 C=1", location="0808")
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0808")
    _, results = run(state, move("W1", *hexes("0707", "0808"), PickUpStep(systemship="S1")))
    assert results[0].status is OrderStatus.PARTIAL
    assert "enemy ships are there" in results[0].reason
    assert waiting.carried_by is None


# --- Orders ---


def test_a_later_move_for_the_same_ship_replaces_the_earlier_one() -> None:
    state = make_state()
    ship = add_ship(state, "W1: TL0 PD=8", location="0505")
    step, results = run(state, move("W1", HexStep(to="0606")), move("W1", HexStep(to="0404")))
    assert results[0].status is OrderStatus.REFUSED
    assert "replaced by a later order" in results[0].reason
    assert results[1].status is OrderStatus.DONE
    assert ship.location == "0404"
    assert len(moved(step)) == 1


def test_results_carry_the_submission_index() -> None:
    state = make_state()
    add_ship(state, "W1: TL0 PD=8", location="0505")
    step = step_for(state)
    results = run_movement_event(
        step, [(7, move("W1", HexStep(to="0606"))), (9, move("W2", HexStep(to="0606")))]
    )
    assert [(r.index, r.status) for r in results] == [(7, OrderStatus.DONE), (9, OrderStatus.REFUSED)]


def test_ships_of_other_players_cannot_be_moved() -> None:
    state = make_state()
    enemy = add_ship(state, "W5: TL0 PD=8", owner="P2", location="0707")
    _, results = run(state, move("W5", HexStep(to="0708")))
    assert results[0] == OrderResult(index=0, status=OrderStatus.REFUSED, reason="you have no ship W5")
    assert enemy.location == "0707"


def test_same_state_and_orders_give_the_same_events() -> None:
    def play() -> list[str]:
        state = make_state(visibility=Visibility.BLIND)
        add_ship(state, "W1: TL0 PD=8", location="0606")
        add_ship(state, "W5: TL0 PD=2", owner="P2", location="0707")
        add_ship(state, "W6: TL0 PD=2", owner="P2", location="0808")
        step, _ = run(state, move("W1", *hexes("0707", "0808", "0909")))
        return [e.model_dump_json() for e in step.events]

    assert play() == play()


# --- Ownership (rules IV) ---


def test_moving_through_an_unowned_star_claims_it_and_the_next_mover_reclaims_it() -> None:
    # "if Player 1 moves through an unowned star it is now owned by Player 1 ... If Player 2
    # moves through it on his turn ... it is now owned by Player 2. If Player 1 now moves through
    # it ... it is now owned by Player 1." (rules IV)
    state = make_state(turn=3)
    add_ship(state, "W1: TL0 PD=8", location="0404")
    add_ship(state, "W5: TL0 PD=8", owner="P2", location="0506")
    assert "0505" not in state.control

    step, _ = run(state, move("W1", *hexes("0505", "0606")))
    assert state.control["0505"].owner == "P1"
    assert state.control["0505"].since_turn == 3
    assert [(e.star, e.owner, e.previous) for e in step.events if isinstance(e, StarOwnerChanged)] == [
        ("0505", "P1", None)
    ]

    state.active = 1
    run(state, move("W5", *hexes("0505", "0405")))
    assert state.control["0505"].owner == "P2"

    state.active = 0
    run(state, move("W1", *hexes("0505", "0404")))
    assert state.control["0505"].owner == "P1"


def test_warpline_ends_are_claimed_when_passed_through() -> None:
    state = make_state()
    add_ship(state, "W1: TL0 PD=4", location="0101")
    run(state, move("W1", WarplineStep(to="0505"), WarplineStep(to="0808")))
    assert state.control["0505"].owner == "P1"
    assert state.control["0808"].owner == "P1"


# --- Visibility (rules VII) ---


def test_blind_game_move_is_seen_only_where_the_other_player_is_present() -> None:
    # Given a blind game with P2 ships at 0707 (on the path) and 0303 (off it)
    state = make_state(visibility=Visibility.BLIND)
    add_ship(state, "W1: TL0 PD=8", location="0606")
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0707")
    add_ship(state, "W6: TL0 PD=2", owner="P2", location="0303")
    # When W1 passes through 0707
    step, _ = run(state, move("W1", *hexes("0707", "0708", "0709")))
    # Then only its owner sees the move; P2 sights it at 0707 only; W1 sights W5 there
    assert moved(step)[0].visible_to == ("P1",)
    assert [(e.ship, e.hex, e.visible_to) for e in sighted(step)] == [
        ("P1.W1", "0707", ("P2",)),
        ("P2.W5", "0707", ("P1",)),
    ]
    assert state.knowledge["P2"].sightings["P1.W1"].hex == "0707"
    assert "P2.W6" not in state.knowledge["P1"].sightings


def test_blind_game_move_is_seen_from_a_base_it_passes() -> None:
    state = make_state(visibility=Visibility.BLIND)
    add_ship(state, "W1: TL0 PD=8", location="0909")
    step, _ = run(state, move("W1", *hexes("1009", "1008", "1007")))
    assert [(e.ship, e.hex, e.visible_to) for e in sighted(step)] == [("P1.W1", "1008", ("P2",))]
    assert state.knowledge["P1"].bases["1008"] == "P2"


def test_blind_game_move_where_nobody_else_is_is_not_sighted() -> None:
    state = make_state(visibility=Visibility.BLIND)
    add_ship(state, "W1: TL0 PD=8", location="0302")
    step, _ = run(state, move("W1", *hexes(*SPACE_RUN[:3])))
    assert sighted(step) == []
    assert all(e.visible_to == ("P1",) for e in step.events)


def test_carried_systemships_are_never_sighted() -> None:
    state = make_state(visibility=Visibility.BLIND)
    carrier = add_ship(state, "W1: TL0 PD=8 SR=1", location="0606")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0606")
    carry(state, carrier, systemship)
    add_ship(state, "W5: TL0 PD=2", owner="P2", location="0707")
    add_ship(state, "W6: TL0 PD=2", owner="P2", location="0808")
    step, _ = run(state, move("W1", *hexes("0707", "0808")))
    assert {e.ship for e in sighted(step) if e.owner == "P1"} == {"P1.W1"}
    assert "P1.S1" not in state.knowledge["P2"].sightings


def test_systemship_dropped_where_the_enemy_is_becomes_visible_to_it() -> None:
    state = make_state(visibility=Visibility.BLIND)
    carrier = add_ship(state, "W1: TL0 PD=8 SR=1", location="0707")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0707")
    carry(state, carrier, systemship)
    add_ship(state, "W6: TL0 PD=2", owner="P2", location="0808")
    step, _ = run(state, move("W1", HexStep(to="0808"), DropStep(systemship="S1")))
    assert transfers(step)[0].visible_to == ("P1", "P2")
    assert state.knowledge["P2"].sightings["P1.S1"].hex == "0808"


# --- Invariant: nothing a player sends breaks the state ---

BLOCK = block_map()
TARGETS = st.sampled_from([*BLOCK.hexes, "0000", "0011", "1111", "1100"])
SYSTEMSHIP_NAMES = st.sampled_from(["S1", "S2", "S3", "W1", "W5"])
ANY_STEP = st.one_of(
    st.builds(HexStep, to=TARGETS),
    st.builds(WarplineStep, to=st.sampled_from([*(s.hex for s in BLOCK.stars), "0303", "0000"])),
    st.builds(DropStep, systemship=SYSTEMSHIP_NAMES),
    st.builds(PickUpStep, systemship=SYSTEMSHIP_NAMES),
)


@settings(max_examples=150, deadline=None)
@given(
    pd=st.integers(0, 9),
    racks=st.integers(0, 2),
    start=st.sampled_from(BLOCK.hexes),
    enemy_at=st.sampled_from(BLOCK.hexes),
    turn=st.integers(1, 3),
    visibility=st.sampled_from(list(Visibility)),
    steps=st.lists(ANY_STEP, min_size=1, max_size=12),
)
def test_random_moves_never_raise_leave_the_map_or_overspend(
    pd: int,
    racks: int,
    start: str,
    enemy_at: str,
    turn: int,
    visibility: Visibility,
    steps: list[MoveStep],
) -> None:
    state = make_state(turn=turn, visibility=visibility)
    carrier = add_ship(state, f"W1: TL0 PD={pd} SR={racks}", location=start)
    if racks:
        carry(state, carrier, add_ship(state, "S1: TL0 PD=1 C=1", location=start))
    add_ship(state, "S2: TL0 PD=1 C=1", location=start if BLOCK.is_star(start) else "0505")
    add_ship(state, "W5: TL0 PD=2 SR=1", owner="P2", location=enemy_at)

    step, results = run(state, Move(ship="W1", steps=tuple(steps)))

    assert len(results) == 1 and results[0].index == 0
    for ship in state.ships.values():
        assert ship.location in BLOCK.hex_set
        if ship.carried_by is None:
            assert ship.is_warpship or BLOCK.is_star(ship.location)
        else:
            assert state.ships[ship.carried_by].location == ship.location
        assert len(ship.carrying) <= ship.current.SR
    for event in moved(step):
        assert event.mp_used <= carrier.movement_points
        assert len(event.path) - 1 <= event.mp_used
        for a, b in zip(event.path, event.path[1:], strict=False):
            assert adjacent(a, b) or b in BLOCK.warpline_ends.get(a, ())
    if not moved(step):
        assert carrier.location == start


# --- Systemship rearrangement after combat ---


def test_rearrangement_drops_a_carried_systemship_at_the_star() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=1", location="0505")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    carry(state, carrier, systemship)
    step, results = rearrange(state, Rearrange(systemship="S1", to=None))
    assert results == [OrderResult(index=0, status=OrderStatus.DONE)]
    assert systemship.carried_by is None and carrier.carrying == []
    assert [(t.systemship, t.star, t.from_ship, t.to_ship) for t in transfers(step)] == [
        ("P1.S1", "0505", "P1.W1", None)
    ]


def test_rearrangement_picks_up_a_systemship_at_no_movement_cost() -> None:
    # Given a Warpship that could not move at all (PD 0): "costs no movement"
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD={4}0 SR=1", location="0505")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    _, results = rearrange(state, Rearrange(systemship="S1", to="W1"))
    assert results[0].status is OrderStatus.DONE
    assert systemship.carried_by == "P1.W1" and carrier.carrying == ["P1.S1"]


def test_rearrangement_transfers_a_systemship_between_warpships_at_a_star() -> None:
    state = make_state()
    first = add_ship(state, "W1: TL0 PD=4 SR=1", location="0505")
    second = add_ship(state, "W2: TL0 PD=4 SR=1", location="0505")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    carry(state, first, systemship)
    step, results = rearrange(state, Rearrange(systemship="S1", to="W2"))
    assert results[0].status is OrderStatus.DONE
    assert first.carrying == [] and second.carrying == ["P1.S1"]
    assert systemship.carried_by == "P1.W2"
    assert (transfers(step)[0].from_ship, transfers(step)[0].to_ship) == ("P1.W1", "P1.W2")


def test_rearrangement_happens_only_at_a_star_hex() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=2", location="0606")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0606")
    carry(state, carrier, systemship)
    add_ship(state, "W2: TL0 PD=4 SR=1", location="0606")
    _, results = rearrange(state, Rearrange(systemship="S1", to=None), Rearrange(systemship="S1", to="W2"))
    assert [r.status for r in results] == [OrderStatus.REFUSED, OrderStatus.REFUSED]
    assert "not at a star" in results[0].reason
    assert systemship.carried_by == "P1.W1"


def test_rearrangement_needs_both_ships_at_the_same_star() -> None:
    state = make_state()
    add_ship(state, "W1: TL0 PD=4 SR=1", location="0808")
    systemship = add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    _, results = rearrange(state, Rearrange(systemship="S1", to="W1"))
    assert results[0].status is OrderStatus.REFUSED
    assert "not at Epsilon (0808)" in results[0].reason
    assert systemship.carried_by is None


def test_rearrangement_needs_a_free_undamaged_rack() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR={1}0", location="0505")
    add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    _, results = rearrange(state, Rearrange(systemship="S1", to="W1"))
    assert results[0].status is OrderStatus.REFUSED
    assert "no free undamaged Systemship Rack" in results[0].reason
    assert carrier.carrying == []


def test_rearrangement_refuses_what_racks_cannot_hold_or_do() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=2", location="0505")
    add_ship(state, "W2: TL0 PD=4 SR=1", location="0505")
    aboard = add_ship(state, "S1: TL0 PD=1 C=1", location="0505")
    carry(state, carrier, aboard)
    add_ship(state, "S2: TL0 PD=1 C=1", location="0505")
    add_ship(state, "S3: TL0 PD=1 C=1", owner="P2", location="0505")
    _, results = rearrange(
        state,
        Rearrange(systemship="W2", to="W1"),
        Rearrange(systemship="S2", to="S1"),
        Rearrange(systemship="S2", to=None),
        Rearrange(systemship="S1", to="W1"),
        Rearrange(systemship="S3", to="W1"),
        Rearrange(systemship="S2", to="W9"),
    )
    assert all(r.status is OrderStatus.REFUSED for r in results)
    reasons = [r.reason for r in results]
    assert "A Warpship may NOT be carried in a Systemship Rack" in reasons[0]
    assert "Systemships may not have SRs" in reasons[1]
    assert "not carried: there is nothing to drop" in reasons[2]
    assert "already carries S1" in reasons[3]
    assert reasons[4:] == ["you have no ship S3", "you have no ship W9"]
    assert carrier.carrying == ["P1.S1"]
