"""The forecast: what the orders will do if nothing else changes (engine/warpwar/lang/forecast.py)."""

from __future__ import annotations

from engine.warpwar.lang.forecast import IncomeForecast, forecast
from engine.warpwar.state import GameState, Scenario
from tests.engine.builders import add_ship
from tests.engine.lang.test_check import parse, stocked, view_of


def fleet() -> GameState:
    state = stocked()
    add_ship(state, "W1: TL0 PD={6}4 B=3 S=2", location="0101")
    add_ship(state, "W3: TL0 PD=4 B=2", location="0505")
    add_ship(state, "W9: TL0 PD=4 B=1", owner="P2", location="0808")
    return state


def lines(orders: str, state: GameState) -> list[str]:
    view = view_of(state)
    return forecast(parse(orders, view).turn, view).lines()


def test_bp_before_and_after_the_build_event_and_the_names_the_engine_gives() -> None:
    state = fleet()
    state.players[0].warpships_named = 3
    found = lines("BUILD WARPSHIP AT Alpha PD=6 B=3 S=2\nREPAIR W1 PD=2", state)
    assert found[:4] == [
        "Base at Alpha (0101): 40 BP now, 22 BP after the Build event",
        "Base at Beta (0103): 40 BP now, 40 BP after the Build event",
        "Base at Gamma (0301): 40 BP now, 40 BP after the Build event",
        "W4 will be built at Alpha (0101) for 16 BP: W4: TL0 PD=6 B=3 S=2",
    ]
    assert "W1 repaired or resupplied for 2 BP: W1: TL0 PD=6 B=3 S=2" in found


def test_moves_end_with_the_mp_left_and_stop_where_enemies_were_seen() -> None:
    found = lines("MOVE W1 0102 0203\nMOVE W3 WARP Epsilon 0809", fleet())
    assert "W1: 0101 > 0102 > 0203, ends at 0203, 0 of 2 MP left" in found
    assert "W3: 0505 > 0808, stops at Epsilon (0808) (enemy ships seen there), 1 of 2 MP left" in found
    assert "combat expected at Epsilon (0808): W3 against P2.W9" in found


def test_orders_with_errors_are_left_out() -> None:
    found = lines("BUILD WARPSHIP AT Alpha PD=100", fleet())
    assert found[0] == "Base at Alpha (0101): 40 BP now, 40 BP after the Build event"


def test_income_next_turn_counts_stars_claimed_on_the_way() -> None:
    state = fleet()
    view = view_of(state)
    before = forecast(parse("ECM W1 EVEN", view).turn, view).income
    after = forecast(parse("MOVE W3 0605 0706", view).turn, view).income
    assert before == IncomeForecast(total=12, to_bases=12, at_baseless_stars=0)
    assert after == before
    claimed = forecast(parse("MOVE W1 WARP Delta", view).turn, view).income
    assert claimed == IncomeForecast(total=14, to_bases=12, at_baseless_stars=2)
    assert lines("MOVE W1 WARP Delta", state)[-1] == (
        "income next turn: 14 BP (12 to your Bases, 2 at Baseless stars, "
        "lost unless a ship there has Hold space)"
    )


def test_basic_income_is_a_flat_eight() -> None:
    state = stocked(Scenario.BASIC)
    view = view_of(state)
    assert forecast(parse("", view).turn, view).income == IncomeForecast(
        total=8, to_bases=8, at_baseless_stars=0
    )


def test_bp_mined_at_baseless_stars_go_into_holds() -> None:
    state = fleet()
    state.star_pools["0505"] = 2
    ship = add_ship(state, "W5: TL0 PD=2 H=1", location="0505")
    assert ship.free_hold == 10
    assert "2 BP mined at Delta (0505) go into Holds there" in lines("", state)
    state.ships["P1.W5"].cargo = 10
    assert "2 BP mined at Delta (0505): 2 lost for want of Hold space" in lines("", state)


def test_bases_being_built_and_completed() -> None:
    state = fleet()
    carrier = add_ship(state, "W5: TL0 PD=2 H=3", location="0505")
    carrier.cargo = 30
    assert "Base at Delta (0505): complete this turn (30/30 BP), works from your next turn" in lines(
        "BASE AT Delta 30", state
    )
    assert "Base being built at Delta (0505): 0/30 BP now, 10/30 after" in lines("BASE AT Delta 10", state)


def test_scrapping_is_forecast() -> None:
    assert "W1 will be scrapped at Alpha (0101) for 7 BP" in lines("SCRAP W1", fleet())
