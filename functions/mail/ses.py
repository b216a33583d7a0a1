"""Sending composed mail: the ``Mailer`` protocol, and Amazon SES (v2, raw MIME) behind it.

``SesMailer`` never retries: the turn workflow's Retry does, on ``MailThrottled`` (a transient
refusal: throttling, quota, SES unreachable). Every other refusal is ``MailNotSent`` (the sender
not verified, a recipient rejected, an account paused): retrying would not help, callers log it.
Both carry SES's error code and message.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from typing import Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError

from functions import clients

MAX_MESSAGE_BYTES = 40 * 1024 * 1024
"""SES v2's limit for a raw message, encoded, headers included."""

TRANSIENT = frozenset(
    {
        "TooManyRequestsException", "Throttling", "ThrottlingException", "LimitExceededException",
        "InternalFailure", "ServiceUnavailable", "ServiceUnavailableException", "RequestTimeout",
    }
)  # fmt: skip


class Mailer(Protocol):
    def send(self, message: EmailMessage) -> str:
        """Send ``message``; return its id (SES's message id, or the outbox file's name)."""
        ...


class MailNotSent(Exception):  # noqa: N818 (the name the host's contract gives it)
    """SES refused the message (``code`` is SES's error code); retrying will not help."""

    def __init__(self, code: str, detail: str, to: str = "") -> None:
        super().__init__(f"mail to {to or '?'} not sent: {code}: {detail}")
        self.code = code
        self.detail = detail
        self.to = to


class MailThrottled(MailNotSent):
    """SES refused the message for now (throttled, over quota, unreachable); retry later."""


class SesMailer:
    """Sends through SES v2 ``SendEmail`` with the raw MIME message, as composed."""

    def __init__(self, client: Any = None, configuration_set: str | None = None) -> None:
        self.client = client if client is not None else clients.client("sesv2")
        self.configuration_set = configuration_set

    def send(self, message: EmailMessage) -> str:
        sender = parseaddr(str(message.get("From", "")))[1]
        recipients = envelope_recipients(message)
        to = ", ".join(recipients)
        if not sender or not recipients:
            raise MailNotSent("BadRequestException", "the message needs a From and a recipient", to)
        data = message.as_bytes()
        if len(data) > MAX_MESSAGE_BYTES:
            raise MailNotSent("MessageTooLarge", f"{len(data)} bytes, SES takes {MAX_MESSAGE_BYTES}", to)
        request: dict[str, Any] = {
            "FromEmailAddress": sender,
            "Destination": {"ToAddresses": recipients},
            "Content": {"Raw": {"Data": data}},
        }
        if self.configuration_set:
            request["ConfigurationSetName"] = self.configuration_set
        try:
            response = self.client.send_email(**request)
        except ClientError as error:
            details = error.response.get("Error", {})
            code = str(details.get("Code", "Unknown"))
            failure = MailThrottled if code in TRANSIENT else MailNotSent
            raise failure(code, str(details.get("Message", "")), to) from error
        except BotoCoreError as error:
            # Connection and timeout errors: SES never saw the message.
            raise MailThrottled(type(error).__name__, str(error), to) from error
        return str(response["MessageId"])


def envelope_recipients(message: EmailMessage) -> list[str]:
    """The bare addresses in To and Cc, in order, without repeats (compose never writes Bcc: a
    Bcc header in a raw message would reach every recipient)."""
    fields = [str(value) for name in ("To", "Cc") for value in message.get_all(name, [])]
    found: list[str] = []
    for _, address in getaddresses(fields):
        if "@" in address and address.lower() not in (seen.lower() for seen in found):
            found.append(address)
    return found
