"""The sequence of play (rules III): ends of the map, combat at several stars, rearrangement
after combat, Bases falling, elimination, victory and the optional turn limit."""

from __future__ import annotations

from engine.warpwar import economy
from engine.warpwar.classic_map import classic_map
from engine.warpwar.context import Step
from engine.warpwar.events import GameOver, PlayerEliminated, ShipSighted
from engine.warpwar.orders import (
    CombatOrder,
    HexStep,
    Move,
    OrderStatus,
    PickUpStep,
    Rearrange,
    RoundOrders,
    Tactic,
    TurnOrders,
    WarplineStep,
)
from engine.warpwar.state import (
    Base,
    GameConfig,
    GameState,
    MapKnowledge,
    Player,
    PlayerSpec,
    Scenario,
    Stage,
    StarControl,
    Visibility,
)
from engine.warpwar.turn import new_game, play_player_turn, submit_round, submit_turn
from engine.warpwar.views import player_view
from tests.engine.builders import add_ship, carry, make_state

TWO = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))


def hex_move(ship: str, *hexes: str) -> Move:
    return Move(ship=ship, steps=tuple(HexStep(to=h) for h in hexes))


def no_round_orders(state: GameState, combat: object) -> list[RoundOrders]:
    return []


def with_third_player(state: GameState) -> GameState:
    """Add P3 (no Bases of its own unless given) to a two-player test state."""
    config = state.config.model_copy(
        update={"players": (*state.config.players, PlayerSpec(id="P3", name="Three"))}
    )
    state = state.model_copy(update={"config": config})
    state.players.append(Player(id="P3", name="Three", home=()))
    return state


# --- Setting up ---


def test_each_player_takes_the_map_end_of_their_place_in_turn_order() -> None:
    ends = classic_map().homes
    basic = new_game(GameConfig(game_id="b", scenario=Scenario.BASIC, players=TWO), classic_map(), 1).state
    assert {b.star: b.owner for b in basic.bases.values()} == {ends[0].middle: "Red", ends[1].middle: "Blue"}
    for player, end in zip(basic.players, ends, strict=True):
        assert player.home == end.stars
        assert all(basic.control[star].owner == player.id for star in end.stars)


def test_in_an_open_game_everyone_knows_the_enemy_bases_from_the_start() -> None:
    state = new_game(GameConfig(game_id="o", scenario=Scenario.ADVANCED, players=TWO), classic_map(), 1).state
    view = player_view(state, "Red")
    assert sorted(s.hex for s in view.stars if s.base_owner == "Blue") == sorted(classic_map().homes[1].stars)


def test_full_map_knowledge_shows_every_star_and_explored_only_the_stars_visited() -> None:
    full = new_game(GameConfig(game_id="f", players=TWO), classic_map(), 1).state
    assert len(player_view(full, "Red").stars) == len(classic_map().stars)
    config = GameConfig(
        game_id="e", players=TWO, visibility=Visibility.BLIND, map_knowledge=MapKnowledge.EXPLORED
    )
    explored = new_game(config, classic_map(), 1).state
    assert {s.hex for s in player_view(explored, "Red").stars} == set(classic_map().homes[0].stars)
    # When Red's new ship jumps from Mosul down the warpline to Sippur (0611)
    add_ship(explored, "W1: TL0 PD=4 B=2", owner="Red", location="0307")
    after = submit_turn(
        explored, TurnOrders(player="Red", orders=(Move(ship="W1", steps=(WarplineStep(to="0611"),)),))
    )
    # Then Sippur is known, and the warplines leaving known stars are shown
    view = player_view(after.state, "Red")
    assert "0611" in {s.hex for s in view.stars}
    assert ("0307", "0611") in view.warplines or ("0611", "0307") in view.warplines


# --- Combat at several stars, and rearrangement after it ---


def two_combats() -> GameState:
    state = make_state()
    add_ship(state, "W1: TL0 PD=10 B=5 S=2", owner="P1", location="0404")
    add_ship(state, "W2: TL0 PD=10 B=5 S=2", owner="P1", location="0707")
    add_ship(state, "W1: TL0 PD=6 B=3 S=3", owner="P2", location="0505")
    add_ship(state, "W2: TL0 PD=6 B=3 S=3", owner="P2", location="0808")
    moves = (hex_move("W1", "0505"), hex_move("W2", "0808"))
    return submit_turn(state, TurnOrders(player="P1", orders=moves)).state


def test_combats_at_different_stars_do_not_depend_on_the_order_they_are_fought_in() -> None:
    state = two_combats()
    assert sorted(c.star for c in state.combats) == ["0505", "0808"]
    first = submit_round(submit_round(state, "0505", []).state, "0808", []).state
    second = submit_round(submit_round(state, "0808", []).state, "0505", []).state
    assert first.ships == second.ships
    assert first.combats == second.combats


def test_rearrangement_waits_until_the_last_combat_is_over() -> None:
    # Given P1's W1 carrying S1 moves onto a weak enemy, ordering S1 dropped after combat
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=10 B=5 SR=1", owner="P1", location="0404")
    carry(state, carrier, add_ship(state, "S1: TL0 PD=2 S=2", owner="P1", location="0404"))
    add_ship(state, "W1: TL0 PD=1", owner="P2", location="0505")
    orders = (
        hex_move("W1", "0505"),
        Rearrange(systemship="S1", to=None),
    )
    # When the orders are processed, combat begins and S1 is still aboard
    begun = submit_turn(state, TurnOrders(player="P1", orders=orders))
    assert begun.state.stage is Stage.COMBAT
    assert begun.state.ships["P1.S1"].carried_by == "P1.W1"
    assert [r.index for r in begun.results] == [0]
    # Then once the enemy is destroyed, S1 is dropped at the star and the order is answered
    strike = CombatOrder(tactic=Tactic.ATTACK, drive=3, beam=5, beam_target="P2.W1")
    ended = submit_round(
        begun.state, "0505", [RoundOrders(player="P1", star="0505", round=1, ships={"W1": strike})]
    )
    assert ended.state.stage is Stage.ORDERS
    assert ended.state.ships["P1.S1"].carried_by is None
    assert [(r.index, r.status) for r in ended.results] == [(1, OrderStatus.DONE)]


# --- Bases falling, elimination, victory ---


def basic_duel(third_player: bool = False) -> GameState:
    state = make_state(scenario=Scenario.BASIC, with_bases=False)
    for player, star in (("P1", "0101"), ("P2", "1010")):
        state.bases[star] = Base(star=star, owner=player)
        state.control[star] = StarControl(owner=player, since_turn=0)
    return with_third_player(state) if third_player else state


def test_a_third_players_ships_oppose_the_fall_of_a_base() -> None:
    state = with_third_player(make_state())
    add_ship(state, "W1: TL0 PD=4 B=2", owner="P1", location="1010")
    add_ship(state, "W1: TL0 PD=4 B=2", owner="P3", location="1010")
    step = Step(state)
    economy.settle_bases(step)
    assert state.bases["1010"].owner == "P2"


def test_a_player_whose_last_base_falls_is_eliminated_and_their_ships_leave_the_game() -> None:
    state = basic_duel()
    add_ship(state, "W1: TL0 PD=4 B=2", owner="P1", location="0810")
    add_ship(state, "W5: TL0 PD=4 B=2", owner="P2", location="0303")
    move = hex_move("W1", "0910", "1010")
    outcome = play_player_turn(state, TurnOrders(player="P1", orders=(move,)), no_round_orders)
    assert "1010" not in outcome.state.bases
    assert [e.player for e in outcome.events if isinstance(e, PlayerEliminated)] == ["P2"]
    assert outcome.state.own_ships("P2") == []
    assert outcome.state.winners == ["P1"]
    assert [e.winners for e in outcome.events if isinstance(e, GameOver)] == [("P1",)]


def test_with_three_players_the_game_goes_on_and_skips_the_eliminated() -> None:
    state = basic_duel(third_player=True)
    state.bases["0505"] = Base(star="0505", owner="P3")
    add_ship(state, "W1: TL0 PD=4 B=2", owner="P1", location="0810")
    move = hex_move("W1", "0910", "1010")
    outcome = play_player_turn(state, TurnOrders(player="P1", orders=(move,)), no_round_orders)
    assert outcome.state.stage is Stage.ORDERS
    assert outcome.state.active_player.id == "P3"
    after_p3 = submit_turn(outcome.state, TurnOrders(player="P3")).state
    assert after_p3.active_player.id == "P1"
    assert after_p3.turn == state.turn + 1


def test_at_the_turn_limit_most_complete_bases_win() -> None:
    state = make_state(turn=2)
    state.config = state.config.model_copy(update={"turn_limit": 2})
    del state.bases["0810"]
    after_p1 = submit_turn(state, TurnOrders(player="P1")).state
    assert after_p1.stage is Stage.ORDERS
    final = submit_turn(after_p1, TurnOrders(player="P2"))
    assert final.state.stage is Stage.OVER
    assert final.state.winners == ["P1"]
    assert next(e.reason for e in final.events if isinstance(e, GameOver)).startswith("turn limit 2")


# --- Movement details pinned here ---


def test_a_systemship_aboard_another_warpship_cannot_be_picked_up_while_moving() -> None:
    state = make_state()
    carrier = add_ship(state, "W1: TL0 PD=4 SR=1", owner="P1", location="0505")
    add_ship(state, "W2: TL0 PD=4 SR=1", owner="P1", location="0505")
    carry(state, carrier, add_ship(state, "S1: TL0 PD=2 S=2", owner="P1", location="0505"))
    outcome = submit_turn(
        state, TurnOrders(player="P1", orders=(Move(ship="W2", steps=(PickUpStep(systemship="S1"),)),))
    )
    assert outcome.results[0].status is OrderStatus.REFUSED
    assert outcome.state.ships["P1.S1"].carried_by == "P1.W1"


def test_in_a_blind_game_nothing_is_seen_in_the_hexes_a_warpline_crosses() -> None:
    # Given P2's ship in 0303, a space hex the 0101-0505 warpline crosses
    state = make_state(visibility=Visibility.BLIND)
    add_ship(state, "W1: TL0 PD=4 B=2", owner="P1", location="0101")
    add_ship(state, "W1: TL0 PD=4 B=2", owner="P2", location="0303")
    # When P1's W1 jumps along the warpline
    jump = Move(ship="W1", steps=(WarplineStep(to="0505"),))
    outcome = submit_turn(state, TurnOrders(player="P1", orders=(jump,)))
    # Then neither side saw the other
    assert not [e for e in outcome.events if isinstance(e, ShipSighted)]
    assert "P1.W1" not in outcome.state.knowledge["P2"].sightings
