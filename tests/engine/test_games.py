"""Whole games on the classic map between computer commanders: they finish, stay sound after
every step, round-trip through JSON, and replay byte for byte."""

from __future__ import annotations

import itertools

import pytest

from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.invariants import violations
from engine.warpwar.mapgen import MapSpec
from engine.warpwar.orders import OrderStatus
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.turn import Outcome

PLAYERS = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))


def start(scenario: Scenario, seed: int = 1, visibility: Visibility = Visibility.OPEN) -> Outcome:
    config = GameConfig(
        game_id="g", scenario=scenario, visibility=visibility, players=PLAYERS, turn_limit=120
    )
    return WarpWar().new_game(Setup(config=config), seed)


def play_out(state: GameState, check_every_step: bool = True) -> tuple[GameState, list[str]]:
    """Play robot turns to the end; returns the final state and every event's JSON."""
    log: list[str] = []
    while state.stage is not Stage.OVER:
        outcome = robot.play_turn(state)
        assert [r for r in outcome.results if r.status is OrderStatus.REFUSED] == []
        if check_every_step:
            assert violations(outcome.state) == []
            assert GameState.model_validate_json(outcome.state.model_dump_json()) == outcome.state
        log += [e.model_dump_json() for e in outcome.events]
        state = outcome.state
    return state, log


@pytest.mark.parametrize(("scenario", "seed"), [(Scenario.BASIC, 4), (Scenario.ADVANCED, 1)])
def test_a_full_game_on_the_classic_map_ends_in_victory(scenario: Scenario, seed: int) -> None:
    # Given a new game between two robots
    state = start(scenario, seed).state
    # When it is played out
    final, log = play_out(state)
    # Then someone won by destroying the enemy's Bases, with combat along the way
    assert final.winners
    assert any('"kind":"combat-round"' in line for line in log)
    assert any('"kind":"base-destroyed"' in line for line in log)
    assert any('"reason":"every enemy Base destroyed"' in line for line in log)


def test_the_same_game_replays_byte_for_byte() -> None:
    first_state, first_log = play_out(start(Scenario.ADVANCED, seed=5).state, check_every_step=False)
    second_state, second_log = play_out(start(Scenario.ADVANCED, seed=5).state, check_every_step=False)
    assert first_log == second_log
    assert first_state.model_dump_json() == second_state.model_dump_json()


def test_a_blind_game_plays_to_the_end_soundly() -> None:
    final, _ = play_out(start(Scenario.ADVANCED, seed=3, visibility=Visibility.BLIND).state)
    assert final.stage is Stage.OVER


def test_processing_never_changes_the_state_it_was_given() -> None:
    state = start(Scenario.BASIC).state
    before = state.model_dump_json()
    robot.play_turn(state)
    assert state.model_dump_json() == before


@pytest.mark.parametrize(("players", "visibility"), [(3, Visibility.BLIND), (4, Visibility.OPEN)])
def test_several_players_on_a_generated_map_play_soundly_in_turn_order(
    players: int, visibility: Visibility
) -> None:
    # Given a generated map and robots for every seat
    specs = tuple(PlayerSpec(id=f"P{i}", name=f"Player {i}") for i in range(1, players + 1))
    config = GameConfig(
        game_id="many", scenario=Scenario.ADVANCED, visibility=visibility, players=specs, turn_limit=25
    )
    state = WarpWar().new_game(Setup(config=config, map=MapSpec(name="Gen", players=players)), 21).state
    # When it is played out, recording whose player-turn each one was
    order: list[str] = []
    while state.stage is not Stage.OVER:
        order.append(state.active_player.id)
        state, _ = play_steps(state, 1)
    # Then the player-turns went round in the fixed order (skipping the eliminated) and someone won
    assert order[:players] == [s.id for s in specs]
    assert state.winners
    alive_order = [p for p in order if p in {s.id for s in specs}]
    assert all(a != b for a, b in itertools.pairwise(alive_order))


def play_steps(state: GameState, count: int) -> tuple[GameState, list[str]]:
    log: list[str] = []
    for _ in range(count):
        outcome = robot.play_turn(state)
        assert violations(outcome.state) == []
        log += [e.model_dump_json() for e in outcome.events]
        state = outcome.state
    return state, log
