"""The hex grid of WarpWar maps (rules II, "Game elements"; V, "Movement").

Hexes are named by four digits ``CCRR`` as on the printed map. Reading the map and the
movement examples (W8 goes 1919 -> 1818 -> 1717 "two hexes"; W6 steps from 1720 onto Umma at
1719) gives an axial system: the six neighbours of (c, r) are

    up (c-1, r-1)   up-right (c, r-1)   down-right (c+1, r)
    down (c+1, r+1) down-left (c, r+1)  up-left (c-1, r)

so the distance between two hexes is the usual axial distance with the third axis c - r.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Annotated

from pydantic import StringConstraints

HexId = Annotated[str, StringConstraints(pattern=r"^\d{4,6}$")]
"""A hex number as printed: column then row, two digits each (three each on very large maps)."""

NEIGHBOUR_OFFSETS: tuple[tuple[int, int], ...] = ((-1, -1), (0, -1), (1, 0), (1, 1), (0, 1), (-1, 0))


def hex_id(col: int, row: int) -> str:
    """The printed number of the hex at ``(col, row)``; three digits per axis past 99."""
    width = 2 if col < 100 and row < 100 else 3
    return f"{col:0{width}d}{row:0{width}d}"


@cache
def coords(hex_: str) -> tuple[int, int]:
    """``(col, row)`` of a printed hex number (remembered: maps have a few thousand hexes and
    distances are asked for constantly)."""
    half = len(hex_) // 2
    return int(hex_[:half]), int(hex_[half:])


def neighbours(hex_: str) -> list[str]:
    """The six hexes around ``hex_`` (whether or not they lie on a given map)."""
    col, row = coords(hex_)
    return [hex_id(col + dc, row + dr) for dc, dr in NEIGHBOUR_OFFSETS if col + dc >= 0 and row + dr >= 0]


def distance(a: str, b: str) -> int:
    """Hexes between ``a`` and ``b`` moving hex to hex."""
    ac, ar = coords(a)
    bc, br = coords(b)
    dc, dr = bc - ac, br - ar
    return max(abs(dc), abs(dr), abs(dc - dr))


def adjacent(a: str, b: str) -> bool:
    return distance(a, b) == 1


def adjacency(hexes: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """For each of ``hexes``, its neighbours among them."""
    on_map = set(hexes)
    return {h: tuple(n for n in neighbours(h) if n in on_map) for h in sorted(on_map)}
