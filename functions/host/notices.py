"""A game's short notice as a mail: the host's words (functions/render/notice.py) addressed to
one person, under the game's own name (engine/games.py ``GAME_NAMES``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.games import GAME_NAMES
from functions.mail.compose import Attachment, OutgoingMail
from functions.render.notice import render_notice
from functions.store.records import GameRecord


def game_notice(
    game: GameRecord,
    to: str,
    title: str,
    paragraphs: Sequence[str],
    block: str | None = None,
    player_id: str | None = None,
    attachments: tuple[Attachment, ...] = (),
    from_gm: bool = False,
) -> OutgoingMail:
    """``paragraphs`` (and a preformatted ``block``) under ``title``, to ``to`` about ``game``;
    ``player_id``: the player it is for, if any; ``from_gm``: marked as the GM's message, with
    the GM's address to answer to when the game has one."""
    gm_of = game.game_id if from_gm else None
    text, html = render_notice(title, paragraphs, block, gm_of=gm_of, gm_address=game.gm_address)
    return OutgoingMail(
        to=to,
        subject=title,
        text=text,
        html=html,
        attachments=attachments,
        game_id=game.game_id,
        game_name=GAME_NAMES[game.game],
        player_id=player_id,
        kind="notice",
    )
