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


def render_replay(
    game_id: str, player: str, standings: Standings, turns: Sequence[Frame], templates: Path = TEMPLATES
) -> str:
    """``player``'s replay of game ``game_id`` (their own ships in their colour) as HTML."""
    shown = [
        ReplayTurn(
            turn=frame.turn,
            svg=svg_text(canvas(_picture(game_id, player, frame))),
            lines=tuple(narrate(frame.events)),
        )
        for frame in turns
    ]
    return render("warpwar/replay.html", templates, game_id=game_id, standings=standings, turns=shown)


def _picture(game_id: str, player: str, frame: Frame) -> Picture:
    """The map of a game-turn, titled with it: its state is often the next turn's first moment
    (the step that ended a game-turn began the next one's)."""
    picture = final_picture(frame.state, player, frame.events)
    return picture.model_copy(update={"title": f"{game_id}: the end of turn {frame.turn}"})
