"""Draw a ``Picture`` (engine/core/picture.py) as a zoomable SVG, and as a PNG rendered from it.

The map is drawn once, as SVG; the PNG is that SVG rendered by resvg, so the two always show
the same thing. The PNG is ``WIDTH`` pixels wide, the width of a mail's column (a phone shows it
at full width and lets the reader zoom); the SVG has the same ``viewBox`` and scales to its
container, and is attached for zooming further. Text is set in the bundled DejaVu Sans
(functions/render/fonts): the layout measures it with that font's widths, and resvg loads that
font and no system font, so the PNG is the same bytes on every machine.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Literal

import resvg_py

from engine.core.picture import Arrow, Cell, LegendEntry, Marker, Picture, Point, RulerMark
from functions.render import fonts

WIDTH = 600
"""The PNG's width: mail clients lay HTML mail out in a column of 600-650 pixels, so a wider image
is only scaled down there; and resvg's PNG encoding, most of a report's time, grows with the pixels."""
MARGIN = 14
DETAIL_SCALE = 16.0
"""Pixels per cell radius below which detail labels (fleet names) are left out: on a large
map they would cover each other; the SVG's tooltips and the report's tables still name them."""
MAX_SCALE = 44.0
"""Pixels per cell radius at most (a tiny map is not blown up to absurd hexes)."""
ID_SCALE = 14.0
"""Pixels per cell radius from which every cell's id is printed in it (4 digits at ``ID_SIZE``
fit a hex's top half); below it only key cells (stars) get theirs, and the ruler is drawn."""
MAX_WIDTH = 1800
"""The widest image: a map too large for ``ID_SCALE`` at ``WIDTH`` is drawn wider, up to this (the
reader zooms the PNG, or opens the attached SVG), rather than split into pieces whose edges
would cut warplines and fleets apart (docs/players.md, "The map")."""
ID_SIZE = 7
ID_COLOUR = "#8a94a3"
ID_RISE = 0.6
"""A cell id's centre above the cell's centre, in cell radii: clear of the star drawn there."""
TITLE_SIZE = 20
SUBTITLE_SIZE = 14
LEGEND_SIZE = 14
LEGEND_SWATCH = 16
HALO = "#ffffff"
PLATE_PAD = 1.5
"""Pixels of a label's plate beyond its first and last glyphs."""
PLATE_ASCENT, PLATE_DESCENT = 0.78, 0.26
"""How far a label's plate reaches above and below the baseline, in font sizes (DejaVu's
capitals and digits reach 0.73 above it, descenders 0.24 below)."""

Anchor = Literal["top", "bottom", "left", "right", "middle", "topleft"]


@dataclass(frozen=True)
class Poly:
    points: tuple[Point, ...]
    fill: str | None
    outline: str | None = None
    width: int = 1
    closed: bool = True
    title: str = ""


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float
    fill: str | None
    outline: str | None = None
    width: int = 1


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: int
    colour: str
    anchor: Anchor = "middle"
    bold: bool = False
    halo: bool = True


@dataclass(frozen=True)
class Hexes:
    """Many same-sized hex cells with one fill (one SVG group), each with its id as tooltip."""

    centres: tuple[Point, ...]
    radius: float
    fill: str
    outline: str
    titles: tuple[str, ...] = ()


Shape = Poly | Circle | Text | Hexes


@dataclass
class Canvas:
    """The image's size and the shapes to draw on it, back to front."""

    width: int
    height: int
    background: str
    shapes: list[Shape] = field(default_factory=list)


# --- Layout: from picture units to pixels ---------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    scale: float
    dx: float
    dy: float

    def at(self, x: float, y: float) -> Point:
        return (x * self.scale + self.dx, y * self.scale + self.dy)


def canvas(picture: Picture, width: int = WIDTH) -> Canvas:
    """Lay the picture out ``width`` pixels wide (wider, up to ``MAX_WIDTH``, for a map that would
    be too small to read): title, map, legend below it. Every label lies inside the image: a
    label reaching past the sides shrinks the map to fit, one reaching above or below it moves
    the map down or the legend down."""
    left, _, right, _ = picture.bounds()
    span = right - left
    if (width - 2 * MARGIN) / span < ID_SCALE:
        width = max(width, min(MAX_WIDTH, math.ceil(span * ID_SCALE + 2 * MARGIN)))
    scale = min(MAX_SCALE, (width - 2 * MARGIN) / span)
    rise = sink = 0.0
    drawn, texts, map_top, map_bottom = _draw(picture, width, scale, rise, sink)
    for _ in range(4):
        boxes = [text_box(t) for t in texts]
        if not boxes:
            break
        over = max(0.0, -min(b[0] for b in boxes)) + max(0.0, max(b[2] for b in boxes) - width)
        up = max(0.0, map_top - min(b[1] for b in boxes))
        down = max(0.0, max(b[3] for b in boxes) - map_bottom - sink)
        if over == 0 and up == 0 and down == 0:
            break
        if over:
            scale *= 1 - (over + 1) / (span * scale)
        rise, sink = rise + up, sink + down
        drawn, texts, map_top, map_bottom = _draw(picture, width, scale, rise, sink)
    return drawn


def _draw(
    picture: Picture, width: int, scale: float, rise: float, sink: float
) -> tuple[Canvas, list[Text], float, float]:
    """The canvas at this scale, the map's labels, the title's bottom and the map's bottom (the
    map is drawn ``rise`` pixels below the title, the legend ``sink`` pixels below the map, to
    make room for labels)."""
    left, top, right, bottom = picture.bounds()
    title_height = MARGIN + TITLE_SIZE + 6 + (SUBTITLE_SIZE + 6 if picture.subtitle else 0)
    map_width = (right - left) * scale
    frame = Frame(
        scale=scale, dx=(width - map_width) / 2 - left * scale, dy=title_height + rise - top * scale
    )
    map_bottom = title_height + rise + (bottom - top) * scale
    legend, legend_height = _legend(picture.legend, width, map_bottom + sink + 10, picture.label_colour)
    height = math.ceil(map_bottom + sink + 10 + legend_height + MARGIN)
    out = Canvas(width=width, height=height, background=picture.background)
    out.shapes += _title(picture, width)
    out.shapes += _cells(picture, frame)
    # Labels after every marker, so no marker covers a name; ids under everything, and left
    # out where a name's plate would cut them (the SVG's tooltip still has them).
    labels = [t for m in picture.markers if (t := _label(m, frame, picture.label_colour))]
    if frame.scale < ID_SCALE:
        labels += _ruler(picture.ruler, frame)
    plates = [text_box(t) for t in labels]
    ids = [t for t, key in _cell_ids(picture.cells, frame) if key or not _covered(text_box(t), plates)]
    out.shapes += ids
    out.shapes += [_line(line.a, line.b, line.colour, line.width, frame) for line in picture.lines]
    for arrow in picture.arrows:
        out.shapes += _arrow(arrow, frame)
    for marker in picture.markers:
        out.shapes.append(_marker(marker, frame))
    out.shapes += labels
    out.shapes += legend
    return out, [*ids, *labels], title_height, map_bottom


def text_box(text: Text) -> Box:
    """``(left, top, right, bottom)`` of a text as drawn, its plate included."""
    anchor, offset = _SVG_ANCHOR[text.anchor]
    width = fonts.text_width(text.text, text.size, bold=text.bold)
    baseline = text.y + offset * text.size
    left = text.x - width * _ANCHOR_SHARE[anchor] - PLATE_PAD
    return (
        left,
        baseline - PLATE_ASCENT * text.size,
        left + width + 2 * PLATE_PAD,
        baseline + PLATE_DESCENT * text.size,
    )


Box = tuple[float, float, float, float]


def _covered(box: Box, plates: Sequence[Box]) -> bool:
    return any(box[0] < p[2] and p[0] < box[2] and box[1] < p[3] and p[1] < box[3] for p in plates)


def _cell_ids(cells: Sequence[Cell], frame: Frame) -> list[tuple[Text, bool]]:
    """Each cell's id, small and light, in the top of the cell, and whether the cell is a key
    one: every cell's when they fit, else only the key cells' (stars)."""
    every = frame.scale >= ID_SCALE
    return [
        (Text(x, y - ID_RISE * frame.scale, cell.label, ID_SIZE, ID_COLOUR, "middle", halo=False), cell.key)
        for cell in cells
        if cell.label and (every or cell.key)
        for x, y in (frame.at(cell.x, cell.y),)
    ]


def _ruler(marks: Sequence[RulerMark], frame: Frame) -> list[Text]:
    """The edge cells' ids outside the board, leaving out a mark that would overlap the last one."""
    shown: list[Text] = []
    last: dict[str, Box] = {}
    for mark in marks:
        x, y = frame.at(mark.x, mark.y)
        if mark.side == "above":
            text = Text(x, y - 0.87 * frame.scale - 2, mark.text, ID_SIZE, ID_COLOUR, "bottom", halo=False)
        else:
            text = Text(x - frame.scale - 2, y, mark.text, ID_SIZE, ID_COLOUR, "right", halo=False)
        box = text_box(text)
        before = last.get(mark.side)
        if before is not None and box[0] < before[2] and box[1] < before[3] and before[1] < box[3]:
            continue
        last[mark.side] = box
        shown.append(text)
    return shown


def _title(picture: Picture, width: int) -> list[Shape]:
    shapes: list[Shape] = [
        Text(
            MARGIN, MARGIN, picture.title, TITLE_SIZE, picture.label_colour, "topleft", bold=True, halo=False
        )
    ]
    if picture.subtitle:
        y = MARGIN + TITLE_SIZE + 6
        shapes.append(Text(MARGIN, y, picture.subtitle, SUBTITLE_SIZE, "#555555", "topleft", halo=False))
    return shapes


def _cells(picture: Picture, frame: Frame) -> list[Shape]:
    by_fill: dict[str, list[Cell]] = defaultdict(list)
    for cell in picture.cells:
        by_fill[cell.fill or picture.cell_colour].append(cell)
    return [
        Hexes(
            centres=tuple(frame.at(c.x, c.y) for c in cells),
            radius=frame.scale,
            fill=fill,
            outline=picture.cell_outline,
            titles=tuple(c.label for c in cells),
        )
        for fill, cells in by_fill.items()
    ]


def _pixels(width: float, frame: Frame) -> int:
    return max(1, round(width * frame.scale))


def _line(a: Point, b: Point, colour: str, width: float, frame: Frame) -> Poly:
    return Poly(
        points=(frame.at(*a), frame.at(*b)),
        fill=None,
        outline=colour,
        width=_pixels(width, frame),
        closed=False,
    )


def _arrow(arrow: Arrow, frame: Frame) -> list[Shape]:
    points = tuple(frame.at(*p) for p in arrow.points)
    width = _pixels(arrow.width, frame)
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = max(7.0, 0.45 * frame.scale)
    # The head's tip stops short of the centre, so it does not sit on the star or fleet there.
    tip = (x1 - ux * 0.3 * frame.scale, y1 - uy * 0.3 * frame.scale)
    back = (tip[0] - ux * head, tip[1] - uy * head)
    wing = (-uy * head * 0.5, ux * head * 0.5)
    shaft = (*points[:-1], back)
    return [
        Poly(points=shaft, fill=None, outline=arrow.colour, width=width, closed=False),
        Poly(
            points=(tip, (back[0] + wing[0], back[1] + wing[1]), (back[0] - wing[0], back[1] - wing[1])),
            fill=arrow.colour,
        ),
    ]


def _shape_points(shape: str, x: float, y: float, r: float) -> tuple[Point, ...]:
    if shape == "star":
        return tuple(
            (x + (r if i % 2 == 0 else r * 0.45) * math.sin(i * math.pi / 5),
             y - (r if i % 2 == 0 else r * 0.45) * math.cos(i * math.pi / 5))
            for i in range(10)
        )  # fmt: skip
    if shape == "square":
        return ((x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r))
    if shape == "diamond":
        return ((x, y - r), (x + r, y), (x, y + r), (x - r, y))
    # triangle, pointing up
    return ((x, y - r), (x + r * 0.9, y + r * 0.7), (x - r * 0.9, y + r * 0.7))


def _marker(marker: Marker, frame: Frame) -> Shape:
    x, y = frame.at(marker.x, marker.y)
    r = max(3.0, marker.size * frame.scale)
    fill = None if marker.hollow else marker.colour
    outline = marker.colour if marker.hollow else marker.outline
    width = 2 if marker.hollow else 1
    if marker.shape == "circle":
        return Circle(x, y, r, fill, outline, width)
    return Poly(_shape_points(marker.shape, x, y, r), fill, outline, width, title=marker.title)


def label_size(frame: Frame) -> int:
    """Label font size for a map scale: about half a hex, never below phone-legible."""
    return int(min(16, max(10, 0.42 * frame.scale)))


def _label(marker: Marker, frame: Frame, colour: str) -> Text | None:
    if not marker.label or (marker.detail and frame.scale < DETAIL_SCALE):
        return None
    x, y = frame.at(marker.x, marker.y)
    gap = max(3.0, (marker.label_gap or marker.size) * frame.scale) + 2
    size = label_size(frame)
    if marker.detail:
        size = max(9, size - 2)
    where = marker.label_at
    if where == "below":
        return Text(x, y + gap, marker.label, size, colour, "top")
    if where == "above":
        return Text(x, y - gap, marker.label, size, colour, "bottom")
    if where == "left":
        return Text(x - gap, y, marker.label, size, colour, "right")
    return Text(x + gap, y, marker.label, size, colour, "left")


def _legend(entries: Sequence[LegendEntry], width: int, top: float, colour: str) -> tuple[list[Shape], float]:
    """Legend keys flowed left to right, wrapping at the image's width."""
    shapes: list[Shape] = []
    x, y = float(MARGIN), top
    line_height = LEGEND_SWATCH + 8
    for entry in entries:
        item_width = LEGEND_SWATCH + 6 + fonts.text_width(entry.label, LEGEND_SIZE) + 18
        if x + item_width > width - MARGIN and x > MARGIN:
            x, y = float(MARGIN), y + line_height
        shapes += _swatch(entry, x, y)
        text_x = x + LEGEND_SWATCH + 6
        shapes.append(
            Text(text_x, y + LEGEND_SWATCH / 2, entry.label, LEGEND_SIZE, colour, "left", halo=False)
        )
        x += item_width
    height = (y - top + line_height) if entries else 0.0
    return shapes, height


def _swatch(entry: LegendEntry, x: float, y: float) -> list[Shape]:
    half = LEGEND_SWATCH / 2
    cx, cy = x + half, y + half
    if entry.symbol == "line":
        return [Poly(((x, cy), (x + LEGEND_SWATCH, cy)), None, entry.colour, 3, closed=False)]
    if entry.symbol == "arrow":
        tip = (x + LEGEND_SWATCH, cy)
        return [
            Poly(((x, cy), (x + LEGEND_SWATCH - 6, cy)), None, entry.colour, 3, closed=False),
            Poly((tip, (tip[0] - 7, cy - 5), (tip[0] - 7, cy + 5)), entry.colour),
        ]
    r = half - 1
    if entry.symbol == "circle":
        return [Circle(cx, cy, r, None if entry.hollow else entry.colour, entry.colour, 2)]
    fill = None if entry.hollow else entry.colour
    outline = entry.colour if entry.hollow else "#5c4a12" if entry.symbol == "star" else None
    return [Poly(_shape_points(entry.symbol, cx, cy, r), fill, outline, 2 if entry.hollow else 1)]


# --- SVG ------------------------------------------------------------------------------------------


def svg_text(drawn: Canvas) -> str:
    """The canvas as SVG text with a ``viewBox``: it scales to any width and zooms cleanly."""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {drawn.width} {drawn.height}" '
        f'width="{drawn.width}" height="{drawn.height}" font-family="{fonts.FAMILY}, Arial, sans-serif">'
    )
    body = [f'<rect width="100%" height="100%" fill="{_attr(drawn.background)}"/>']
    body += (_svg(shape) for shape in drawn.shapes)
    return "\n".join([head, *body, "</svg>", ""])


def _n(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _attr(value: str) -> str:
    return escape(value, quote=True)


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


_SVG_ANCHOR: dict[Anchor, tuple[str, float]] = {
    # (text-anchor, baseline offset in font sizes): not every viewer knows dominant-baseline.
    "top": ("middle", 0.8),
    "bottom": ("middle", -0.2),
    "left": ("start", 0.35),
    "right": ("end", 0.35),
    "middle": ("middle", 0.35),
    "topleft": ("start", 0.8),
}


def _hex_corners(x: float, y: float, r: float) -> list[Point]:
    h = r * 0.8660254037844386
    return [
        (x + r, y),
        (x + r / 2, y + h),
        (x - r / 2, y + h),
        (x - r, y),
        (x - r / 2, y - h),
        (x + r / 2, y - h),
    ]


def _svg(shape: Shape) -> str:
    if isinstance(shape, Hexes):
        # One path per cell, so that each shows its id on hover (its <title>). Crisp, not
        # anti-aliased: a grid of hairlines in blended shades would be most of the PNG's bytes.
        paths = "".join(
            '<path d="M'
            + "L".join(f"{_n(x)},{_n(y)}" for x, y in _hex_corners(cx, cy, shape.radius))
            + (f'Z"><title>{escape(title)}</title></path>' if title else 'Z"/>')
            for (cx, cy), title in zip(shape.centres, shape.titles or ("",) * len(shape.centres), strict=True)
        )
        return (
            f'<g fill="{_attr(shape.fill)}" stroke="{_attr(shape.outline)}" shape-rendering="crispEdges">'
            f"{paths}</g>"
        )
    if isinstance(shape, Poly):
        fill = _attr(shape.fill) if shape.fill else "none"
        stroke = (
            f' stroke="{_attr(shape.outline)}" stroke-width="{shape.width}" stroke-linejoin="round"'
            if shape.outline
            else ""
        )
        tag = "polygon" if shape.closed else "polyline"
        title = f"<title>{escape(shape.title)}</title>" if shape.title else ""
        end = f">{title}</{tag}>" if title else "/>"
        return f'<{tag} points="{_points(shape.points)}" fill="{fill}"{stroke}{end}'
    if isinstance(shape, Circle):
        fill = _attr(shape.fill) if shape.fill else "none"
        stroke = f' stroke="{_attr(shape.outline)}" stroke-width="{shape.width}"' if shape.outline else ""
        return f'<circle cx="{_n(shape.x)}" cy="{_n(shape.y)}" r="{_n(shape.r)}" fill="{fill}"{stroke}/>'
    anchor, offset = _SVG_ANCHOR[shape.anchor]
    baseline = shape.y + offset * shape.size
    weight = ' font-weight="bold"' if shape.bold else ""
    text = (
        f'<text x="{_n(shape.x)}" y="{_n(baseline)}" font-size="{shape.size}" '
        f'text-anchor="{anchor}" fill="{_attr(shape.colour)}"{weight}>{escape(shape.text)}</text>'
    )
    return _plate(shape, anchor, baseline) + text if shape.halo else text


def _plate(shape: Text, anchor: str, baseline: float) -> str:
    """A white plate behind a label, so warplines and the grid do not cross its letters: it
    reads as well as a stroked outline round the glyphs, which costs more to draw and encode."""
    width = fonts.text_width(shape.text, shape.size, bold=shape.bold)
    left = shape.x - width * _ANCHOR_SHARE[anchor] - PLATE_PAD
    return (
        f'<rect x="{_n(left)}" y="{_n(baseline - PLATE_ASCENT * shape.size)}" '
        f'width="{_n(width + 2 * PLATE_PAD)}" height="{_n((PLATE_ASCENT + PLATE_DESCENT) * shape.size)}" '
        f'fill="{HALO}" shape-rendering="crispEdges"/>'
    )


_ANCHOR_SHARE = {"start": 0.0, "middle": 0.5, "end": 1.0}
"""How much of a text's width lies left of its x, by text-anchor."""


# --- PNG ------------------------------------------------------------------------------------------


PNG_CACHE = 16
"""PNGs kept in a process, the most recently used: a step's mails in the largest game, twice
over (a PNG is 50 to 500 KB, so at most a few MB)."""
_pngs: OrderedDict[bytes, bytes] = OrderedDict()
"""PNG by the SHA-256 of its SVG, least recently used first."""
_pngs_lock = threading.Lock()
"""moto's Step Functions interpreter (the local mode) may run a workflow's games in threads."""


def png_bytes(svg: str) -> bytes:
    """The SVG rendered as a PNG of its own size, in the bundled fonts only. Rendered once per
    distinct SVG in a process (``PNG_CACHE``): the PNG is ~95 % of a report's time, and a
    report rendered again (a retry, a replay finishing an earlier attempt's mails) draws the
    same picture. The key is the SVG's content, so the bytes are the same as drawing it anew."""
    key = hashlib.sha256(svg.encode()).digest()
    with _pngs_lock:
        png = _pngs.get(key)
        if png is not None:
            _pngs.move_to_end(key)
            return png
    png = draw_png(svg)
    with _pngs_lock:
        _pngs[key] = png
        while len(_pngs) > PNG_CACHE:
            _pngs.popitem(last=False)
    return png


def draw_png(svg: str) -> bytes:
    """The SVG drawn by resvg, every time (``png_bytes`` keeps what it drew)."""
    return resvg_py.svg_to_bytes(
        svg_string=svg,
        skip_system_fonts=True,
        font_files=[str(path) for path in fonts.FILES],
        font_family=fonts.FAMILY,
        sans_serif_family=fonts.FAMILY,
    )
