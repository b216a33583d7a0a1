"""The battle map: flat-topped hexes in columns (even-numbered columns sit half a hex lower),
labelled CCRR from 0101 at the north-west corner, so every Zeppelin faces one of six hex sides,
N (0) clockwise to NW (5) (interpretation 1). Arcs are exact: no float decides a shot.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from fractions import Fraction

from engine.lta.tables import Compass

COLUMNS = 30
ROWS = 20
MAX_ALTITUDE = 9
""""there are 10 steps of altitude, with '0' being ground level": 0..9 (interpretation 2)."""


class Facing(IntEnum):
    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    def turned(self, sides: int) -> Facing:
        """Clockwise by ``sides`` hex sides (negative: anticlockwise)."""
        return Facing((self + sides) % 6)


class Arc(StrEnum):
    FORWARD = "F"
    STARBOARD = "S"
    AFT = "A"
    PORT = "P"


_AXIAL_STEP: dict[Facing, tuple[int, int]] = {
    Facing.N: (0, -1),
    Facing.NE: (1, -1),
    Facing.SE: (1, 0),
    Facing.S: (0, 1),
    Facing.SW: (-1, 1),
    Facing.NW: (-1, 0),
}


def label(col: int, row: int) -> str:
    """``0101`` for the north-west corner; columns and rows count from 1."""
    return f"{col:02d}{row:02d}"


def on_map(col: int, row: int) -> bool:
    return 1 <= col <= COLUMNS and 1 <= row <= ROWS


def _axial(col: int, row: int) -> tuple[int, int]:
    c = col - 1
    return c, (row - 1) - (c - (c & 1)) // 2


def _offset(q: int, r: int) -> tuple[int, int]:
    return q + 1, r + (q - (q & 1)) // 2 + 1


def step(col: int, row: int, facing: Facing) -> tuple[int, int]:
    """The neighbouring hex across side ``facing``."""
    q, r = _axial(col, row)
    dq, dr = _AXIAL_STEP[facing]
    return _offset(q + dq, r + dr)


def compass_step(col: int, row: int, direction: Compass) -> tuple[int, int]:
    """The hex a wind from the table pushes into: six compass points are hex sides; E and W, which
    are not, move one column along the printed row, a neighbour either way (interpretation 4)."""
    if direction is Compass.E:
        return col + 1, row
    if direction is Compass.W:
        return col - 1, row
    return step(col, row, Facing[direction.value])


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    aq, ar = _axial(*a)
    bq, br = _axial(*b)
    dq, dr = bq - aq, br - ar
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


_HALF = Fraction(1, 2)
_SIN_OVER_ROOT3 = {0: Fraction(0), 1: _HALF, 2: _HALF, 3: Fraction(0), 4: -_HALF, 5: -_HALF}
_COS = {0: Fraction(1), 1: _HALF, 2: -_HALF, 3: Fraction(-1), 4: -_HALF, 5: _HALF}


def arc_of(shooter: tuple[int, int], facing: Facing, target: tuple[int, int]) -> Arc | None:
    """The 90 degree arc of a Zeppelin facing ``facing`` that holds ``target``'s hex centre; None for
    the same hex (interpretation 5).

    With east ``e`` and north ``n`` of the target from the shooter, the component ahead is
    ``a = e sin t + n cos t`` and to starboard ``b = e cos t - n sin t`` (``t``: the facing's bearing).
    On this grid ``e`` is rational and ``n`` a rational multiple of sqrt 3, and so is ``a`` while
    ``b`` is rational: comparing ``|a|`` with ``|b|`` is comparing ``3 A**2`` with ``B**2`` in exact
    fractions, and the two are never equal, so no hex lies on an arc's edge.
    """
    sq, sr = _axial(*shooter)
    tq, tr = _axial(*target)
    dq, dr = tq - sq, tr - sr
    if dq == 0 and dr == 0:
        return None
    east = Fraction(3, 2) * dq
    north_over_root3 = -(dr + Fraction(dq, 2))
    f = int(facing)
    ahead = east * _SIN_OVER_ROOT3[f] + north_over_root3 * _COS[f]
    starboard = east * _COS[f] - 3 * north_over_root3 * _SIN_OVER_ROOT3[f]
    if 3 * ahead * ahead > starboard * starboard:
        return Arc.FORWARD if ahead > 0 else Arc.AFT
    return Arc.STARBOARD if starboard > 0 else Arc.PORT
