"""SES's verdicts reach the inbound service (issue 13): from the receipt notification the receipt
rule's Lambda action sends (functions/handlers/inbound.py), or read from the stored headers when
a GM re-drives a stored mail with an S3 event; in a deployment a mail whose verdicts cannot be
read is never trusted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from functions.host.inbound import receive
from functions.host.received import InboundOutcome
from functions.mail.outbox import OutboxMailer
from functions.mail.safety import Verdicts
from functions.resources import Settings
from tests.functions.conftest import Aws
from tests.functions.test_inbound import (
    DMARC_FAIL,
    NOW,
    RED,
    SETTINGS,
    LambdaContextStub,
    ListMailer,
    hosted,
    orders,
    raw_mail,
    real_store,
    s3_event,
)

FUNCTION_ARN = "arn:aws:lambda:eu-west-1:123456789012:function:warpmail-test-inbound"
PASSED = Verdicts(spam="PASS", virus="PASS", spf="PASS", dkim="PASS", dmarc="PASS")
DEPLOYED = SETTINGS.model_copy(update={"trust_intake": False})
SES_HEADERS = {
    "X_SES_Spam_Verdict": "PASS",
    "X_SES_Virus_Verdict": "PASS",
    "Authentication_Results": "amazonses.com; spf=pass; dkim=pass; dmarc=pass header.from=example.org",
}


def ses_event(message_id: str, **statuses: str | None) -> dict[str, Any]:
    """SES's receipt notification to a Lambda action (docs: receiving-email-notifications-contents):
    ``statuses`` by verdict ("spam": "PASS"...); a verdict given None is left out."""
    verdicts = {"spam": "PASS", "virus": "PASS", "spf": "PASS", "dkim": "PASS", "dmarc": "PASS"} | statuses
    receipt: dict[str, Any] = {
        "timestamp": NOW.isoformat(),
        "processingTimeMillis": 420,
        "recipients": ["g1@warpmail.test"],
        "action": {"type": "Lambda", "functionArn": FUNCTION_ARN, "invocationType": "Event"},
    }
    receipt |= {
        f"{kind}Verdict": {"status": status} for kind, status in verdicts.items() if status is not None
    }
    mail = {
        "timestamp": NOW.isoformat(),
        "source": RED,
        "messageId": message_id,
        "destination": ["g1@warpmail.test"],
    }
    return {
        "Records": [
            {"eventSource": "aws:ses", "eventVersion": "1.0", "ses": {"mail": mail, "receipt": receipt}}
        ]
    }


@pytest.fixture
def handler(aws: Aws, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from functions.handlers import inbound as handler_module

    settings = aws.resources.settings()
    assert settings.trust_intake is False, "a deployment's settings"
    store = real_store(aws)
    monkeypatch.setattr(
        handler_module, "dependencies", lambda: (settings, store, OutboxMailer(tmp_path), aws.s3)
    )
    yield handler_module
    handler_module.metrics.clear_metrics()


def deliver(
    store: Any, mailer: ListMailer, raw: bytes, settings: Settings, verdicts: Verdicts | None = None
) -> InboundOutcome:
    return receive(raw, "inbound/1", NOW, store, mailer, settings, verdicts)


def store_mail(aws: Aws, key: str, raw: bytes) -> None:
    aws.s3.put_object(Bucket=aws.resources.mail_bucket, Key=key, Body=raw)


# --- The receipt notification ---


def test_ses_notification_names_the_stored_mail_and_its_verdicts_decide(aws: Aws, handler: Any) -> None:
    store_mail(aws, "inbound/o3vrnil0e2ic28trm7dfhrc2v0clambda4nbp0g81", raw_mail(orders()))

    result = handler.handler(ses_event("o3vrnil0e2ic28trm7dfhrc2v0clambda4nbp0g81"), LambdaContextStub())

    [outcome] = result["outcomes"]
    assert (outcome["key"], outcome["status"]) == (
        "inbound/o3vrnil0e2ic28trm7dfhrc2v0clambda4nbp0g81",
        "accepted",
    )


@pytest.mark.parametrize(
    ("statuses", "reason"),
    [
        ({"dmarc": "FAIL"}, "DMARC failed"),
        ({"spam": "FAIL"}, "SES verdict FAIL: spam"),
        ({"virus": "FAIL"}, "SES verdict FAIL: virus"),
        ({"dmarc": None}, "SES verdict unreadable: dmarc"),
        ({"spam": "SOMETHING_NEW"}, "SES verdict unreadable: spam"),
        ({"virus": "PROCESSING_FAILED"}, "SES verdict unreadable: virus"),
    ],
)
def test_ses_verdicts_in_the_notification_are_what_count(
    aws: Aws, handler: Any, statuses: dict[str, str | None], reason: str
) -> None:
    """The stored copy's headers say all passed: the notification is SES's word, not them."""
    store_mail(aws, "inbound/m1", raw_mail(orders(), **SES_HEADERS))

    [outcome] = handler.handler(ses_event("m1", **statuses), LambdaContextStub())["outcomes"]

    assert (outcome["status"], outcome["reason"]) == ("rejected", reason)


def test_spf_and_dkim_failures_alone_do_not_decide(aws: Aws, handler: Any) -> None:
    store_mail(aws, "inbound/m2", raw_mail(orders()))

    [outcome] = handler.handler(ses_event("m2", spf="FAIL", dkim="FAIL"), LambdaContextStub())["outcomes"]

    assert outcome["status"] == "accepted"


def test_a_notification_without_a_receipt_is_not_trusted(aws: Aws, handler: Any) -> None:
    store_mail(aws, "inbound/m3", raw_mail(orders(), **SES_HEADERS))
    event = ses_event("m3")
    del event["Records"][0]["ses"]["receipt"]

    [outcome] = handler.handler(event, LambdaContextStub())["outcomes"]

    assert (outcome["status"], outcome["reason"]) == (
        "rejected",
        "SES verdict unreadable: dmarc, spam, virus",
    )


@pytest.mark.parametrize("message_id", ["../state/x", "a/b", "", "x" * 201])
def test_a_message_id_that_is_not_one_object_name_is_refused(handler: Any, message_id: str) -> None:
    with pytest.raises(ValidationError):
        handler.handler(ses_event(message_id), LambdaContextStub())


# --- A GM's re-drive: an S3 event, the stored headers read ---


def test_a_redriven_mail_is_judged_by_the_ses_headers_stored_with_it(aws: Aws, handler: Any) -> None:
    bucket = aws.resources.mail_bucket
    store_mail(aws, "inbound/ses", raw_mail(orders(), **SES_HEADERS))
    failed = SES_HEADERS | {"Authentication_Results": DMARC_FAIL}
    store_mail(aws, "inbound/spoofed", raw_mail(orders(), **failed))

    [passed] = handler.handler(s3_event(bucket, "inbound/ses"), LambdaContextStub())["outcomes"]
    [spoofed] = handler.handler(s3_event(bucket, "inbound/spoofed"), LambdaContextStub())["outcomes"]

    assert passed["status"] == "accepted"
    assert (spoofed["status"], spoofed["reason"]) == ("rejected", "DMARC failed")


def test_a_redriven_mail_without_ses_headers_is_not_trusted_in_a_deployment(aws: Aws, handler: Any) -> None:
    forged_below = {"Authentication_Results": "mx.google.com; dmarc=pass header.from=example.org"}
    store_mail(aws, "inbound/bare", raw_mail(orders(), **forged_below))

    [outcome] = handler.handler(s3_event(aws.resources.mail_bucket, "inbound/bare"), LambdaContextStub())[
        "outcomes"
    ]

    assert (outcome["status"], outcome["reason"]) == (
        "rejected",
        "SES verdict unreadable: dmarc, spam, virus",
    )


# --- receive() itself ---


def test_given_verdicts_replace_the_stored_headers() -> None:
    store, mailer = hosted(), ListMailer()
    spoofed = raw_mail(orders(), Authentication_Results=DMARC_FAIL)

    outcome = deliver(store, mailer, spoofed, DEPLOYED, PASSED)

    assert outcome.status == "accepted"


def test_without_verdicts_a_deployment_trusts_nothing_and_the_player_is_told() -> None:
    store, mailer = hosted(), ListMailer()

    outcome = deliver(store, mailer, raw_mail(orders()), DEPLOYED)

    assert (outcome.status, outcome.reason) == ("rejected", "SES verdict unreadable: dmarc, spam, virus")
    [notice] = mailer.sent
    assert notice["To"] == RED
    assert store.subs == []


def test_the_local_intake_is_trusted_only_where_it_is_said_to_be() -> None:
    assert (
        Settings.from_environment({**DEPLOYED.environment(), "WARPMAIL_TRUST_INTAKE": ""}).trust_intake
        is False
    )
    assert Settings.from_environment(SETTINGS.environment()).trust_intake is True
    outcome = deliver(hosted(), ListMailer(), raw_mail(orders()), SETTINGS)
    assert outcome.status == "accepted"
