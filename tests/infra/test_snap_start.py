"""SnapStart on the inbound function (``warpmail:inboundSnapStart``, infra/compute.py): off by
default (the idle-cost goal); on, SES invokes an alias of the latest published version, which
SnapStart restores from its snapshot, with the same retries, dead-letter queue and permission as
the function had, and superseded versions are deleted."""

from __future__ import annotations

import json
from typing import Any

from cfnlint.api import lint

from infra.compute import LIVE_ALIAS
from infra.config import DeployConfig, context_key
from tests.infra.conftest import Synthesized
from tests.infra.test_stack import inbound_function


def receipt_action(synthesized: Synthesized) -> dict[str, Any]:
    _, invoke = synthesized.one("AWS::SES::ReceiptRule")["Properties"]["Rule"]["Actions"]
    return dict(invoke["LambdaAction"])


def ses_permissions(synthesized: Synthesized) -> dict[str, dict[str, Any]]:
    return {
        i: p["Properties"]
        for i, p in synthesized.resources("AWS::Lambda::Permission").items()
        if p["Properties"]["Principal"] == "ses.amazonaws.com"
    }


def test_snap_start_is_off_by_default_and_ses_invokes_the_function_itself(synthesized: Synthesized) -> None:
    assert DeployConfig.model_fields["inbound_snap_start"].default is False
    assert context_key("inbound_snap_start") == "warpmail:inboundSnapStart"
    inbound_id, inbound = inbound_function(synthesized)
    assert "SnapStart" not in inbound["Properties"]
    # No version is published and no alias made: nothing cached, nothing billed
    assert not synthesized.resources("AWS::Lambda::Version")
    assert not synthesized.resources("AWS::Lambda::Alias")
    assert receipt_action(synthesized)["FunctionArn"] == {"Fn::GetAtt": [inbound_id, "Arn"]}
    (permission,) = ses_permissions(synthesized).values()
    assert permission["FunctionName"] == {"Fn::GetAtt": [inbound_id, "Arn"]}


def test_with_snap_start_ses_invokes_the_alias_of_the_published_version_restored_from_its_snapshot(
    synthesized_snap_start: Synthesized,
) -> None:
    synthesized = synthesized_snap_start
    inbound_id, inbound = inbound_function(synthesized)
    assert inbound["Properties"]["SnapStart"] == {"ApplyOn": "PublishedVersions"}
    # One published version, deleted when a deploy supersedes it (its snapshot is billed while it exists)
    ((version_id, version),) = synthesized.resources("AWS::Lambda::Version").items()
    assert version["Properties"]["FunctionName"] == {"Ref": inbound_id}
    assert version["DeletionPolicy"] == "Delete"
    ((alias_id, alias),) = synthesized.resources("AWS::Lambda::Alias").items()
    assert alias["Properties"]["Name"] == LIVE_ALIAS
    assert alias["Properties"]["FunctionVersion"] == {"Fn::GetAtt": [version_id, "Version"]}
    # The receipt rule invokes the alias, asynchronously, with the permission on the alias only
    assert receipt_action(synthesized) == {"FunctionArn": {"Ref": alias_id}, "InvocationType": "Event"}
    ((permission_id, permission),) = ses_permissions(synthesized).items()
    assert permission["FunctionName"] == {"Ref": alias_id}
    assert "SourceAccount" in permission and ":receipt-rule/" in json.dumps(permission["SourceArn"])
    rule_id = next(iter(synthesized.resources("AWS::SES::ReceiptRule")))
    assert permission_id in synthesized.template["Resources"][rule_id]["DependsOn"]
    # The alias is retried as the function was, and its version keeps the dead-letter queue
    retries = [
        c["Properties"]
        for c in synthesized.resources("AWS::Lambda::EventInvokeConfig").values()
        if alias_id in json.dumps(c["Properties"]["Qualifier"])
    ]
    assert [r["MaximumRetryAttempts"] for r in retries] == [2]
    dead_letters = inbound["Properties"]["DeadLetterConfig"]["TargetArn"]["Fn::GetAtt"][0]
    assert synthesized.template["Resources"][dead_letters]["Type"] == "AWS::SQS::Queue"


def test_the_snap_start_stack_passes_cfn_lint(synthesized_snap_start: Synthesized) -> None:
    region = synthesized_snap_start.stack.region
    matches = lint(json.dumps(synthesized_snap_start.template), regions=[region])
    assert [f"{m.rule.id} {m.message}" for m in matches if m.rule.severity == "error"] == []
