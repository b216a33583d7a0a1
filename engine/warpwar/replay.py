"""A finished game's replay as data: every game-turn's map (the fog of war lifted, that turn's
moves drawn) and what happened in it, for the page the host attaches to the final mail
(rendered with the template ``warpwar/replay.html``)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from engine.core.picture import Picture
from engine.warpwar.narrate import narrate
from engine.warpwar.standings import Frame, Standings, final_picture


class ReplayTurn(BaseModel):
    """One game-turn as the page shows it: its map and its events in the rules' words."""

    model_config = ConfigDict(frozen=True)

    turn: int
    picture: Picture
    lines: tuple[str, ...]


class Replay(BaseModel):
    """``player``'s replay of game ``game_id``: how it ended, and every game-turn in order."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    player: str
    standings: Standings
    turns: tuple[ReplayTurn, ...]


def replay(game_id: str, player: str, standings: Standings, frames: Sequence[Frame]) -> Replay:
    """The replay of the game cut into ``frames``, as ``player`` sees it (their ships in their
    colour)."""
    return Replay(
        game_id=game_id,
        player=player,
        standings=standings,
        turns=tuple(
            ReplayTurn(
                turn=frame.turn, picture=_picture(game_id, player, frame), lines=tuple(narrate(frame.events))
            )
            for frame in frames
        ),
    )


def _picture(game_id: str, player: str, frame: Frame) -> Picture:
    """The map of a game-turn, titled with it: its state is often the next turn's first moment
    (the step that ended a game-turn began the next one's)."""
    picture = final_picture(frame.state, player, frame.events)
    return picture.model_copy(update={"title": f"{game_id}: the end of turn {frame.turn}"})
