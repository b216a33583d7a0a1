"""Local mode's AWS: moto in-process, Lambda handlers run in this process, the state machine file
executed by moto, and sent mail captured into the outbox.

The handlers here are stubs in this module (the Lambda functions are created with handler strings
pointing at them), so these tests pin the local machinery, not the real handlers.
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

import boto3
import pytest
from moto.awslambda.models import LambdaFunction
from moto.ses.models import SESBackend
from moto.utilities.docker_utilities import DockerModel

from functions.local.aws import in_process_lambdas, substitute
from functions.local.host import LocalHost
from functions.resources import FunctionSpec, Resources, resources

HERE = "tests.functions.test_local_aws"
CALLS: list[tuple[str, Any]] = []


def inbound(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Stub inbound handler: records the event and answers the sender through SES."""
    CALLS.append(("inbound", event))
    record = event["Records"][0]["s3"]
    key = unquote_plus(record["object"]["key"])  # S3 event keys are URL-encoded
    boto3.client("s3").get_object(Bucket=record["bucket"]["name"], Key=key)
    reply = EmailMessage()
    reply["From"] = os.environ["WARPMAIL_SENDER"]
    reply["To"] = "player@example.org"
    reply["Subject"] = "Orders received"
    reply.set_content("Thank you.")
    reply.add_alternative("<p>Thank you.</p>", subtype="html")
    boto3.client("sesv2").send_email(
        FromEmailAddress=os.environ["WARPMAIL_SENDER"],
        Destination={"ToAddresses": ["player@example.org"]},
        Content={"Raw": {"Data": reply.as_bytes()}},
    )
    return {"table": os.environ["WARPMAIL_TABLE"], "remaining_ms": context.get_remaining_time_in_millis()}


def fail(event: dict[str, Any], context: Any) -> None:
    raise ValueError("the engine fell over")


def stub_resources() -> Resources:
    functions = (
        FunctionSpec(key="inbound", handler=f"{HERE}.inbound", memory_mb=128, timeout_s=30),
        FunctionSpec(key="fail", handler=f"{HERE}.fail", memory_mb=128, timeout_s=30),
    )
    no_workflow = Path(__file__).parent / "no-such-state-machine.asl.json"
    return resources("local").model_copy(update={"functions": functions, "state_machine_file": no_workflow})


@pytest.fixture(scope="module")
def running_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalHost]:
    with LocalHost(tmp_path_factory.mktemp("local"), stub_resources()) as running:
        yield running


@pytest.fixture
def host(running_host: LocalHost) -> LocalHost:
    CALLS.clear()
    return running_host


def test_moto_internals_patched_by_local_mode_are_still_there() -> None:
    """Local mode replaces moto's LambdaFunction._invoke_lambda and reads SES's sent_messages:
    if moto changes these, this fails first, naming what moved."""
    assert "_invoke_lambda" in LambdaFunction.__dict__, "moto's Lambda invocation method moved"
    assert list(inspect.signature(LambdaFunction._invoke_lambda).parameters) == ["self", "event"]
    assert isinstance(DockerModel.__dict__.get("docker_client"), property), "moto's docker_client moved"
    assert issubclass(LambdaFunction, DockerModel)
    assert "sent_messages" in inspect.getsource(SESBackend.__init__), "moto's SES sent_messages moved"


def test_in_process_patch_is_undone_on_exit() -> None:
    original = LambdaFunction.__dict__["_invoke_lambda"]
    with in_process_lambdas():
        assert LambdaFunction.__dict__["_invoke_lambda"] is not original
    assert LambdaFunction.__dict__["_invoke_lambda"] is original
    assert "docker_client" not in LambdaFunction.__dict__


def test_raw_mail_put_under_inbound_runs_the_inbound_handler_in_process(host: LocalHost) -> None:
    key = host.deliver(
        b"From: player@example.org\r\nTo: g-1@warpmail.test\r\nSubject: orders\r\n\r\nW1 M 0101\r\n"
    )
    assert key.startswith("inbound/")
    [(name, event)] = CALLS
    assert name == "inbound"
    assert event["Records"][0]["s3"]["bucket"]["name"] == host.resources.mail_bucket
    stored = host.client("s3").get_object(Bucket=host.resources.mail_bucket, Key=key)["Body"].read()
    assert stored.startswith(
        b"Return-Path: <player@example.org>\r\nReceived: from localhost by warpmail-local; "
    )
    assert stored.endswith(b"W1 M 0101\r\n")


def test_a_put_outside_inbound_runs_nothing(host: LocalHost) -> None:
    host.client("s3").put_object(Bucket=host.resources.mail_bucket, Key="outbound/x", Body=b"x")
    assert CALLS == []


def test_handler_gets_its_environment_and_a_context(host: LocalHost) -> None:
    arn = host.aws.function_arns["inbound"]
    host.deliver(b"Subject: x\r\n\r\nx\r\n")
    response = host.client("lambda").invoke(FunctionName=arn, Payload=json.dumps(CALLS[0][1]))
    answer = json.loads(response["Payload"].read())
    assert answer["table"] == host.resources.table
    assert 0 < answer["remaining_ms"] <= 30_000


def test_handler_exception_is_lambdas_error_payload(host: LocalHost) -> None:
    response = host.client("lambda").invoke(
        FunctionName=host.aws.function_arns["fail"], Payload=json.dumps({"game_id": "broken"})
    )
    assert response["FunctionError"] == "Handled"
    payload = json.loads(response["Payload"].read())
    assert payload["errorType"] == "ValueError"
    assert payload["errorMessage"] == "the engine fell over"


def test_sent_mail_is_captured_in_the_outbox(host: LocalHost) -> None:
    before = len(host.outbox())
    host.deliver(b"Subject: x\r\n\r\nx\r\n")
    entry = host.outbox()[-1]
    assert (entry.to, entry.subject) == ("player@example.org", "Orders received")
    assert entry.path.with_suffix(".html").read_text(encoding="utf-8").strip() == "<p>Thank you.</p>"
    assert entry.path.with_suffix(".txt").read_text(encoding="utf-8").strip() == "Thank you."
    host.deliver(b"Subject: y\r\n\r\ny\r\n")
    assert len(host.outbox()) == before + 2


def test_state_machine_placeholders_are_the_function_keys() -> None:
    assert resources().function("process_game").placeholder == "ProcessGameFunctionArn"
    assert substitute('{"Resource": "${FindDueFunctionArn}"}', {"FindDueFunctionArn": "arn:x"}) == (
        '{"Resource": "arn:x"}'
    )
    with pytest.raises(ValueError, match="MysteryArn"):
        substitute('"${MysteryArn}"', {})
