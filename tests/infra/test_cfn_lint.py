"""cfn-lint on the synthesized template, for the stack's region: no errors (the warnings are CDK's
own redundant DependsOn)."""

from __future__ import annotations

import json

from cfnlint.api import lint

from tests.infra.conftest import Synthesized


def test_cfn_lint_finds_no_error(synthesized: Synthesized) -> None:
    region = synthesized.stack.region
    matches = lint(json.dumps(synthesized.template), regions=[region])
    errors = [f"{m.rule.id} {m.message} ({m.path})" for m in matches if m.rule.severity == "error"]
    assert errors == []
    # The linter does report errors: a resource of a type that does not exist is one
    broken = {"Resources": {"Thing": {"Type": "AWS::S3::Buckett"}}}
    assert any(m.rule.severity == "error" for m in lint(json.dumps(broken), regions=[region]))
