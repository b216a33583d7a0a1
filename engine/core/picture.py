"""A map picture as plain data: what a renderer draws, with no game rules and no drawing code.

A game turns what one player knows into a ``Picture``; renderers (PNG, SVG) turn any
``Picture`` into an image. Coordinates are in cell radii: a hex cell has radius 1 (centre to
corner), flat-topped, so neighbouring centres are 1.5 apart across and sqrt(3) apart down.
``y`` grows downwards, as on a screen. Colours are CSS colour strings (``#rrggbb``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Point = tuple[float, float]
Shape = Literal["star", "circle", "square", "diamond", "triangle"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Cell(_Frozen):
    """One cell of the board (a hex), drawn as an outline with an optional fill."""

    id: str
    x: float
    y: float
    fill: str | None = Field(None, description="Tint of the cell; None: the picture's cell colour")
    label: str = Field("", description="The cell's id, printed small in it and its tooltip")
    key: bool = Field(
        False, description="Label it even when the map is drawn too small to label every cell (a star's)"
    )


class Marker(_Frozen):
    """Something at a point: a star, a Base, a fleet. ``size`` is in cell radii."""

    x: float
    y: float
    shape: Shape
    colour: str
    size: float = 0.4
    outline: str | None = Field(None, description="Outline colour; None: no outline")
    hollow: bool = Field(False, description="Draw only the outline (in ``colour``)")
    label: str = ""
    label_at: Literal["below", "above", "left", "right"] = "below"
    label_gap: float | None = Field(None, description="Centre to label, in cell radii; None: ``size``")
    detail: bool = Field(False, description="A detail label: left out when the map is drawn too small")
    classes: tuple[str, ...] = ()
    title: str = Field("", description="Longer text for a zoomable image's tooltip")


class RulerMark(_Frozen):
    """A cell id printed outside the board's edge, beside the edge cell it names: read across
    from it to find a cell's id on a map drawn too small to label every cell."""

    x: float
    y: float
    text: str
    side: Literal["above", "left"]


class Line(_Frozen):
    """A straight line between two points (a warpline). ``width`` is in cell radii."""

    a: Point
    b: Point
    colour: str
    width: float = 0.08
    dashed: bool = False
    classes: tuple[str, ...] = ()


class Arrow(_Frozen):
    """A path through points ending in an arrowhead (a move)."""

    points: tuple[Point, ...] = Field(min_length=2)
    colour: str
    width: float = 0.1
    label: str = ""
    classes: tuple[str, ...] = ()


class LegendEntry(_Frozen):
    """One key of the legend: a marker shape, a line or an arrow, and what it means."""

    symbol: Shape | Literal["line", "arrow"]
    colour: str
    label: str
    hollow: bool = False


class Picture(_Frozen):
    """Everything to draw, back to front: cells, lines, arrows, markers; then the ruler, title
    and legend."""

    title: str
    subtitle: str = ""
    background: str = "#ffffff"
    cell_colour: str = "#f4f6fa"
    cell_outline: str = "#c9d1dc"
    label_colour: str = "#1b1f24"
    cells: tuple[Cell, ...] = ()
    lines: tuple[Line, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    markers: tuple[Marker, ...] = ()
    ruler: tuple[RulerMark, ...] = ()
    legend: tuple[LegendEntry, ...] = ()

    def bounds(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` of everything drawn (cells to their corners)."""
        xs = [c.x for c in self.cells] + [m.x for m in self.markers]
        ys = [c.y for c in self.cells] + [m.y for m in self.markers]
        if not xs:
            return (-1.0, -1.0, 1.0, 1.0)
        half_height = 0.8660254037844386
        return (min(xs) - 1.0, min(ys) - half_height, max(xs) + 1.0, max(ys) + half_height)
