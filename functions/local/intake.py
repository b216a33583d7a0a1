"""Mail in, locally: what SES receiving does in AWS and moto never does.

In AWS a receipt rule's S3 action stores each raw message in the mail bucket under
``inbound/<message id>``, which starts the inbound function. Here mail comes from ``.eml`` files
dropped into a folder (:class:`DropFolder`) and from an SMTP server on a local port
(:class:`SmtpIntake`, so a mail client, ``swaks`` or ``smtplib`` can send orders); each message is
stored the same way (:func:`store_raw_mail`), with a ``Return-Path`` and a ``Received`` header
prepended as SES prepends them, and the inbound function is started by the S3 event, as a GM's
re-drive starts it in AWS.

Verdicts: the intake checks nothing (no DMARC, no spam or virus scan) and invents no verdict
headers. The local host trusts it instead (``Settings.trust_intake``, set by
functions/local/host.py only): a mail with no SES verdicts is read as all GRAY, and verdicts
written in the mail as SES writes them (``Authentication-Results: amazonses.com; ...
dmarc=fail``, ``X-SES-Spam-Verdict: FAIL``) still count, so that the demo plays and a test can
send a spoofed or spam mail through the intake. A deployment never sets it: there a mail whose
verdicts cannot be read is not trusted (functions/mail/safety.py).
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from email import policy
from email.parser import BytesParser
from email.utils import format_datetime, parseaddr
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

log = logging.getLogger("warpmail.local")

Deliver = Callable[[bytes, str | None, Sequence[str]], str]
"""Stores one raw message (raw bytes, envelope sender, envelope recipients); returns its S3 key."""


class TryLaterError(RuntimeError):
    """The host cannot take a mail now (another process holds its folder): the SMTP client is
    told to try again later (451), a dropped file stays for the next scan."""


def message_key(prefix: str, now: datetime) -> str:
    """``<prefix><id>``: unique, and sorted by arrival for a human listing the bucket."""
    return f"{prefix}{now:%Y%m%dT%H%M%S%f}-{uuid.uuid4().hex[:12]}"


def stored_form(raw: bytes, envelope_from: str | None, now: datetime) -> bytes:
    """The message as SES's S3 action stores it: the raw bytes with trace headers on top.

    A file has no envelope: its sender is taken from its From header, as the sending server's
    MAIL FROM would have been (an empty Return-Path is a bounce's, which gets no answer)."""
    newline = b"\r\n" if b"\r\n" in raw[:4096] else b"\n"
    if envelope_from is None:
        envelope_from = _from_address(raw)
    trace = [
        f"Return-Path: <{envelope_from}>",
        f"Received: from localhost by warpmail-local; {format_datetime(now)}",
    ]
    return b"".join(line.encode("ascii", "replace") + newline for line in trace) + raw


def _from_address(raw: bytes) -> str:
    headers = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
    return parseaddr(str(headers.get("From", "")))[1]


def store_raw_mail(
    s3: Any,
    bucket: str,
    prefix: str,
    raw: bytes,
    envelope_from: str | None = None,
    now: datetime | None = None,
) -> str:
    """Put one raw message where the receipt rule would; returns the S3 key."""
    at = now or datetime.now(UTC)
    key = message_key(prefix, at)
    s3.put_object(Bucket=bucket, Key=key, Body=stored_form(raw, envelope_from, at))
    return key


class DropFolder:
    """``.eml`` files dropped into ``folder`` are delivered, then moved to ``folder/done``.

    A file whose delivery raises goes to ``folder/failed`` (kept, never lost), unless the host
    says :class:`TryLaterError`: then it and the rest wait for the next scan. Watching, files
    younger than ``settle`` seconds are left for the next scan, so a file still being written is
    not read half-way; hidden files (editors' temporaries) are ignored.
    """

    def __init__(self, folder: Path, deliver: Deliver, settle: float = 0.5) -> None:
        self.folder = folder
        self.deliver = deliver
        self.settle = settle
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        folder.mkdir(parents=True, exist_ok=True)

    def pending(self, settle: float) -> list[Path]:
        cutoff = time.time() - settle
        return sorted(
            path
            for path in self.folder.iterdir()
            if path.is_file()
            and path.suffix.lower() == ".eml"
            and not path.name.startswith(".")
            and path.stat().st_mtime <= cutoff
        )

    def scan(self, settle: float = 0.0) -> list[str]:
        """Deliver every file at least ``settle`` seconds old, in name order; returns the S3 keys."""
        keys = []
        for path in self.pending(settle):
            try:
                key = self.deliver(path.read_bytes(), None, ())
            except TryLaterError as busy:
                log.warning("%s left for the next scan: %s", path.name, busy)
                break
            except Exception:
                log.exception("could not deliver %s", path)
                _move(path, self.folder / "failed")
                continue
            keys.append(key)
            _move(path, self.folder / "done")
        return keys

    def start(self, interval: float = 1.0) -> None:
        def watch() -> None:
            while not self._stop.wait(interval):
                self.scan(self.settle)

        self._stop.clear()
        self._thread = threading.Thread(target=watch, name="warpmail-drop-folder", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def _move(path: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / path.name
    if target.exists():
        target = folder / f"{path.stem}-{uuid.uuid4().hex[:8]}{path.suffix}"
    return Path(shutil.move(path, target))


class _SmtpHandler:
    """aiosmtpd handler: recipients only at the mail domain (as SES receiving accepts only
    verified domains), and each DATA delivered as SES would store it."""

    def __init__(self, deliver: Deliver, mail_domain: str) -> None:
        self.deliver = deliver
        self.suffix = "@" + mail_domain.lower()

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's hook name)
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        if not address.lower().endswith(self.suffix):
            return f"550 5.1.1 <{address}>: this host takes mail for *{self.suffix} only"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        raw = envelope.original_content or b""
        try:
            key = await asyncio.get_running_loop().run_in_executor(
                None, self.deliver, raw, envelope.mail_from, tuple(envelope.rcpt_tos)
            )
        except TryLaterError as busy:
            log.warning("a message from %s was deferred: %s", envelope.mail_from, busy)
            return "451 4.3.0 the host is busy, try again later"
        except Exception:
            log.exception("could not store a message from %s", envelope.mail_from)
            return "451 4.3.0 could not store the message, try again later"
        return f"250 OK queued as {key}"


class SmtpIntake:
    """An SMTP server on ``host:port`` (127.0.0.1 only by default: nothing is exposed)."""

    def __init__(self, deliver: Deliver, mail_domain: str, port: int, host: str = "127.0.0.1") -> None:
        self.controller = Controller(_SmtpHandler(deliver, mail_domain), hostname=host, port=port)

    @property
    def address(self) -> tuple[str, int]:
        return str(self.controller.hostname), int(self.controller.port)

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()
