"""The synthetic canary's handler under moto: it mails a probe to the canary game through SES, and
on its next run finds that probe in the game's mail log, where the real inbound service logged
it (CanaryAckMissing 0), or does not (1)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.core.models import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from functions.handlers import canary
from functions.host.inbound import receive
from functions.mail.ses import SesMailer
from functions.resources import CANARY_GAME_VARIABLE, Settings, resources
from functions.store import Store, provision

REGION = "eu-west-1"
DOMAIN = "games.example.org"
GAME = "probe"
DESCRIBED = resources("prod", DOMAIN)
T0 = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)


def forget_containers() -> None:
    for cached in (canary.settings, canary.dynamodb, canary.mailer):
        cached.cache_clear()


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    fake = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": REGION}
    environment = {**fake, **DESCRIBED.handler_environment(), CANARY_GAME_VARIABLE: GAME}
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_ACCOUNT_ID_ENDPOINT_MODE", "disabled")
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    forget_containers()
    with mock_aws():
        provision(
            DESCRIBED, boto3.client("dynamodb", region_name=REGION), boto3.client("s3", region_name=REGION)
        )
        yield
    forget_containers()
    canary.metrics.clear_default_dimensions()


@pytest.fixture
def verified(aws: None) -> None:
    """The mail domain verified in SES, as the deployment's prerequisites have it."""
    boto3.client("sesv2", region_name=REGION).create_email_identity(EmailIdentity=DOMAIN)


def run(at: datetime) -> dict[str, Any]:
    event = {"time": at.isoformat().replace("+00:00", "Z"), "detail": {}}  # EventBridge's scheduled event
    outcome: dict[str, Any] = canary.handler(event, None)
    return outcome


def ack_missing(output: str) -> float:
    """The CanaryAckMissing value the run published (embedded metric format on stdout)."""
    for line in output.splitlines():
        blob = json.loads(line) if line.startswith('{"_aws"') else {}
        if "CanaryAckMissing" in blob:
            assert blob["environment"] == "prod" and blob["service"] == "warpmail"
            (value,) = blob["CanaryAckMissing"]
            return float(value)
    raise AssertionError(f"CanaryAckMissing not published in {output!r}")


def sent_raw() -> list[bytes]:
    sent = ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages
    return [message.raw_data.encode("utf-8", "surrogateescape") for message in sent]


def deliver(raw: bytes, at: datetime) -> None:
    """What SES receiving and the inbound function do with the probe: the real inbound service."""
    settings = Settings.from_environment()
    store = Store(settings)
    receive(raw, "inbound/probe-1", at, store, SesMailer(), settings)


def test_the_first_run_mails_a_probe_to_the_game_and_counts_a_miss(
    verified: None, capsys: pytest.CaptureFixture[str]
) -> None:
    outcome = run(T0)
    assert outcome["landed"] is None and outcome["sent"]
    assert ack_missing(capsys.readouterr().out) == 1
    (raw,) = sent_raw()
    headers = raw.decode()
    assert f"From: canary@{DOMAIN}" in headers and f"To: {GAME}@{DOMAIN}" in headers
    assert f"Subject: STATUS WarpMail canary probe {T0.isoformat()}" in headers


def test_the_previous_probe_logged_by_the_inbound_service_counts_as_landed(
    verified: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the first probe, received by the host a few seconds later
    run(T0)
    (raw,) = sent_raw()
    deliver(raw, T0 + timedelta(seconds=20))
    log = Store(Settings.from_environment()).mail_log(GAME)
    assert [entry.direction for entry in log] == ["rejected"]  # our own mail: logged, not answered
    capsys.readouterr()
    # When the canary runs again a quarter of an hour later
    outcome = run(T0 + timedelta(minutes=15))
    # Then it found the probe, counts no miss, and mailed the next probe
    assert outcome["landed"] == f"STATUS WarpMail canary probe {T0.isoformat()}"
    assert ack_missing(capsys.readouterr().out) == 0
    assert len(sent_raw()) == 2


def test_an_older_probe_does_not_stand_for_the_previous_one(
    verified: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a probe that landed, then a run that never happened (its probe is missing)
    run(T0)
    deliver(sent_raw()[0], T0 + timedelta(seconds=20))
    capsys.readouterr()
    # When the canary runs 30 minutes after that probe
    outcome = run(T0 + timedelta(minutes=30))
    # Then the old probe is outside the window: a miss
    assert outcome["landed"] is None
    assert ack_missing(capsys.readouterr().out) == 1


def test_a_probe_ses_refuses_is_logged_and_nothing_escapes(
    aws: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a mail domain SES has not verified: SES refuses the probe
    outcome = run(T0)
    # Then the run ends normally, the miss is published, and no probe went out
    assert outcome == {"landed": None, "sent": None}
    assert ack_missing(capsys.readouterr().out) == 1
    assert sent_raw() == []


def test_a_run_without_a_canary_game_says_which_setting_is_missing(
    aws: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CANARY_GAME_VARIABLE)
    with pytest.raises(RuntimeError, match=CANARY_GAME_VARIABLE):
        run(T0)


@pytest.mark.parametrize(
    ("subject", "sent"),
    [
        ("STATUS WarpMail canary probe 2026-01-05T18:00:00+00:00", T0),
        ("Re: STATUS WarpMail canary probe 2026-01-05T18:00:00+00:00", T0),
        ("STATUS WarpMail canary probe yesterday", None),
        ("STATUS WarpMail canary probe 2026-01-05T18:00:00", None),  # no zone: not ours
        ("STATUS WarpMail canary probe ", None),
        ("Orders for turn 3", None),
    ],
)
def test_a_probe_is_known_by_the_send_time_in_its_subject(subject: str, sent: datetime | None) -> None:
    assert canary.probe_time(subject) == sent
