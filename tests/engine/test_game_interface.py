"""WarpWar behind the host's game interface: new game, process, awaiting, view."""

from __future__ import annotations

from engine.games import DEFAULT_GAME, DEMOS, GAME_NAMES, GAMES, MAIL_GAMES, TURN_GAMES
from engine.warpwar import robot
from engine.warpwar.game import Setup
from engine.warpwar.mapgen import MapSpec
from engine.warpwar.orders import RoundOrders, TurnOrders
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage
from engine.warpwar.views import player_view

PLAYERS = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))
GAME = GAMES["warpwar"]


def new(seed: int = 4, scenario: Scenario = Scenario.BASIC) -> GameState:
    config = GameConfig(game_id="i", scenario=scenario, players=PLAYERS)
    return GAME.new_game(Setup(config=config), seed).state


def test_a_new_basic_game_awaits_the_first_player_with_40_bp_at_one_base_each() -> None:
    state = new()
    assert GAME.awaiting(state) == ["Red"]
    view = GAME.view(state, "Red")
    assert [(b.star, b.stockpile) for b in view.own_bases] == [("0606", 40)]
    assert [(b.star, b.stockpile) for b in GAME.view(state, "Blue").own_bases] == [("2223", 0)]


def test_an_advanced_game_gives_each_player_three_bases_at_their_end() -> None:
    state = new(scenario=Scenario.ADVANCED)
    assert sorted(b.star for b in state.bases.values() if b.owner == "Red") == ["0307", "0606", "0804"]
    assert sorted(b.star for b in state.bases.values() if b.owner == "Blue") == ["2125", "2223", "2622"]


def test_a_game_on_a_generated_map_uses_the_seeded_map() -> None:
    spec = MapSpec(name="Wide", players=3, hexes=600)
    config = GameConfig(game_id="m", players=(*PLAYERS, PlayerSpec(id="Green", name="Green")))
    first = GAME.new_game(Setup(config=config, map=spec), 9).state
    again = GAME.new_game(Setup(config=config, map=spec), 9).state
    assert first.map.name == "Wide" and len(first.map.homes) == 3
    assert first.model_dump_json() == again.model_dump_json()


def test_processing_when_the_active_player_sent_nothing_waives_their_turn_and_ignores_others() -> None:
    # Given Red to play, and only Blue's orders in
    state = new()
    blue = robot.turn_orders(player_view(state, "Blue"), robot.stream_for(state, "Blue"))
    # When the turn is processed
    outcome = GAME.process(state, [TurnOrders(player="Blue", orders=blue.orders)])
    # Then Red's player-turn passed with nothing done, and Blue's orders waited for Blue's turn
    assert outcome.results == []
    assert outcome.state.ships == {}
    assert GAME.awaiting(outcome.state) == ["Blue"]


def test_during_combat_the_game_awaits_both_sides_and_resolves_a_round_per_process() -> None:
    state = new()
    while state.stage is Stage.ORDERS:
        orders = robot.turn_orders(player_view(state, state.active_player.id), robot.stream_for(state, "x"))
        state = GAME.process(state, [orders]).state
    assert GAME.awaiting(state) == ["Blue", "Red"]
    fight = state.combats[0]
    outcome = GAME.process(state, [RoundOrders(player="Red", star=fight.star, round=fight.round)])
    assert outcome.state.combats == [] or outcome.state.combats[0].round == fight.round + 1


def test_every_registered_game_is_in_every_registry_and_its_turn_host_names_itself() -> None:
    # A game plugs in by registering in each registry under one key (engine/games.py)
    assert list(GAMES) == list(MAIL_GAMES) == list(TURN_GAMES) and DEFAULT_GAME in GAMES
    assert set(DEMOS) <= set(GAMES)
    for key in TURN_GAMES:
        assert (TURN_GAMES[key].key, MAIL_GAMES[key].key, GAMES[key].key) == (key, key, key)
        assert GAME_NAMES[key] == TURN_GAMES[key].name
    assert TURN_GAMES["warpwar"].name == "WarpWar"
    assert "WarpWar" in TURN_GAMES["warpwar"].rules_summary()
