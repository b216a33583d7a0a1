"""The deployed handlers send with the stack's SES configuration set (which suppresses bouncing
addresses); the local mode, which has none, sends without."""

from __future__ import annotations

import pytest

from functions.handlers import inbound, workflow
from functions.resources import Settings, resources
from tests.infra.conftest import Synthesized


def test_the_functions_are_told_the_configuration_set_the_stack_creates(synthesized: Synthesized) -> None:
    name = synthesized.one("AWS::SES::ConfigurationSet")["Properties"]["Name"]
    for function in synthesized.resources("AWS::Lambda::Function").values():
        settings = Settings.from_environment(function["Properties"]["Environment"]["Variables"])
        assert settings.configuration_set == name


def test_the_local_mode_has_no_configuration_set_and_its_settings_still_read() -> None:
    environment = resources("local").handler_environment()
    assert environment["WARPMAIL_CONFIGURATION_SET"] == ""
    assert Settings.from_environment(environment).configuration_set == ""
    del environment["WARPMAIL_CONFIGURATION_SET"]
    assert Settings.from_environment(environment).configuration_set == ""


def test_the_handlers_mailers_send_with_the_configuration_set(monkeypatch: pytest.MonkeyPatch) -> None:
    deployed = resources("prod", "games.example.org").with_configuration_set()
    for name, value in {**deployed.handler_environment(), "AWS_DEFAULT_REGION": "eu-west-1"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv(workflow.OUTBOX_VARIABLE, raising=False)
    for cached in (inbound.dependencies, workflow.settings, workflow.mailer):
        cached.cache_clear()
    try:
        assert getattr(inbound.dependencies()[2], "configuration_set", None) == "warpmail-prod"
        assert getattr(workflow.mailer(), "configuration_set", None) == "warpmail-prod"
    finally:
        for cached in (inbound.dependencies, workflow.settings, workflow.mailer):
            cached.cache_clear()
