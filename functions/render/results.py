"""A player's results of a step, as the game describes them (engine/core/turnhost.py
``Results``), rendered with the game's own templates (``functions/templates/<game key>/``) into
what the host mails: the text and HTML report, the map (PNG inline as ``cid:map``, SVG
attached), the report as JSON, and the game's pages (a finished game's replay).

The host names no game here: the key chooses the templates, the game's models fill them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.core.picture import Picture
from engine.core.turnhost import Page, Results
from functions.mail.compose import Attachment, MailKind
from functions.render.jinja import TEMPLATES, render
from functions.render.mapimage import canvas, svg_text
from functions.render.report import MAP_CONTENT_ID, render_report


@dataclass(frozen=True)
class Rendered:
    """One player's results, ready to mail: the subject (without the game prefix), the text and
    HTML bodies, and the files (an inline image has a ``content_id``)."""

    subject: str
    text: str
    html: str | None
    files: tuple[Attachment, ...]
    game_name: str
    kind: MailKind = "results"


def render_results(game: str, results: Results, templates: Path = TEMPLATES) -> Rendered:
    """Game ``game``'s ``results`` for a player as the mail's bodies and files."""
    rendered = render_report(game, results.report, results.picture, templates)
    stem = results.stem
    drawn = (
        ()
        if results.picture is None
        else (
            Attachment(
                filename="map.png", content_type="image/png", data=rendered.png, content_id=MAP_CONTENT_ID
            ),
            Attachment(filename=f"{stem}-map.svg", content_type="image/svg+xml", data=rendered.svg.encode()),
        )
    )
    data = Attachment(filename=f"{stem}.json", content_type="application/json", data=rendered.json.encode())
    pages = tuple(render_page(game, page, templates) for page in results.pages)
    return Rendered(
        subject=results.subject,
        text=rendered.text,
        html=rendered.html,
        files=(*drawn, data, *pages),
        game_name=results.game_name,
        kind=results.kind,
    )


MAP_BYTES = 4_000_000
"""The maps of one page at most (a replay: about 50 game-turns of WarpWar's classic map, 80 KB
each, far fewer of a large generated one). Past it the earliest maps are left out: the final
mail must stay under the outgoing cap (10 MB, functions/mail/compose.py), over which it would
lose every attachment, its own map too."""


def render_page(game: str, page: Page, templates: Path = TEMPLATES, map_bytes: int = MAP_BYTES) -> Attachment:
    """Game ``game``'s ``page`` rendered from its template with the model as ``page``, as a file.
    The template draws maps with ``svg_maps(pictures)`` (each picture's SVG, the earliest left
    out as "" past ``map_bytes``) and may say the cap as ``megabytes``."""

    def svg_maps(pictures: Sequence[Picture]) -> list[str]:
        return _capped([svg_text(canvas(picture)) for picture in pictures], map_bytes)

    html = render(
        f"{game}/{page.template}",
        templates,
        page=page.model,
        svg_maps=svg_maps,
        megabytes=f"{map_bytes / 1_000_000:g}",
    )
    return Attachment(filename=page.filename, content_type=page.content_type, data=html.encode())


def _capped(maps: list[str], map_bytes: int) -> list[str]:
    """``maps`` within ``map_bytes`` in all: the earliest left out ("") until the rest fit."""
    total = sum(len(svg) for svg in maps)
    kept = list(maps)
    for index, svg in enumerate(kept):
        if total <= map_bytes:
            break
        total -= len(svg)
        kept[index] = ""
    return kept
