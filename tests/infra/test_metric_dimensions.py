"""The alarms on custom metrics select what the deployed handlers publish: the same namespace, name
and dimensions (``service`` and the deployment's ``environment``), so another environment's
metrics never raise them. The handlers run under moto with the deployed functions' environment;
Powertools writes each metric to stdout in CloudWatch's embedded metric format."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber
from moto import mock_aws

from functions.handlers import inbound, workflow
from functions.local.aws import LambdaContext
from functions.resources import METRICS_NAMESPACE
from functions.schedule import due_at
from functions.store import GameRecord, provision
from tests.functions.test_turns import GAME, new_game
from tests.infra.conftest import ENVIRONMENT, Synthesized
from tests.infra.test_stack import DESCRIBED, alarms

RUN = "arn:aws:states:eu-west-1:123456789012:execution:warpmail-test-turns:tick-1"

REGION = "eu-west-1"


def forget_containers() -> None:
    """Drop the settings and clients the handler modules made (with another test's environment)."""
    for cached in (inbound.dependencies, workflow.settings, workflow.store, workflow.mailer):
        cached.cache_clear()


@pytest.fixture
def deployed(synthesized: Synthesized, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """moto with the deployment's table, and the environment the stack gives its functions."""
    (function, *_) = synthesized.resources("AWS::Lambda::Function").values()
    fake = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": REGION}
    variables = function["Properties"]["Environment"]["Variables"]
    for name, value in {**fake, **variables, "POWERTOOLS_TRACE_DISABLED": "1"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_ACCOUNT_ID_ENDPOINT_MODE", "disabled")
    # The local mode's command line quiets metrics for its own process (functions/local/cli.py);
    # a test that ran it in this process may have left that behind.
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    monkeypatch.delenv(workflow.OUTBOX_VARIABLE, raising=False)
    # A new container: the inbound module's Metrics reads its namespace from the environment at import
    importlib.reload(inbound)
    forget_containers()
    with mock_aws():
        provision(
            DESCRIBED, boto3.client("dynamodb", region_name=REGION), boto3.client("s3", region_name=REGION)
        )
        yield
    forget_containers()
    workflow.metrics.clear_default_dimensions()


def published(output: str, name: str) -> tuple[str, dict[str, str]]:
    """(namespace, dimensions) of metric ``name`` in the handler's embedded-metric-format output."""
    namespace, dimensions, _ = emitted(output, name)
    return namespace, dimensions


def emitted(output: str, name: str) -> tuple[str, dict[str, str], float]:
    """(namespace, dimensions, value) of metric ``name`` in the embedded-metric-format output."""
    for line in output.splitlines():
        blob: dict[str, Any] = json.loads(line) if line.startswith('{"_aws"') else {}
        for directive in blob.get("_aws", {}).get("CloudWatchMetrics", []):
            if name in {metric["Name"] for metric in directive["Metrics"]}:
                (names,) = directive["Dimensions"]
                value = blob[name][0] if isinstance(blob[name], list) else blob[name]
                return directive["Namespace"], {dimension: blob[dimension] for dimension in names}, value
    raise AssertionError(f"{name} not published in {output!r}")


def selected(synthesized: Synthesized, what: str) -> tuple[str, dict[str, str]]:
    alarm = alarms(synthesized)[what]
    return alarm["Namespace"], {d["Name"]: d["Value"] for d in alarm["Dimensions"]}


def test_an_inbound_failure_raises_this_environments_alarm(
    synthesized: Synthesized, deployed: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a mail the inbound function cannot read (no such object)
    event = {
        "Records": [
            {
                "eventSource": "aws:s3",
                "s3": {"bucket": {"name": DESCRIBED.mail_bucket}, "object": {"key": "inbound/gone"}},
            }
        ]
    }
    # When the deployed handler runs
    name = DESCRIBED.function_name("inbound")
    context = LambdaContext(name, "$LATEST", name, 512, "request-1", "group", "stream", deadline=1e12)
    outcome = inbound.handler(event, context)
    # Then it fails softly, and publishes InboundFailed where the alarm looks
    assert outcome["outcomes"][0]["status"] == "failed"
    metric = published(capsys.readouterr().out, "InboundFailed")
    assert metric == selected(synthesized, "inbound-failed")
    assert metric == (METRICS_NAMESPACE, {"service": "warpmail", "environment": ENVIRONMENT})


def test_a_parked_game_raises_this_environments_alarm(
    synthesized: Synthesized, deployed: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # When the workflow parks a game (an engine error parks at once)
    workflow.store().create_game(GameRecord(game_id="g1", title="Test", status="running"), [], "{}")
    failure = {"Error": "EngineError", "Cause": "the engine fell over"}
    event = {"game_id": "g1", "now": "2026-01-05T18:00:00+00:00", "run": "tick-1", "error": failure}
    assert workflow.park_failed(event, None)["parked"] is True
    # Then GamesParked is published where the alarm looks
    assert published(capsys.readouterr().out, "GamesParked") == selected(synthesized, "games-parked")


def test_find_due_publishes_the_backlog_and_the_sending_quota_where_their_alarms_look(
    synthesized: Synthesized, deployed: None, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a game due 45 minutes ago, and SES saying 41,000 of the day's 50,000 mails are sent
    new_game(workflow.store())
    game = workflow.store().game(GAME)
    assert game is not None
    due = due_at(game)
    assert due is not None
    quota = {"SendQuota": {"Max24HourSend": 50_000.0, "SentLast24Hours": 41_000.0, "MaxSendRate": 14.0}}
    with Stubber(workflow.mailer().client) as ses:
        ses.add_response("get_account", quota)
        # When the schedule's run finds the due games
        found = workflow.find_due(
            {"run": RUN, "input": {"now": (due + timedelta(minutes=45)).isoformat()}}, None
        )
    assert found["games"] == 1
    # Then the backlog and the quota are published where the alarms look, and would raise them
    out = capsys.readouterr().out
    namespace, dimensions, oldest = emitted(out, "OldestDueMinutes")
    assert (namespace, dimensions) == selected(synthesized, "due-backlog")
    assert oldest == 45 and oldest >= alarms(synthesized)["due-backlog"]["Threshold"]
    assert emitted(out, "DueGames")[1:] == (dimensions, 1)
    namespace, dimensions, used = emitted(out, "SesQuotaUsedPercent")
    assert (namespace, dimensions) == selected(synthesized, "ses-quota")
    assert used == 82 and used >= alarms(synthesized)["ses-quota"]["Threshold"]


def test_an_idle_run_publishes_no_metric(deployed: None, capsys: pytest.CaptureFixture[str]) -> None:
    # Each custom metric published all month costs $0.30: idle runs publish none
    assert workflow.find_due({"run": RUN, "input": {"now": "2026-01-05T18:00:00+00:00"}}, None)["games"] == 0
    assert '"CloudWatchMetrics"' not in capsys.readouterr().out


def test_the_environment_is_the_deployments_and_is_required(
    deployed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert DESCRIBED.handler_environment()["WARPMAIL_ENV"] == ENVIRONMENT
    monkeypatch.delenv("WARPMAIL_ENV")
    with pytest.raises(RuntimeError, match="WARPMAIL_ENV"):
        workflow.find_due({}, None)
