"""Render a player's report in every format: plain text, HTML, the map as PNG and SVG, JSON.

The words and layout live in the game's templates ``<game key>/report.txt`` and
``<game key>/report.html`` (a GM may restyle copies: pass their folder as ``templates``); the
report is the game's own model (WarpWar's: engine/warpwar/report.py), given to both as
``report``. The HTML shows the map as ``cid:map``: the mail pipeline attaches the PNG inline
with ``Content-ID: <map>``. Everything a player or a GM wrote (names, game ids) reaches the HTML
only through autoescaping, and the text report only as literal text.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from engine.core.picture import Picture
from functions.render.jinja import TEMPLATES, render
from functions.render.mapimage import canvas, png_bytes, svg_text

MAP_CONTENT_ID = "map"
TEXT_WIDTH = 78


@dataclass(frozen=True)
class RenderedReport:
    text: str
    html: str
    png: bytes
    svg: str
    json: str
    map_content_id: str = MAP_CONTENT_ID


def render_report(
    game: str, report: BaseModel, picture: Picture | None, templates: Path = TEMPLATES
) -> RenderedReport:
    """Game ``game``'s ``report`` in every format, with ``picture`` as its map (None: a report
    without a map; ``map_src`` is None then, and ``png`` and ``svg`` are empty)."""
    text = render(f"{game}/report.txt", templates, report=report, row=row, wrap=wrap, width=TEXT_WIDTH)
    json = report.model_dump_json(indent=2)
    if picture is None:
        html = render(
            f"{game}/report.html", templates, report=report, map_src=None, map_width=0, map_height=0
        )
        return RenderedReport(text=text, html=html, png=b"", svg="", json=json)
    drawn = canvas(picture)
    svg = svg_text(drawn)
    html = render(
        f"{game}/report.html",
        templates,
        report=report,
        map_src=f"cid:{MAP_CONTENT_ID}",
        map_width=drawn.width,
        map_height=drawn.height,
    )
    return RenderedReport(text=text, html=html, png=png_bytes(svg), svg=svg, json=json)


def row(widths: tuple[int, ...], *cells: object) -> str:
    """One fixed-width table row: a positive width pads on the right (text), a negative one
    on the left (numbers). A cell longer than its column pushes the rest along."""
    parts = [
        str(cell).rjust(-width) if width < 0 else str(cell).ljust(width)
        for width, cell in zip(widths, cells, strict=False)
    ]
    return " ".join(parts).rstrip()


def wrap(text: str, indent: int = 0, width: int = TEXT_WIDTH) -> str:
    """``text`` wrapped to ``width`` columns; its own leading spaces are kept, and the lines
    after the first are indented ``indent`` more."""
    lead = len(text) - len(text.lstrip(" "))
    return textwrap.fill(
        text.strip(),
        width=width,
        initial_indent=" " * lead,
        subsequent_indent=" " * (lead + indent),
        break_long_words=False,
        break_on_hyphens=False,
    )
