"""An order mail: the game and player it is from, authenticated (sender checks, secret code, seat),
read by the game, stored and acknowledged."""

from __future__ import annotations

from typing import Literal

from engine.core.mailgame import Earlier, MailGame
from engine.core.orderblock import Header, find_block
from engine.games import MAIL_GAMES
from functions.host.deadlines import deadline_attachments, deadline_text, own_deadline
from functions.host.received import REFUSALS, Inbound, InboundOutcome, InboundStore, redact_codes
from functions.mail.codes import code_matches
from functions.mail.identity import sent_at
from functions.render.acks import render_game_ack
from functions.store import GameRecord, NewSubmission, PlayerRecord

MAX_STORED_BODY = 64 * 1024
"""Characters of a mail's text kept with its submission: a DynamoDB item holds 400 KB at most, and
the whole mail stays in S3 (the mail log has its key). The secret code is never kept: its line
reads ``CODE [removed]`` (``redact_codes``)."""

# Every reason the mail log can give for an order mail refused (each pinned by a test).
NO_GAME = "no game named"
UNKNOWN_GAME = "no game {game_id}"
UNKNOWN_SENDER = "{address} is not a player of game {game_id}"
WHICH_PLAYER = "{address} plays several sides of game {game_id}: no PLAYER line names one"
NO_CODE = "no secret code"
WRONG_CODE = "wrong secret code"
NOT_STARTED = "game {game_id} has not started"
NO_SEAT = "{player_id} holds no seat ({role})"
NOT_HOSTED = "game {game_id} is a {game}, which this host does not play by mail"
EARLIER_TURN = "orders without TURN written before turn {turn} began"


def read_orders(mail: Inbound, body: str | None = None) -> InboundOutcome:
    """An order mail: authenticate, let the game read it, store what it accepts, acknowledge.
    ``body`` replaces the mail's text (a CHECK command's orders, marked CHECK)."""
    text = mail.body.text if body is None else body
    header = find_block(text).header
    found = _sender_in_game(mail, header)
    if isinstance(found, InboundOutcome):
        return found
    game, state_json, player = found
    untrusted = mail.untrusted
    if untrusted is not None:
        paragraph = NOTICE_UNTRUSTED.format(game_id=game.game_id)
        return _refused(mail, "Your mail was not accepted", paragraph, untrusted, game, player)
    refused = _code_refused(header, player)
    if refused is not None:
        paragraph = NOTICE_CODE.format(game_id=game.game_id, what=refused)
        return _refused(mail, "Your orders were not accepted", paragraph, refused, game, player)
    if player.role != "player":
        notice = NOTICE_STANDBY if player.role == "standby" else NOTICE_REMOVED
        paragraph = notice.format(game_id=game.game_id, player_id=player.player_id)
        reason = NO_SEAT.format(player_id=player.player_id, role=player.role)
        return _refused(mail, "Your orders were not accepted", paragraph, reason, game, player)
    if game.status == "open":
        paragraph = NOTICE_NOT_STARTED.format(game_id=game.game_id)
        reason = NOT_STARTED.format(game_id=game.game_id)
        return _refused(mail, "The game has not started", paragraph, reason, game, player)
    mailgame = MAIL_GAMES.get(game.game)
    if mailgame is None:
        return mail.rejected(NOT_HOSTED.format(game_id=game.game_id, game=game.game), game, player)
    written = sent_at(mail.message, mail.now)
    if header.turn is None and not header.check and game.opened_at is not None and written < game.opened_at:
        # Without TURN, orders are for the turn current when they were written: these were
        # written for an earlier one (a mail held up on its way, or resent from the outbox).
        paragraphs = [NOTICE_EARLIER.format(game_id=game.game_id, turn=game.turn)]
        mail.notice(player.address, "Your orders were not accepted", paragraphs, game=game, player=player)
        return mail.rejected(EARLIER_TURN.format(turn=game.turn), game, player)
    return _acknowledge(mail, mailgame, game, state_json, player, text)


def _refused(
    mail: Inbound, title: str, paragraph: str, reason: str, game: GameRecord, player: PlayerRecord
) -> InboundOutcome:
    """The mail refused: the player told at the registered address (``REFUSALS`` a day at most)."""
    mail.notice(player.address, title, [paragraph], game=game, player=player, limit=REFUSALS)
    return mail.rejected(reason, game, player)


def _sender_in_game(mail: Inbound, header: Header) -> tuple[GameRecord, str, PlayerRecord] | InboundOutcome:
    """The game (its record and state) and the sender's player in it. The game's record comes
    with its state, in one read: the one lookup before it is the sender's address."""
    game_id = mail.recipient_game or (header.game.lower() if header.game else None)
    mine = _players_at(mail, game_id, header.player) if game_id is not None else []
    if game_id is None or len(mine) != 1:
        game = find_game(mail, header.game)
        if isinstance(game, InboundOutcome):
            return game
        player = find_player(mail, game, header.player)
        if isinstance(player, InboundOutcome):
            return player
        mine = [player]
    game, state_json = mail.store.state(mine[0].game_id)
    return game, state_json, mine[0]


def _players_at(mail: Inbound, game_id: str, written: str | None) -> list[PlayerRecord]:
    """The sender's players in the game; ``written`` (a PLAYER line) picks one of several. A
    removed record counts only when the address has no other (a standby given a seat keeps
    its removed standby record beside the seat)."""
    found = [p for p in mail.sender_players if p.game_id == game_id]
    mine = [p for p in found if p.role != "removed"] or found
    if written is not None and len(mine) > 1:
        mine = [p for p in mine if written.lower() in {p.player_id.lower(), p.name.lower()}]
    return mine


def _acknowledge(
    mail: Inbound, mailgame: MailGame, game: GameRecord, state_json: str, player: PlayerRecord, text: str
) -> InboundOutcome:
    reading = mailgame.read_orders(
        state_json,
        player.player_id,
        text,
        deadline=deadline_text(own_deadline(game, player), player.timezone),
        notes=mail.body.problems,
        earlier=_earlier(mail.store, game.game_id, player.player_id),
    )
    for part in reading.parts:
        mail.store.add_submission(
            NewSubmission(
                game_id=game.game_id,
                player_id=player.player_id,
                scope=part.scope,
                received_at=mail.now,
                message_id=mail.message_id,
                body=redact_codes(text)[:MAX_STORED_BODY],
                orders_json=part.orders_json,
                ready=reading.ready,
            )
        )
    ack_text, ack_html = render_game_ack(game.game, reading.ack)
    subject = mail.reply_subject(f"Orders for turn {reading.turn}")
    calendar = deadline_attachments(game, player)
    mail.reply(player.address, subject, ack_text, ack_html, game, player, kind="ack", attachments=calendar)
    mail.log("in", mail.address, game.game_id, reading.verdict)
    scopes = tuple(part.scope for part in reading.parts)
    status: Literal["accepted", "acknowledged"] = "accepted" if reading.submitted else "acknowledged"
    return mail.outcome(status, reading.verdict, game, player, scopes=scopes)


def find_game(mail: Inbound, written: str | None) -> GameRecord | InboundOutcome:
    """The game the mail is for: its recipient address, else ``written`` (a GAME line)."""
    game_id = mail.recipient_game or (written.lower() if written else None)
    if game_id is None:
        if mail.untrusted is None and mail.address is not None:
            mail.notice(mail.address, "Which game?", [NOTICE_NO_GAME], limit=REFUSALS)
        return mail.rejected(NO_GAME)
    game = mail.store.game(game_id)
    if game is None:
        if mail.untrusted is None and mail.address is not None:
            # A stranger's words are never echoed (``Inbound.reply_subject``): nor the id they wrote.
            paragraph = NOTICE_UNKNOWN_GAME.format(game_id="of that name" if mail.stranger else game_id)
            mail.notice(mail.address, "No such game", [paragraph], limit=REFUSALS)
        return mail.rejected(UNKNOWN_GAME.format(game_id=game_id))
    return game


def find_player(mail: Inbound, game: GameRecord, written: str | None) -> PlayerRecord | InboundOutcome:
    """The sender's player in ``game``; ``written`` (a PLAYER line) picks one of several."""
    address = mail.address or ""
    mine = _players_at(mail, game.game_id, written)
    if len(mine) == 1:
        return mine[0]
    if mail.untrusted is None:
        if mine:
            paragraphs = [NOTICE_WHICH_PLAYER.format(game_id=game.game_id)]
        else:
            paragraphs = [NOTICE_UNKNOWN_SENDER.format(address=address, game_id=game.game_id)]
        mail.notice(address, "Your mail was not accepted", paragraphs, game=game, limit=REFUSALS)
    reason = WHICH_PLAYER if mine else UNKNOWN_SENDER
    return mail.rejected(reason.format(address=address, game_id=game.game_id), game)


def _code_refused(header: Header, player: PlayerRecord) -> str | None:
    if header.code is None:
        return NO_CODE
    if not code_matches(header.code.strip(), player.code_hash):
        return WRONG_CODE
    return None


def _earlier(store: InboundStore, game_id: str, player_id: str) -> Earlier:
    """The player's latest stored orders for a scope (read only when an ADD mail asks)."""

    def latest(scope: str) -> str | None:
        found = store.latest_submissions(game_id, scope).get((player_id, scope))
        return found.orders_json if found is not None else None

    return latest


NOTICE_NO_GAME = (
    "Your mail does not say which game it is for. Send orders to your game's address (reply to any "
    "mail from your game), or start them with a line GAME <game id>. Send HELP for the commands."
)
NOTICE_UNKNOWN_GAME = (
    "There is no game {game_id} here. Check the game id on your orders sheet, or reply to a mail "
    "from your game."
)
NOTICE_UNKNOWN_SENDER = (
    "Your address {address} is not registered in game {game_id}, so your mail was not read. "
    "Please write from the address you registered with. If you want to play, ask the game master "
    "(or send JOIN {game_id} <your name> while the game is open for sign-up)."
)
NOTICE_WHICH_PLAYER = (
    "Your address plays more than one side of game {game_id}: add a line PLAYER <player id> to your "
    "orders to say which one they are for. Nothing was submitted."
)
NOTICE_UNTRUSTED = (
    "A mail sent in your name to game {game_id} failed the sender checks (DMARC, or the spam and "
    "virus checks), so it was not read and nothing was submitted. If you sent it, please send it again "
    "directly from your mail provider (not through a forwarder or mailing list). If you did not, "
    "someone tried to send orders in your name: nothing happened."
)
NOTICE_CODE = (
    "Your orders for game {game_id} were not accepted: {what}. Every order mail needs the line "
    "CODE <your secret code> (the code you were sent when you joined). Nothing was submitted: send "
    "your orders again with it. This answer goes to your registered address only."
)
NOTICE_STANDBY = (
    "You are standby player {player_id} of game {game_id}: you hold no seat, so your orders were not "
    "read and nothing was submitted. When the GM gives you a seat you get a welcome mail with your "
    "new secret code and your orders sheet."
)
NOTICE_REMOVED = (
    "You no longer play in game {game_id}, so your orders were not read and nothing was submitted. "
    "If you think this is a mistake, please write to the GM."
)
NOTICE_NOT_STARTED = (
    "Game {game_id} is still open for sign-up and has not started: no orders are taken yet. You "
    "will get your first orders sheet when it starts."
)
NOTICE_EARLIER = (
    "Your orders for game {game_id} have no TURN line and were written (by their Date) before turn "
    "{turn} began, so they were meant for an earlier turn and were not accepted: nothing was "
    "submitted. Please send your orders for turn {turn} again (a line TURN {turn} makes sure they "
    "count for it)."
)
