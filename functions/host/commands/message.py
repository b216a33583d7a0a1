"""MESSAGE: a message to other players, relayed by the host from the game's address."""

from __future__ import annotations

from functions.host.commands.reading import Command, message_text
from functions.host.received import Inbound, InboundOutcome
from functions.mail.codes import code_matches
from functions.mail.compose import OutgoingMail
from functions.render.notice import render_host
from functions.store import GameRecord, PlayerRecord

ALL = "ALL"
RELAYED = "MESSAGE relayed to {names}"
NO_RECIPIENT = "MESSAGE to {written}: no such player"
NOTHING_TO_RELAY = "MESSAGE without text"
MESSAGE_CODE = "MESSAGE without the right secret code"


# --- MESSAGE ---


def relay_message(mail: Inbound, command: Command, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """A message to other players, relayed by the host from the game's address with the
    sender's player name (Star Fleet Warlord rulebook, 9.7 "Send a Subspace Message": to one
    player or to ALL)."""
    text, code = message_text(command.below)
    if code is None or not code_matches(code, player.code_hash):
        mail.notice(
            player.address, "Your message was not sent", [MESSAGE_NEEDS_CODE], game=game, player=player
        )
        return mail.rejected(MESSAGE_CODE, game, player, command="MESSAGE")
    written = " ".join(command.args)
    others = [p for p in mail.store.players(game.game_id) if p.player_id != player.player_id]
    others = [p for p in others if p.role == "player"]
    if written.upper() == ALL:
        to = [p for p in others if p.robot is None]
    else:
        to = [p for p in others if written.lower() in {p.player_id.lower(), p.name.lower()}]
    if not to or not text:
        names = ", ".join(f"{p.name} ({p.player_id})" for p in others) or "none"
        why = MESSAGE_NO_TEXT if to else MESSAGE_NO_RECIPIENT.format(written=written, names=names)
        mail.notice(player.address, NOT_SENT, [why], game=game, player=player)
        reason = NOTHING_TO_RELAY if to else NO_RECIPIENT.format(written=written)
        return mail.rejected(reason, game, player, command="MESSAGE")
    to_all = written.upper() == ALL
    for recipient in to:
        _relay(mail, game, player, recipient, text, to_all)
    names = ", ".join(p.name for p in to)
    mail.notice(
        player.address, "Your message was sent", [MESSAGE_SENT.format(names=names)], text, game, player
    )
    mail.log("in", mail.address, game.game_id, RELAYED.format(names=names))
    return mail.outcome("command", RELAYED.format(names=names), game, player, command="MESSAGE")


def _relay(
    mail: Inbound, game: GameRecord, sender: PlayerRecord, recipient: PlayerRecord, text: str, to_all: bool
) -> None:
    context = {
        "game_id": game.game_id,
        "sender": sender.name,
        "sender_id": sender.player_id,
        "to_all": to_all,
        "text": text,
    }
    relay_text, relay_html = render_host("relay", context)
    subject = f"Message from {sender.name}" + (" to all players" if to_all else "")
    mail.send(
        OutgoingMail(
            to=recipient.address,
            subject=subject,
            text=relay_text,
            html=relay_html,
            game_id=game.game_id,
            player_id=recipient.player_id,
            kind="relay",
        )
    )


NOT_SENT = "Your message was not sent"
MESSAGE_NEEDS_CODE = (
    "A message relayed in your name needs your secret code: write MESSAGE <player or ALL> on the "
    "first line, then a line CODE <your code>, then your text. The CODE line is not relayed."
)
MESSAGE_NO_TEXT = "Your message has no text: write it below the MESSAGE line."
MESSAGE_NO_RECIPIENT = (
    'There is no other player "{written}" in this game. Write MESSAGE ALL, or MESSAGE and the id or '
    "name of one of: {names}."
)
MESSAGE_SENT = "Your message was relayed to {names}, signed with your player name. This is what they read:"
