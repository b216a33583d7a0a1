"""The inbound mail service: one raw mail, as the SES receipt rule stored it, from the player to
the acknowledgement (issue 4, "Functions 1" and "Authentication and safety").

Orders are accepted only when all of these hold, checked in this order:

0. the raw mail's handling is claimed (``Store.claim`` on its S3 key, with a lease: an attempt
   killed midway is taken over once the lease runs out) and completed at the very end; a
   duplicate delivery of it is a no-op. The handling runs "at" the claim's first time, and each
   answer is claimed and composed the same way by every attempt (functions/host/claimed.py);
1. the mail was not handled before under another key (``Store.identify``: any of its
   Message-IDs, or its DKIM-signed body, seen): a replay is logged only, a different mail
   reusing a Message-ID logged and its registered sender told;
2. it is not automatic mail (auto-replies, bounces, lists, our own mail coming back): those get
   no reply at all, only a mail-log entry;
3. the game is known: from the recipient address (``<game_id>@<domain>``), else from the
   ``GAME`` line of the orders;
4. the sender is a registered address of a player of that game (``PLAYER`` picks one when the
   address plays several sides); an unknown sender gets a short polite reply, unless the mail
   failed the sender checks;
5. the mail passed the sender checks (``safety_failure``: SES's DMARC, spam and virus verdicts,
   from the receipt notification or else SES's own stored Authentication-Results, are readable
   and none is FAIL): else the player is told at the registered address, and nothing is read;
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
command (functions/host/commands/). Nothing here reads the clock: ``now`` is passed in.
"""

from __future__ import annotations

from datetime import datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

from functions.host.claimed import INBOUND_LEASE
from functions.host.commands import run as run_command
from functions.host.commands.reading import find_command
from functions.host.orders import read_orders
from functions.host.received import OVERSIZE, REFUSALS, Inbound, InboundOutcome, InboundStore
from functions.mail import limits
from functions.mail.body import BodyText, order_text, plain_header_text, read_message, sender, subject
from functions.mail.compose import game_from_address
from functions.mail.identity import content_digest, identities, message_ids
from functions.mail.safety import LOCAL_INTAKE, Verdicts, is_automatic, stored_verdicts
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store import MailIdentity

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")

# Every reason the mail log (or, for the same raw mail again, the outcome) can give for a mail
# in (each pinned by a test).
DUPLICATE = "duplicate delivery of {message_id}"
BEING_HANDLED = "{message_id} is being handled (claimed until {until})"
REPLAYED = "duplicate of the mail {identity} (stored at {key}): not read again"
REUSED = "{identity} was the id of another mail (stored at {key}): not read"
AUTOMATIC = "automatic mail ({why}): no reply"
NO_SENDER = "no sender address"
TOO_BIG = "mail too big: {size} bytes (limit {limit}): not read"

MAX_MAIL_BYTES = 10 * 1024 * 1024
"""Order mails are a few KB. A bigger raw mail (SES takes up to 40 MB) is read no further than
its headers: enough to answer its sender, and parsing it whole would cost the function's memory."""


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
    ids = [shown for shown in map(plain_header_text, message_ids(message)) if shown]
    message_id = ids[0] if ids else f"<{key}>"
    claim_key = handling_key(key)
    claim = store.claim(claim_key, now, INBOUND_LEASE)
    if claim is None:
        held = store.claimed(claim_key)
        if held is not None and held.state == "in_progress" and held.lease_until is not None:
            reason = BEING_HANDLED.format(message_id=message_id, until=held.lease_until.isoformat())
            return InboundOutcome(status="duplicate", reason=reason)
        return InboundOutcome(status="duplicate", reason=DUPLICATE.format(message_id=message_id))
    if verdicts is None:
        verdicts = stored_verdicts(message, LOCAL_INTAKE if settings.trust_intake else None)
    unread = too_big or refused is not None
    mail = _inbound(message, message_id, key, claim.at, store, mailer, settings, unread, verdicts)
    mail.claim, mail.clock = claim_key, now
    try:
        outcome = _handle(mail, raw, len(raw) if too_big else None, refused)
    except Exception:
        # Released, so that delivering the stored mail once more (the GM's re-drive of the S3
        # event) handles it at once; what it sent stays claimed, and is not sent twice.
        store.release(claim_key)
        raise
    store.complete(claim_key)
    return outcome


def handling_key(key: str) -> str:
    """The claim key of the handling of the raw mail stored at ``key``."""
    return f"in/{key}"


def _inbound(
    message: EmailMessage,
    message_id: str,
    key: str,
    at: datetime,
    store: InboundStore,
    mailer: Mailer,
    settings: Settings,
    unread: bool,
    verdicts: Verdicts,
) -> Inbound:
    """The mail being handled; ``unread``: only its headers were parsed."""
    return Inbound(
        key=key,
        message=message,
        message_id=message_id,
        address=sender(message),
        subject=subject(message),
        body=BodyText(text="") if unread else order_text(message),
        recipient_game=_recipient_game(message, settings.mail_domain),
        now=at,
        store=store,
        mailer=mailer,
        settings=settings,
        verdicts=verdicts,
    )


def _handle(
    mail: Inbound, raw: bytes, too_big: int | None = None, refused: limits.Refusal | None = None
) -> InboundOutcome:
    """``too_big``: the size of a mail over ``MAX_MAIL_BYTES``; ``refused``: the cap a mail
    passes; of either only the headers were read."""
    digest = content_digest(mail.message, raw)
    earlier = mail.store.identify(identities(mail.message, raw), mail.key, digest)
    if earlier is not None:
        return _duplicate(mail, earlier, digest)
    why = is_automatic(mail.message, mail.settings.mail_domain)
    if why is not None:
        mail.log("rejected", mail.address, mail.recipient_game, AUTOMATIC.format(why=why))
        return mail.outcome("ignored", AUTOMATIC.format(why=why))
    if mail.address is None:
        mail.log("rejected", None, mail.recipient_game, NO_SENDER)
        return mail.outcome("ignored", NO_SENDER)
    if too_big is not None:
        return _refuse_too_big(mail, too_big)
    if refused is not None:
        game = mail.store.game(mail.recipient_game) if mail.recipient_game else None
        if mail.untrusted is None:
            title = "Your mail could not be read"
            mail.notice(mail.address, title, [refused.notice], game=game, limit=OVERSIZE)
        return mail.rejected(refused.reason, game)
    command = find_command(mail.subject, mail.body.text)
    if command is not None:
        return run_command(command, mail)
    return read_orders(mail)


def _duplicate(mail: Inbound, earlier: MailIdentity, digest: str) -> InboundOutcome:
    """A mail that another raw mail was already: the same (a replay, a second delivery under
    another key) is logged only; a different mail reusing its Message-ID is logged and its
    sender told, when the sender is a registered player's address."""
    if earlier.digest == digest:
        reason = REPLAYED.format(identity=earlier.identity, key=earlier.owner)
        mail.log("rejected", mail.address, mail.recipient_game, reason)
        return mail.outcome("duplicate", reason)
    reason = REUSED.format(identity=earlier.identity, key=earlier.owner)
    registered = mail.address is not None and bool(mail.store.players_by_address(mail.address))
    answer = registered and is_automatic(mail.message, mail.settings.mail_domain) is None
    if answer and mail.untrusted is None and mail.address is not None:
        paragraphs = [NOTICE_REUSED.format(identity=earlier.identity)]
        mail.notice(mail.address, "Your mail was not read", paragraphs, limit=REFUSALS)
    mail.log("rejected", mail.address, mail.recipient_game, reason)
    return mail.outcome("duplicate", reason)


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
        mail.notice(mail.address, "Your mail was too big", paragraphs, game=game, limit=OVERSIZE)
    return mail.rejected(TOO_BIG.format(size=size, limit=MAX_MAIL_BYTES), game)


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


NOTICE_TOO_BIG = (
    "Your mail was {size} MB: mail to this host is read up to {limit} MB, so it was not read and "
    "nothing was submitted. Orders are plain text: send them again without attachments."
)
NOTICE_REUSED = (
    "Your mail carried the Message-ID {identity}, which an earlier, different mail to this host "
    "carried, so it was not read and nothing was submitted. Please send it again as a new mail "
    "(not by resending or redirecting an old one)."
)
