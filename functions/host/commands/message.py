"""MESSAGE: a message to other players, relayed by the host from the game's address."""

from __future__ import annotations

from engine.games import GAME_NAMES
from functions.host.commands.reading import Command, code_and_args, message_text
from functions.host.received import DAY, REFUSALS, Inbound, InboundOutcome, Limit
from functions.mail.codes import code_matches
from functions.mail.compose import OutgoingMail
from functions.render.notice import render_host
from functions.store import GameRecord, PlayerRecord

ALL = "ALL"
RELAYED = "MESSAGE relayed to {names}"
NO_RECIPIENT = "MESSAGE to {written}: no such player"
NOTHING_TO_RELAY = "MESSAGE without text"
MESSAGE_CODE = "MESSAGE without the right secret code"
TOO_MANY = "MESSAGE not relayed: {most} {per} already"

MESSAGES = Limit("message", 10, DAY, "a day")
"""MESSAGEs one player may have relayed in a day (each to one player or to ALL): diplomacy by
mail is a few letters a day; ten a day to ALL of an 8-seat game is already 70 mails."""
RELAYS_RECEIVED = Limit("relayed", 20, DAY, "a day")
"""Relayed messages one address gets in a day, from every sender together: no one, nor a
group of players, can bury a player's mailbox (the rest are not relayed, and the sender is told)."""


# --- MESSAGE ---


def relay_message(mail: Inbound, command: Command, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """A message to other players, relayed by the host from the game's address with the
    sender's player name (Star Fleet Warlord rulebook, 9.7 "Send a Subspace Message": to one
    player or to ALL)."""
    text = message_text(command.below)[0]
    code, args = code_and_args(command)
    if code is None or not code_matches(code, player.code_hash):
        mail.notice(player.address, NOT_SENT, [MESSAGE_NEEDS_CODE], game=game, player=player, limit=REFUSALS)
        return mail.rejected(MESSAGE_CODE, game, player, command="MESSAGE")
    written = " ".join(args)
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
    if not mail.allowed(MESSAGES, f"{game.game_id}/{player.player_id}", player.address, game.game_id):
        paragraph = MESSAGE_TOO_MANY.format(most=MESSAGES.most)
        mail.notice(player.address, NOT_SENT, [paragraph], game=game, player=player, limit=REFUSALS)
        reason = TOO_MANY.format(most=MESSAGES.most, per=MESSAGES.per)
        return mail.rejected(reason, game, player, command="MESSAGE")
    to_all = written.upper() == ALL
    full = [p for p in to if not mail.allowed(RELAYS_RECEIVED, p.address, p.address, game.game_id)]
    to = [p for p in to if p not in full]
    for recipient in to:
        _relay(mail, game, player, recipient, text, to_all)
    names = ", ".join(p.name for p in to) or "nobody"
    paragraphs = [MESSAGE_SENT.format(names=names)] if to else []
    if full:
        missed = ", ".join(p.name for p in full)
        paragraphs.insert(0, MESSAGE_FULL.format(names=missed, most=RELAYS_RECEIVED.most))
    title = "Your message was sent" if to else NOT_SENT
    mail.notice(player.address, title, paragraphs, text, game, player)
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
            game_name=GAME_NAMES[game.game],
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
MESSAGE_FULL = (
    "Not relayed to {names}: a player gets at most {most} relayed messages a day, and that many "
    "have reached them today. Send it again tomorrow if it still matters."
)
MESSAGE_TOO_MANY = (
    "Your message was not sent: a player may have at most {most} messages relayed a day, and you "
    "have sent that many today. Send it again tomorrow."
)
