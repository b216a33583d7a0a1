"""Inbound mail: the S3 event for each raw message the SES receipt rule stored.

Thin: it reads the raw mail and hands it to the service (functions/host/inbound.py). Nothing
escapes it: a mail whose handling fails is logged (Logger, with the exception), counted
(metric ``InboundFailed``, which the alarm watches) and entered in the mail log with the error,
and the raw mail stays in the bucket for the GM to deliver again. It never deletes the raw mail.

The S3 event is read by :class:`S3Notification`, only the bucket and key of each record:
Powertools' pydantic ``S3Model`` refuses moto's events (docs: aws-local.md), and its ``S3Event``
data class comes with every other event class (30 ms of each cold start here,
benchmarks/import_time.py). moto's (and S3's) event keys are URL-encoded: ``unquote_plus``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any
from urllib.parse import unquote_plus

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import AfterValidator, AliasPath, BaseModel, ConfigDict, Field

from functions import clients
from functions.handlers import TRACED_MODULES, container_cache, tag_environment
from functions.host.inbound import receive
from functions.host.received import InboundOutcome
from functions.mail.ses import Mailer, SesMailer
from functions.resources import Settings
from functions.store import MailLogEntry, Store

logger = Logger()
metrics = Metrics()
tracer = Tracer(patch_modules=TRACED_MODULES)

MAX_ERROR = 500


class StoredMail(BaseModel):
    """One record of the S3 event: where the receipt rule stored a raw mail."""

    model_config = ConfigDict(extra="ignore")

    bucket: str = Field(validation_alias=AliasPath("s3", "bucket", "name"))
    key: Annotated[str, AfterValidator(unquote_plus)] = Field(
        validation_alias=AliasPath("s3", "object", "key")
    )


class S3Notification(BaseModel):
    model_config = ConfigDict(extra="ignore")

    records: list[StoredMail] = Field(validation_alias="Records")


@container_cache
@cache
def dependencies() -> tuple[Settings, Store, Mailer, Any]:
    """Made once per Lambda container, from its environment."""
    settings = Settings.from_environment()
    s3 = clients.client("s3")
    return settings, Store(settings, s3=s3), SesMailer(configuration_set=settings.configuration_set), s3


@metrics.log_metrics
@tracer.capture_lambda_handler
@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    tag_environment(metrics)
    outcomes = [handle_object(mail.bucket, mail.key) for mail in S3Notification.model_validate(event).records]
    return {"outcomes": outcomes}


def handle_object(bucket: str, key: str) -> dict[str, Any]:
    """One raw mail; never raises."""
    now = datetime.now(UTC)
    settings, store, mailer, s3 = dependencies()
    try:
        raw = s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        outcome = receive(raw, key, now, store, mailer, settings)
    except Exception as error:
        return _failed(store, key, now, error)
    _count(outcome)
    logger.info("inbound mail", extra={"key": key, **outcome.model_dump(mode="json")})
    return {"key": key, **outcome.model_dump(mode="json")}


def _count(outcome: InboundOutcome) -> None:
    metrics.add_metric(name=f"Inbound{outcome.status.capitalize()}", unit=MetricUnit.Count, value=1)


def _failed(store: Store, key: str, now: datetime, error: Exception) -> dict[str, Any]:
    reason = f"error: {type(error).__name__}: {error}"[:MAX_ERROR]
    logger.exception("inbound mail failed", extra={"key": key})
    metrics.add_metric(name="InboundFailed", unit=MetricUnit.Count, value=1)
    try:
        store.log_mail(
            MailLogEntry(
                game_id=None, at=now, direction="rejected", address="", subject="", reason=reason, key=key
            )
        )
    except Exception:
        # The store itself may be what failed: the log line and the metric above remain.
        logger.exception("could not enter the failure in the mail log", extra={"key": key})
    return {"key": key, "status": "failed", "reason": reason}
