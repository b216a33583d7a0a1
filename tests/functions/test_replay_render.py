"""The replay page (engine/warpwar/replay.py, rendered by functions/render/results.py): one
section per game-turn with its map, the names escaped, and the maps kept under their cap, the
latest turns' first."""

from __future__ import annotations

import re
from functools import cache

from engine.core.turnhost import Page
from engine.warpwar import robot
from engine.warpwar.events import AnyEvent
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.replay import replay
from engine.warpwar.standings import Frame, frames, standings
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage
from functions.render.results import MAP_BYTES, render_page

TURNS = 3
SECTION = re.compile(r'<section class="turn" id="turn-(\d+)">(.*?)</section>', re.DOTALL)


@cache
def game() -> tuple[GameState, tuple[Frame, ...]]:
    """A robot game of three game-turns, cut into its turns."""
    config = GameConfig(
        game_id="r1",
        scenario=Scenario.BASIC,
        players=(PlayerSpec(id="A", name="Eve & Co"), PlayerSpec(id="B", name="Bo")),
        turn_limit=TURNS,
    )
    outcome = WarpWar().new_game(Setup(config=config), 2)
    steps: list[tuple[GameState, list[AnyEvent]]] = [(outcome.state, list(outcome.events))]
    state = outcome.state
    while state.stage is not Stage.OVER:
        played = robot.play_turn(state)
        state = played.state
        steps.append((state, list(played.events)))
    return state, tuple(frames(steps))


def render_replay(state: GameState, turns: tuple[Frame, ...], map_bytes: int = MAP_BYTES) -> str:
    """Player A's replay of game r1, as the final mail attaches it."""
    page = Page(
        filename="r1-replay.html",
        content_type="text/html",
        template="replay.html",
        model=replay("r1", "A", standings(state), turns),
    )
    return render_page("warpwar", page, map_bytes=map_bytes).data.decode()


def sections(page: str) -> list[tuple[int, str]]:
    return [(int(turn), body) for turn, body in SECTION.findall(page)]


def test_every_turn_has_its_map_and_its_events_and_names_are_escaped() -> None:
    state, turns = game()
    page = render_replay(state, turns)
    shown = sections(page)
    assert [turn for turn, _ in shown] == list(range(1, TURNS + 1))
    assert all("<svg" in body and "the end of turn" in body for _, body in shown)
    assert re.search(r"B\.W\d+ moves", page), "the other side's moves, the fog lifted"
    assert "Eve &amp; Co" in page and "Eve & Co" not in page


def test_past_their_cap_the_earliest_maps_are_left_out() -> None:
    state, turns = game()
    whole = render_replay(state, turns)
    last_map = len(re.findall(r"<svg.*?</svg>\n", whole, re.DOTALL)[-1])
    page = render_replay(state, turns, map_bytes=last_map + 10)
    shown = sections(page)
    assert [turn for turn, _ in shown] == list(range(1, TURNS + 1))
    assert ["<svg" in body for _, body in shown] == [False] * (TURNS - 1) + [True]
    assert all("map is left out" in body for _, body in shown[:-1])
    assert len(page) < len(whole) - last_map
