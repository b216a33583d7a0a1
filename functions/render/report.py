"""Render a player's report in every format: plain text, HTML, the map as PNG and SVG, JSON.

The words and layout live in the templates ``warpwar/report.txt`` and ``warpwar/report.html``
(a GM may restyle copies: pass their folder as ``templates``). The HTML shows the map as
``cid:map``: the mail pipeline attaches the PNG inline with ``Content-ID: <map>``. Everything a
player or a GM wrote (names, game ids) reaches the HTML only through autoescaping, and the text
report only as literal text.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

from engine.core.picture import Picture
from engine.warpwar.report import Report
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


def render_report(report: Report, picture: Picture, templates: Path = TEMPLATES) -> RenderedReport:
    drawn = canvas(picture)
    svg = svg_text(drawn)
    return RenderedReport(
        text=render("warpwar/report.txt", templates, report=report, row=row, wrap=wrap, width=TEXT_WIDTH),
        html=render(
            "warpwar/report.html",
            templates,
            report=report,
            map_src=f"cid:{MAP_CONTENT_ID}",
            map_width=drawn.width,
            map_height=drawn.height,
        ),
        png=png_bytes(svg),
        svg=svg,
        json=report.model_dump_json(indent=2),
    )


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
