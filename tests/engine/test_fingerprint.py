"""The engine's behaviour fingerprint: robot games from fixed seeds, every player-turn hashed.

Nine games cover both scenarios, open and blind, full and explored map knowledge, the classic
map and generated 3- and 4-player maps, cadets and admirals. Each is played for a bounded number
of game-turns; most player-turns go through ``play_player_turn``, every third through the mail
path (``submit_turn``, then ``submit_round`` for the first combat until none is left). For every
player-turn the sha256 of the new state's JSON, the events (each with its type), the order
results and every player's view is compared with tests/golden/engine_fingerprint.json.

A change that is meant to keep the engine's behaviour (a speed-up, a refactoring) must pass
unchanged. A deliberate change of a rule changes the fingerprint: regenerate it and review the
diff (the count of each kind of event per game shows what moved), then say why in the commit:

    UPDATE_GOLDEN=1 python -m pytest tests/engine/test_fingerprint.py
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.mapgen import MapSpec
from engine.warpwar.robot import Level
from engine.warpwar.state import GameConfig, GameState, MapKnowledge, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.turn import Outcome, play_player_turn, submit_round, submit_turn
from engine.warpwar.views import player_view

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "engine_fingerprint.json"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
MAIL_EVERY = 3
SMALL_MAP_HEXES = 400


@dataclass(frozen=True)
class Fingerprinted:
    """One game of the fingerprint."""

    name: str
    seed: int
    scenario: Scenario
    visibility: Visibility
    map_knowledge: MapKnowledge
    map: Literal["classic"] | MapSpec
    levels: tuple[Level, ...]
    turns: int


def _generated(players: int) -> MapSpec:
    return MapSpec(name=f"Fingerprint {players}", players=players, hexes=SMALL_MAP_HEXES)


C, A = Level.CADET, Level.ADMIRAL
ADV, BAS = Scenario.ADVANCED, Scenario.BASIC
OPEN, BLIND = Visibility.OPEN, Visibility.BLIND
FULL, EXPLORED = MapKnowledge.FULL, MapKnowledge.EXPLORED
GAMES = (
    Fingerprinted("classic-advanced-open-full", 1, ADV, OPEN, FULL, "classic", (A, A), 40),
    Fingerprinted("classic-advanced-open-full-to-victory", 2, ADV, OPEN, FULL, "classic", (A, C), 40),
    Fingerprinted("classic-basic-blind-full", 2, BAS, BLIND, FULL, "classic", (A, C), 40),
    Fingerprinted("classic-advanced-blind-explored", 3, ADV, BLIND, EXPLORED, "classic", (A, A), 40),
    Fingerprinted("generated3-advanced-open-full", 5, ADV, OPEN, FULL, _generated(3), (A, A, C), 40),
    Fingerprinted("generated3-basic-blind-full", 6, BAS, BLIND, FULL, _generated(3), (C, A, C), 20),
    Fingerprinted("generated3-basic-open-explored", 6, BAS, OPEN, EXPLORED, _generated(3), (A, A, C), 10),
    Fingerprinted("generated4-advanced-blind-full", 7, ADV, BLIND, FULL, _generated(4), (C, A, A, A), 25),
    Fingerprinted("generated4-basic-open-full", 8, BAS, OPEN, FULL, _generated(4), (A, C, A, C), 20),
)


def new_state(game: Fingerprinted) -> GameState:
    specs = tuple(PlayerSpec(id=f"P{i}", name=f"Robot {i}") for i in range(1, len(game.levels) + 1))
    config = GameConfig(
        game_id=game.name,
        scenario=game.scenario,
        visibility=game.visibility,
        map_knowledge=game.map_knowledge,
        players=specs,
    )
    return WarpWar().new_game(Setup(config=config, map=game.map), game.seed).state


def digest(outcomes: Sequence[Outcome]) -> str:
    """The sha256 of what a player-turn produced, step by step: state, events, results, views."""
    sha = hashlib.sha256()
    for outcome in outcomes:
        state = outcome.state
        sha.update(state.model_dump_json().encode())
        for event in outcome.events:
            sha.update(type(event).__name__.encode())
            sha.update(event.model_dump_json().encode())
        for result in outcome.results:
            sha.update(result.model_dump_json().encode())
        for player in state.players:
            sha.update(player_view(state, player.id).model_dump_json().encode())
    return sha.hexdigest()


def mail_path(state: GameState, levels: robot.Levels) -> list[Outcome]:
    """A player-turn as the host steps it: the turn's orders, then one round at a time."""
    player = state.active_player.id
    view = player_view(state, player)
    mail = robot.write_turn(view, robot.stream_for(state, player), robot.level_of(levels, player))
    outcomes = [submit_turn(state, robot.read_mail(mail, view).turn)]
    while outcomes[-1].state.stage is Stage.COMBAT:
        now = outcomes[-1].state
        fight = now.combats[0]
        outcomes.append(submit_round(now, fight.star, robot.rounds_for(now, fight, levels)))
    return outcomes


def direct_path(state: GameState, levels: robot.Levels) -> list[Outcome]:
    """A player-turn in one call, with the robot's orders given as models."""
    player = state.active_player.id
    level = robot.level_of(levels, player)
    orders = robot.turn_orders(player_view(state, player), robot.stream_for(state, player), level)
    return [play_player_turn(state, orders, lambda now, fight: robot.rounds_for(now, fight, levels))]


def player_turns(game: Fingerprinted) -> Iterator[tuple[str, list[Outcome]]]:
    """Each player-turn of the game, labelled ``turn/player/path``, up to its game-turn limit."""
    levels = {f"P{i}": level for i, level in enumerate(game.levels, start=1)}
    state = new_state(game)
    count = 0
    while state.stage is not Stage.OVER and state.turn <= game.turns:
        count += 1
        by_mail = count % MAIL_EVERY == 0
        label = f"{state.turn}/{state.active_player.id}/{'mail' if by_mail else 'play'}"
        outcomes = mail_path(state, levels) if by_mail else direct_path(state, levels)
        yield label, outcomes
        state = outcomes[-1].state


def fingerprint(game: Fingerprinted) -> dict[str, object]:
    turns: dict[str, str] = {}
    kinds: Counter[str] = Counter()
    for label, outcomes in player_turns(game):
        turns[label] = digest(outcomes)
        kinds.update(event.kind for outcome in outcomes for event in outcome.events)
    return {"events": dict(sorted(kinds.items())), "player_turns": turns}


def golden() -> dict[str, object]:
    assert GOLDEN.exists(), f"{GOLDEN} is missing: run with UPDATE_GOLDEN=1"
    loaded: dict[str, object] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return loaded


def test_the_games_cover_every_kind_of_game() -> None:
    assert {g.scenario for g in GAMES} == set(Scenario)
    assert {g.visibility for g in GAMES} == set(Visibility)
    assert {g.map_knowledge for g in GAMES} == set(MapKnowledge)
    assert {len(g.levels) for g in GAMES} == {2, 3, 4}
    assert {lv for g in GAMES for lv in g.levels} == set(Level)
    assert len({g.name for g in GAMES}) == len(GAMES)


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_every_player_turn_matches_the_fingerprint(game: Fingerprinted) -> None:
    # Given a robot game from a fixed seed, played a bounded number of game-turns
    # When every player-turn is hashed
    actual = fingerprint(game)
    if UPDATE:
        recorded = json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}
        recorded[game.name] = actual
        GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    # Then each one is exactly as recorded
    expected = golden()[game.name]
    assert isinstance(expected, dict)
    assert actual["events"] == expected["events"], f"{game.name}: the events differ"
    assert actual["player_turns"] == expected["player_turns"], f"{game.name}: a player-turn differs"


def test_the_fingerprint_fights_and_uses_both_paths() -> None:
    # The golden file itself shows combat, destruction and both paths, so it pins real work
    recorded = golden()
    kinds: Counter[str] = Counter()
    labels: list[str] = []
    for entry in recorded.values():
        assert isinstance(entry, dict)
        kinds.update(entry["events"])
        labels += entry["player_turns"]
    for kind in (
        "combat-round",
        "ship-destroyed",
        "ship-retreated",
        "ship-sighted",
        "base-built",
        "game-over",
    ):
        assert kinds[kind] > 0, kind
    assert any(label.endswith("/mail") for label in labels)
    assert any(label.endswith("/play") for label in labels)
