"""The synthetic canary (infra/canary.py): every 15 minutes an EventBridge rule runs this handler,
which first checks that the probe mail it sent on its previous run went all the way through
(SES sending, the MX, SES receiving, the mail bucket, the inbound function, the table), then mails
the next probe.

A probe is a ``STATUS`` mail from ``canary@<mail domain>`` to the canary game's address, sent
through SES like any mail of the host's, with its send time in the subject. It arrives as any
mail does; the inbound function recognises mail from its own domain as its own coming back and
answers nothing (no loop, no bounce), but logs it in the canary game's mail log with its subject.
A probe went through when the canary game's log holds an entry (in, rejected or an answer out)
naming a probe sent within :data:`WINDOW`: ``CanaryAckMissing`` is 0, else 1; its alarm fires on
two misses in a row. The first run after the canary is turned on has no earlier probe, so it
counts one miss.

Nothing raises out of the handler: a probe SES refuses is logged, and shows as a miss next run.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from pydantic import AwareDatetime, BaseModel, ConfigDict

from functions import clients
from functions.handlers import container_cache, tag_environment
from functions.mail.compose import game_address
from functions.mail.ses import MailNotSent, SesMailer
from functions.resources import (
    CANARY_GAME_VARIABLE,
    CANARY_LOCAL_PART,
    CANARY_MINUTES,
    METRICS_NAMESPACE,
    PK,
    SERVICE,
    SK,
    MissingSettingError,
    Settings,
)
from functions.store.attributes import from_item, to_item
from functions.store.keys import LOG_SK_PREFIX, iso, log_pk

INTERVAL = timedelta(minutes=CANARY_MINUTES)
WINDOW = INTERVAL + timedelta(minutes=5)
"""A probe sent this long ago or less counts: the previous run's, with room for a late start."""
PROBE_SUBJECT = "STATUS WarpMail canary probe"

logger = Logger(service=SERVICE)
metrics = Metrics(namespace=METRICS_NAMESPACE, service=SERVICE)


class CanaryEvent(BaseModel):
    """The scheduled event; its ``time`` (when the rule fired) is the canary's clock."""

    model_config = ConfigDict(extra="ignore")

    time: AwareDatetime | None = None


@container_cache
@cache
def settings() -> Settings:
    return Settings.from_environment()


@container_cache
@cache
def dynamodb() -> Any:
    return clients.client("dynamodb")


@container_cache
@cache
def mailer() -> SesMailer:
    return SesMailer(configuration_set=settings().configuration_set)


def canary_game() -> str:
    game_id = os.environ.get(CANARY_GAME_VARIABLE, "")
    if not game_id:
        raise MissingSettingError(f"environment variables not set: {CANARY_GAME_VARIABLE}")
    return game_id


@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Check the previous probe, send the next; {"landed": the probe found or None, "sent": id}."""
    tag_environment(metrics)
    game_id = canary_game()
    now = CanaryEvent.model_validate(event or {}).time or datetime.now(UTC)
    landed = landed_probe(game_id, now)
    metrics.add_metric(name="CanaryAckMissing", unit=MetricUnit.Count, value=0 if landed else 1)
    if landed is None:
        logger.warning("no canary probe landed", extra={"game_id": game_id, "since": iso(now - WINDOW)})
    try:
        sent: str | None = mailer().send(probe(game_id, now, settings()))
    except MailNotSent as error:
        logger.error("canary probe not sent", extra={"code": error.code, "detail": error.detail})
        sent = None
    return {"landed": landed, "sent": sent}


def probe(game_id: str, now: datetime, described: Settings) -> EmailMessage:
    """The probe mail of ``now``."""
    message = EmailMessage()
    message["From"] = f"{CANARY_LOCAL_PART}@{described.mail_domain}"
    message["To"] = game_address(game_id, described.mail_domain)
    message["Subject"] = f"{PROBE_SUBJECT} {iso(now)}"
    message["Date"] = format_datetime(now)
    message["Message-ID"] = make_msgid(CANARY_LOCAL_PART, domain=described.mail_domain)
    message.set_content("STATUS\n")
    return message


def landed_probe(game_id: str, now: datetime) -> str | None:
    """The subject of a log entry of the canary game naming a probe sent within ``WINDOW`` of
    ``now``, or None. Only the entries logged since then are read (the log's sort key begins with
    the time), however long the canary has run."""
    since = now - WINDOW
    response = dynamodb().query(
        TableName=settings().table,
        KeyConditionExpression="#pk = :pk AND #sk BETWEEN :since AND :end",
        ExpressionAttributeNames={"#pk": PK, "#sk": SK},
        ExpressionAttributeValues=to_item(
            {":pk": log_pk(game_id), ":since": LOG_SK_PREFIX + iso(since), ":end": LOG_SK_PREFIX + "~"}
        ),
    )
    for item in map(from_item, response["Items"]):
        sent = probe_time(str(item.get("subject", "")))
        if sent is not None and since <= sent <= now:
            return str(item["subject"])
    return None


def probe_time(subject: str) -> datetime | None:
    """When the probe a subject names was sent ("Re: " and the like before it are fine)."""
    _, found, stamp = subject.partition(PROBE_SUBJECT + " ")
    if not found:
        return None
    try:
        sent = datetime.fromisoformat(stamp.split()[0])
    except (ValueError, IndexError):
        return None
    return sent if sent.tzinfo is not None else None
