"""The GM's mail: the bulletin, direct mail to a player, notices to every player, raw mail
delivered as the receipt rule would, and the mail log (the audit of a game's mail)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.utils import parseaddr
from typing import Literal

from pydantic import BaseModel

from functions.console.backend import Backend
from functions.console.errors import ConsoleError
from functions.console.lookup import change_game, human_seats, require_game, require_player
from functions.host import seats
from functions.mail.compose import OutgoingMail, compose
from functions.mail.ses import MailNotSent
from functions.store import GameRecord, MailLogEntry, PlayerRecord
from functions.store.records import withheld

NOT_SENT = "not sent: "
"""How a mail the console could not send starts its mail-log reason (``game show`` lists them)."""
GM_MESSAGE = "A message from the GM"


class SentMail(BaseModel):
    """One mail the console sent (``outbox_id``: SES's id, or the local outbox file's), or why not."""

    to: str
    subject: str
    outbox_id: str = ""
    error: str = ""


def send(
    backend: Backend, mail: OutgoingMail, now: datetime, reason: str, known: Sequence[PlayerRecord] = ()
) -> SentMail:
    """Compose, send and log ``mail``; a refusal is logged and answered, never raised. Nothing
    is sent to a bouncing address (functions/host/feedback.py): that is the error. ``known``:
    records of the address as read before a change took them from it, whose mark counts."""
    message = compose(mail, backend.settings.sender, backend.settings.mail_domain, now)
    sent = SentMail(to=mail.to, subject=str(message["Subject"]))
    to = parseaddr(mail.to)[1]
    why = withheld([*known, *backend.store.players_by_address(to)], to)
    if why is not None:
        sent = sent.model_copy(update={"error": why.removeprefix(NOT_SENT)})
    else:
        try:
            sent = sent.model_copy(update={"outbox_id": backend.mailer.send(message)})
        except MailNotSent as error:
            sent = sent.model_copy(update={"error": str(error)})
    logged = f"{NOT_SENT}{sent.error}" if sent.error else reason
    backend.store.log_mail(MailLogEntry.sent(message, mail.game_id, now, logged, sent.outbox_id))
    return sent


def notify(
    backend: Backend,
    game: GameRecord,
    players: Sequence[PlayerRecord],
    title: str,
    paragraphs: Sequence[str],
    now: datetime,
) -> list[SentMail]:
    """The same notice from the GM to each of ``players`` (robots without an address get none)."""
    return [
        send(
            backend,
            seats.notice_mail(game, player, title, paragraphs, from_gm=True),
            now,
            f"GM: {title}",
            [player],
        )
        for player in players
        if player.address
    ]


def notify_all(
    backend: Backend, game: GameRecord, title: str, paragraphs: Sequence[str], now: datetime
) -> list[SentMail]:
    """The notice to every human player holding a seat."""
    return notify(backend, game, human_seats(backend.store.players(game.game_id)), title, paragraphs, now)


class Bulletin(BaseModel):
    game: GameRecord
    replaced: str
    """The bulletin it replaced, not yet sent ("" when there was none)."""


def set_bulletin(backend: Backend, game_id: str, text: str, now: datetime) -> Bulletin:
    """The GM's bulletin, printed first in every player's next results (then cleared)."""
    if not text.strip():
        raise ConsoleError("the bulletin is empty: give its text, or --file with it")
    game = require_game(backend.store, game_id, "setup", "open", "running", "paused")
    changed = change_game(backend.store, game, now, bulletin=text.strip())
    return Bulletin(game=changed, replaced=game.bulletin)


def send_direct(backend: Backend, game_id: str, player_id: str, text: str, now: datetime) -> SentMail:
    """Mail from the GM to one player (any role), marked as the GM's."""
    if not text.strip():
        raise ConsoleError("the message is empty: give its text, or --file with it")
    game = require_game(backend.store, game_id)
    player = require_player(backend.store, game, player_id)
    paragraphs = [p.strip() for p in text.strip().split("\n\n") if p.strip()]
    return notify(backend, game, [player], GM_MESSAGE, paragraphs, now)[0]


def deliver(backend: Backend, raws: Sequence[bytes]) -> list[str]:
    """Raw mails stored as the receipt rule stores them, so the inbound function handles each
    (locally at once, answers in the outbox); their keys."""
    return [backend.deliver(raw) for raw in raws]


Direction = Literal["in", "out", "rejected"]


def mail_log(
    backend: Backend, game_id: str | None, directions: Sequence[Direction] = (), problems: bool = False
) -> list[MailLogEntry]:
    """The mail log of a game (None: mail that named no game), oldest first: only the
    ``directions`` given, or with ``problems`` only what was rejected or not sent."""
    if game_id is not None:
        require_game(backend.store, game_id)
    entries = backend.store.mail_log(game_id)
    if directions:
        entries = [e for e in entries if e.direction in directions]
    if problems:
        entries = [e for e in entries if is_problem(e)]
    return entries


def is_problem(entry: MailLogEntry) -> bool:
    return entry.direction == "rejected" or entry.reason.startswith(NOT_SENT)
