"""Sending composed mail: the ``Mailer`` protocol, and Amazon SES (v2, raw MIME) behind it.

``SesMailer`` never retries: the turn workflow's Retry does, on ``MailThrottled`` (a transient
refusal: throttling, quota, SES unreachable). Every other refusal is ``MailNotSent`` (the sender
not verified, a recipient rejected, an account paused): retrying would not help, callers log it.
Both carry SES's error code and message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
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


logger = logging.getLogger(__name__)


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


@dataclass(frozen=True)
class SendQuota:
    """The account's SES sending quota in the region (SESv2 ``GetAccount``'s ``SendQuota``)."""

    max_24_hour_send: float
    sent_last_24_hours: float
    max_send_rate: float

    @property
    def mails_left(self) -> float:
        """Mails the account may still send in the 24-hour window (infinite without a limit)."""
        if self.max_24_hour_send <= 0:
            return float("inf")
        return max(self.max_24_hour_send - self.sent_last_24_hours, 0.0)

    @property
    def used_percent(self) -> float:
        """How much of the 24-hour quota is spent; 0 when SES sets no limit (``Max24HourSend`` -1)."""
        if self.max_24_hour_send <= 0:
            return 0.0
        return 100 * self.sent_last_24_hours / self.max_24_hour_send


def quota(sesv2_client: Any) -> SendQuota | None:
    """The account's sending quota, or None when SES cannot tell: a refusal or an unreachable SES
    (logged: a missing ``ses:GetAccount`` permission shows there), or an emulated SES without
    ``GetAccount`` (moto, in the local mode). Never raises: the quota is a metric, and the turn
    workflow must not fail for want of it."""
    try:
        response = sesv2_client.get_account()
    except (ClientError, BotoCoreError) as error:
        logger.warning("SES sending quota not read: %s", error)
        return None
    except NotImplementedError:
        return None
    sending = response.get("SendQuota", {})
    return SendQuota(
        max_24_hour_send=float(sending.get("Max24HourSend", 0)),
        sent_last_24_hours=float(sending.get("SentLast24Hours", 0)),
        max_send_rate=float(sending.get("MaxSendRate", 0)),
    )


def mailer_quota(mailer: Mailer) -> SendQuota | None:
    """The quota of the SES account ``mailer`` sends through; None for a mailer that is not SES
    (the outbox folder has no quota)."""
    return quota(mailer.client) if isinstance(mailer, SesMailer) else None
