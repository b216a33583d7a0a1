"""The Combat Results Table (rules VI), as data.

A cell is read at the firing ship's tactic row (Missiles always use ATTACK) for the drive
difference (firer's drive, or the Missile's drive, minus the target's drive) and the target
ship's tactic column.
"""

from __future__ import annotations

from enum import StrEnum
from functools import cache

from engine.warpwar.orders import Tactic


class Result(StrEnum):
    MISS = "Miss"
    HIT = "Hit"
    HIT_PLUS_1 = "Hit +1"
    HIT_PLUS_2 = "Hit +2"
    ESCAPES = "Escapes"

    @property
    def hits(self) -> bool:
        return self in _HITTING

    @property
    def bonus(self) -> int:
        return _BONUS.get(self, 0)


M, H, H1, H2, E = Result.MISS, Result.HIT, Result.HIT_PLUS_1, Result.HIT_PLUS_2, Result.ESCAPES
_HITTING = frozenset((H, H1, H2))
_BONUS = {H1: 1, H2: 2}

# (lowest difference of the band, or None for "or less", label, (vs ATTACK, vs DODGE, vs RETREAT))
Band = tuple[int | None, str, tuple[Result, Result, Result]]

TABLE: dict[Tactic, tuple[Band, ...]] = {
    Tactic.ATTACK: (
        (None, "-3 or less", (M, M, E)),
        (-2, "-1, -2", (H, M, E)),
        (0, "0, +1", (H2, M, M)),
        (2, "+2", (H1, H1, M)),
        (3, "+3, +4", (M, H, H)),
        (5, "+5 or more", (M, M, M)),
    ),
    Tactic.DODGE: (
        (None, "-4 or less", (M, M, E)),
        (-3, "-2, -3", (M, H, E)),
        (-1, "0, -1", (H, H, E)),
        (1, "+1, +2", (H, M, E)),
        (3, "+3 or more", (M, M, E)),
    ),
    Tactic.RETREAT: (
        (None, "-2 or less", (M, M, E)),
        (-1, "-1, 0", (H, M, E)),
        (1, "+1 or more", (M, M, E)),
    ),
}

COLUMN: dict[Tactic, int] = {Tactic.ATTACK: 0, Tactic.DODGE: 1, Tactic.RETREAT: 2}


def band(firing: Tactic, difference: int) -> Band:
    """The row band of ``firing``'s tactic that holds this drive difference."""
    rows = TABLE[firing]
    chosen = rows[0]
    for row in rows[1:]:
        low = row[0]
        assert low is not None
        if difference >= low:
            chosen = row
    return chosen


@cache
def read(firing: Tactic, difference: int, target: Tactic) -> Result:
    """The CRT cell for a firing tactic, drive difference and target tactic. Remembered, as is
    ``row_label``: every shot and every Missile's ECM choice reads the table, and it is small."""
    return band(firing, difference)[2][COLUMN[target]]


@cache
def row_label(firing: Tactic, difference: int) -> str:
    """How the rules name the row read, e.g. ``ATTACK (0, +1)``."""
    return f"{firing.value} ({band(firing, difference)[1]})"
