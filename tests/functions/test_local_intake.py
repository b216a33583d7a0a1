"""Local mode's mail in: .eml files dropped into the inbox folder and mail sent to the local SMTP
port land in the mail bucket under the inbound prefix, as SES's receipt rule stores them, and
start the inbound function (a stub from this module)."""

from __future__ import annotations

import smtplib
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

import pytest

from functions.local.host import LocalHost
from functions.resources import FunctionSpec, Resources, Settings, resources

HERE = "tests.functions.test_local_intake"
KEYS: list[str] = []
TRUSTED: list[bool] = []
ORDERS = b"From: zoe@example.org\r\nTo: g-alpha@warpmail.test\r\nSubject: Orders\r\n\r\nW1 M 0101\r\n"


def inbound(event: dict[str, Any], context: Any) -> None:
    KEYS.extend(unquote_plus(record["s3"]["object"]["key"]) for record in event["Records"])
    TRUSTED.append(Settings.from_environment().trust_intake)


def stub_resources() -> Resources:
    functions = (FunctionSpec(key="inbound", handler=f"{HERE}.inbound", memory_mb=128, timeout_s=30),)
    no_workflow = Path(__file__).parent / "no-such-state-machine.asl.json"
    return resources("local").model_copy(update={"functions": functions, "state_machine_file": no_workflow})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def running_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalHost]:
    root = tmp_path_factory.mktemp("local")
    with LocalHost(root, stub_resources(), smtp_port=free_port()) as running:
        yield running


@pytest.fixture
def host(running_host: LocalHost) -> LocalHost:
    KEYS.clear()
    TRUSTED.clear()
    return running_host


def stored(host: LocalHost, key: str) -> bytes:
    body: bytes = host.client("s3").get_object(Bucket=host.resources.mail_bucket, Key=key)["Body"].read()
    return body


def test_mail_sent_to_the_smtp_port_lands_in_the_bucket(host: LocalHost) -> None:
    assert host.smtp_address is not None
    with smtplib.SMTP(*host.smtp_address) as smtp:
        refused = smtp.sendmail("zoe@example.org", ["g-alpha@warpmail.test"], ORDERS)
    assert refused == {}
    [key] = KEYS
    assert key.startswith("inbound/")
    mail = stored(host, key)
    assert mail.startswith(b"Return-Path: <zoe@example.org>\r\n")
    assert mail.endswith(ORDERS)


def test_smtp_refuses_recipients_outside_the_mail_domain(host: LocalHost) -> None:
    assert host.smtp_address is not None
    with smtplib.SMTP(*host.smtp_address) as smtp, pytest.raises(smtplib.SMTPRecipientsRefused):
        smtp.sendmail("zoe@example.org", ["someone@example.org"], ORDERS)
    assert KEYS == []


def test_dropped_eml_lands_in_the_bucket_and_moves_to_done(host: LocalHost) -> None:
    dropped = host.inbox / "orders.eml"
    dropped.write_bytes(ORDERS)
    (host.inbox / "notes.txt").write_text("not mail")
    keys = host.scan_inbox()
    assert keys == KEYS
    assert len(keys) == 1
    assert stored(host, keys[0]).endswith(ORDERS)
    assert stored(host, keys[0]).startswith(b"Return-Path: <zoe@example.org>\r\n"), "the From address"
    assert not dropped.exists()
    assert (host.inbox / "done" / "orders.eml").read_bytes() == ORDERS
    assert (host.inbox / "notes.txt").exists()


def test_files_are_delivered_in_name_order_and_a_repeated_name_is_kept(host: LocalHost) -> None:
    for name in ("02.eml", "01.eml"):
        (host.inbox / name).write_bytes(ORDERS.replace(b"Orders", name.encode()))
    (host.inbox / "done" / "01.eml").write_bytes(b"an earlier 01")
    keys = host.scan_inbox()
    assert [stored(host, key).split(b"Subject: ")[1][:6] for key in keys] == [b"01.eml", b"02.eml"]
    assert len(list((host.inbox / "done").glob("01*.eml"))) == 2


def test_deliver_takes_a_file_and_leaves_it_in_place(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "mail.eml"
    path.write_bytes(ORDERS)
    key = host.deliver(path)
    assert [key] == KEYS
    assert path.exists()


def test_the_local_host_trusts_its_own_intake_and_nothing_else_does(host: LocalHost) -> None:
    """The intake checks nothing, so the local host's inbound function trusts mail without SES
    verdicts (verdicts written in it still count: tests/functions/test_bad_mail.py); the
    description every deployment is made from never does."""
    host.deliver(ORDERS)
    assert TRUSTED == [True]
    assert resources("local").settings().trust_intake is False
    assert resources("prod").handler_environment()["WARPMAIL_TRUST_INTAKE"] == ""
