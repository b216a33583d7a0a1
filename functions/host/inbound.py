"""The inbound mail service: one raw mail, as the SES receipt rule stored it, from the player to
the acknowledgement (issue 4, "Functions 1" and "Authentication and safety").

Orders are accepted only when all of these hold, checked in this order:

1. the same message was not handled before (``Store.first_time`` on its Message-ID): a
   duplicate delivery is a no-op;
2. it is not automatic mail (auto-replies, bounces, lists, our own mail coming back): those get
   no reply at all, only a mail-log entry;
3. the game is known: from the recipient address (``<game_id>@<domain>``), else from the
   ``GAME`` line of the orders;
4. the sender is a registered address of a player of that game (``PLAYER`` picks one when the
   address plays several sides); an unknown sender gets a short polite reply, unless the mail
   failed the sender checks;
5. the mail passed the sender checks (``safety_failure``: no DMARC failure and no SES spam or
   virus FAIL in the stored verdict headers): else the player is told at the registered
   address, and nothing is read;
6. the orders carry the player's secret code (``CODE``): else the player is told at the
   registered address, never at the sender.
7. the player holds a seat (``PlayerRecord.role`` "player"): a standby or removed player is
   told why nothing was read.

Then the game reads the orders (``engine.games.MAIL_GAMES``), every accepted scope is stored as a
new submission version, and the acknowledgement goes back to the registered address, in reply to
the player's mail. Every mail gets a mail-log entry ("in", or "rejected" with the reason), and the
raw mail is never touched: it stays in S3 whatever happens.

A raw mail over ``MAX_MAIL_BYTES`` (10 MB) is read no further than its headers: unless it is
automatic, its sender gets a short answer saying so.

A mail whose first non-blank line (or, when it holds no orders, whose subject) is a command is a
command (functions/host/commands.py). Nothing here reads the clock: ``now`` is passed in.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from engine.core.mailgame import Earlier, MailGame
from engine.core.orderblock import Header, find_block
from engine.games import MAIL_GAMES
from functions.host.deadlines import deadline_attachments, deadline_text
from functions.mail import limits
from functions.mail.body import BodyText, order_text, plain_header_text, read_message, sender, subject
from functions.mail.codes import code_matches
from functions.mail.compose import Attachment, OutgoingMail, compose, game_from_address
from functions.mail.safety import LOCAL_INTAKE, Verdicts, is_automatic, safety_failure, stored_verdicts
from functions.mail.ses import Mailer
from functions.render.jinja import environment
from functions.resources import Settings
from functions.store import GameRecord, KeptResults, MailLogEntry, NewSubmission, PlayerRecord, Submission

WIDTH = 78
DEFAULT_GAME = "warpwar"
"""Whose order language HELP explains when the mail names no game."""
RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")

# Every reason the mail log can give for a mail in (each pinned by a test).
DUPLICATE = "duplicate delivery of {message_id}"
AUTOMATIC = "automatic mail ({why}): no reply"
NO_SENDER = "no sender address"
NO_GAME = "no game named"
UNKNOWN_GAME = "no game {game_id}"
UNKNOWN_SENDER = "{address} is not a player of game {game_id}"
WHICH_PLAYER = "{address} plays several sides of game {game_id}: no PLAYER line names one"
NO_CODE = "no secret code"
WRONG_CODE = "wrong secret code"
NOT_STARTED = "game {game_id} has not started"
NO_SEAT = "{player_id} holds no seat ({role})"
NOT_HOSTED = "game {game_id} is a {game}, which this host does not play by mail"
TOO_BIG = "mail too big: {size} bytes (limit {limit}): not read"

MAX_STORED_BODY = 64 * 1024
"""Characters of a mail's text kept with its submission: a DynamoDB item holds 400 KB at most, and
the whole mail stays in S3 (the mail log has its key)."""
MAX_MAIL_BYTES = 10 * 1024 * 1024
"""Order mails are a few KB. A bigger raw mail (SES takes up to 40 MB) is read no further than
its headers: enough to answer its sender, and parsing it whole would cost the function's memory."""


Latest = dict[tuple[str, str], Submission]
"""(player, scope) -> the latest submission."""


class InboundStore(Protocol):
    """What the inbound service needs of the store (functions/store.Store)."""

    def first_time(self, message_id: str, ttl_days: int = 30, now: datetime | None = None) -> bool: ...

    def forget(self, message_id: str) -> None: ...

    def game(self, game_id: str) -> GameRecord | None: ...

    def players(self, game_id: str) -> list[PlayerRecord]: ...

    def players_by_address(self, address: str) -> list[PlayerRecord]: ...

    def add_player(self, player: PlayerRecord) -> bool: ...

    def update_player(self, player: PlayerRecord) -> None: ...

    def update_game(self, game: GameRecord, expected_version: int) -> bool: ...

    def state(self, game_id: str, version: int | None = None) -> tuple[GameRecord, str]: ...

    def add_submission(self, new: NewSubmission) -> Submission: ...

    def latest_submissions(
        self, game_id: str, scope_prefix: str = ""
    ) -> dict[tuple[str, str], Submission]: ...

    def log_mail(self, entry: MailLogEntry, ttl_days: int = 400) -> None: ...

    def latest_results(self, game_id: str, player_id: str) -> tuple[KeptResults, bytes] | None: ...


class InboundOutcome(BaseModel):
    """What became of one inbound mail (for the handler's log and metrics, and for tests)."""

    model_config = ConfigDict(frozen=True)

    status: Literal["accepted", "acknowledged", "command", "rejected", "ignored", "duplicate"]
    reason: str = ""
    game_id: str | None = None
    player_id: str | None = None
    command: str | None = None
    scopes: tuple[str, ...] = ()
    """The scopes a submission was stored for."""
    sent: tuple[str, ...] = ()
    """The message ids of the mails sent in answer."""


@dataclass
class Inbound:
    """One mail being handled, and what handling it needs."""

    key: str
    message: EmailMessage
    message_id: str
    address: str | None
    subject: str
    body: BodyText
    recipient_game: str | None
    now: datetime
    store: InboundStore
    mailer: Mailer
    settings: Settings
    verdicts: Verdicts | None = None
    """SES's verdicts on the mail; None: none could be read (not trusted)."""
    sent: tuple[str, ...] = ()

    @property
    def header(self) -> Header:
        """The order block's header (game-agnostic format, engine/core/orderblock.py)."""
        return find_block(self.body.text).header

    @property
    def untrusted(self) -> str | None:
        """Why the sender checks failed (DMARC, SES's spam or virus verdict, or no readable
        verdict), or None."""
        return safety_failure(self.verdicts)

    def send(self, mail: OutgoingMail) -> str:
        """Compose, send and log one mail; returns its message id."""
        sent_id = self.mailer.send(compose(mail, self.settings.sender, self.settings.mail_domain, self.now))
        self.sent += (sent_id,)
        self.log("out", mail.to, mail.game_id, mail.kind, subject=mail.subject, key=sent_id)
        return sent_id

    def reply(
        self,
        to: str,
        subject: str,
        text: str,
        html: str | None,
        game: GameRecord | None = None,
        player: PlayerRecord | None = None,
        kind: Literal["ack", "notice"] = "notice",
        attachments: tuple[Attachment, ...] = (),
    ) -> str:
        """A mail answering this one (threaded with it)."""
        return self.send(
            OutgoingMail(
                to=to,
                subject=subject,
                text=text,
                html=html,
                attachments=attachments,
                game_id=game.game_id if game is not None else None,
                player_id=player.player_id if player is not None else None,
                in_reply_to=self.message_id,
                kind=kind,
            )
        )

    def notice(
        self,
        to: str,
        title: str,
        paragraphs: Sequence[str],
        block: str | None = None,
        game: GameRecord | None = None,
        player: PlayerRecord | None = None,
    ) -> str:
        text, html = render_notice(title, paragraphs, block)
        return self.reply(to, self.reply_subject(title), text, html, game, player)

    def reply_subject(self, fallback: str) -> str:
        """``Re: <their subject>`` (Gmail threads on it), or ``fallback`` when they gave none."""
        if not self.subject:
            return fallback
        return self.subject if re.match(r"(?i)re:", self.subject) else f"Re: {self.subject}"

    def log(
        self,
        direction: Literal["in", "out", "rejected"],
        address: str | None,
        game_id: str | None,
        reason: str,
        subject: str | None = None,
        key: str | None = None,
    ) -> None:
        self.store.log_mail(
            MailLogEntry(
                game_id=game_id,
                at=self.now,
                direction=direction,
                address=address or "",
                subject=self.subject if subject is None else subject,
                reason=reason,
                key=self.key if key is None else key,
            )
        )

    def rejected(
        self,
        reason: str,
        game: GameRecord | None = None,
        player: PlayerRecord | None = None,
        command: str | None = None,
    ) -> InboundOutcome:
        self.log("rejected", self.address, game.game_id if game else None, reason)
        return self.outcome("rejected", reason, game, player, command)

    def outcome(
        self,
        status: Literal["accepted", "acknowledged", "command", "rejected", "ignored"],
        reason: str,
        game: GameRecord | None = None,
        player: PlayerRecord | None = None,
        command: str | None = None,
        scopes: tuple[str, ...] = (),
    ) -> InboundOutcome:
        return InboundOutcome(
            status=status,
            reason=reason,
            game_id=game.game_id if game else None,
            player_id=player.player_id if player else None,
            command=command,
            scopes=scopes,
            sent=self.sent,
        )


def receive(
    raw: bytes,
    key: str,
    now: datetime,
    store: InboundStore,
    mailer: Mailer,
    settings: Settings,
    verdicts: Verdicts | None = None,
) -> InboundOutcome:
    """Handle one raw mail stored at ``key`` (see the module doc).

    ``verdicts``: SES's, from the receipt notification. None when the caller has none (a GM's
    re-drive of a stored mail, the local host): they are read from the stored headers, over the
    local intake's when ``settings.trust_intake``, so that in a deployment a mail whose verdicts
    cannot be read is not trusted. A mail over a cap of functions/mail/limits.py is parsed no
    further than its headers, as one over ``MAX_MAIL_BYTES``."""
    too_big = len(raw) > MAX_MAIL_BYTES
    refused = None if too_big else limits.check(raw)
    message = _read_headers(limits.head(raw)) if too_big or refused else read_message(raw)
    message_id = plain_header_text(_message_id(message) or "") or f"<{key}>"
    if not store.first_time(message_id, now=now):
        return InboundOutcome(status="duplicate", reason=DUPLICATE.format(message_id=message_id))
    if verdicts is None:
        verdicts = stored_verdicts(message, LOCAL_INTAKE if settings.trust_intake else None)
    try:
        size = len(raw) if too_big else None
        return _handle(message, message_id, key, now, store, mailer, settings, verdicts, size, refused)
    except Exception:
        # Unseen again, so that delivering the stored mail once more (the GM's re-drive of the
        # S3 event) handles it; the caller logs the failure.
        store.forget(message_id)
        raise


def _handle(
    message: EmailMessage,
    message_id: str,
    key: str,
    now: datetime,
    store: InboundStore,
    mailer: Mailer,
    settings: Settings,
    verdicts: Verdicts,
    too_big: int | None = None,
    refused: limits.Refusal | None = None,
) -> InboundOutcome:
    """``too_big``: the size of a mail over ``MAX_MAIL_BYTES``; ``refused``: the cap a mail
    passes; of either only the headers were read."""
    unread = too_big is not None or refused is not None
    mail = Inbound(
        key=key,
        message=message,
        message_id=message_id,
        address=sender(message),
        subject=subject(message),
        body=BodyText(text="") if unread else order_text(message),
        recipient_game=_recipient_game(message, settings.mail_domain),
        now=now,
        store=store,
        mailer=mailer,
        settings=settings,
        verdicts=verdicts,
    )
    why = is_automatic(message, settings.mail_domain)
    if why is not None:
        mail.log("rejected", mail.address, mail.recipient_game, AUTOMATIC.format(why=why))
        return mail.outcome("ignored", AUTOMATIC.format(why=why))
    if mail.address is None:
        mail.log("rejected", None, mail.recipient_game, NO_SENDER)
        return mail.outcome("ignored", NO_SENDER)
    if too_big is not None:
        return _refuse_too_big(mail, too_big)
    if refused is not None:
        game = store.game(mail.recipient_game) if mail.recipient_game else None
        if mail.untrusted is None:
            mail.notice(mail.address, "Your mail could not be read", [refused.notice], game=game)
        return mail.rejected(refused.reason, game)
    # Commands build on this module's pieces, so they are imported when first needed.
    from functions.host import commands

    command = commands.find_command(mail.subject, mail.body.text)
    if command is not None:
        return commands.run(command, mail)
    return read_orders(mail)


def _read_headers(raw: bytes) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
    assert isinstance(message, EmailMessage)  # policy.default's message factory
    return message


def _refuse_too_big(mail: Inbound, size: int) -> InboundOutcome:
    """A short answer to the sender (unless the mail failed the sender checks), nothing read."""
    game = mail.store.game(mail.recipient_game) if mail.recipient_game else None
    if mail.untrusted is None and mail.address is not None:
        megabytes = f"{size / 1024 / 1024:.1f}"
        paragraphs = [NOTICE_TOO_BIG.format(size=megabytes, limit=MAX_MAIL_BYTES // 1024 // 1024)]
        mail.notice(mail.address, "Your mail was too big", paragraphs, game=game)
    return mail.rejected(TOO_BIG.format(size=size, limit=MAX_MAIL_BYTES), game)


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
        paragraphs = [NOTICE_UNTRUSTED.format(game_id=game.game_id)]
        mail.notice(player.address, "Your mail was not accepted", paragraphs, game=game, player=player)
        return mail.rejected(untrusted, game, player)
    refused = _code_refused(header, player)
    if refused is not None:
        paragraphs = [NOTICE_CODE.format(game_id=game.game_id, what=refused)]
        mail.notice(player.address, "Your orders were not accepted", paragraphs, game=game, player=player)
        return mail.rejected(refused, game, player)
    if player.role != "player":
        notice = NOTICE_STANDBY if player.role == "standby" else NOTICE_REMOVED
        paragraphs = [notice.format(game_id=game.game_id, player_id=player.player_id)]
        mail.notice(player.address, "Your orders were not accepted", paragraphs, game=game, player=player)
        return mail.rejected(NO_SEAT.format(player_id=player.player_id, role=player.role), game, player)
    if game.status == "open":
        paragraphs = [NOTICE_NOT_STARTED.format(game_id=game.game_id)]
        mail.notice(player.address, "The game has not started", paragraphs, game=game, player=player)
        return mail.rejected(NOT_STARTED.format(game_id=game.game_id), game, player)
    mailgame = MAIL_GAMES.get(game.game)
    if mailgame is None:
        return mail.rejected(NOT_HOSTED.format(game_id=game.game_id, game=game.game), game, player)
    return _acknowledge(mail, mailgame, game, state_json, player, text)


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
    found = [p for p in mail.store.players_by_address(mail.address or "") if p.game_id == game_id]
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
        deadline=deadline_text(game.round_deadline or game.deadline, player.timezone),
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
                body=text[:MAX_STORED_BODY],
                orders_json=part.orders_json,
            )
        )
    ack_text, ack_html = ACK_RENDERERS[game.game](reading.ack)
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
            mail.notice(mail.address, "Which game?", [NOTICE_NO_GAME])
        return mail.rejected(NO_GAME)
    game = mail.store.game(game_id)
    if game is None:
        if mail.untrusted is None and mail.address is not None:
            mail.notice(mail.address, "No such game", [NOTICE_UNKNOWN_GAME.format(game_id=game_id)])
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
        mail.notice(address, "Your mail was not accepted", paragraphs, game=game)
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


def _message_id(message: EmailMessage) -> str | None:
    try:
        value = message.get("Message-ID")
    except Exception:
        # A Message-ID the header parser cannot read is no id to recognise a duplicate by.
        return None
    found = re.search(r"<[^<>\s]+>", str(value or ""))
    return found.group() if found else None


def _recipient_game(message: EmailMessage, domain: str) -> str | None:
    """The first recipient that is a game's address (a mail may be copied to several)."""
    for name in RECIPIENT_HEADERS:
        try:
            values = message.get_all(name) or []
            addresses = [a.addr_spec for value in values for a in getattr(value, "addresses", ())]
        except Exception:
            # An unparseable recipient header names no game; the GAME line still may.
            continue
        for address in addresses:
            game_id = game_from_address(address, domain)
            if game_id is not None:
                return game_id
    return None


# --- Rendering ---

AckRenderer = Callable[[BaseModel], tuple[str, str]]


def _render_warpwar_ack(ack: BaseModel) -> tuple[str, str]:
    # Imported here, as the game is (engine/games.py): a mail that never reaches a game does
    # not load it.
    from engine.warpwar.lang.ack import Acknowledgement
    from functions.render.ack import render_ack

    assert isinstance(ack, Acknowledgement)  # WarpWar's mailgame acknowledges with its own model
    return render_ack(ack)


ACK_RENDERERS: dict[str, AckRenderer] = {"warpwar": _render_warpwar_ack}
"""The acknowledgement renderer of each game hosted by mail (functions/render)."""


def render_host(name: str, context: Mapping[str, object]) -> tuple[str, str]:
    """(plain text, HTML) of the host message ``name`` (templates/host/<name>.txt and .html)."""
    templates = environment()
    return (
        templates.get_template(f"host/{name}.txt").render(context),
        templates.get_template(f"host/{name}.html").render(context),
    )


def render_notice(
    title: str,
    paragraphs: Sequence[str],
    block: str | None = None,
    gm_of: str | None = None,
    gm_address: str = "",
) -> tuple[str, str]:
    """(plain text, HTML) of a short host message: paragraphs, and a preformatted block. With
    ``gm_of`` (a game id) it is the GM's message to a player of that game, marked as such."""
    footer = FOOTER_HOST
    if gm_of is not None:
        footer = FOOTER_GM.format(game_id=gm_of) + (
            FOOTER_GM_ADDRESS.format(address=gm_address) if gm_address else ""
        )
    return render_host(
        "notice",
        {
            "title": title,
            "rule": "=" * min(WIDTH, len(title)),
            "paragraphs": paragraphs,
            "wrapped": [wrap(p) for p in paragraphs],
            "block": block,
            "gm_of": gm_of,
            "footer": footer,
            "footer_wrapped": wrap(footer),
        },
    )


FOOTER_HOST = "WarpMail. Send HELP for the commands."
FOOTER_GM = "Sent by the GM of game {game_id} through WarpMail."
FOOTER_GM_ADDRESS = " To answer the GM, write to {address}."


def wrap(paragraph: str) -> str:
    return "\n".join(textwrap.wrap(paragraph, width=WIDTH, break_on_hyphens=False)) or ""


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
NOTICE_TOO_BIG = (
    "Your mail was {size} MB: mail to this host is read up to {limit} MB, so it was not read and "
    "nothing was submitted. Orders are plain text: send them again without attachments."
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
