"""One inbound mail being handled: what the inbound service, its order reading and its commands
share (the mail, the store and mailer they use, and how they answer, log and report an outcome)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import parseaddr
from functools import cached_property
from typing import Literal, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict

from engine.core.orderblock import Header, find_block
from engine.games import GAME_NAMES
from functions.host.claimed import INBOUND_LEASE, send_claimed
from functions.mail.body import BodyText
from functions.mail.compose import Attachment, OutgoingMail, compose
from functions.mail.safety import Verdicts, safety_failure
from functions.mail.ses import Mailer
from functions.render.notice import render_notice
from functions.resources import Settings
from functions.store import (
    Claim,
    GameRecord,
    KeptResults,
    MailIdentity,
    MailLogEntry,
    NewSubmission,
    PendingJoin,
    PlayerRecord,
    Submission,
)
from functions.store.records import withheld

PLAYING = ("running", "paused")
"""The statuses of a game being played."""

DAY = timedelta(days=1)


class Limit(NamedTuple):
    """At most ``most`` of one ``kind`` of answer (or relay) per subject (an address, a player)
    and ``window``: counted in the store (``InboundStore.allow``), one counter per window."""

    kind: str
    most: int
    window: timedelta
    per: str
    """The window as the mail log says it: "a day", "a turn"."""


REFUSALS = Limit("refusal", 3, DAY, "a day")
"""Answers refusing a mail (wrong or missing code, an unknown sender or game, no game named,
failed sender checks, too big, no seat) to one address: three a day tell a player who got
something wrong what it was, twice more if they try again; a forged sender, a loop or someone
probing codes gets no more than three a day, however much mail comes in."""
STRANGERS = Limit("stranger", 1, DAY, "a day")
"""Refusals to a sender who plays in no game: one short answer a day, never echoing what they
wrote (``Inbound.reply_subject``), since their From may be forged and the answer would go to
someone who sent nothing."""
OVERSIZE = Limit("oversize", 1, DAY, "a day")
"""Answers to mail not read for its size or structure (over 10 MB, or over a MIME cap): one a day
to an address says what to do; such mail costs the most to refuse, and a sender who sends it on
purpose learns nothing more from a second answer."""
LOOP = Limit("sent", 40, DAY, "a day")
"""Every mail the inbound path sends one address, whatever it is: a player who revises their
orders twenty times a day and asks for STATUS and REPORT in between stays below forty; any loop
the other limits miss (an autoresponder that ignores Auto-Submitted) stops there."""

RATE_LIMITED = "no {kind} mail to {address}: at most {most} {per} (rate-limited)"
CODE_WORDS = re.compile(r"(?i)\bCODE\b[:=]?[ \t]*\S.*$", re.MULTILINE)
REDACTED = "CODE [removed]"


def redact_codes(text: str) -> str:
    """``text`` with every secret code written in it (a ``CODE`` line, or ``CODE <code>`` after a
    command) replaced by ``CODE [removed]``: what the host stores or logs of a mail never holds
    a code in clear (the raw mail in the mail bucket is the only copy). Text the order block
    would read as CODE only after Unicode normalisation (full-width letters) is caught too."""
    return "\n".join(_redact_line(line) for line in text.split("\n"))


def _redact_line(line: str) -> str:
    folded = unicodedata.normalize("NFKC", line)
    return CODE_WORDS.sub(REDACTED, folded) if CODE_WORDS.search(folded) else line


class InboundStore(Protocol):
    """What the inbound service needs of the store (functions/store.Store)."""

    def claim(
        self, key: str, now: datetime, lease: timedelta, data: dict[str, str] | None = None
    ) -> Claim | None: ...

    def claimed(self, key: str) -> Claim | None: ...

    def complete(self, key: str) -> None: ...

    def release(self, key: str) -> None: ...

    def identify(self, identities: Sequence[str], owner: str, digest: str) -> MailIdentity | None: ...

    def game(self, game_id: str) -> GameRecord | None: ...

    def open_games(self) -> list[GameRecord]: ...

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

    def allow(self, kind: str, subject: str, window: timedelta, limit: int, now: datetime) -> bool: ...

    def add_pending_join(self, token: str, pending: PendingJoin) -> None: ...

    def take_pending_join(self, token: str, address: str, now: datetime, by: str) -> PendingJoin | None: ...


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
    """One mail being handled, and what handling it needs.

    ``now`` is when its handling was first claimed: every time it writes or sends (submissions,
    log entries, the answers' dates) is that one, whichever attempt finishes the handling;
    ``clock`` is this attempt's own time, which only the leases of its claims are reckoned
    from. ``claim`` is the handling's claim key: each answer is claimed under it, per kind and
    address (functions/host/claimed.py), so a retried handling sends none twice."""

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
    claim: str = ""
    clock: datetime | None = None
    sent: tuple[str, ...] = ()
    purposes: tuple[str, ...] = ()

    @property
    def header(self) -> Header:
        """The order block's header (game-agnostic format, engine/core/orderblock.py)."""
        return find_block(self.body.text).header

    @property
    def untrusted(self) -> str | None:
        """Why the sender checks failed (DMARC, SES's spam or virus verdict, or no readable
        verdict), or None."""
        return safety_failure(self.verdicts)

    @cached_property
    def sender_players(self) -> list[PlayerRecord]:
        """The sender's players in every game (read once per mail)."""
        return self.store.players_by_address(self.address or "")

    @property
    def stranger(self) -> bool:
        """Whether the sender plays in no game (has no player record anywhere)."""
        return not self.sender_players

    def allowed(self, limit: Limit, subject: str, to: str, game_id: str | None = None) -> bool:
        """Whether one more ``limit.kind`` for ``subject`` is within the limit (counted if so);
        when not, the mail log says that ``to`` was not answered."""
        if self.store.allow(limit.kind, subject, limit.window, limit.most, self.now):
            return True
        reason = RATE_LIMITED.format(kind=limit.kind, address=to, most=limit.most, per=limit.per)
        self.log("rejected", to, game_id, reason)
        return False

    def send(self, mail: OutgoingMail) -> str | None:
        """Compose, send and log one mail, once: None when an earlier attempt sent it, or when
        the address has had ``LOOP.most`` mails from the inbound path today (nothing is sent)."""
        to = parseaddr(mail.to)[1].lower()
        if not self.allowed(LOOP, to, to, mail.game_id):
            return None

        def make(at: datetime, key: str) -> EmailMessage:
            return compose(mail, self.settings.sender, self.settings.mail_domain, at, key=key)

        return self.send_message(mail.to, mail.kind, mail.game_id, redact_codes(mail.subject), make)

    def send_message(
        self,
        to: str,
        kind: str,
        game_id: str | None,
        subject: str,
        make: Callable[[datetime, str], EmailMessage],
    ) -> str | None:
        """Send the message ``make`` builds (given its date and its claim key, which its
        Message-ID is made from) under a claim of its own, once; logged ``out``. Nothing is
        sent to a bouncing address (the log says so)."""
        address = parseaddr(to)[1].lower()
        players = self.sender_players if address == self.address else self.store.players_by_address(address)
        why = withheld(players, address)
        if why is not None:
            self.log("out", address, game_id, why, subject=subject)
            return None
        key = self.out_key(kind, to)

        def log(message: EmailMessage, at: datetime, sent_id: str) -> None:
            self.log("out", to, game_id, kind, subject=subject, key=sent_id)

        def build(at: datetime) -> EmailMessage:
            return make(at, key)

        clock = self.clock or self.now
        sent_id = send_claimed(self.store, self.mailer, key, build, clock, INBOUND_LEASE, log, self.now)
        if sent_id is not None:
            self.sent += (sent_id,)
        return sent_id

    def out_key(self, kind: str, to: str) -> str:
        """The claim key of this mail's answer of ``kind`` to ``to`` (the second such answer,
        if any, gets ``#2``): the same in every attempt, as handling goes the same way."""
        purpose = f"{kind}/{to.strip().lower()}"
        count = self.purposes.count(purpose)
        self.purposes += (purpose,)
        return f"{self.claim}/{purpose}" + (f"#{count + 1}" if count else "")

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
    ) -> str | None:
        """A mail answering this one (threaded with it)."""
        return self.send(
            OutgoingMail(
                to=to,
                subject=subject,
                text=text,
                html=html,
                attachments=attachments,
                game_id=game.game_id if game is not None else None,
                game_name=GAME_NAMES[game.game] if game is not None else None,
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
        limit: Limit | None = None,
    ) -> str | None:
        """A host notice answering this mail; with a ``limit`` (for a refusal, ``REFUSALS``,
        which is ``STRANGERS`` for a sender who plays nowhere) only when within it."""
        if limit is REFUSALS and to == self.address and self.stranger:
            limit = STRANGERS
        if limit is not None and not self.allowed(limit, to, to, game.game_id if game else None):
            return None
        text, html = render_notice(title, paragraphs, block)
        return self.reply(to, self.reply_subject(title), text, html, game, player)

    def reply_subject(self, fallback: str) -> str:
        """``Re: <their subject>`` (Gmail threads on it), or ``fallback`` when they gave none,
        or when they play in no game: a stranger's subject is never echoed (their From may be
        forged, and the answer would carry their words to someone else)."""
        if not self.subject or self.stranger:
            return fallback
        subject = redact_codes(self.subject)
        return subject if re.match(r"(?i)re:", subject) else f"Re: {subject}"

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
                subject=redact_codes(self.subject) if subject is None else subject,
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
        status: Literal["accepted", "acknowledged", "command", "rejected", "ignored", "duplicate"],
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
