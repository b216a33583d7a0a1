"""What identifies an inbound mail, to know a replay (issue 13, "Replay").

A mail is the same mail as an earlier one when it carries any Message-ID the earlier one
carried (a mail may carry several ``Message-ID`` headers: a duplicate if either was seen), or
when it carries the same DKIM-signed body: a ``DKIM-Signature``'s ``d=`` (the signing domain)
and ``bh=`` (the hash of the body it signs) together name the body, whatever Message-ID a
replay puts on it. The content digest tells a true duplicate (the same body) from a different
mail that reuses a Message-ID: the DKIM identity when signed, else a hash of the raw body.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from email.message import EmailMessage
from email.utils import parsedate_to_datetime

MESSAGE_ID = re.compile(r"<[^<>\s]+>")
DKIM_TAG = re.compile(r"(?:^|;)\s*(d|bh)\s*=\s*([^;]*)")


def message_ids(message: EmailMessage) -> list[str]:
    """Every ``<id>`` of every Message-ID header, in order, without repeats."""
    found: list[str] = []
    for value in _raw_headers(message, "Message-ID"):
        found += [i for i in MESSAGE_ID.findall(value) if i not in found]
    return found


def dkim_identity(message: EmailMessage) -> str | None:
    """``dkim:<domain>:<body hash>`` of the first DKIM signature naming both, or None."""
    for value in _raw_headers(message, "DKIM-Signature"):
        tags = {name: "".join(text.split()) for name, text in DKIM_TAG.findall(" ".join(value.split()))}
        if tags.get("d") and tags.get("bh"):
            return f"dkim:{tags['d'].lower()}:{tags['bh']}"
    return None


def identities(message: EmailMessage, raw: bytes) -> list[str]:
    """Every identity of the mail: its Message-IDs, and its DKIM identity when signed; a mail
    with neither is known by its content (``content_identity``), so that the same mail stored
    twice is not read twice."""
    dkim = dkim_identity(message)
    found = message_ids(message) + ([dkim] if dkim else [])
    return found or [content_identity(message, raw)]


def content_identity(message: EmailMessage, raw: bytes) -> str:
    """``content:`` and a hash of who wrote the mail, when, about what, and its body: what is the
    same in two deliveries of one mail (the trace headers that relays add aside)."""
    digest = hashlib.sha256()
    for name in ("From", "Date", "Subject", "To"):
        digest.update(" ".join(_raw_headers(message, name)).encode("utf-8", "surrogateescape") + b"\x00")
    digest.update(content_digest(message, raw).encode())
    return "content:" + digest.hexdigest()


def content_digest(message: EmailMessage, raw: bytes) -> str:
    """The DKIM identity of a signed mail, else ``sha256:`` of its raw body (line ends and
    trailing blank space aside, which relays change)."""
    dkim = dkim_identity(message)
    if dkim is not None:
        return dkim
    ends = [at + len(gap) for gap in (b"\r\n\r\n", b"\n\n") if (at := raw.find(gap)) >= 0]
    body = raw[min(ends) :] if ends else b""
    return "sha256:" + hashlib.sha256(body.replace(b"\r\n", b"\n").rstrip()).hexdigest()


def sent_at(message: EmailMessage, arrival: datetime) -> datetime:
    """When the mail says it was written (its ``Date``), never after ``arrival``: a Date in the
    future, or none that can be read, counts as the arrival."""
    values = _raw_headers(message, "Date")
    try:
        written = parsedate_to_datetime(values[0]) if values else None
    except (TypeError, ValueError, IndexError):
        written = None
    if written is None or written.tzinfo is None:
        return arrival
    return min(written, arrival)


def _raw_headers(message: EmailMessage, name: str) -> list[str]:
    """The header's values as text; a value the header parser cannot read is skipped."""
    try:
        found = message.get_all(name) or []
    except Exception:
        return []
    values: list[str] = []
    for value in found:
        try:
            values.append(str(value))
        except Exception:
            continue
    return values
