"""The one description of the AWS resources (functions/resources.py) and the settings handlers read."""

from __future__ import annotations

import importlib.metadata

import pytest
from pydantic.plugin import _loader

from functions.resources import (
    GSI1,
    GSI2,
    MissingSettingError,
    Settings,
    resources,
)
from functions.store import table_definition


def test_a_deployment_names_its_resources_after_its_environment() -> None:
    prod = resources("prod", mail_domain="warpmail.example")
    assert (prod.table, prod.mail_bucket, prod.state_bucket) == (
        "warpmail-prod",
        "warpmail-prod-mail",
        "warpmail-prod-state",
    )
    assert prod.sender == "warpmail@warpmail.example"
    assert prod.state_machine == "warpmail-prod-turns"
    assert resources("local").table != prod.table


def test_the_functions_are_the_four_the_workflow_and_mail_need() -> None:
    described = resources()
    assert [f.key for f in described.functions] == ["inbound", "find_due", "process_game", "park_failed"]
    assert all(f.handler.startswith("functions.handlers.") for f in described.functions)
    assert described.function("inbound").handler == "functions.handlers.inbound.handler"
    assert described.function_name("process_game") == "warpmail-local-process-game"
    with pytest.raises(KeyError, match="inbound, find_due"):
        described.function("outbound")


def test_the_state_machine_definition_is_the_shared_asl_file() -> None:
    path = resources().state_machine_file
    assert path.name == "turn.asl.json" and path.parent.name == "statemachine"
    assert path.parent.parent.name == "functions"


def test_handlers_read_back_the_settings_their_environment_was_given() -> None:
    described = resources("test")
    environment = described.handler_environment()
    assert {"WARPMAIL_TABLE", "WARPMAIL_MAIL_BUCKET", "WARPMAIL_STATE_BUCKET", "WARPMAIL_DOMAIN"} <= set(
        environment
    )
    assert {"WARPMAIL_SENDER", "POWERTOOLS_SERVICE_NAME", "POWERTOOLS_METRICS_NAMESPACE"} <= set(environment)
    assert Settings.from_environment(environment) == described.settings()


def test_handlers_skip_the_search_for_pydantic_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a handler's environment, and distributions that fail when read
    for name, value in resources("test").handler_environment().items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(importlib.metadata, "distributions", _no_reading)
    monkeypatch.setattr(_loader, "_plugins", None)  # not yet searched, as in a new process
    # Then pydantic finds no plugin, without reading them
    assert list(_loader.get_plugins()) == []


def _no_reading() -> None:
    raise AssertionError("the installed distributions were read")


def test_the_process_environment_is_read_when_none_is_given() -> None:
    assert Settings.from_environment() == resources("test").settings()


def test_a_missing_setting_is_named() -> None:
    environment = resources().handler_environment()
    del environment["WARPMAIL_STATE_BUCKET"]
    with pytest.raises(MissingSettingError, match="WARPMAIL_STATE_BUCKET"):
        Settings.from_environment(environment)


def test_the_table_definition_declares_every_key_of_the_table_and_its_indexes() -> None:
    definition = table_definition(resources())
    declared = {a["AttributeName"] for a in definition["AttributeDefinitions"]}
    assert declared == {"PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"}
    assert definition["BillingMode"] == "PAY_PER_REQUEST"
    assert [i["IndexName"] for i in definition["GlobalSecondaryIndexes"]] == [GSI1, GSI2]
    assert resources().table_spec.ttl_attribute == "expires"
