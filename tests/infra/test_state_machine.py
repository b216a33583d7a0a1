"""The state machine deployed is the file the local mode runs: CDK stages the file itself as an
asset, and CloudFormation substitutes its placeholders; substituted with the same values as the
local mode does it (functions/local/aws.py), the two are the same definition."""

from __future__ import annotations

import json
from typing import Any

from functions.local.aws import substitute
from functions.resources import resources
from functions.store.keys import WORK_PREFIX
from tests.infra.conftest import ENVIRONMENT, MAIL_DOMAIN, Synthesized
from tests.infra.test_iam import objects

DESCRIBED = resources(ENVIRONMENT, MAIL_DOMAIN)


def fake_arn(key: str) -> str:
    return f"arn:aws:lambda:eu-west-1:123456789012:function:{DESCRIBED.function_name(key)}"


def test_the_deployed_definition_is_the_shared_file(synthesized: Synthesized) -> None:
    machine = synthesized.one("AWS::StepFunctions::StateMachine")["Properties"]
    staged = synthesized.directory / f"asset.{machine['DefinitionS3Location']['Key']}"
    shared = DESCRIBED.state_machine_file.read_text(encoding="utf-8")
    assert staged.read_text(encoding="utf-8") == shared
    keys = {
        logical_id: spec.key
        for logical_id, function in synthesized.resources("AWS::Lambda::Function").items()
        for spec in DESCRIBED.functions
        if DESCRIBED.function_name(spec.key) == function["Properties"]["FunctionName"]
    }

    def value(deployed: Any) -> str:
        if isinstance(deployed, str):
            return deployed
        logical_id, attribute = deployed["Fn::GetAtt"]
        assert attribute == "Arn"
        return fake_arn(keys[logical_id])

    deployed = {name: value(v) for name, v in machine["DefinitionSubstitutions"].items()}
    local = DESCRIBED.state_machine_substitutions(
        {spec.key: fake_arn(spec.key) for spec in DESCRIBED.functions}
    )
    assert deployed == local
    assert "${" not in substitute(shared, deployed)


def test_the_state_machine_reads_the_work_lists_that_expire_after_a_day(synthesized: Synthesized) -> None:
    machine = synthesized.one("AWS::StepFunctions::StateMachine")
    role = machine["Properties"]["RoleArn"]["Fn::GetAtt"][0]
    grants = [
        statement
        for policy in synthesized.resources("AWS::IAM::Policy").values()
        if {"Ref": role} in policy["Properties"]["Roles"]
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]
    ]
    reads = [statement for statement in grants if "s3:" in json.dumps(statement["Action"])]
    assert [(statement["Action"], json.dumps(statement["Resource"])) for statement in reads] == [
        ("s3:GetObject", objects(DESCRIBED.state_bucket, WORK_PREFIX))
    ], "the ItemReader's work lists, nothing else of the bucket"
    (bucket,) = [
        b["Properties"]
        for b in synthesized.resources("AWS::S3::Bucket").values()
        if b["Properties"].get("BucketName") == DESCRIBED.state_bucket
    ]
    (rule,) = [r for r in bucket["LifecycleConfiguration"]["Rules"] if r.get("Prefix") == WORK_PREFIX]
    assert (rule["ExpirationInDays"], rule["NoncurrentVersionExpiration"]["NoncurrentDays"]) == (1, 1)
