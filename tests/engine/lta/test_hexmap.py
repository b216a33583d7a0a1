"""The map: hex steps, distances, compass winds and the four 90 degree arcs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.lta.hexmap import COLUMNS, ROWS, Arc, Facing, arc_of, compass_step, distance, step
from engine.lta.tables import Compass

cols = st.integers(1, COLUMNS)
rows = st.integers(1, ROWS)
facings = st.sampled_from(list(Facing))


def test_interpretation_1_six_facings_clockwise_from_north_on_flat_topped_hexes() -> None:
    """Interpretation 1: even columns sit half a hex lower; N and S keep the column."""
    assert [step(10, 10, f) for f in Facing] == [(10, 9), (11, 10), (11, 11), (10, 11), (9, 11), (9, 10)]
    assert [step(11, 10, f) for f in Facing] == [(11, 9), (12, 9), (12, 10), (11, 11), (10, 10), (10, 9)]


@given(cols, rows, facings)
def test_every_step_is_to_a_neighbour_and_back_again(col: int, row: int, facing: Facing) -> None:
    there = step(col, row, facing)
    assert distance((col, row), there) == 1
    assert step(*there, facing.turned(3)) == (col, row)


@given(cols, rows, st.sampled_from([Compass.E, Compass.W]))
def test_interpretation_4_east_and_west_winds_move_one_column_along_the_printed_row(
    col: int, row: int, wind: Compass
) -> None:
    """Interpretation 4: E and W are not hex sides; the push keeps the row and reaches a neighbour."""
    there = compass_step(col, row, wind)
    assert there == (col + (1 if wind is Compass.E else -1), row)
    assert distance((col, row), there) == 1


def test_interpretation_4_two_east_pushes_go_straight_east() -> None:
    once = compass_step(10, 10, Compass.E)
    assert compass_step(*once, Compass.E) == (12, 10)
    assert {step(10, 10, Facing.SE), step(11, 10, Facing.NE)} == {(11, 11), (12, 9)}
    assert once in {step(10, 10, f) for f in Facing}


def test_interpretation_5_arcs_of_a_zeppelin_facing_north() -> None:
    """Interpretation 5: each arc is 90 degrees about its centre line, by the target hex's centre."""
    assert arc_of((10, 10), Facing.N, (10, 4)) is Arc.FORWARD
    assert arc_of((10, 10), Facing.N, (16, 10)) is Arc.STARBOARD
    assert arc_of((10, 10), Facing.N, (10, 16)) is Arc.AFT
    assert arc_of((10, 10), Facing.N, (4, 10)) is Arc.PORT
    assert arc_of((10, 10), Facing.N, (10, 10)) is None


def test_interpretation_5_of_the_six_neighbours_one_is_forward_one_aft_two_each_beam() -> None:
    """Interpretation 5: a neighbour 60 or 120 degrees off the bow lies outside the 90 degree
    Forward and Aft arcs; two hexes out, the hex 30 degrees off the bow is Forward."""
    facing = Facing.NE
    arcs = [arc_of((10, 10), facing, step(10, 10, facing.turned(k))) for k in range(6)]
    assert arcs == [Arc.FORWARD, Arc.STARBOARD, Arc.STARBOARD, Arc.AFT, Arc.PORT, Arc.PORT]
    between = step(*step(10, 10, Facing.N), Facing.NE)
    assert arc_of((10, 10), Facing.N, between) is Arc.FORWARD


@given(cols, rows, cols, rows, facings)
def test_arcs_turn_with_the_zeppelin(col: int, row: int, tcol: int, trow: int, facing: Facing) -> None:
    arc = arc_of((col, row), facing, (tcol, trow))
    reverse = arc_of((col, row), facing.turned(3), (tcol, trow))
    if (col, row) == (tcol, trow):
        assert arc is None and reverse is None
        return
    opposite = {Arc.FORWARD: Arc.AFT, Arc.AFT: Arc.FORWARD, Arc.STARBOARD: Arc.PORT, Arc.PORT: Arc.STARBOARD}
    assert arc is not None and reverse is opposite[arc]
    # and the shooter seen from the target is in the opposite direction of the sky
    back = arc_of((tcol, trow), facing, (col, row))
    assert back is opposite[arc]


@given(cols, rows, cols, rows)
def test_distance_is_a_metric_on_the_map(c1: int, r1: int, c2: int, r2: int) -> None:
    d = distance((c1, r1), (c2, r2))
    assert d == distance((c2, r2), (c1, r1))
    assert (d == 0) == ((c1, r1) == (c2, r2))
    assert d >= max(abs(c1 - c2), 0)
