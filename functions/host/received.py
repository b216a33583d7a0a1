"""One inbound mail being handled: what the inbound service, its order reading and its commands
share (the mail, the store and mailer they use, and how they answer, log and report an outcome)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from engine.core.orderblock import Header, find_block
from functions.mail.body import BodyText
from functions.mail.compose import Attachment, OutgoingMail, compose
from functions.mail.safety import Verdicts, safety_failure
from functions.mail.ses import Mailer
from functions.render.notice import render_notice
from functions.resources import Settings
from functions.store import GameRecord, KeptResults, MailLogEntry, NewSubmission, PlayerRecord, Submission

PLAYING = ("running", "paused")
"""The statuses of a game being played."""


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
