"""The acknowledgement renderer of each game hosted by mail, chosen by the game's key.

Each renderer imports its game's templates code when first called, as the game itself is loaded
(engine/games.py): a mail that never reaches a game does not load it."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

AckRenderer = Callable[[BaseModel], tuple[str, str]]


def _render_warpwar_ack(ack: BaseModel) -> tuple[str, str]:
    from engine.warpwar.lang.ack import Acknowledgement
    from functions.render.ack import render_ack

    assert isinstance(ack, Acknowledgement)  # WarpWar's mailgame acknowledges with its own model
    return render_ack(ack)


ACK_RENDERERS: dict[str, AckRenderer] = {"warpwar": _render_warpwar_ack}


def render_game_ack(game: str, ack: BaseModel) -> tuple[str, str]:
    """(plain text, HTML) of game ``game``'s acknowledgement ``ack``."""
    return ACK_RENDERERS[game](ack)
