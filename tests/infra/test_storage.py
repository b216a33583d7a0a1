"""The mail bucket's lifecycle for other values of ``warpmail:rawMailDays`` than cdk.json's: the
Storage construct alone, in a stack of its own (the whole app is synthesized once, in conftest)."""

from __future__ import annotations

from typing import Any

import pytest
from aws_cdk import App, Stack

from infra.config import DeployConfig
from infra.storage import Storage
from tests.infra.conftest import MAIL_DOMAIN, OPERATOR, cdk_context


def mail_rules(raw_mail_days: int) -> list[dict[str, Any]]:
    config = DeployConfig.model_validate(
        {"mailDomain": MAIL_DOMAIN, "operatorEmail": OPERATOR, "rawMailDays": raw_mail_days}
    )
    # cdk.json's feature flags; CDK's own template validation is slow and cfn-lint runs on the stack.
    app = App(context=cdk_context(), builtin_cloud_formation_validation=False)
    stack = Stack(app, "Storage")
    described = config.resources()
    Storage(stack, "Storage", described, config)
    template = app.synth().get_stack_by_name(stack.stack_name).template
    (mail,) = [
        bucket
        for bucket in template["Resources"].values()
        if bucket["Type"] == "AWS::S3::Bucket"
        and bucket["Properties"].get("BucketName") == described.mail_bucket
    ]
    rules: list[dict[str, Any]] = mail["Properties"]["LifecycleConfiguration"]["Rules"]
    return rules


@pytest.mark.parametrize(("days", "noncurrent"), [(730, 30), (7, 7)])
def test_raw_mail_expires_after_the_days_set_with_older_versions_at_most_30_days_later(
    days: int, noncurrent: int
) -> None:
    rules = mail_rules(days)
    (expiring,) = [rule for rule in rules if rule.get("Id") == "expire-raw-mail"]
    assert expiring == {
        "Id": "expire-raw-mail",
        "Prefix": "inbound/",
        "Status": "Enabled",
        "ExpirationInDays": days,
        "NoncurrentVersionExpiration": {"NoncurrentDays": noncurrent},
    }
    # The archive transition of every object stays as it was.
    assert [rule["Transitions"] for rule in rules if "Transitions" in rule] == [
        [{"StorageClass": "GLACIER_IR", "TransitionInDays": 90}]
    ]


def test_raw_mail_days_0_keeps_raw_mail_forever() -> None:
    rules = mail_rules(0)
    assert [
        rule for rule in rules if "ExpirationInDays" in rule or "NoncurrentVersionExpiration" in rule
    ] == []
    assert [rule["Id"] for rule in rules] == ["archive-all", "abort-uploads-all"]
