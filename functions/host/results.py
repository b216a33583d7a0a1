"""Every player's results mail, whatever the game: how a game's rendered results become the mail
sent (``results_mail``), and the deadlines a player is told (``deadlines_for``).

The game (engine/core/turnhost.py ``TurnGame``) decides what its players wait for, plays a step
and describes each player's results; functions/render/results.py renders them with the game's
templates; the host only schedules, stores, and addresses the mail. Deadlines reach the game as
text already in the player's own time zone.
"""

from __future__ import annotations

from engine.core.turnhost import Deadlines
from functions.host.deadlines import deadline_attachments, deadline_text
from functions.mail.compose import OutgoingMail
from functions.render.results import Rendered
from functions.store.records import GameRecord, PlayerRecord


def results_mail(game: GameRecord, player: PlayerRecord, rendered: Rendered) -> OutgoingMail:
    """The player's results as a mail, with the game's turn deadline as a calendar file."""
    return OutgoingMail(
        to=player.address,
        subject=rendered.subject,
        text=rendered.text,
        html=rendered.html,
        attachments=rendered.files + deadline_attachments(game, player),
        game_id=game.game_id,
        player_id=player.player_id,
        kind=rendered.kind,
        game_name=rendered.game_name,
    )


def deadlines_for(game: GameRecord, player: PlayerRecord) -> Deadlines:
    return Deadlines(
        turn=deadline_text(game.deadline, player.timezone),
        round=deadline_text(game.round_deadline, player.timezone),
    )
