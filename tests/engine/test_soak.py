"""Self-play soak: 200 complete robot games through the order language, every engine invariant
checked after every step.

The games mix the Basic and Advanced scenarios, 2 to 4 players, the classic map (it has two
ends, so two players) and small generated maps, cadets and admirals, open and blind games.
Each game is stepped as a host steps it (``WarpWar.process``): one player-turn's orders, then
one combat round at one star at a time, each side's orders written by its robot as a mail from
its own view and parsed back (``robot.read_mail`` raises on any error). Every game must end,
by victory or at its turn limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pytest

from engine.core.rng import Rng
from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.invariants import violations
from engine.warpwar.mapgen import MapSpec
from engine.warpwar.robot import Level
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.views import player_view

GAMES = 200
CHUNKS = 10
TURN_LIMIT = 30
SMALL_MAP_HEXES = 400
LEVELS = (Level.CADET, Level.ADMIRAL)


@dataclass(frozen=True)
class Soak:
    """One soak game: everything that varies from game to game, fixed by its number."""

    number: int
    scenario: Scenario
    players: int
    map: Literal["classic"] | MapSpec
    visibility: Visibility
    levels: dict[str, Level]


def soak_game(number: int) -> Soak:
    """Game ``number``'s mix, drawn from its own stream: scenarios alternate; about one game in
    three is on the classic map (two players), the others on a small generated map for 2 to 4."""
    rng = Rng(number).derive("soak")
    classic = rng.chance(1, 3)
    players = 2 if classic else rng.randint(2, 4)
    ids = [f"P{i}" for i in range(1, players + 1)]
    return Soak(
        number=number,
        scenario=Scenario.BASIC if number % 2 == 0 else Scenario.ADVANCED,
        players=players,
        map="classic" if classic else MapSpec(name=f"Soak {number}", players=players, hexes=SMALL_MAP_HEXES),
        visibility=rng.choice(tuple(Visibility)),
        levels={p: rng.choice(LEVELS) for p in ids},
    )


def play_soak(soak: Soak) -> GameState:
    """Play the game to its end one host step at a time, checking the invariants after each."""
    specs = tuple(PlayerSpec(id=p, name=f"Robot {p}") for p in soak.levels)
    config = GameConfig(
        game_id=f"soak-{soak.number}",
        scenario=soak.scenario,
        visibility=soak.visibility,
        players=specs,
        turn_limit=TURN_LIMIT,
    )
    game = WarpWar()
    state = game.new_game(Setup(config=config, map=soak.map), soak.number).state
    assert violations(state) == []
    while state.stage is not Stage.OVER:
        state = step(game, state, soak.levels)
        assert violations(state) == [], f"game {soak.number}, turn {state.turn}"
    return state


def step(game: WarpWar, state: GameState, levels: dict[str, Level]) -> GameState:
    """One player-turn's orders, or one round of the first combat, written and parsed as mail."""
    if state.stage is Stage.ORDERS:
        player = state.active_player.id
        view = player_view(state, player)
        mail = robot.write_turn(view, robot.stream_for(state, player), levels[player])
        return game.process(state, [robot.read_mail(mail, view).turn]).state
    combat = state.combats[0]
    return game.process(state, robot.rounds_for(state, combat, levels)).state


def test_soak_games_mix_every_kind_of_game() -> None:
    games = [soak_game(n) for n in range(GAMES)]
    assert {g.scenario for g in games} == set(Scenario)
    assert {g.visibility for g in games} == set(Visibility)
    assert {g.players for g in games} == {2, 3, 4}
    assert any(g.map == "classic" for g in games)
    assert all(g.players == 2 for g in games if g.map == "classic")
    assert {lv for g in games for lv in g.levels.values()} == set(Level)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_robot_games_play_to_the_end_through_the_order_language_soundly(chunk: int) -> None:
    # Given a chunk of the 200 soak games
    for number in range(chunk, GAMES, CHUNKS):
        soak = soak_game(number)
        # When robots play it to the end through mail (invariants checked after every step)
        final = play_soak(soak)
        # Then it ended, with winners among its players
        assert final.stage is Stage.OVER, f"game {number}"
        assert set(final.winners) <= set(soak.levels)
