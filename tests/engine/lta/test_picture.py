"""The map picture: a marker and a facing arrow for each Zeppelin flying, from the view."""

from __future__ import annotations

import math

from engine.lta.hexmap import COLUMNS, ROWS, Facing, step
from engine.lta.picture import centre, picture
from engine.lta.state import Status
from engine.lta.views import player_view
from tests.engine.lta.builders import game, zeppelin


def test_each_flying_zeppelin_has_a_marker_labelled_with_id_and_altitude_and_an_arrow_to_its_facing() -> None:
    ships = (
        zeppelin("A1", "Red", at=(10, 10), facing=Facing.NE, altitude=7),
        zeppelin("B1", "Blue", at=(5, 5), facing=Facing.S),
        zeppelin("B2", "Blue", at=(6, 6)).model_copy(update={"status": Status.DESTROYED}),
    )
    drawn = picture(player_view(game(ships), "Red"))
    assert len(drawn.cells) == COLUMNS * ROWS
    assert [m.label for m in drawn.markers] == ["A1 7", "B1 5"]
    assert drawn.markers[0].outline is not None and drawn.markers[1].outline is None
    for arrow, (col, row, facing) in zip(drawn.arrows, [(10, 10, Facing.NE), (5, 5, Facing.S)], strict=True):
        (x0, y0), (x1, y1) = arrow.points
        nx, ny = centre(*step(col, row, facing))
        # the arrow points at the neighbour across the side faced
        assert math.isclose(math.atan2(y1 - y0, x1 - x0), math.atan2(ny - y0, nx - x0), abs_tol=1e-9)


def test_neighbouring_centres_are_sqrt3_apart_as_the_renderers_expect() -> None:
    for facing in Facing:
        x0, y0 = centre(10, 10)
        x1, y1 = centre(*step(10, 10, facing))
        assert math.isclose(math.hypot(x1 - x0, y1 - y0), math.sqrt(3))
