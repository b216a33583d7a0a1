"""The state as a value: copies are equal and share nothing that can change; knowledge brought
up to date locally after a combat round equals a full refresh."""

from __future__ import annotations

import pytest

from engine.warpwar import robot
from engine.warpwar.components import Attributes
from engine.warpwar.context import Step
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.knowledge import refresh_knowledge
from engine.warpwar.state import Base, GameConfig, MapKnowledge, PlayerSpec, Sighting, Stage, Visibility
from engine.warpwar.turn import _fight_round, submit_turn
from engine.warpwar.views import player_view
from tests.engine.builders import robot_game_states


def test_a_copy_is_equal_and_dumps_to_the_same_json() -> None:
    for state in robot_game_states(Visibility.BLIND, seed=11, limit=40)[::5]:
        copy = state.clone()
        assert copy == state
        assert copy.model_dump_json() == state.model_dump_json()


def test_changing_a_copy_leaves_the_original_alone() -> None:
    # Given a mid-game state and its copy
    state = robot_game_states(Visibility.BLIND, seed=11, limit=40)[-1]
    before = state.model_dump_json()
    copy = state.clone()
    # When everything that can change is changed in the copy
    for ship in copy.ships.values():
        ship.current = Attributes()
        ship.cargo = 0
        ship.carrying.append("X.S99")
        ship.location = "0101"
    for base in copy.bases.values():
        base.stockpile += 1
    copy.bases["0101"] = Base(star="0101", owner="Nobody")
    copy.players[0].eliminated = True
    copy.control.clear()
    for known in copy.knowledge.values():
        known.stars.append("9999")
        known.sightings["X.W1"] = Sighting(ship="X.W1", owner="X", hex="0101", turn=1)
        known.owners.clear()
    copy.winners.append("Nobody")
    # Then the original is as it was
    assert state.model_dump_json() == before


@pytest.mark.parametrize("visibility", [Visibility.OPEN, Visibility.BLIND])
def test_knowledge_brought_up_to_date_after_a_round_is_what_a_full_refresh_gives(
    visibility: Visibility,
) -> None:
    rounds_checked = 0
    for state in robot_game_states(visibility, seed=3, limit=60):
        # Given a player-turn whose Movement began a combat
        player = state.active_player.id
        orders = robot.turn_orders(player_view(state, player), robot.stream_for(state, player))
        begun = submit_turn(state, orders).state
        step = Step(begun.clone())
        # When its rounds are fought as play_player_turn fights them (knowledge refreshed locally)
        while step.state.stage is Stage.COMBAT:
            fight = step.state.combats[0]
            _fight_round(step, fight.star, robot.rounds_for(step.state, fight))
            # Then after every round a full refresh would change nothing
            full = step.state.clone()
            refresh_knowledge(Step(full))
            assert full.knowledge == step.state.knowledge
            rounds_checked += 1
    assert rounds_checked > 5


@pytest.mark.parametrize(
    ("visibility", "map_knowledge"),
    [
        (Visibility.OPEN, MapKnowledge.FULL),
        (Visibility.BLIND, MapKnowledge.FULL),
        (Visibility.BLIND, MapKnowledge.EXPLORED),
    ],
)
def test_every_player_turn_ends_with_the_knowledge_a_full_refresh_gives(
    visibility: Visibility, map_knowledge: MapKnowledge
) -> None:
    # Given robot games, one player-turn at a time (knowledge is refreshed only where things changed)
    players = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))
    for seed in (3, 5):
        config = GameConfig(
            game_id="k", visibility=visibility, map_knowledge=map_knowledge, players=players, turn_limit=40
        )
        state = WarpWar().new_game(Setup(config=config), seed).state
        while state.stage is not Stage.OVER:
            state = robot.play_turn(state).state
            # Then looking again everywhere would change nothing
            full = state.clone()
            refresh_knowledge(Step(full))
            assert full.knowledge == state.knowledge, (seed, state.turn, state.active)
