"""The worked movement examples of rules V, on the classic map.

"W6 starts its movement on space hex 1720 ... It moves onto Umma (1 movement point), moves along
the warpline to Girsu (1 movement point), moves 3 space hexes to Kish (3 movement points), and
stops. It expended 5 movement points. Had it dropped a Systemship on any one of those three
stars, it would have expended one additional movement point, for a total of six used in that
move."

"W8 starts on hex 1919 and moves two hexes to 1717 at a cost of 2 movement points. W8 treated
hex 1818 like any other space hex, even though a warpline passes through 1818."
"""

from __future__ import annotations

import pytest

from engine.warpwar.classic_map import classic_map
from engine.warpwar.events import ShipMoved
from engine.warpwar.movement import run_movement_event
from engine.warpwar.orders import DropStep, HexStep, Move, MoveStep, OrderStatus, WarplineStep
from engine.warpwar.state import GameState
from tests.engine.builders import add_ship, carry, make_state, step_for

UMMA, GIRSU, KISH = "1719", "1817", "2118"
W6_STEPS: tuple[MoveStep, ...] = (
    HexStep(to=UMMA),
    WarplineStep(to=GIRSU),
    HexStep(to="1918"),
    HexStep(to="2018"),
    HexStep(to=KISH),
)


def classic_state() -> GameState:
    return make_state(star_map=classic_map())


def test_w6_moves_onto_umma_along_the_warpline_to_girsu_and_three_hexes_to_kish_for_5_mp() -> None:
    # Given W6 on space hex 1720 with 5 MP (PD 9)
    state = classic_state()
    w6 = add_ship(state, "W6: TL0 PD=9", location="1720")
    # When it follows the example's route
    step = step_for(state)
    results = run_movement_event(step, [(0, Move(ship="W6", steps=W6_STEPS))])
    # Then it reaches Kish having expended 5 MP
    assert results[0].status is OrderStatus.DONE
    assert w6.location == KISH
    (event,) = [e for e in step.events if isinstance(e, ShipMoved)]
    assert event.path == ("1720", UMMA, GIRSU, "1918", "2018", KISH)
    assert event.mp_used == 5
    assert all(state.control[star].owner == "P1" for star in (UMMA, GIRSU, KISH))


@pytest.mark.parametrize("drop_after", [0, 1, 4], ids=["Umma", "Girsu", "Kish"])
def test_w6_dropping_a_systemship_on_one_of_the_three_stars_expends_6_mp(drop_after: int) -> None:
    # Given W6 with 6 MP (PD 11) carrying a Systemship
    state = classic_state()
    w6 = add_ship(state, "W6: TL0 PD=11 SR=1", location="1720")
    s10 = add_ship(state, "S10: TL0 PD=2 B=1", location="1720")
    carry(state, w6, s10)
    star = W6_STEPS[drop_after].to
    steps = (*W6_STEPS[: drop_after + 1], DropStep(systemship="S10"), *W6_STEPS[drop_after + 1 :])
    # When it drops the Systemship on arriving at that star
    step = step_for(state)
    results = run_movement_event(step, [(0, Move(ship="W6", steps=steps))])
    # Then the move costs one more MP, six in all, and the Systemship stays at that star
    assert results[0].status is OrderStatus.DONE
    assert w6.location == KISH
    (event,) = [e for e in step.events if isinstance(e, ShipMoved)]
    assert event.mp_used == 6
    assert s10.location == star and s10.carried_by is None


def test_w6_with_5_mp_cannot_also_drop_a_systemship() -> None:
    state = classic_state()
    w6 = add_ship(state, "W6: TL0 PD=9 SR=1", location="1720")
    s10 = add_ship(state, "S10: TL0 PD=2 B=1", location="1720")
    carry(state, w6, s10)
    steps = (*W6_STEPS, DropStep(systemship="S10"))
    results = run_movement_event(step_for(state), [(0, Move(ship="W6", steps=steps))])
    assert results[0].status is OrderStatus.PARTIAL
    assert w6.location == KISH and s10.carried_by == "P1.W6"


def test_w8_moves_two_hexes_through_1818_a_space_hex_crossed_by_a_warpline() -> None:
    # Given W8 on 1919; 1818 lies between Umma and Girsu but is not a star
    state = classic_state()
    assert not state.map.is_star("1818")
    w8 = add_ship(state, "W8: TL0 PD=4", location="1919")
    # When it moves hex by hex through 1818 to 1717
    step = step_for(state)
    results = run_movement_event(step, [(0, Move(ship="W8", steps=(HexStep(to="1818"), HexStep(to="1717"))))])
    # Then it costs 2 MP, as for any space hex
    assert results[0].status is OrderStatus.DONE
    assert w8.location == "1717"
    (event,) = [e for e in step.events if isinstance(e, ShipMoved)]
    assert event.path == ("1919", "1818", "1717")
    assert event.mp_used == 2
