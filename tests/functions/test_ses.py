"""Sending composed mail: through SES v2 under moto (functions/mail/ses.py), and into the local
outbox folder (functions/mail/outbox.py)."""

from __future__ import annotations

import email
from collections.abc import Iterator
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import boto3
import pytest
from botocore.exceptions import EndpointConnectionError
from botocore.stub import Stubber
from moto import mock_aws
from moto.core import DEFAULT_ACCOUNT_ID  # type: ignore[attr-defined, unused-ignore]
from moto.ses.models import ses_backends

from functions.mail.compose import Attachment, OutgoingMail, compose
from functions.mail.outbox import OutboxMailer
from functions.mail.ses import MailNotSent, MailThrottled, SesMailer

REGION = "eu-west-1"
DOMAIN = "warpmail.test"
SENDER = "warpmail@warpmail.test"
NOW = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
HTML = '<html><body><p>Turn 5</p><img src="cid:map" alt="map"></body></html>'


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": REGION,
    }.items():
        monkeypatch.setenv(name, value)
    with mock_aws():
        yield


@pytest.fixture
def ses(aws: None) -> Any:
    client = boto3.client("sesv2", region_name=REGION)
    # As in the SES sandbox, moto sends only from a verified identity.
    client.create_email_identity(EmailIdentity=DOMAIN)
    return client


def results_mail(to: str = "Zoë <zoe@example.org>") -> EmailMessage:
    mail = OutgoingMail(
        to=to,
        subject="Turn 5 results",
        text="Turn 5: Zoë's fleet holds 1522.\n",
        html=HTML,
        attachments=(
            Attachment(filename="map.png", content_type="image/png", data=PNG, content_id="map"),
            Attachment(filename="report.json", content_type="application/json", data=b'{"turn": 5}'),
        ),
        game_id="g1",
        game_name="WarpWar",
        player_id="Red",
        kind="results",
    )
    return compose(mail, SENDER, DOMAIN, now=NOW)


def parts(message: EmailMessage) -> list[tuple[str, str | None, bytes | str]]:
    """Each leaf part's type, Content-ID and content, line ends as read by a client."""
    found = []
    for part in message.walk():
        if part.is_multipart():
            continue
        content = part.get_content()
        if isinstance(content, str):
            content = content.replace("\r\n", "\n")
        found.append((part.get_content_type(), part.get("Content-ID"), content))
    return found


def read(raw: bytes | str) -> EmailMessage:
    parsed = (
        email.message_from_bytes(raw, policy=policy.default)
        if isinstance(raw, bytes)
        else email.message_from_string(raw, policy=policy.default)
    )
    assert isinstance(parsed, EmailMessage)
    return parsed


# --- SES ---


def test_ses_sends_the_raw_message_to_its_recipient(ses: Any) -> None:
    # Given a composed results mail
    message = results_mail()

    # When it is sent through SES
    message_id = SesMailer(ses).send(message)

    # Then SES got exactly that message, from the sender to the player
    sent = ses_backends[DEFAULT_ACCOUNT_ID][REGION].sent_messages
    assert [mail.id for mail in sent] == [message_id]
    assert sent[0].source == SENDER
    # (moto appends the To header's recipients to the envelope's; SES sends to the envelope's)
    assert sent[0].destinations[0] == "zoe@example.org"
    received = read(sent[0].raw_data)
    assert parts(received) == parts(message)
    assert received["Reply-To"].addresses[0].addr_spec == "g1@warpmail.test"
    assert received["Subject"] == "[WarpWar g1] Turn 5 results"


def test_ses_creates_its_client_when_none_is_given(ses: Any) -> None:
    assert SesMailer().send(results_mail())


def test_an_unverified_sender_is_not_sent(aws: None) -> None:
    client = boto3.client("sesv2", region_name=REGION)

    with pytest.raises(MailNotSent) as refused:
        SesMailer(client).send(results_mail())

    assert refused.value.code == "MessageRejected"
    assert not isinstance(refused.value, MailThrottled)
    assert "zoe@example.org" in str(refused.value)


def test_throttling_is_a_retryable_refusal(aws: None) -> None:
    client = boto3.client("sesv2", region_name=REGION)
    with Stubber(client) as stub:
        stub.add_client_error("send_email", "TooManyRequestsException", "Maximum sending rate exceeded.", 429)

        with pytest.raises(MailThrottled) as refused:
            SesMailer(client).send(results_mail())

    assert refused.value.code == "TooManyRequestsException"
    assert refused.value.detail == "Maximum sending rate exceeded."


def test_ses_out_of_reach_is_a_retryable_refusal() -> None:
    class Unreachable:
        def send_email(self, **_: object) -> dict[str, str]:
            raise EndpointConnectionError(endpoint_url="https://email.eu-west-1.amazonaws.com")

    with pytest.raises(MailThrottled, match="EndpointConnectionError"):
        SesMailer(Unreachable()).send(results_mail())


def test_a_message_without_recipient_is_not_sent() -> None:
    message = results_mail()
    del message["To"]

    with pytest.raises(MailNotSent, match="needs a From and a recipient"):
        SesMailer(object()).send(message)


# --- Outbox ---


def test_outbox_writes_the_message_its_text_and_a_browsable_html(tmp_path: Path) -> None:
    # Given a results mail with the map inline
    message = results_mail()

    # When the outbox sends it
    stem = OutboxMailer(tmp_path).send(message)

    # Then the folder holds the .eml, the text, and the HTML with the map beside it
    assert stem == "0001-zoe@example.org-results"
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "0001-zoe@example.org-results-map.png",
        "0001-zoe@example.org-results.eml",
        "0001-zoe@example.org-results.html",
        "0001-zoe@example.org-results.txt",
    ]
    assert parts(read((tmp_path / f"{stem}.eml").read_bytes())) == parts(message)
    assert (tmp_path / f"{stem}.txt").read_text(encoding="utf-8") == "Turn 5: Zoë's fleet holds 1522.\n"
    assert (tmp_path / f"{stem}-map.png").read_bytes() == PNG
    page = (tmp_path / f"{stem}.html").read_text(encoding="utf-8")
    assert 'src="0001-zoe@example.org-results-map.png"' in page
    assert "cid:" not in page


def test_outbox_numbers_on_after_a_restart(tmp_path: Path) -> None:
    OutboxMailer(tmp_path).send(results_mail())
    OutboxMailer(tmp_path).send(results_mail("blue@example.org"))

    assert OutboxMailer(tmp_path).send(results_mail()) == "0003-zoe@example.org-results"


def test_outbox_file_names_are_safe(tmp_path: Path) -> None:
    stem = OutboxMailer(tmp_path).send(results_mail('"../../etc/x y"@example.org'))

    assert stem == "0001-etc_x_y_@example.org-results"
    assert (tmp_path / f"{stem}.eml").is_file()


def test_outbox_of_text_only_mail_has_no_html(tmp_path: Path) -> None:
    mail = OutgoingMail(
        to="zoe@example.org", subject="Help", text="Commands: HELP\n", kind="notice", game_name=None
    )

    stem = OutboxMailer(tmp_path / "new").send(compose(mail, SENDER, DOMAIN, now=NOW))

    assert stem == "0001-zoe@example.org-notice"
    assert sorted(path.suffix for path in (tmp_path / "new").iterdir()) == [".eml", ".txt"]
