"""Least privilege, read from the template: every statement of every IAM policy names specific
actions (never ``*`` nor ``service:*``) on specific resources. The only ``*`` resources are those of
the actions AWS gives no resource-level permission (X-Ray, and the CloudWatch Logs delivery calls
of Step Functions logging)."""

from __future__ import annotations

import json
from typing import Any

from functions.resources import resources
from tests.infra.conftest import ENVIRONMENT, MAIL_DOMAIN, Synthesized

DESCRIBED = resources(ENVIRONMENT, MAIL_DOMAIN)
UNSCOPABLE = {
    "xray:PutTraceSegments",
    "xray:PutTelemetryRecords",
    "xray:GetSamplingRules",
    "xray:GetSamplingTargets",
    "logs:CreateLogDelivery",
    "logs:GetLogDelivery",
    "logs:UpdateLogDelivery",
    "logs:DeleteLogDelivery",
    "logs:ListLogDeliveries",
    "logs:PutResourcePolicy",
    "logs:DescribeResourcePolicies",
    "logs:DescribeLogGroups",
    "ses:GetAccount",
}
"""Actions that take no resource-level permission: AWS requires Resource "*" for them."""


def listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def statements(synthesized: Synthesized) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for logical_id, policy in synthesized.resources("AWS::IAM::Policy").items():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            found.append((logical_id, statement))
    return found


def role_statements(synthesized: Synthesized, function_key: str) -> list[dict[str, Any]]:
    """The statements of the policy attached to one function's role."""
    function = next(
        f
        for f in synthesized.resources("AWS::Lambda::Function").values()
        if f["Properties"]["FunctionName"] == DESCRIBED.function_name(function_key)
    )
    role = function["Properties"]["Role"]["Fn::GetAtt"][0]
    return [
        s
        for p in synthesized.resources("AWS::IAM::Policy").values()
        if {"Ref": role} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]


def granted(synthesized: Synthesized, function_key: str) -> dict[str, set[str]]:
    """Action -> the resources (as JSON) one function may use it on."""
    grants: dict[str, set[str]] = {}
    for statement in role_statements(synthesized, function_key):
        for action in listed(statement["Action"]):
            grants.setdefault(action, set()).update(json.dumps(r) for r in listed(statement["Resource"]))
    return grants


def test_every_policy_statement_names_its_actions_and_its_resources(synthesized: Synthesized) -> None:
    found = statements(synthesized)
    assert len(found) > 20
    for logical_id, statement in found:
        assert statement["Effect"] == "Allow", logical_id
        actions = listed(statement["Action"])
        assert all(action != "*" and not action.endswith(":*") for action in actions), (logical_id, actions)
        for resource in listed(statement["Resource"]):
            if resource == "*":
                assert set(actions) <= UNSCOPABLE, (logical_id, actions)
            else:
                # A reference to a resource of the stack, or an ARN built from a name
                assert isinstance(resource, dict) and set(resource) & {"Ref", "Fn::GetAtt", "Fn::Join"}, (
                    resource
                )


def test_no_role_has_a_managed_policy(synthesized: Synthesized) -> None:
    for role in synthesized.resources("AWS::IAM::Role").values():
        assert "ManagedPolicyArns" not in role["Properties"]


def objects(bucket: str, prefix: str) -> str:
    """The template's ARN of the objects under ``prefix`` in ``bucket`` (as JSON)."""
    return json.dumps({"Fn::Join": ["", ["arn:", {"Ref": "AWS::Partition"}, f":s3:::{bucket}/{prefix}*"]]})


def test_the_functions_reach_their_own_prefixes_only(synthesized: Synthesized) -> None:
    mail, state = DESCRIBED.mail_bucket, DESCRIBED.state_bucket
    inbound = granted(synthesized, "inbound")
    assert inbound["s3:GetObject"] == {
        objects(mail, "inbound/"),
        objects(state, "states/"),
        objects(state, "results/"),
    }
    assert "s3:PutObject" not in inbound
    process = granted(synthesized, "process_game")
    assert process["s3:GetObject"] == {objects(state, "states/")}
    assert process["s3:PutObject"] == {objects(state, "states/"), objects(state, "results/")}
    assert granted(synthesized, "find_due")["s3:PutObject"] == {objects(state, "work/")}
    # find_due reads the sending quota only (below) and sends nothing; park_failed reads and
    # writes no object, and sends only the parked game's GM their mail
    assert not {action for action in granted(synthesized, "find_due") if action.startswith("ses:Send")}
    parking = granted(synthesized, "park_failed")
    assert not {action for action in parking if action.startswith("s3:")}
    assert {action for action in parking if action.startswith("ses:")} == {
        action for action in granted(synthesized, "process_game") if action.startswith("ses:")
    }


def test_table_access_is_on_the_table_and_its_indexes(synthesized: Synthesized) -> None:
    table = next(iter(synthesized.resources("AWS::DynamoDB::Table")))
    arn = json.dumps({"Fn::GetAtt": [table, "Arn"]})
    indexes = {
        json.dumps({"Fn::Join": ["", [{"Fn::GetAtt": [table, "Arn"]}, f"/index/{index.name}"]]})
        for index in DESCRIBED.table_spec.indexes
    }
    due_index = json.dumps({"Fn::Join": ["", [{"Fn::GetAtt": [table, "Arn"]}, "/index/GSI2"]]})
    find_due = granted(synthesized, "find_due")
    assert {action: r for action, r in find_due.items() if action.startswith("dynamodb:")} == {
        "dynamodb:Query": {due_index},
        "dynamodb:GetItem": {arn},
        "dynamodb:PutItem": {arn},
    }, "the due index, and the run lease"
    (lease,) = [
        s for s in role_statements(synthesized, "find_due") if "dynamodb:PutItem" in listed(s["Action"])
    ]
    assert lease["Condition"] == {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": ["WORKFLOW"]}}
    park = granted(synthesized, "park_failed")
    assert {action: r for action, r in park.items() if action.startswith("dynamodb:")} == {
        action: {arn}
        for action in ("dynamodb:GetItem", "dynamodb:Query", "dynamodb:PutItem", "dynamodb:UpdateItem")
    }, "a game read, a new version written: no index, no delete"
    for key in ("inbound", "process_game"):
        assert granted(synthesized, key)["dynamodb:Query"] == {arn, *indexes}
        assert granted(synthesized, key)["dynamodb:PutItem"] == {arn}


def test_find_due_asks_only_about_the_turn_workflows_runs(synthesized: Synthesized) -> None:
    (describe,) = granted(synthesized, "find_due")["states:DescribeExecution"]
    assert f":execution:{DESCRIBED.state_machine}:*" in describe
    for key in ("inbound", "process_game", "park_failed"):
        assert not {action for action in granted(synthesized, key) if action.startswith("states:")}


def test_only_the_mailing_functions_send_and_only_as_the_domain_with_the_configuration_set(
    synthesized: Synthesized,
) -> None:
    for key in ("inbound", "process_game", "park_failed"):
        sends = granted(synthesized, key)["ses:SendEmail"]
        assert len(sends) == 2
        assert any(f":identity/{MAIL_DOMAIN}" in r for r in sends)
        assert any(f":configuration-set/warpmail-{ENVIRONMENT}" in r for r in sends)


def test_the_state_machine_invokes_the_functions_its_file_names(synthesized: Synthesized) -> None:
    machine = synthesized.one("AWS::StepFunctions::StateMachine")
    role = machine["Properties"]["RoleArn"]["Fn::GetAtt"][0]
    grants = [
        s
        for p in synthesized.resources("AWS::IAM::Policy").values()
        if {"Ref": role} in p["Properties"]["Roles"]
        for s in p["Properties"]["PolicyDocument"]["Statement"]
    ]
    (invoke,) = [s for s in grants if s["Action"] == "lambda:InvokeFunction"]
    functions = {
        f["Properties"]["FunctionName"]: i for i, f in synthesized.resources("AWS::Lambda::Function").items()
    }
    named = [DESCRIBED.function_name(key) for key in ("find_due", "process_game", "park_failed")]
    assert invoke["Resource"] == [{"Fn::GetAtt": [functions[name], "Arn"]} for name in named]


def test_only_find_due_reads_the_sending_quota(synthesized: Synthesized) -> None:
    # find_due publishes SesQuotaUsedPercent (functions/mail/ses.py quota)
    assert granted(synthesized, "find_due")["ses:GetAccount"] == {'"*"'}
    for key in ("inbound", "process_game", "park_failed"):
        assert "ses:GetAccount" not in granted(synthesized, key)
