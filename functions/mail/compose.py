"""Outgoing mail: from what the host wants to say (``OutgoingMail``) to a MIME message.

Addresses. Every game has its own address, ``<game_id>@<domain>`` (``g1@warpmail.test``): the
mail the host sends for a game carries it in ``Reply-To``, so a player who presses Reply sends
orders to the game, and inbound mail finds its game from the recipient. Commands not tied to a
game (JOIN, HELP) go to ``host@<domain>``. A game id is therefore a mail local part: lower-case
letters, digits, ``-`` and ``_``, starting with a letter or digit, at most 64 characters, and
never one of the ``RESERVED`` names (``host``, the RFC 2142 role addresses, the sender's usual
local part), checked by ``valid_game_id``. Inbound, ``game_from_address`` reads the local part
case-insensitively and drops a ``+tag`` (``g1+anything@`` is game ``g1``).

Structure (what Gmail, Outlook and Apple Mail all display, inline images included)::

    multipart/mixed                       only when there are attachments
      multipart/alternative
        text/plain
        multipart/related                 only when there are inline images
          text/html                       shows the images as ``cid:<content_id>``
          image/png                       Content-ID: <content_id>, inline
      application/json, image/svg+xml...  attachments

Threads. All the mail of one game to one player forms one thread: every message refers
(``References``, and ``In-Reply-To`` unless it answers a player's own mail) to a stable root
id made from the game and the player, never sent itself; Apple Mail and Thunderbird thread on
it. Outlook groups conversations by ``Thread-Index`` (whose GUID is made from the same game and
player) and ``Thread-Topic``. Gmail also needs the subjects to match (after ``Re:``): a caller
that wants one Gmail thread per game keeps ``OutgoingMail.subject`` the same for the game, and
an acknowledgement that answers a player's mail uses ``Re: <their subject>`` (it then threads
with the player's own sent mail). Amazon SES replaces the ``Message-ID`` (and ``Date``) of what
it sends, so nothing may depend on our Message-ID surviving: the root id does not.
"""

from __future__ import annotations

import base64
import hashlib
import html as markup
import re
import unicodedata
from datetime import UTC, datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage, MIMEPart
from email.utils import format_datetime, parseaddr
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

MailKind = Literal["ack", "results", "combat", "notice", "relay"]

HOST_LOCAL_PART = "host"
SENDER_NAME = "WarpMail"
RESERVED = frozenset(
    {
        HOST_LOCAL_PART, "warpmail", "postmaster", "abuse", "hostmaster", "webmaster", "mailer-daemon",
        "noreply", "no-reply", "root", "admin", "gm", "info", "security",
    }
)  # fmt: skip
GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")

GAME_HEADER = "X-WarpMail-Game"
KIND_HEADER = "X-WarpMail-Kind"
"""Set on everything we send: inbound recognises our own mail coming back (a loop) by them."""

MAIL_POLICY = policy.SMTP.clone(cte_type="7bit")
"""CRLF line ends and 7-bit transfer encodings only (quoted-printable or base64 for anything
else), so no relay on the way has to re-encode, and no body line exceeds 998 octets."""

FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)
MESSAGE_ID = re.compile(r"<?([^<>\s@]+@[^<>\s@]+)>?")
UNSAFE_IN_HEADERS = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories never written into a header: controls (line breaks among them) and
invisible formatting (bidirectional overrides, zero-width characters)."""

MAX_OUTGOING_BYTES = 10 * 1024 * 1024
"""The largest mail the host sends, encoded. SES sends up to 40 MB, but receivers take less:
Outlook.com 20 MB, Gmail 25 MB, many company servers 10 MB, and a bounced results mail is a lost
turn. Results are well under 1 MB (a map PNG, an SVG, a JSON), so only a mail swollen by what a
player wrote (an acknowledgement echoing a huge order mail) comes near it: cut, never refused."""
CUT_FILES = "[The files of this mail were left out: with them it was over {limit} MB.]"
CUT_TEXT = "[... the rest of this mail was cut: it was over {limit} MB.]"
EXPANSION = 1.4
"""Encoded size over raw size, at most: base64 is 4/3 with line ends (quoted-printable is chosen
only when shorter)."""
HEADER_MARGIN = 64 * 1024


class Attachment(BaseModel):
    """A file sent with a mail; with a ``content_id`` it is shown inline in the HTML as
    ``cid:<content_id>`` (the map PNG), without one it is an attachment (SVG map, JSON)."""

    model_config = ConfigDict(frozen=True)

    filename: str
    content_type: str
    data: bytes
    content_id: str | None = None


class OutgoingMail(BaseModel):
    """What the host sends one address; ``compose`` makes it a MIME message."""

    model_config = ConfigDict(frozen=True)

    to: str
    """A bare address or ``Name <address>``."""
    subject: str
    """Without the game prefix: ``compose`` adds ``[<game_name> <game_id>]``."""
    text: str
    html: str | None = None
    attachments: tuple[Attachment, ...] = ()
    game_id: str | None = None
    game_name: str | None
    """The game's name for players (engine/games.py ``GAME_NAMES``), for the subject prefix,
    ``Reply-To`` and ``Thread-Topic``; None for a mail of no game. Required: the host hosts
    more than one game, and a default would name the wrong one."""
    player_id: str | None = None
    in_reply_to: str | None = None
    """The Message-ID of the player's mail this answers (acknowledgements)."""
    kind: MailKind

    @model_validator(mode="after")
    def _names_its_game(self) -> OutgoingMail:
        if (self.game_id is None) != (self.game_name is None):
            raise ValueError("a game's mail names its game (game_name), and only a game's mail does")
        return self


def compose(
    mail: OutgoingMail, sender: str, domain: str, now: datetime | None = None, key: str | None = None
) -> EmailMessage:
    """``mail`` as a MIME message from ``sender`` (see the module doc for structure, threads and
    addresses). ``now`` is the Date (the clock when not given; SES restamps it anyway).

    The Message-ID is made from ``key`` (the claim the mail is sent under), else from the mail
    and its date: composing the same mail again gives the same bytes, so a mail sent again after
    its sender was killed is the very same message (mail clients show one).

    A mail over ``MAX_OUTGOING_BYTES`` is cut (``fit``). Raises ValueError for a game id that
    cannot be a game address (see ``valid_game_id``).
    """
    if _estimate(mail) <= MAX_OUTGOING_BYTES / EXPANSION:
        return _compose(mail, sender, domain, now, key)
    message = _compose(mail, sender, domain, now, key)
    if len(message.as_bytes()) <= MAX_OUTGOING_BYTES:
        return message
    return _compose(fit(mail, MAX_OUTGOING_BYTES), sender, domain, now, key)


def fit(mail: OutgoingMail, limit: int = MAX_OUTGOING_BYTES) -> OutgoingMail:
    """``mail`` cut to ``limit`` bytes composed: its attachments left out first, with a line
    saying so; if still too big, its HTML too (it cannot be cut safely) and its text cut, with
    a line saying so. The mail is always sent: a refusal here would lose the answer."""
    megabytes = limit // 1024 // 1024
    if mail.attachments:
        note = CUT_FILES.format(limit=megabytes)
        html = _with_note(mail.html, note) if mail.html is not None else None
        mail = mail.model_copy(update={"attachments": (), "text": f"{mail.text}\n\n{note}\n", "html": html})
        if _estimate(mail) <= limit / EXPANSION:
            return mail
    # Encoded, a UTF-8 byte takes at most EXPANSION bytes (base64, or quoted-printable when it
    # is shorter, with line ends); the headers take the margin.
    budget = int((limit - HEADER_MARGIN) / EXPANSION)
    text = mail.text.encode()[:budget].decode(errors="ignore")
    note = CUT_TEXT.format(limit=megabytes)
    return mail.model_copy(update={"text": f"{text}\n\n{note}\n", "html": None})


def _estimate(mail: OutgoingMail) -> int:
    """The mail's size before encoding (text, HTML, files): times ``EXPANSION`` at most, encoded."""
    html = len(mail.html.encode()) if mail.html is not None else 0
    return len(mail.text.encode()) + html + sum(len(a.data) for a in mail.attachments) + HEADER_MARGIN


def _with_note(html: str, note: str) -> str:
    paragraph = f"<p>{markup.escape(note)}</p>"
    at = html.lower().rfind("</body>")
    return html + paragraph if at < 0 else html[:at] + paragraph + html[at:]


def header_text(value: str) -> str:
    """``value`` safe in a header: no control or invisible characters, white space collapsed,
    and no encoded-word (``=?...?=``): the mail library would decode one written into a header
    (a line break in it would start a header of its own), and so would the reader's client."""
    shown = "".join(
        " " if unicodedata.category(char) in UNSAFE_IN_HEADERS else char for char in value
    ).replace("=?", "= ?")
    return " ".join(shown.split())


def _compose(
    mail: OutgoingMail, sender: str, domain: str, now: datetime | None, key: str | None
) -> EmailMessage:
    message = EmailMessage(policy=MAIL_POLICY)
    _address_headers(message, mail, sender, domain)
    message["Subject"] = _subject(mail)
    at = now or datetime.now(UTC)
    message["Date"] = format_datetime(at)
    message["Message-ID"] = message_id(mail, domain, at, key)
    _thread_headers(message, mail, domain, at)
    message["Auto-Submitted"] = auto_submitted(mail)
    # Exchange and Outlook: no out-of-office or other automatic answers to this mail.
    message["X-Auto-Response-Suppress"] = "All"
    # No "Precedence: bulk": it is non-standard (RFC 3834 prefers Auto-Submitted, which every
    # major responder honours) and Gmail and others file "bulk" mail as promotions or spam,
    # which would hide a player's results.
    if mail.game_id is not None:
        message[GAME_HEADER] = mail.game_id
    message[KIND_HEADER] = mail.kind
    _body(message, mail)
    _boundaries(message)
    return message


def _boundaries(message: EmailMessage) -> None:
    """Multipart boundaries made from the Message-ID, not at random: the same mail composed
    again is the same bytes. A SHA-256 token never occurs in a part's (7-bit encoded) text."""
    token = hashlib.sha256(str(message["Message-ID"]).encode()).hexdigest()[:24]
    multiparts = (part for part in message.walk() if part.is_multipart())
    for number, part in enumerate(multiparts):
        part.set_boundary(f"=_wm{number}_{token}")


def message_id(mail: OutgoingMail, domain: str, at: datetime, key: str | None = None) -> str:
    """``message_id_for`` ``key``, or for everything the mail says and ``at``."""
    if key is not None:
        return message_id_for(mail.kind, key, domain)
    digest = hashlib.sha256()
    fields = (mail.to, mail.subject, mail.text, mail.html or "", mail.game_id or "", mail.player_id or "")
    for value in (*fields, mail.in_reply_to or "", mail.kind, at.isoformat()):
        digest.update(value.encode() + b"\x00")
    for attachment in mail.attachments:
        digest.update(attachment.filename.encode() + b"\x00" + attachment.data)
    return message_id_for(mail.kind, digest.hexdigest(), domain)


def message_id_for(kind: str, key: str, domain: str) -> str:
    """``<kind.digest@domain>``, the digest made from ``key``: the same key, the same id."""
    return f"<{kind}.{hashlib.sha256(key.encode()).hexdigest()[:32]}@{domain.lower()}>"


def auto_submitted(mail: OutgoingMail) -> str:
    """RFC 3834 section 5: "auto-replied" for a mail that answers one (acknowledgements, command
    answers, refusals: each is sent ``in_reply_to`` the mail it answers), "auto-generated" for
    mail the host sends on its own (results, combat mails, reminders, the GM's notices).

    A relayed MESSAGE is "auto-generated": its recipient sent nothing it could answer, the host
    composed it from the game's address, and a vacation responder must not answer it to the
    whole game (RFC 3834 section 2: no automatic response to auto-submitted mail)."""
    return "auto-replied" if mail.in_reply_to is not None else "auto-generated"


# --- Addresses ---


def valid_game_id(game_id: str) -> bool:
    """Whether ``game_id`` can be a game's address (the module doc says which can)."""
    return GAME_ID.fullmatch(game_id) is not None and game_id not in RESERVED


def game_address(game_id: str, domain: str) -> str:
    """The address of game ``game_id``: ``<game_id>@<domain>``."""
    if not valid_game_id(game_id):
        raise ValueError(
            f"game id {game_id!r} cannot be a mail address: use lower-case letters, digits, '-' and '_' "
            f"(at most 64), not one of {sorted(RESERVED)}"
        )
    return f"{game_id}@{domain.lower()}"


def host_address(domain: str) -> str:
    """The address for commands not tied to a game."""
    return f"{HOST_LOCAL_PART}@{domain.lower()}"


def game_from_address(address: str, domain: str) -> str | None:
    """The game whose address ``address`` is (``Name <g1@domain>`` too), or None: another
    domain, the host address, a reserved name or no valid game id."""
    local, _, at = parseaddr(address)[1].rpartition("@")
    if not local or at.lower() != domain.lower():
        return None
    game_id = local.split("+", 1)[0].lower()
    return game_id if valid_game_id(game_id) else None


def _address_headers(message: EmailMessage, mail: OutgoingMail, sender: str, domain: str) -> None:
    sender_name, sender_address = parseaddr(sender)
    message["From"] = Address(sender_name or SENDER_NAME, addr_spec=sender_address)
    to_name, to_address = parseaddr(mail.to)
    if "@" not in to_address:
        raise ValueError(f"not a mail address: {mail.to!r}")
    message["To"] = Address(header_text(to_name), addr_spec=to_address)
    if mail.game_id is None:
        message["Reply-To"] = Address(SENDER_NAME, addr_spec=host_address(domain))
    else:
        name = f"{mail.game_name} {mail.game_id}"
        message["Reply-To"] = Address(name, addr_spec=game_address(mail.game_id, domain))


def _subject(mail: OutgoingMail) -> str:
    subject = header_text(mail.subject)
    if mail.game_id is None:
        return subject
    prefix = f"[{mail.game_name} {mail.game_id}]"
    return subject if prefix in subject else f"{prefix} {subject}".strip()


# --- Threads ---


def _thread_key(mail: OutgoingMail) -> bytes:
    who = mail.player_id if mail.player_id is not None else parseaddr(mail.to)[1].lower()
    return f"{mail.game_id or HOST_LOCAL_PART}\x00{who}".encode()


def thread_root(mail: OutgoingMail, domain: str) -> str:
    """The id every mail of ``mail``'s game to its player refers to (the thread's root)."""
    digest = hashlib.sha256(_thread_key(mail)).hexdigest()[:32]
    return f"<thread.{digest}@{domain.lower()}>"


def _thread_headers(message: EmailMessage, mail: OutgoingMail, domain: str, at: datetime) -> None:
    root = thread_root(mail, domain)
    replied = _message_id(mail.in_reply_to)
    message["In-Reply-To"] = replied or root
    message["References"] = f"{root} {replied}" if replied else root
    message["Thread-Topic"] = f"{mail.game_name} {mail.game_id}" if mail.game_id else SENDER_NAME
    message["Thread-Index"] = _thread_index(_thread_key(mail), at)


def _message_id(value: str | None) -> str | None:
    """``value`` as ``<id@host>``, or None when it is not a message id (a player's mail may
    carry anything there, and it must never reach our headers unchecked)."""
    if value is None:
        return None
    found = MESSAGE_ID.fullmatch(value.strip())
    return f"<{found.group(1)}>" if found else None


def _thread_index(key: bytes, at: datetime) -> str:
    """An Outlook Thread-Index header block ([MS-OXOMSG] 2.2.1.3): a reserved byte, the high 40
    bits of the FILETIME, and a GUID; the GUID (here from ``key``) names the conversation."""
    filetime = int((at - FILETIME_EPOCH).total_seconds() * 10_000_000)
    guid = hashlib.md5(key, usedforsecurity=False).digest()
    return base64.b64encode(b"\x01" + (filetime >> 24).to_bytes(5, "big") + guid).decode("ascii")


# --- Body ---


def _body(message: EmailMessage, mail: OutgoingMail) -> None:
    message.set_content(_text(mail.text))
    inline = [attachment for attachment in mail.attachments if attachment.content_id]
    if mail.html is not None:
        message.add_alternative(mail.html, subtype="html")
        html = message.get_body(preferencelist=("html",))
        assert isinstance(html, MIMEPart)  # the part just added
        for attachment in inline:
            maintype, subtype = _content_type(attachment)
            html.add_related(
                attachment.data,
                maintype,
                subtype,
                cid=f"<{str(attachment.content_id).strip('<>')}>",
                disposition="inline",
                filename=attachment.filename,
                params=_content_params(attachment),
            )
        if inline:
            # RFC 2387 requires the root part's type on multipart/related; older Outlooks need it.
            html.set_param("type", "text/html")
    for attachment in mail.attachments:
        if attachment.content_id and mail.html is not None:
            continue
        # An inline image with no HTML to show it in is sent as an ordinary attachment.
        maintype, subtype = _content_type(attachment)
        message.add_attachment(
            attachment.data,
            maintype,
            subtype,
            filename=attachment.filename,
            params=_content_params(attachment),
        )


def _text(text: str) -> str:
    """The text body with its line ends normalised (the policy writes CRLF) and a final one."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def _content_params(attachment: Attachment) -> dict[str, str]:
    """The parameters of ``attachment``'s content type (``text/calendar; method=REQUEST``)."""
    parsed = EmailMessage(policy=MAIL_POLICY)
    parsed["Content-Type"] = attachment.content_type
    return {str(name): str(value) for name, value in parsed["Content-Type"].params.items()}


def _content_type(attachment: Attachment) -> tuple[str, str]:
    maintype, _, subtype = attachment.content_type.partition("/")
    if not maintype or not subtype:
        return "application", "octet-stream"
    return maintype.strip().lower(), subtype.split(";", 1)[0].strip().lower()
