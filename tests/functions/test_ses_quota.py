"""The SES sending quota find_due publishes (``SesQuotaUsedPercent``): read from SESv2
``GetAccount``, and never a reason for the turn workflow to fail."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.session import get_session
from botocore.stub import Stubber
from moto import mock_aws

from functions import clients
from functions.mail.outbox import OutboxMailer
from functions.mail.ses import SendQuota, SesMailer, mailer_quota, quota


@pytest.fixture
def sesv2() -> Iterator[tuple[Any, Stubber]]:
    client = get_session().create_client(
        "sesv2", region_name="eu-west-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    with Stubber(client) as stubber:
        yield client, stubber


def account(max_24h: float, sent: float, rate: float = 14) -> dict[str, Any]:
    return {"SendQuota": {"Max24HourSend": max_24h, "SentLast24Hours": sent, "MaxSendRate": rate}}


def test_the_quota_is_read_from_get_account(sesv2: tuple[Any, Stubber]) -> None:
    client, stubber = sesv2
    stubber.add_response("get_account", account(50_000, 41_000))
    read = quota(client)
    assert read == SendQuota(max_24_hour_send=50_000, sent_last_24_hours=41_000, max_send_rate=14)
    assert read is not None and read.used_percent == pytest.approx(82.0)


def test_an_account_without_a_daily_limit_has_used_none_of_it(sesv2: tuple[Any, Stubber]) -> None:
    client, stubber = sesv2
    stubber.add_response("get_account", account(-1, 12_345))
    read = quota(client)
    assert read is not None and read.used_percent == 0.0


def test_a_refusal_is_logged_and_gives_no_quota(
    sesv2: tuple[Any, Stubber], caplog: pytest.LogCaptureFixture
) -> None:
    client, stubber = sesv2
    stubber.add_client_error("get_account", "AccessDeniedException", "not allowed: ses:GetAccount")
    with caplog.at_level(logging.WARNING):
        assert quota(client) is None
    assert "ses:GetAccount" in caplog.text


def test_an_emulated_ses_without_get_account_gives_no_quota(monkeypatch: pytest.MonkeyPatch) -> None:
    # moto (the local mode's AWS) has no GetAccount: find_due must run on regardless
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    with mock_aws():
        assert quota(clients.client("sesv2")) is None


def test_only_an_ses_mailer_has_a_quota(sesv2: tuple[Any, Stubber], tmp_path: Any) -> None:
    client, stubber = sesv2
    stubber.add_response("get_account", account(200, 20))
    read = mailer_quota(SesMailer(client))
    assert read is not None and read.used_percent == pytest.approx(10.0)
    assert mailer_quota(OutboxMailer(tmp_path)) is None


def test_a_run_takes_the_games_whose_mail_fits_in_the_quota_left_and_leaves_the_rest_due() -> None:
    from functions.handlers.workflow import MAILS_PER_GAME, within_quota
    from functions.mail.ses import SendQuota

    games = [f"g{n}" for n in range(10)]
    nearly_spent = SendQuota(
        max_24_hour_send=200.0, sent_last_24_hours=200.0 - 3.5 * MAILS_PER_GAME, max_send_rate=1
    )
    assert within_quota(games, nearly_spent) == ["g0", "g1", "g2"], "the earliest due first"
    spent = SendQuota(max_24_hour_send=200.0, sent_last_24_hours=250.0, max_send_rate=1)
    assert within_quota(games, spent) == []
    unlimited = SendQuota(max_24_hour_send=-1.0, sent_last_24_hours=5_000.0, max_send_rate=1)
    assert within_quota(games, unlimited) == games
    assert within_quota(games, None) == games, "an unknown quota holds nothing back"
