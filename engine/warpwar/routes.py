"""Shortest routes in Movement Points over hexes and warplines (rules V).

One MP moves a ship one hex, or the whole length of a warpline from the star at one end to the
star at the other, so the map is a graph with unit edges and a breadth-first search finds the
cheapest route. Used by robots and by order checking, never by the rules themselves.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence

from engine.warpwar.orders import HexStep, WarplineStep

Adjacency = Mapping[str, Sequence[str]]
Travel = HexStep | WarplineStep


def route(
    adjacency: Adjacency, start: str, goal: str, warplines: Iterable[tuple[str, str]] = ()
) -> list[Travel]:
    """The cheapest steps from ``start`` to ``goal`` using hex moves and the given warplines
    (ties broken by hex number so the route is always the same); [] if there is none."""
    if start == goal:
        return []
    lines: dict[str, list[str]] = {}
    for a, b in warplines:
        lines.setdefault(a, []).append(b)
        lines.setdefault(b, []).append(a)
    came_from: dict[str, tuple[str, Travel]] = {}
    frontier = deque([start])
    seen = {start}
    while frontier:
        here = frontier.popleft()
        for step in _steps_from(adjacency, here, lines):
            there = step.to
            if there in seen:
                continue
            seen.add(there)
            came_from[there] = (here, step)
            if there == goal:
                return _unwind(came_from, start, goal)
            frontier.append(there)
    return []


def _steps_from(adjacency: Adjacency, here: str, lines: dict[str, list[str]]) -> list[Travel]:
    steps: list[Travel] = [WarplineStep(to=end) for end in sorted(lines.get(here, ()))]
    steps += [HexStep(to=n) for n in sorted(adjacency[here])]
    return steps


def _unwind(came_from: dict[str, tuple[str, Travel]], start: str, goal: str) -> list[Travel]:
    steps: list[Travel] = []
    at = goal
    while at != start:
        at, step = came_from[at]
        steps.append(step)
    return steps[::-1]
