"""The deployment's settings from CDK context: defaults in cdk.json, every bad value named."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infra.config import ConfigError, DeployConfig, context_key, from_context
from tests.infra.conftest import cdk_context


class Context:
    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values

    def try_get_context(self, key: str) -> Any:
        return self.values.get(key)


def test_cdk_json_holds_a_default_for_every_setting_but_the_domain_and_the_operator() -> None:
    # Given cdk.json's context and only the two settings that have no default
    config = from_context(Context(cdk_context()))
    # Then every setting is read, with the documented defaults
    assert config.mail_domain == "games.example.org" and config.operator_email == "gm@example.org"
    assert (config.schedule_minutes, config.log_retention_days, config.archive_days) == (5, 30, 90)
    assert config.raw_mail_days == 365
    assert config.resources().sender == "warpmail@games.example.org"
    assert config.resources().configuration_set == f"warpmail-{config.environment}"


def test_command_line_values_arrive_as_strings_and_are_read_as_numbers() -> None:
    context = cdk_context(**{"warpmail:scheduleMinutes": "15", "warpmail:bounceRateAlarm": "0.03"})
    config = from_context(Context(context))
    assert config.schedule_minutes == 15 and config.bounce_rate_alarm == 0.03
    assert config.resources().schedule_minutes == 15


def test_missing_settings_are_named_with_how_to_give_them() -> None:
    context = cdk_context()
    del context["warpmail:mailDomain"], context["warpmail:operatorEmail"]
    with pytest.raises(ConfigError) as raised:
        from_context(Context(context))
    message = str(raised.value)
    assert "warpmail:mailDomain: not set: give it with -c KEY=VALUE" in message
    assert "warpmail:operatorEmail: not set" in message


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("warpmail:logRetentionDays", 31, "CloudWatch Logs keeps logs for one of 1, 3, 5"),
        ("warpmail:scheduleMinutes", 0, "greater than or equal to 1"),
        ("warpmail:mailDomain", "Games Example", "should match pattern"),
        ("warpmail:sender", "host@elsewhere.org", "must be an address at warpmail:mailDomain"),
        ("warpmail:environment", "Prod_1", "should match pattern"),
        ("warpmail:environment", "prod-", "should match pattern"),
        ("warpmail:archiveDays", 10, "greater than or equal to 30"),
        ("warpmail:rawMailDays", -1, "greater than or equal to 0"),
        ("warpmail:colour", "blue", "Extra inputs are not permitted"),
    ],
)
def test_a_wrong_setting_is_named_with_what_was_given(key: str, value: Any, said: str) -> None:
    context = cdk_context(**{key: value})
    if key == "warpmail:colour":
        # An unknown key is only seen if the reader asks for it: the model refuses it when given.
        with pytest.raises(ValueError, match=said):
            DeployConfig.model_validate({"mailDomain": "a.org", "operatorEmail": "x@a.org", "colour": "blue"})
        return
    with pytest.raises(ConfigError, match=said) as raised:
        from_context(Context(context))
    assert repr(value) in str(raised.value) or key == "warpmail:sender"


def test_context_keys_are_the_camel_case_field_names() -> None:
    assert context_key("mail_domain") == "warpmail:mailDomain"
    assert context_key("results_retention_days") == "warpmail:resultsRetentionDays"


@settings(max_examples=60, deadline=None)
@given(
    environment=st.from_regex(r"[a-z]([a-z0-9-]{0,18}[a-z0-9])?", fullmatch=True),
    labels=st.lists(
        st.from_regex(r"[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?", fullmatch=True), min_size=1, max_size=3
    ),
)
def test_every_valid_environment_and_domain_give_names_aws_accepts(
    environment: str, labels: list[str]
) -> None:
    domain = ".".join([*labels, "org"])
    config = DeployConfig.model_validate(
        {"environment": environment, "mailDomain": domain, "operatorEmail": "a@b.org"}
    )
    described = config.resources()
    for bucket in (described.mail_bucket, described.state_bucket):
        assert re.fullmatch(r"[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]", bucket), bucket
    assert all(len(described.function_name(f.key)) <= 64 for f in described.functions)
    assert len(described.state_machine) <= 80 and len(described.configuration_set) <= 64
