"""Robot commanders: they write their orders as mail in the order language from their own view,
the mail parses back to exactly what they decided, and the admiral plays better than the cadet."""

from __future__ import annotations

import pytest

from benchmarks.robot_levels import play, result
from engine.core.rng import Rng
from engine.warpwar import robot
from engine.warpwar.components import Attributes
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.orders import BuildShip, Tactic
from engine.warpwar.robot import Level, fighting
from engine.warpwar.robot.tactics import best_missile_drive, missile_odds
from engine.warpwar.ships import Ship
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.views import player_view
from tests.engine.builders import robot_game_states

PLAYERS = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))
BOTH = {"Red": Level.ADMIRAL, "Blue": Level.CADET}


def new_state(scenario: Scenario, seed: int = 1) -> GameState:
    config = GameConfig(game_id="r", scenario=scenario, players=PLAYERS, turn_limit=60)
    return WarpWar().new_game(Setup(config=config), seed).state


def warship(name: str = "W1", **current: int) -> Ship:
    built = Attributes(PD=10, B=5, S=3, A=8)
    return Ship(
        name=name,
        owner="Red",
        tech_level=0,
        built_turn=1,
        warp_generator=True,
        built=built,
        current=built.replace(**current),
        location="0606",
    )


@pytest.mark.parametrize("level", list(Level))
def test_a_robots_turn_mail_parses_back_to_exactly_its_orders(level: Level) -> None:
    # Given robot game states at the start of many player-turns
    for state in robot_game_states(Visibility.BLIND, seed=11, limit=40)[::3]:
        player = state.active_player.id
        view = player_view(state, player)
        # When the robot writes its orders as a mail and the mail is read back
        mail = robot.write_turn(view, robot.stream_for(state, player), level)
        parsed = robot.read_mail(mail, view)
        # Then the mail has a header and an end, and says exactly what the robot decided
        assert mail.startswith(f"GAME {view.game_id}\nPLAYER {player}\nTURN {view.turn}\n")
        assert mail.rstrip().endswith("END")
        assert parsed.turn == robot.turn_orders(view, robot.stream_for(state, player), level)


@pytest.mark.parametrize("level", list(Level))
def test_a_robots_round_mail_parses_back_to_exactly_its_round_orders(level: Level) -> None:
    # Given a robot game stepped as a host steps it, player-turn by player-turn, round by round
    game, state = WarpWar(), new_state(Scenario.ADVANCED, seed=2)
    rounds_seen = 0
    while state.stage is not Stage.OVER and rounds_seen < 30:
        if state.stage is Stage.ORDERS:
            player = state.active_player.id
            turn = robot.turn_orders(
                player_view(state, player), robot.stream_for(state, player), BOTH[player]
            )
            state = game.process(state, [turn]).state
            continue
        combat = state.combats[0]
        for player in sorted({s.owner for s in state.ships.values() if s.location == combat.star}):
            view = player_view(state, player)
            # When a robot writes its orders for the round as a mail
            mail = robot.write_round(
                view, combat.star, combat.round, robot.stream_for(state, player, combat), level
            )
            # Then the mail has a COMBAT section that parses back to its round orders
            assert f"COMBAT {combat.star} ROUND {combat.round}" in mail
            rng = robot.stream_for(state, player, combat)
            decided = robot.round_orders(view, combat.star, combat.round, rng, level)
            assert robot.read_mail(mail, view).rounds == (decided,)
            rounds_seen += 1
        state = game.process(state, robot.rounds_for(state, combat, BOTH)).state
    assert rounds_seen > 0


def test_a_mail_that_does_not_parse_is_a_robot_bug() -> None:
    state = new_state(Scenario.BASIC)
    view = player_view(state, "Red")
    with pytest.raises(AssertionError, match="do not parse"):
        robot.read_mail("GAME r\nPLAYER Red\nTURN 1\nBILD W1\nEND\n", view)


def test_robots_are_cadets_unless_told_otherwise() -> None:
    state = new_state(Scenario.ADVANCED)
    default = robot.play_turn(state)
    cadets = robot.play_turn(state, {"Red": Level.CADET, "Blue": Level.CADET})
    assert default.state.model_dump_json() == cadets.state.model_dump_json()


def test_a_robot_decides_from_its_view_only() -> None:
    # Given a state, and the same state with an enemy ship's secret attributes changed
    state = robot_game_states(Visibility.OPEN, seed=11, limit=30)[-1]
    player = state.active_player.id
    secret = state.clone()
    enemy = next(s for s in secret.ships.values() if s.owner != player)
    enemy.current = enemy.current.replace(A=0, B=0)
    # When the admiral decides in both
    assert player_view(state, player) == player_view(secret, player)
    rng = robot.stream_for(state, player)
    # Then its orders are the same: it never saw the difference
    assert robot.write_turn(player_view(state, player), rng, Level.ADMIRAL) == robot.write_turn(
        player_view(secret, player), robot.stream_for(secret, player), Level.ADMIRAL
    )


def test_the_admiral_focuses_the_whole_sides_fire_on_one_enemy_ship() -> None:
    enemies = ("Blue.W7", "Blue.S20", "Blue.W3")
    rng = Rng(5)
    orders = [fighting.combat_order(warship(f"W{n}"), enemies, 1.5, rng) for n in range(1, 5)]
    assert {o.beam_target for o in orders if o.beam} == {"Blue.W3"}


def test_the_admiral_hurt_warpship_retreats_with_drive_to_escape() -> None:
    order = fighting.combat_order(warship(PD=4, A=0), ("Blue.W1",), 1.0, Rng(1))
    assert order.tactic is Tactic.RETREAT
    assert order.drive == 4


def test_the_admiral_fires_missiles_at_the_drive_the_crt_favours() -> None:
    built = Attributes(PD=8, T=3, M=9)
    ship = warship().model_copy(update={"built": built, "current": built})
    order = fighting.combat_order(ship, ("Blue.W1",), 1.0, Rng(2))
    assert order.missiles
    assert {m.drive for m in order.missiles} == {best_missile_drive()}
    best = missile_odds(best_missile_drive()).hits(2)
    assert all(missile_odds(d).hits(2) <= best for d in range(1, 13))


def test_the_admiral_guards_its_base_with_a_systemship_and_builds_a_freighter_in_advanced() -> None:
    # Given the first turn of an Advanced game (20 BP) and of a Basic game (40 BP)
    advanced = new_state(Scenario.ADVANCED)
    basic = new_state(Scenario.BASIC)
    # When the admiral builds
    adv_orders = robot.turn_orders(player_view(advanced, "Red"), Rng(1), Level.ADMIRAL).orders
    basic_orders = robot.turn_orders(player_view(basic, "Red"), Rng(1), Level.ADMIRAL).orders
    # Then in Advanced it builds a freighter with Holds, in Basic a Systemship guard first
    assert [o.design.H for o in adv_orders if isinstance(o, BuildShip)] == [3]
    builds = [o for o in basic_orders if isinstance(o, BuildShip)]
    assert builds and not builds[0].warp


def test_the_admiral_beats_the_cadet_in_a_clear_majority_of_games() -> None:
    # Given ten seeded games on the classic map, both scenarios, each level moving first in turn
    results = [
        result(play(scenario, seed, admiral_first=seed % 2 == 0, turn_limit=60))
        for scenario in Scenario
        for seed in range(1, 6)
    ]
    # Then the admiral wins most of them (benchmarks/robot_levels.py prints the whole table)
    assert results.count("admiral") >= 7
