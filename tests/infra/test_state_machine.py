"""The state machine deployed is the file the local mode runs: CDK stages the file itself as an
asset, and CloudFormation substitutes its placeholders; substituted with the same values as the
local mode does it (functions/local/aws.py), the two are the same definition."""

from __future__ import annotations

from typing import Any

from functions.local.aws import substitute
from functions.resources import resources
from tests.infra.conftest import ENVIRONMENT, MAIL_DOMAIN, Synthesized

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
