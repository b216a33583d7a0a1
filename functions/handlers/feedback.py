"""SES's bounces and complaints: the configuration set publishes its Bounce and Complaint events
to a topic (infra/mail.py) this function is subscribed to; each SNS record's ``Message`` is the
event as a JSON string (:class:`SnsRecord`), handed to the service (functions/host/feedback.py).

Thin. An event that cannot be read is logged with its text and counted (``FeedbackUnreadable``),
and not raised: reading it again would fail again. A failure handling one (the store or SES
down) is logged with the event's text, counted (``FeedbackFailed``) and raised, so that Lambda
invokes the function again (SNS invokes it asynchronously: two retries), then keeps the event in
the function's dead-letter queue (infra/compute.py) for the operator to hand it back; the service
is idempotent, and the dead-letters alarm fires.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache
from typing import Any, Literal

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import AliasPath, BaseModel, ConfigDict, Field, Json, ValidationError

from functions import clients
from functions.handlers import TRACED_MODULES, container_cache, tag_environment
from functions.host.feedback import FeedbackOutcome, SesEvent, handle_feedback
from functions.mail.ses import Mailer, SesMailer
from functions.resources import Settings
from functions.store import Store

logger = Logger()
metrics = Metrics()
tracer = Tracer(patch_modules=TRACED_MODULES)


class SnsRecord(BaseModel):
    """One record of SNS's event: SES's event is the message, a JSON string."""

    model_config = ConfigDict(extra="ignore")

    event_source: Literal["aws:sns"] = Field(validation_alias="EventSource")
    message_id: str = Field(validation_alias=AliasPath("Sns", "MessageId"))
    event: Json[SesEvent] = Field(validation_alias=AliasPath("Sns", "Message"))


class FeedbackEvent(BaseModel):
    model_config = ConfigDict(extra="ignore")

    records: list[SnsRecord] = Field(validation_alias="Records")


@container_cache
@cache
def dependencies() -> tuple[Settings, Store, Mailer]:
    """Made once per Lambda container, from its environment."""
    settings = Settings.from_environment()
    mailer = SesMailer(configuration_set=settings.configuration_set)
    return settings, Store(settings, s3=clients.client("s3")), mailer


@metrics.log_metrics
@tracer.capture_lambda_handler
@logger.inject_lambda_context
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    tag_environment(metrics)
    try:
        records = FeedbackEvent.model_validate(event).records
    except ValidationError as error:
        logger.error("SES feedback not readable", extra={"event": event, "error": str(error)})
        metrics.add_metric(name="FeedbackUnreadable", unit=MetricUnit.Count, value=1)
        return {"outcomes": [], "unreadable": str(error)}
    return {"outcomes": [handle_record(record, event) for record in records]}


def handle_record(record: SnsRecord, event: dict[str, Any]) -> dict[str, Any]:
    settings, store, mailer = dependencies()
    try:
        outcome = handle_feedback(record.event, store, mailer, settings, datetime.now(UTC))
    except Exception:
        logger.exception("SES feedback failed", extra={"sns_message_id": record.message_id, "event": event})
        metrics.add_metric(name="FeedbackFailed", unit=MetricUnit.Count, value=1)
        raise
    _count(outcome)
    logger.info(
        "SES feedback", extra={"sns_message_id": record.message_id, **outcome.model_dump(mode="json")}
    )
    return {"sns_message_id": record.message_id, **outcome.model_dump(mode="json")}


def _count(outcome: FeedbackOutcome) -> None:
    metrics.add_metric(name=f"Feedback{outcome.status.capitalize()}", unit=MetricUnit.Count, value=1)
