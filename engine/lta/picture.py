"""A player's map as a picture (engine/core/picture.py): every hex, and every Zeppelin flying as
a triangle in its owner's colour, an arrow to the side it faces, and its id and altitude
("A1 5"); your own are outlined. Made from the player's view only."""

from __future__ import annotations

import math

from engine.core.picture import Arrow, Cell, LegendEntry, Marker, Picture
from engine.lta.hexmap import Facing, label
from engine.lta.views import PlayerView, ShipSighting

COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65")
_ROOT3 = math.sqrt(3)


def centre(col: int, row: int) -> tuple[float, float]:
    """A hex's centre in cell radii (flat tops; even-numbered columns half a hex lower)."""
    c = col - 1
    return 1.5 * c, _ROOT3 * ((row - 1) + 0.5 * (c & 1))


def _bow(ship: ShipSighting) -> tuple[float, float]:
    """Where the facing arrow ends: across the hex side the Zeppelin faces, clear of its marker."""
    x, y = centre(ship.col, ship.row)
    angle = math.radians(60 * Facing[ship.facing])
    return x + 1.2 * math.sin(angle), y - 1.2 * math.cos(angle)


def picture(view: PlayerView) -> Picture:
    colour = {p: COLOURS[n % len(COLOURS)] for n, p in enumerate(view.players)}
    cells = tuple(
        Cell(id=label(col, row), x=centre(col, row)[0], y=centre(col, row)[1], label=label(col, row))
        for col in range(1, view.columns + 1)
        for row in range(1, view.rows + 1)
    )
    flying = [s for s in view.ships if s.status == "flying"]
    markers = tuple(
        Marker(
            x=centre(s.col, s.row)[0],
            y=centre(s.col, s.row)[1],
            shape="triangle",
            colour=colour[s.owner],
            outline="#000000" if s.owner == view.player else None,
            label=f"{s.id} {s.altitude}",
            title=f"{s.name} ({s.cls}, {s.owner}) at {s.hex} facing {s.facing}, altitude {s.altitude}"
            + (", IN FLAMES" if s.on_fire else ""),
        )
        for s in flying
    )
    arrows = tuple(
        Arrow(points=(centre(s.col, s.row), _bow(s)), colour=colour[s.owner], width=0.12) for s in flying
    )
    legend = tuple(LegendEntry(symbol="triangle", colour=colour[p], label=p) for p in view.players)
    return Picture(
        title=f"{view.game_id}: turn {view.turn}, {view.phase}",
        subtitle="Zeppelins: id and altitude; the arrow shows the facing",
        cells=cells,
        arrows=arrows,
        markers=markers,
        legend=legend,
    )
