"""Bounces and complaints (issue 15, "Failures that heal"): SES's word that mail to a player's
address cannot be delivered, or that its reader marked it as spam.

SES publishes the configuration set's Bounce and Complaint events to a topic the feedback
function is subscribed to (infra/mail.py, functions/handlers/feedback.py): :class:`SesEvent` is
one event (SES docs, "Contents of event data that Amazon SES publishes to Amazon SNS"). For each
address bounced for good (``bounceType`` Permanent; a Transient or Undetermined bounce is only
logged: the mail may yet arrive) or complained about, every player record with it, in every game,
is marked (``PlayerRecord.bouncing``: "bounce 2026-11-27"), the game's mail log says so, and the
game's GM is mailed once per address and mark with what to do. No mail goes to a marked address
any more (``functions.store.records.withheld``, asked wherever mail is sent); the GM's console
lifts the mark with the address (functions/console/players.py).

The same event twice changes nothing more: a record already marked keeps its mark, the log entry
is the same entry (the store keeps one), and the GM's mail is claimed by the address and the mark.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.utils import parseaddr
from functools import partial
from typing import Literal

from pydantic import AliasChoices, AwareDatetime, BaseModel, ConfigDict, Field

from functions.host.notices import game_notice
from functions.host.ports import TurnStore
from functions.host.sending import send_once
from functions.mail.compose import OutgoingMail
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.records import GameRecord, MailLogEntry, PlayerRecord

MAX_DETAIL = 300
"""Characters of a remote server's diagnostic kept in the log and the GM's mail."""


class _Event(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class Recipient(_Event):
    email_address: str = Field(alias="emailAddress")
    diagnostic_code: str = Field("", alias="diagnosticCode")


class Bounce(_Event):
    bounce_type: str = Field(alias="bounceType")
    """Permanent, Transient or Undetermined."""
    bounce_sub_type: str = Field("", alias="bounceSubType")
    bounced_recipients: list[Recipient] = Field(alias="bouncedRecipients")
    timestamp: AwareDatetime


class Complaint(_Event):
    complained_recipients: list[Recipient] = Field(alias="complainedRecipients")
    timestamp: AwareDatetime
    complaint_feedback_type: str = Field("", alias="complaintFeedbackType")


class Header(_Event):
    name: str
    value: str


class SentMail(_Event):
    """SES's ``mail`` object: the mail the event is about."""

    message_id: str = Field("", alias="messageId")
    headers: list[Header] = []
    tags: dict[str, list[str]] = {}

    def header(self, name: str) -> str:
        return next((h.value for h in self.headers if h.name.lower() == name.lower()), "")


class SesEvent(_Event):
    """One sending event of the configuration set (``notificationType`` in an identity's own
    notifications, read the same)."""

    event_type: str = Field(validation_alias=AliasChoices("eventType", "notificationType"))
    mail: SentMail
    bounce: Bounce | None = None
    complaint: Complaint | None = None


class Feedback(BaseModel):
    """What one event asks of the host."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["bounce", "complaint"]
    addresses: tuple[str, ...]
    at: datetime
    detail: str
    subject: str
    mail_id: str

    @property
    def mark(self) -> str:
        """``PlayerRecord.bouncing`` for it: "bounce 2026-11-27"."""
        return f"{self.kind} {self.at.date().isoformat()}"


class FeedbackOutcome(BaseModel):
    """What became of one event (the handler's log and metrics, and tests)."""

    model_config = ConfigDict(frozen=True)

    status: Literal["marked", "ignored"]
    reason: str = ""
    marked: tuple[str, ...] = ()
    """The players marked now, as "<game>/<player>"."""
    told: int = 0
    """The GM mails sent."""


def feedback_of(event: SesEvent) -> Feedback | str:
    """What ``event`` asks of the host, or why it asks nothing."""
    subject = event.mail.header("Subject")
    if event.event_type == "Bounce" and event.bounce is not None:
        bounce = event.bounce
        if bounce.bounce_type != "Permanent":
            return f"{bounce.bounce_type.lower()} bounce ({bounce.bounce_sub_type}): the mail may yet arrive"
        recipients = bounce.bounced_recipients
        kind: Literal["bounce", "complaint"] = "bounce"
        at = bounce.timestamp
        why = f"permanent bounce ({bounce.bounce_sub_type or 'General'})"
    elif event.event_type == "Complaint" and event.complaint is not None:
        recipients = event.complaint.complained_recipients
        kind, at = "complaint", event.complaint.timestamp
        why = f"complaint ({event.complaint.complaint_feedback_type or 'no feedback type'})"
    else:
        return f"{event.event_type} event: nothing to do"
    addresses = tuple(dict.fromkeys(a for a in (_address(r.email_address) for r in recipients) if a))
    if not addresses:
        return f"{kind} naming no address"
    codes = "; ".join(dict.fromkeys(r.diagnostic_code for r in recipients if r.diagnostic_code))
    detail = f"{why}: {codes}" if codes else why
    return Feedback(
        kind=kind,
        addresses=addresses,
        at=at,
        detail=" ".join(detail.split())[:MAX_DETAIL],
        subject=subject,
        mail_id=event.mail.message_id,
    )


def _address(written: str) -> str:
    return parseaddr(written)[1].strip().lower()


def handle_feedback(
    event: SesEvent, store: TurnStore, mailer: Mailer, settings: Settings, now: datetime
) -> FeedbackOutcome:
    """Mark every player of each address ``event`` reports, log it, and tell each game's GM once."""
    feedback = feedback_of(event)
    if isinstance(feedback, str):
        return FeedbackOutcome(status="ignored", reason=feedback)
    marked: list[str] = []
    told = 0
    for address in feedback.addresses:
        games = sorted({p.game_id for p in store.players_by_address(address)})
        if not games:
            store.log_mail(
                _entry(None, address, feedback, f"{feedback.detail}: {address} is no player's address")
            )
        for game_id in games:
            now_marked, sent = _in_game(store, mailer, settings, game_id, address, feedback, now)
            marked += now_marked
            told += sent
    return FeedbackOutcome(status="marked", reason=feedback.detail, marked=tuple(marked), told=told)


def _in_game(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    game_id: str,
    address: str,
    feedback: Feedback,
    now: datetime,
) -> tuple[list[str], int]:
    """Mark ``address``'s players of one game, log it, tell the GM: the players marked now and
    the mails sent."""
    game = store.game(game_id)
    # The address index may lag behind a change: the game's own records, read again, decide.
    players = [p for p in store.players(game_id) if p.address == address]
    if game is None or not players:
        return [], 0
    marked = []
    for player in players:
        if not player.bouncing:
            store.update_player(player.model_copy(update={"bouncing": feedback.mark}))
            marked.append(f"{game_id}/{player.player_id}")
    # An earlier mark stands (an earlier event, or this one handled before): the GM heard of it.
    mark = next((p.bouncing for p in players if p.bouncing), feedback.mark)
    reason = f"{feedback.detail}: {address} marked bouncing ({mark}), no more mail to it"
    store.log_mail(_entry(game_id, address, feedback, reason))
    key = f"bouncing/{game_id}/{address}/{mark}"
    to = game.gm_address or settings.sender
    mail = partial(gm_mail, game, players, address, feedback, to)
    told = send_once(store, mailer, settings, key, mail, now, f"GM told: {address} is bouncing", feedback.at)
    return marked, int(told)


def _entry(game_id: str | None, address: str, feedback: Feedback, reason: str) -> MailLogEntry:
    return MailLogEntry(
        game_id=game_id,
        at=feedback.at,
        direction="rejected",
        address=address,
        subject=feedback.subject,
        reason=reason,
        key=feedback.mail_id,
    )


def gm_mail(
    game: GameRecord,
    players: Sequence[PlayerRecord],
    address: str,
    feedback: Feedback,
    to: str,
    _: datetime,
) -> OutgoingMail:
    """The GM's mail: whose address, what SES said, what the host does, and what to do."""
    who = ", ".join(f"{p.name} ({p.player_id})" for p in players)
    first = players[0].player_id
    what, happened = (
        (BOUNCED, "bounces") if feedback.kind == "bounce" else (COMPLAINED, "was reported as spam")
    )
    title = f"Mail to {who} {happened}"
    paragraphs = [
        what.format(address=address, who=who, game_id=game.game_id, title=game.title, detail=feedback.detail),
        STOPPED.format(address=address, day=feedback.at.date().isoformat()),
        TO_DO,
    ]
    block = COMMANDS.format(game_id=game.game_id, player_id=first, address=address)
    return game_notice(game, to, title, paragraphs, block)


BOUNCED = (
    "SES could not deliver mail to {address}, the address of {who} in game {game_id} ({title}), "
    "and will not: {detail}."
)
COMPLAINED = (
    "{address}, the address of {who} in game {game_id} ({title}), reported mail from the game as "
    "spam ({detail}). Mailing them on would harm the host's standing with mail providers."
)
STOPPED = (
    "Since {day} the host sends {address} nothing: no results, reminders, notices or answers. "
    "Orders from it are still read, and the turns go on without them when none come."
)
TO_DO = (
    "Ask the player, some other way than by mail to that address, for another address and give "
    "it to them; or give the seat to a standby or a newcomer; or, if the player says the address "
    "works again (a full mailbox emptied, the spam report taken back), give the same address "
    "again to lift the mark (the operator may also have to take it off SES's suppression list: "
    "docs/gm.md). From the GM console:"
)
COMMANDS = (
    "warpmail player address {game_id} {player_id} <new-address>\n"
    "warpmail player replace {game_id} {player_id} <standby-or-new-address>\n"
    "warpmail player address {game_id} {player_id} {address}"
)
