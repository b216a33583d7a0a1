"""Shortest routes in Movement Points over hexes and warplines (rules V).

One MP moves a ship one hex, or the whole length of a warpline from the star at one end to the
star at the other, so the map is a graph with unit edges and a breadth-first search finds the
cheapest route. Used by robots and by order checking, never by the rules themselves.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence

from engine.warpwar.orders import HexStep, WarplineStep

Adjacency = Mapping[str, Sequence[str]]
Travel = HexStep | WarplineStep


def route(
    adjacency: Adjacency, start: str, goal: str, warplines: Iterable[tuple[str, str]] = ()
) -> list[Travel]:
    """The cheapest steps from ``start`` to ``goal`` using hex moves and the given warplines
    (ties broken by hex number so the route is always the same); [] if there is none."""
    came_from: dict[str, tuple[str, bool]] = {}
    for there, here, by_warpline in _search(adjacency, start, warplines):
        came_from[there] = (here, by_warpline)
        if there == goal:
            return _unwind(came_from, start, goal)
    return []


def distances(adjacency: Adjacency, start: str, warplines: Iterable[tuple[str, str]] = ()) -> dict[str, int]:
    """MP from ``start`` to every hex it can reach."""
    mp = {start: 0}
    for there, here, _ in _search(adjacency, start, warplines):
        mp[there] = mp[here] + 1
    return mp


def _search(
    adjacency: Adjacency, start: str, warplines: Iterable[tuple[str, str]]
) -> Iterator[tuple[str, str, bool]]:
    """Breadth-first: each newly reached hex with the hex it was reached from and how."""
    lines: dict[str, list[str]] = {}
    for a, b in warplines:
        lines.setdefault(a, []).append(b)
        lines.setdefault(b, []).append(a)
    frontier = deque([start])
    seen = {start}
    while frontier:
        here = frontier.popleft()
        options = [(end, True) for end in sorted(lines.get(here, ()))]
        options += [(n, False) for n in sorted(adjacency[here])]
        for there, by_warpline in options:
            if there not in seen:
                seen.add(there)
                frontier.append(there)
                yield there, here, by_warpline


def _unwind(came_from: dict[str, tuple[str, bool]], start: str, goal: str) -> list[Travel]:
    steps: list[Travel] = []
    at = goal
    while at != start:
        previous, by_warpline = came_from[at]
        steps.append(WarplineStep(to=at) if by_warpline else HexStep(to=at))
        at = previous
    return steps[::-1]
