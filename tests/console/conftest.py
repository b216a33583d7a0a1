"""Fixtures for the GM console's tests: fake AWS credentials (no test may reach AWS), a local
host kept open across commands (starting one costs seconds; the console's own open-per-command
path has its own test), mail read back from the outbox, and a deployed stack faked in moto."""

from __future__ import annotations

import email
import json
import re
from collections.abc import Iterator
from datetime import datetime
from email.message import EmailMessage
from email.policy import default
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from functions import cli
from functions.console import backend as backends
from functions.console.backend import LocalBackend, WorkflowRun
from functions.console.choice import Choice
from functions.resources import Resources, resources
from functions.store import Store, provision

REGION = "eu-west-1"
CODE = re.compile(r"\b[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{2}\b")
"""A secret code as functions/mail/codes.py makes them."""


def fake_aws(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SECURITY_TOKEN", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("AWS_ACCOUNT_ID_ENDPOINT_MODE", "disabled")
    for name in ("AWS_ENDPOINT_URL", "AWS_PROFILE", "WARPMAIL_STACK", "WARPMAIL_LOCAL_ROOT"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module", autouse=True)
def fake_aws_module() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        fake_aws(monkeypatch)
        yield


class KeptOpen:
    """A LocalBackend that stays open between commands: ``close`` only collects the outbox."""

    def __init__(self, backend: LocalBackend) -> None:
        self.backend = backend
        self.store = backend.store
        self.mailer = backend.mailer
        self.settings = backend.settings
        self.choices: list[Choice] = []

    def run_workflow(self, now: datetime) -> WorkflowRun:
        return self.backend.run_workflow(now)

    def deliver(self, raw: bytes) -> str:
        return self.backend.deliver(raw)

    def close(self) -> None:
        self.backend.host.collect()

    @property
    def outbox(self) -> Path:
        return self.backend.host.outbox_folder


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory, fake_aws_module: None) -> Iterator[KeptOpen]:
    backend = LocalBackend(tmp_path_factory.mktemp("gm"))
    try:
        yield KeptOpen(backend)
    finally:
        backend.host.stop(save=False)


@pytest.fixture
def console(local: KeptOpen, monkeypatch: pytest.MonkeyPatch) -> KeptOpen:
    """Every ``warpmail`` local command runs on the kept-open host (stack commands as they are)."""
    opener = backends.open_backend

    def open_backend(choice: Choice) -> Any:
        local.choices.append(choice)
        return opener(choice) if choice.stack else local

    monkeypatch.setattr(backends, "open_backend", open_backend)
    return local


def warpmail(*args: str) -> int:
    return cli.main(list(args))


def outbox_mails(folder: Path, to: str | None = None) -> list[EmailMessage]:
    """The mails in the outbox (to ``to`` only, when given), in the order sent."""
    mails = [_parsed(path) for path in sorted(folder.glob("*.eml"))]
    return [message for message in mails if to is None or to in str(message["To"])]


@cache
def _parsed(path: Path) -> EmailMessage:
    """An outbox mail, parsed once: the outbox writes each file once, under a new number."""
    message = email.message_from_bytes(path.read_bytes(), policy=default)
    assert isinstance(message, EmailMessage)
    return message


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def code_sent_to(folder: Path, address: str) -> str:
    """The secret code in the latest mail to ``address`` that carries one."""
    for message in reversed(outbox_mails(folder, address)):
        found = CODE.search(text_of(message))
        if found:
            return found.group()
    raise AssertionError(f"no secret code was mailed to {address}")


STACK_OUTPUTS = ("Environment", "MailDomain", "Sender", "TableName", "MailBucket", "StateBucket")


def fake_stack(name: str, env: str, clients: Any, mail_domain: str = "warpmail.example") -> Resources:
    """A deployed stack in moto: its table and buckets provisioned, its sender verified, a
    state machine, and a CloudFormation stack whose outputs name them (as infra/ outputs them).
    ``clients``: service name -> boto3 client."""
    described = resources(env, mail_domain=mail_domain, region=REGION)
    provision(described, clients("dynamodb"), clients("s3"))
    clients("sesv2").create_email_identity(EmailIdentity=mail_domain)
    clients("sesv2").create_configuration_set(ConfigurationSetName=f"{described.table}-sending")
    machine = clients("stepfunctions").create_state_machine(
        name=described.state_machine,
        definition=json.dumps({"StartAt": "Done", "States": {"Done": {"Type": "Pass", "End": True}}}),
        roleArn=f"arn:aws:iam::123456789012:role/{env}-states",
    )
    outputs = {
        "Environment": env,
        "MailDomain": mail_domain,
        "Sender": described.sender,
        "TableName": described.table,
        "MailBucket": described.mail_bucket,
        "StateBucket": described.state_bucket,
        "StateMachineArn": machine["stateMachineArn"],
        "InboundFunctionName": described.function_name("inbound"),
        "ConfigurationSetName": f"{described.table}-sending",
    }
    template = {
        "Resources": {"Alarms": {"Type": "AWS::SNS::Topic"}},
        "Outputs": {key: {"Value": value} for key, value in outputs.items()},
    }
    clients("cloudformation").create_stack(StackName=name, TemplateBody=json.dumps(template))
    return described


def stack_store(described: Resources, clients: Any) -> Store:
    return Store(described.settings(), clients("dynamodb"), clients("s3"))
