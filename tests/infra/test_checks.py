"""cdk-nag's AWS Solutions checks: the app synthesizes with none unacknowledged (the session's
synth would have raised), each acknowledgement gives a specific reason, and the checks do run."""

from __future__ import annotations

import tempfile

import pytest
from aws_cdk import App, Stack
from aws_cdk import aws_s3 as s3

from infra.checks import add_checks
from tests.infra.conftest import Synthesized

GENERIC = ("not needed", "not required", "n/a", "false positive", "suppressed", "ok", "todo")


def acknowledgements(synthesized: Synthesized) -> list[tuple[str, str, str]]:
    """(logical id, finding, reason) of every acknowledgement in the template's metadata."""
    return [
        (logical_id, rule["id"], rule["reason"])
        for logical_id, resource in synthesized.template["Resources"].items()
        for rule in resource.get("Metadata", {}).get("cdk_nag", {}).get("rules_to_suppress", [])
    ]


def test_every_acknowledgement_names_one_finding_and_says_why(synthesized: Synthesized) -> None:
    found = acknowledgements(synthesized)
    assert found
    for logical_id, finding, reason in found:
        assert finding.startswith("AwsSolutions-"), (logical_id, finding)
        assert len(reason) > 60 and reason.strip().lower().rstrip(".") not in GENERIC, (logical_id, reason)
        # An IAM5 acknowledgement names the one wildcard it is about
        if finding.startswith("AwsSolutions-IAM5"):
            assert finding.startswith("AwsSolutions-IAM5[Resource::"), finding


def test_the_acknowledged_findings_are_the_reviewed_ones(synthesized: Synthesized) -> None:
    findings = {finding.split("[")[0] for _, finding, _ in acknowledgements(synthesized)}
    assert findings == {
        "AwsSolutions-IAM5",
        "AwsSolutions-L1",
        "AwsSolutions-S1",
        "AwsSolutions-SNS2",
        "AwsSolutions-SQS3",
    }


def test_an_unacknowledged_finding_fails_the_synth() -> None:
    with tempfile.TemporaryDirectory() as outdir:
        app = App(outdir=outdir, builtin_cloud_formation_validation=False)
        add_checks(app)
        s3.Bucket(Stack(app, "Careless"), "Open")
        with pytest.raises(RuntimeError, match="AwsSolutions-S1"):
            app.synth()
