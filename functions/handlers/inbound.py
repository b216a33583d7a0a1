"""Inbound mail: SES's receipt notification for each raw message its receipt rule stored, or
the S3 event of a stored mail.

In AWS the receipt rule stores the raw mail in the mail bucket under ``<inbound prefix><SES
message id>`` (its S3 action), then invokes this function with SES's notification (its Lambda
action, invocation type Event: docs/architecture.md says why): :class:`SesReceipt` reads the
message id and SES's verdicts. An S3 event (:class:`StoredMail`) is how a GM re-drives a stored
mail, and how the local host delivers one: its verdicts are read from the stored headers by the
service. Powertools' ``SesModel`` is not used, for the reason ``S3Model`` is not (below), and it
requires every verdict: a receipt missing one must still be read, as untrusted.

Thin: it reads the raw mail and hands it to the service (functions/host/inbound.py). Nothing
escapes it: a mail whose handling fails is logged (Logger, with the exception), counted
(metric ``InboundFailed``, which the alarm watches) and entered in the mail log with the error,
and the raw mail stays in the bucket for the GM to deliver again. It never deletes the raw mail.

All one-time work is done at import (:func:`init`), in Lambda's init phase: the AWS clients,
the game registry's games, the templates the inbound path renders, the records' validators and
a first validation of the event model. Done in the first mail instead, it was most of that
mail's time (benchmarks/cold_start.py); with SnapStart (infra/compute.py) the init phase runs
once per published version and every new container starts from its snapshot. None of it makes
anything that must be unique per container: secret codes and JOIN tokens come from ``secrets``
(the kernel's randomness, read at each call), Message-IDs and MIME boundaries from the mail's
claim key.

The S3 event is read by :class:`S3Notification`, only the bucket and key of each record:
Powertools' pydantic ``S3Model`` refuses moto's events (docs: aws-local.md), and its ``S3Event``
data class comes with every other event class (30 ms of each cold start here,
benchmarks/import_time.py). moto's (and S3's) event keys are URL-encoded: ``unquote_plus``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any, Literal
from urllib.parse import unquote_plus

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import AfterValidator, AliasPath, BaseModel, ConfigDict, Field

from engine.games import MAIL_GAMES
from functions import clients
from functions.handlers import TRACED_MODULES, container_cache, tag_environment
from functions.host.inbound import receive
from functions.host.received import InboundOutcome
from functions.mail.safety import Verdicts
from functions.mail.ses import Mailer, SesMailer
from functions.render.jinja import environment
from functions.resources import Settings
from functions.store import MailLogEntry, Store
from functions.store.records import Record

logger = Logger()
metrics = Metrics()
tracer = Tracer(patch_modules=TRACED_MODULES)

MAX_ERROR = 500
RENDERED_HERE = ("host/", *(f"{game}/ack." for game in MAIL_GAMES))
"""The templates an inbound mail's answers are rendered from (notices, HELP, STATUS, relayed
messages, welcomes, acknowledgements); the results reports are process_game's."""
IN_LAMBDA = "AWS_LAMBDA_FUNCTION_NAME"
"""Set by the Lambda runtime: the clients are made at init only in a Lambda container (the local
host and the tests import this module before their emulated AWS and its environment exist)."""
FIRST_EVENT = {
    "Records": [
        {
            "eventSource": "aws:ses",
            "ses": {"mail": {"messageId": "init"}, "receipt": {"spamVerdict": {"status": "PASS"}}},
        },
        {"eventSource": "aws:s3", "s3": {"bucket": {"name": "init"}, "object": {"key": "init"}}},
    ]
}
"""One record of each kind, validated at init: pydantic's first validation of a model is slower
than the next."""


class StoredMail(BaseModel):
    """One record of an S3 event: a stored raw mail, with no verdicts but those written in it."""

    model_config = ConfigDict(extra="ignore")

    event_source: Literal["aws:s3"] = Field(validation_alias="eventSource")
    bucket: str = Field(validation_alias=AliasPath("s3", "bucket", "name"))
    key: Annotated[str, AfterValidator(unquote_plus)] = Field(
        validation_alias=AliasPath("s3", "object", "key")
    )

    def location(self, settings: Settings) -> tuple[str, str]:
        return self.bucket, self.key

    def verdicts(self) -> Verdicts | None:
        return None


class SesVerdict(BaseModel):
    model_config = ConfigDict(extra="ignore")

    status: str | None = None


class SesReceipt(BaseModel):
    """One record of SES's receipt notification (Lambda action): the message id the S3 action
    stored the mail under, and SES's verdicts; a verdict missing here is unreadable, and the mail
    not trusted (functions/mail/safety.py)."""

    model_config = ConfigDict(extra="ignore")

    event_source: Literal["aws:ses"] = Field(validation_alias="eventSource")
    message_id: str = Field(
        validation_alias=AliasPath("ses", "mail", "messageId"), pattern=r"^[A-Za-z0-9._-]{1,200}$"
    )
    """SES's own id (not the Message-ID header): the S3 object's name under the prefix."""
    spam: SesVerdict = Field(SesVerdict(), validation_alias=AliasPath("ses", "receipt", "spamVerdict"))
    virus: SesVerdict = Field(SesVerdict(), validation_alias=AliasPath("ses", "receipt", "virusVerdict"))
    spf: SesVerdict = Field(SesVerdict(), validation_alias=AliasPath("ses", "receipt", "spfVerdict"))
    dkim: SesVerdict = Field(SesVerdict(), validation_alias=AliasPath("ses", "receipt", "dkimVerdict"))
    dmarc: SesVerdict = Field(SesVerdict(), validation_alias=AliasPath("ses", "receipt", "dmarcVerdict"))

    def location(self, settings: Settings) -> tuple[str, str]:
        return settings.mail_bucket, settings.inbound_prefix + self.message_id

    def verdicts(self) -> Verdicts:
        return Verdicts(
            spam=self.spam.status,
            virus=self.virus.status,
            spf=self.spf.status,
            dkim=self.dkim.status,
            dmarc=self.dmarc.status,
        )


class InboundEvent(BaseModel):
    model_config = ConfigDict(extra="ignore")

    records: list[Annotated[SesReceipt | StoredMail, Field(discriminator="event_source")]] = Field(
        validation_alias="Records"
    )


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
    settings = dependencies()[0]
    records = InboundEvent.model_validate(event).records
    outcomes = [handle_object(*record.location(settings), record.verdicts()) for record in records]
    return {"outcomes": outcomes}


def handle_object(bucket: str, key: str, verdicts: Verdicts | None = None) -> dict[str, Any]:
    """One raw mail, with SES's verdicts when its notification gave them; never raises."""
    now = datetime.now(UTC)
    settings, store, mailer, s3 = dependencies()
    try:
        raw = s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        outcome = receive(raw, key, now, store, mailer, settings, verdicts)
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


def init() -> None:
    """The container's one-time work (see the module's doc); no network call but, in Lambda,
    the clients' credentials."""
    for game in MAIL_GAMES:
        MAIL_GAMES[game]
    for record in _subclasses(Record):
        # Records defer building their validators (functions/store/records.py): build them now.
        record.model_rebuild(force=True)
    templates = environment()
    for name in templates.list_templates(filter_func=lambda name: name.startswith(RENDERED_HERE)):
        templates.get_template(name)
    InboundEvent.model_validate(FIRST_EVENT)
    if os.environ.get(IN_LAMBDA):
        dependencies()


def _subclasses(model: type[Record]) -> Iterator[type[Record]]:
    for subclass in model.__subclasses__():
        yield subclass
        yield from _subclasses(subclass)


init()
