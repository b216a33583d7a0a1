"""The synthetic canary in the stack: none unless ``warpmail:canaryGame`` is set; with it, a rule
every 15 minutes runs the canary function, whose role reads only the canary game's partition and
sends only as the domain, and an alarm watches CanaryAckMissing (a second synth, with cdk-nag)."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from aws_cdk import App
from aws_cdk.assertions import Match, Template

from functions.resources import CANARY_GAME_VARIABLE, METRICS_NAMESPACE, resources
from functions.store.keys import log_pk
from infra.app import build
from tests.infra.conftest import ENVIRONMENT, MAIL_DOMAIN, Synthesized, cdk_context

GAME = "probe"
DESCRIBED = resources(ENVIRONMENT, MAIL_DOMAIN)
CANARY = DESCRIBED.function_name("canary")


@pytest.fixture(scope="module")
def template() -> Iterator[Template]:
    with tempfile.TemporaryDirectory() as outdir:
        context = cdk_context(**{"warpmail:canaryGame": GAME})
        app = App(outdir=outdir, context=context, builtin_cloud_formation_validation=False)
        stack = build(app)  # cdk-nag runs in the synth and raises on any unacknowledged finding
        yield Template.from_stack(stack)


def only(template: Template, kind: str, properties: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    found = template.find_resources(kind, {"Properties": properties})
    assert len(found) == 1, found
    ((logical_id, resource),) = found.items()
    return logical_id, resource


def test_no_canary_unless_a_canary_game_is_set(synthesized: Synthesized) -> None:
    names = {f["Properties"]["FunctionName"] for f in synthesized.resources("AWS::Lambda::Function").values()}
    assert CANARY not in names
    alarms = {a["Properties"]["AlarmName"] for a in synthesized.resources("AWS::CloudWatch::Alarm").values()}
    assert f"warpmail-{ENVIRONMENT}-canary" not in alarms


def test_a_rule_runs_the_canary_function_every_15_minutes(template: Template) -> None:
    function_id, function = only(template, "AWS::Lambda::Function", {"FunctionName": CANARY})
    properties = function["Properties"]
    assert properties["Handler"] == "functions.handlers.canary.handler"
    assert properties["Architectures"] == ["arm64"] and properties["Runtime"] == "python3.12"
    assert properties["Environment"][
        "Variables"
    ] == DESCRIBED.with_configuration_set().handler_environment() | {CANARY_GAME_VARIABLE: GAME}
    template.has_resource_properties(
        "AWS::Events::Rule",
        {
            "ScheduleExpression": "rate(15 minutes)",
            "State": "ENABLED",
            "Targets": [
                Match.object_like(
                    {"Arn": {"Fn::GetAtt": [function_id, "Arn"]}, "RetryPolicy": {"MaximumRetryAttempts": 0}}
                )
            ],
        },
    )
    template.has_resource_properties(
        "AWS::Lambda::Permission",
        {"FunctionName": {"Fn::GetAtt": [function_id, "Arn"]}, "Principal": "events.amazonaws.com"},
    )


def test_the_canary_reads_its_games_partition_and_sends_as_the_domain_only(template: Template) -> None:
    _, function = only(template, "AWS::Lambda::Function", {"FunctionName": CANARY})
    role = function["Properties"]["Role"]["Fn::GetAtt"][0]
    policies = template.find_resources("AWS::IAM::Policy", {"Properties": {"Roles": [{"Ref": role}]}})
    statements = [s for p in policies.values() for s in p["Properties"]["PolicyDocument"]["Statement"]]
    actions = {
        a for s in statements for a in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])
    }
    assert actions == {
        "dynamodb:Query",
        "ses:SendEmail",
        "ses:SendRawEmail",
        "logs:CreateLogStream",
        "logs:PutLogEvents",
    }
    (query,) = [s for s in statements if s["Action"] == "dynamodb:Query"]
    assert query["Condition"] == {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": [log_pk(GAME)]}}
    (send,) = [s for s in statements if "ses:SendEmail" in s["Action"]]
    resources_named = json.dumps(send["Resource"])
    assert (
        f":identity/{MAIL_DOMAIN}" in resources_named
        and f":configuration-set/warpmail-{ENVIRONMENT}" in resources_named
    )


def test_an_alarm_pages_on_two_missing_probes_or_a_silent_canary(template: Template) -> None:
    topic_id, _ = only(template, "AWS::SNS::Topic", {"TopicName": f"warpmail-{ENVIRONMENT}-operations"})
    _, alarm = only(template, "AWS::CloudWatch::Alarm", {"AlarmName": f"warpmail-{ENVIRONMENT}-canary"})
    properties = alarm["Properties"]
    assert (properties["Namespace"], properties["MetricName"]) == (METRICS_NAMESPACE, "CanaryAckMissing")
    assert {d["Name"]: d["Value"] for d in properties["Dimensions"]} == {
        "service": "warpmail",
        "environment": ENVIRONMENT,
    }
    assert (properties["Period"], properties["Statistic"], properties["Threshold"]) == (900, "Maximum", 1)
    assert (properties["EvaluationPeriods"], properties["DatapointsToAlarm"]) == (2, 2)
    assert properties["TreatMissingData"] == "breaching"
    assert properties["AlarmActions"] == [{"Ref": topic_id}]
