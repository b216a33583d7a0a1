"""Mail out, locally: what SES delivers in AWS is captured into an outbox folder.

The handlers send through SES as in AWS (:class:`functions.mail.ses.SesMailer`, so moto checks
the sender identity as the SES sandbox does); :class:`SesCapture` then takes each message moto's
SES kept and writes it into the folder with :class:`functions.mail.outbox.OutboxMailer` (``.eml``,
``.html``, ``.txt``). moto keeps sent mail in its SES backend's ``sent_messages``, an internal list
(pinned with moto; ``tests/functions/test_local_aws.py`` checks it).
"""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

from moto.ses.models import ses_backends
from pydantic import BaseModel

from functions.mail.outbox import OutboxMailer


class SesCapture:
    """Writes mail sent through moto's SES into ``folder``, each message once."""

    def __init__(self, folder: Path, account_id: str, region: str) -> None:
        self.mailer = OutboxMailer(folder)
        self.account_id = account_id
        self.region = region
        self._seen = 0

    def collect(self) -> list[str]:
        """Write every message sent since the last call; returns the outbox ids."""
        sent = ses_backends[self.account_id][self.region].sent_messages
        fresh, self._seen = sent[self._seen :], len(sent)
        return [self.mailer.send(_message(item)) for item in fresh]


def _message(sent: Any) -> EmailMessage:
    raw = getattr(sent, "raw_data", None)
    if raw is not None:
        parsed = BytesParser(policy=policy.default).parsebytes(raw.encode("utf-8", "surrogateescape"))
        assert isinstance(parsed, EmailMessage)
        return parsed
    # SES's simple (non-raw) SendEmail: WarpMail sends raw MIME only, kept for completeness.
    message = EmailMessage()
    message["From"] = sent.source
    message["To"] = ", ".join(sent.destinations.get("ToAddresses", []))
    message["Subject"] = sent.subject
    message.set_content(sent.body)
    return message


class OutboxEntry(BaseModel):
    path: Path
    to: str
    subject: str
    date: str


def outbox_listing(folder: Path) -> list[OutboxEntry]:
    """Every ``.eml`` in the outbox, in file name order."""
    if not folder.exists():
        return []
    entries = []
    for path in sorted(folder.glob("*.eml")):
        with path.open("rb") as file:
            headers = BytesParser(policy=policy.default).parse(file, headersonly=True)
        entries.append(
            OutboxEntry(
                path=path,
                to=str(headers.get("To", "")),
                subject=str(headers.get("Subject", "")),
                date=str(headers.get("Date", "")),
            )
        )
    return entries
