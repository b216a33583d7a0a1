"""A finished game's replay: one self-contained HTML page (attached to the final mail) that
steps through every game-turn, the map of each (inline SVG, the fog of war lifted) above what
happened in it.

Nothing is fetched from the network: the maps are inline SVG, the style and the few lines of
script that show one turn at a time (previous / next, or the arrow keys) are in the page.
Without script every turn is shown, one below the other. The words and layout are in the
template ``warpwar/replay.html`` (restylable as the reports are).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.core.picture import Picture
from engine.warpwar.narrate import narrate
from engine.warpwar.standings import Frame, Standings, final_picture
from functions.render.jinja import TEMPLATES, render
from functions.render.mapimage import canvas, svg_text


@dataclass(frozen=True)
class ReplayTurn:
    """One game-turn as the page shows it."""

    turn: int
    svg: str
    lines: tuple[str, ...]


MAP_BYTES = 4_000_000
"""The maps of one replay at most: about 50 game-turns of the classic map (80 KB each), far
fewer of a large generated one. Past it the earliest turns' maps are left out (their events
stay): the final mail must stay under the outgoing cap (10 MB, functions/mail/compose.py), over
which it would lose every attachment, its own map too."""


def render_replay(
    game_id: str,
    player: str,
    standings: Standings,
    turns: Sequence[Frame],
    templates: Path = TEMPLATES,
    map_bytes: int = MAP_BYTES,
) -> str:
    """``player``'s replay of game ``game_id`` (their own ships in their colour) as HTML, its
    maps ``map_bytes`` at most (the latest turns' kept)."""
    maps = [svg_text(canvas(_picture(game_id, player, frame))) for frame in turns]
    total = sum(len(svg) for svg in maps)
    for index, svg in enumerate(maps):
        if total <= map_bytes:
            break
        total -= len(svg)
        maps[index] = ""
    shown = [
        ReplayTurn(turn=frame.turn, svg=svg, lines=tuple(narrate(frame.events)))
        for frame, svg in zip(turns, maps, strict=True)
    ]
    return render(
        "warpwar/replay.html",
        templates,
        game_id=game_id,
        standings=standings,
        turns=shown,
        megabytes=f"{map_bytes / 1_000_000:g}",
    )


def _picture(game_id: str, player: str, frame: Frame) -> Picture:
    """The map of a game-turn, titled with it: its state is often the next turn's first moment
    (the step that ended a game-turn began the next one's)."""
    picture = final_picture(frame.state, player, frame.events)
    return picture.model_copy(update={"title": f"{game_id}: the end of turn {frame.turn}"})
