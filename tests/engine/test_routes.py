"""Cheapest routes in Movement Points: one MP per hex, one per warpline end to end (rules V)."""

from __future__ import annotations

from engine.warpwar.classic_map import classic_map
from engine.warpwar.orders import HexStep, WarplineStep
from engine.warpwar.routes import distances, route

MAP = classic_map()
LINES = [(w.a, w.b) for w in MAP.warplines]


def test_route_takes_a_warpline_when_it_saves_movement_points() -> None:
    # W6's start at 1720 to Kish: the rules' route costs 5 MP; via Akkad's warpline it costs 4
    steps = route(MAP.adjacency, "1720", "2118", LINES)
    assert len(steps) == 4
    assert steps[-1] == WarplineStep(to="2118")


def test_route_without_warplines_walks_hex_by_hex() -> None:
    steps = route(MAP.adjacency, "1919", "1717")
    assert steps == [HexStep(to="1818"), HexStep(to="1717")]


def test_distances_agree_with_routes() -> None:
    mp = distances(MAP.adjacency, "0606", LINES)
    for star in MAP.stars:
        assert mp[star.hex] == len(route(MAP.adjacency, "0606", star.hex, LINES))


def test_no_route_to_a_hex_off_the_map() -> None:
    assert route(MAP.adjacency, "0606", "9999", LINES) == []
