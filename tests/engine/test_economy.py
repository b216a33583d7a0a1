"""The economics (rules II, scenarios; IV, Ship building, Bases).

Block map (tests/engine/builders.py): P1's Bases on 0101 (value 2, the middle home star), 0103
(3) and 0301 (1); P2's on 1010 (3), 1008 (1) and 0810 (5); 0505 (4) and 0808 (2) unowned.
"""

from __future__ import annotations

from engine.warpwar.context import Step
from engine.warpwar.economy import bank_star_pools, collect_income, settle_bases
from engine.warpwar.events import BaseDestroyed, BPCollected, StarOwnerChanged
from engine.warpwar.ownership import claim
from engine.warpwar.state import Base, GameState, Scenario, StarControl, Visibility
from tests.engine.builders import add_ship, carry, make_state, step_for

FREIGHTER = "W7: TL0 PD=6 H=2"


def basic_state(turn: int) -> GameState:
    """The Basic scenario: "Each player has only one Base, in the middle of his/her end of the map"."""
    state = make_state(Scenario.BASIC, turn=turn)
    for star in ("0103", "0301", "1008", "0810"):
        del state.bases[star]
    return state


def own(state: GameState, star: str, player: str = "P1", since_turn: int = 0) -> None:
    state.control[star] = StarControl(owner=player, since_turn=since_turn)


def collected(step: Step) -> list[tuple[str, int, str]]:
    return [(e.star, e.amount, e.where) for e in step.events if isinstance(e, BPCollected)]


def income(state: GameState) -> Step:
    step = step_for(state)
    collect_income(step)
    return step


def stockpiles(state: GameState) -> dict[str, int]:
    return {star: base.stockpile for star, base in sorted(state.bases.items()) if base.owner == "P1"}


# --- Basic scenario ---


def test_basic_player_starts_with_40_bp_at_the_single_base() -> None:
    state = basic_state(turn=1)

    step = income(state)

    assert state.bases["0101"].stockpile == 40
    assert collected(step) == [("0101", 40, "base")]


def test_basic_player_receives_8_bp_a_turn_thereafter_whatever_stars_are_owned() -> None:
    # Given P1 has held Delta (0505, value 4) for turns and 12 BP at the Base
    state = basic_state(turn=2)
    state.bases["0101"].stockpile = 12
    own(state, "0505")

    step = income(state)

    assert state.bases["0101"].stockpile == 20
    assert collected(step) == [("0101", 8, "base")]
    assert state.star_pools == {}


# --- Advanced scenario ---


def test_advanced_player_gets_20_bp_on_the_first_turn_at_the_middle_home_base() -> None:
    state = make_state(Scenario.ADVANCED, turn=1)

    step = income(state)

    assert stockpiles(state) == {"0101": 20, "0103": 0, "0301": 0}
    assert collected(step) == [("0101", 20, "base")]


def test_star_with_a_friendly_base_produces_double_its_value_into_that_base() -> None:
    state = make_state(turn=2)

    income(state)

    assert stockpiles(state) == {"0101": 4, "0103": 6, "0301": 2}


def test_baseless_star_produces_half_its_value_rounded_down_into_the_star_pool() -> None:
    # Given P1 owns Delta (4), Epsilon (2) and, having lost its Bases there, Beta (3) and Gamma (1)
    state = make_state(turn=5)
    del state.bases["0103"], state.bases["0301"]
    for star in ("0505", "0808"):
        own(state, star)

    step = income(state)

    assert state.star_pools == {"0103": 1, "0505": 2, "0808": 1}
    assert ("0301", 0, "star") not in collected(step)
    assert [c for c in collected(step) if c[2] == "star"] == [
        ("0103", 1, "star"),
        ("0505", 2, "star"),
        ("0808", 1, "star"),
    ]


def test_star_with_a_base_under_construction_produces_half_into_the_star_pool() -> None:
    state = make_state(turn=3)
    own(state, "0505")
    state.bases["0505"] = Base(star="0505", owner="P1", invested=10)

    income(state)

    assert state.star_pools == {"0505": 2}
    assert state.bases["0505"].stockpile == 0


def test_enemy_stars_produce_nothing_for_the_active_player() -> None:
    state = make_state(turn=3)

    income(state)

    assert all(base.stockpile == 0 for base in state.bases.values() if base.owner == "P2")


def test_income_is_seen_by_its_owner_only() -> None:
    state = make_state(turn=3)

    step = income(state)

    assert step.events
    assert all(e.visible_to == ("P1",) for e in step.events)


def test_star_produces_from_the_turn_after_it_is_taken_as_in_the_rules_example() -> None:
    """ "If Player 1 moves through an unowned star it is now owned by Player 1 and produces BPs at
    the start of Player 1's next turn. If Player 2 moves through it on his turn there are no BPs
    right away BUT it is now owned by Player 2. If Player 1 now moves through it there are still
    no BPs but it is now owned by Player 1." """
    state = make_state(turn=3)
    claim(step_for(state), "0505", "P1")  # P1 moves through Delta on turn 3
    state.active = 1
    assert state.star_pools == {}
    collect_income(step_for(state))  # P2's turn 3: not P2's
    assert "0505" not in state.star_pools

    state.turn, state.active = 4, 0
    assert ("0505", 2, "star") in collected(income(state))  # P1's turn 4: produces
    state.star_pools.clear()

    state.active = 1
    claim(step_for(state), "0505", "P2")  # P2 moves through it on turn 4: owned, no BP yet
    assert state.star_pools == {}

    state.turn, state.active = 5, 0
    income(state)  # P1's turn 5: owned by P2
    assert "0505" not in state.star_pools
    claim(step_for(state), "0505", "P1")  # P1 moves through it again: no BP right away

    state.active = 1
    income(state)  # P2's turn 5: owned by P1 again
    assert "0505" not in state.star_pools

    state.turn, state.active = 6, 0
    income(state)  # P1's turn 6
    assert state.star_pools == {"0505": 2}


# --- BP mined at Baseless stars ---


def test_star_bp_go_into_holds_most_free_space_first_and_the_rest_is_lost() -> None:
    """ "the BPs must be immediately stored in a ship's Hold or they are lost" """
    state = make_state(turn=3)
    small = add_ship(state, "W3: TL0 PD=2 H=1", location="0505")
    big = add_ship(state, FREIGHTER, location="0505")
    big.cargo = 5
    state.star_pools["0505"] = 40
    step = step_for(state)

    bank_star_pools(step)

    assert (big.cargo, small.cargo) == (20, 10)
    assert collected(step) == [("0505", 25, "holds"), ("0505", 15, "lost")]
    assert state.star_pools == {}


def test_star_bp_are_lost_without_a_warpship_with_holds() -> None:
    state = make_state(turn=3)
    carrier = add_ship(state, "W2: TL0 PD=7 SR=1", location="0505")
    carry(state, carrier, add_ship(state, "S20: TL0 PD=7 B=5 S=5 E=3", location="0505"))
    add_ship(state, FREIGHTER, owner="P2", location="0505")
    state.star_pools["0505"] = 2
    step = step_for(state)

    bank_star_pools(step)

    assert collected(step) == [("0505", 2, "lost")]
    assert all(ship.cargo == 0 for ship in state.ships.values())


def test_star_bp_with_equal_free_space_go_to_the_first_ship_by_name() -> None:
    state = make_state(turn=3)
    second = add_ship(state, "W9: TL0 PD=2 H=1", location="0505")
    first = add_ship(state, "W4: TL0 PD=2 H=1", location="0505")
    state.star_pools["0505"] = 2

    bank_star_pools(step_for(state))

    assert (first.cargo, second.cargo) == (2, 0)


# --- Bases destroyed ---


def test_base_falls_to_enemy_ships_unopposed_at_the_end_of_the_enemys_turn() -> None:
    """ "A Base is destroyed automatically when enemy ships are present unopposed on the Star hex at
    the end of the enemy's turn. One half of all BPs present on the destroyed Base can be
    immediately picked up by ships in the system if they have sufficient Hold space. Any BPs not
    immediately picked up are lost." """
    state = make_state(turn=4)
    state.bases["1008"].stockpile = 61
    raider = add_ship(state, "W3: TL0 PD=4 B=2 H=1", location="1008")
    freighter = add_ship(state, FREIGHTER, location="1008")
    freighter.cargo = 5
    step = step_for(state)

    settle_bases(step)

    assert "1008" not in state.bases
    assert (freighter.cargo, raider.cargo) == (20, 10)  # 30 of the 61 // 2 picked up, 0 lost
    [destroyed] = [e for e in step.events if isinstance(e, BaseDestroyed)]
    assert (destroyed.star, destroyed.owner, destroyed.by) == ("1008", "P2", "P1")
    assert (destroyed.stockpile, destroyed.recovered) == (61, 25)
    assert destroyed.visible_to == ("P1", "P2")
    assert state.control["1008"] == StarControl(owner="P1", since_turn=4)
    assert any(isinstance(e, StarOwnerChanged) and e.owner == "P1" for e in step.events)


def test_bp_recovered_from_a_fallen_base_beyond_hold_space_are_lost() -> None:
    state = make_state(turn=4)
    state.bases["1008"].stockpile = 100
    raider = add_ship(state, "W3: TL0 PD=4 B=2 H=1", location="1008")
    step = step_for(state)

    settle_bases(step)

    assert raider.cargo == 10
    [destroyed] = [e for e in step.events if isinstance(e, BaseDestroyed)]
    assert destroyed.recovered == 10


def test_base_with_its_owners_ships_present_is_not_destroyed() -> None:
    state = make_state(turn=4)
    add_ship(state, "W3: TL0 PD=4 B=2", location="1008")
    add_ship(state, "S10: TL0 PD=1", owner="P2", location="1008")

    settle_bases(step_for(state))

    assert "1008" in state.bases


def test_enemy_ships_at_a_base_at_the_end_of_the_bases_owners_turn_do_not_destroy_it() -> None:
    state = make_state(turn=4)
    add_ship(state, "W3: TL0 PD=4 B=2", owner="P2", location="0103")

    settle_bases(step_for(state))

    assert "0103" in state.bases


def test_base_under_construction_falls_to_an_unopposed_enemy_and_all_its_bp_are_lost() -> None:
    """ "If an enemy ship is present unopposed at the end of the enemy's turn on the star where there
    is an incomplete Base, that Base is destroyed and all BPs spent are lost." """
    state = make_state(turn=4)
    own(state, "0808", player="P2")
    state.bases["0808"] = Base(star="0808", owner="P2", invested=20)
    freighter = add_ship(state, FREIGHTER, location="0808")
    step = step_for(state)

    settle_bases(step)

    assert "0808" not in state.bases
    assert freighter.cargo == 0
    [destroyed] = [e for e in step.events if isinstance(e, BaseDestroyed)]
    assert destroyed.recovered == 0
    assert state.control["0808"].owner == "P1"


def test_fall_of_a_base_is_seen_by_both_players_in_a_blind_game() -> None:
    state = make_state(visibility=Visibility.BLIND, turn=4)
    add_ship(state, "S10: TL0 PD=1", location="0810")
    step = step_for(state)

    settle_bases(step)

    [destroyed] = [e for e in step.events if isinstance(e, BaseDestroyed)]
    assert destroyed.visible_to == ("P1", "P2")
