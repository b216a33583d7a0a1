"""Fixtures for the tests of functions/: fake AWS credentials for every test (no test may reach
AWS), and moto-backed resources provisioned from the one description (functions/resources.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3
import pytest
from moto import mock_aws

from functions.resources import Resources, resources
from functions.store import Store, provision

REGION = "eu-west-1"


def _fake_aws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Credentials that cannot reach AWS, and the region."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SECURITY_TOKEN", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("AWS_ACCOUNT_ID_ENDPOINT_MODE", "disabled")
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_PROFILE", raising=False)


@pytest.fixture(scope="session", autouse=True)
def fake_aws_credentials() -> Iterator[None]:
    """Fake credentials for the whole session, set before any session-wide fixture makes a boto3
    client (pytest makes autouse fixtures first within their scope): a client resolves its
    credentials once, when made, so one made before a test's own environment would find none."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        _fake_aws(monkeypatch)
        yield


@pytest.fixture(autouse=True)
def fake_aws_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake credentials again (a test may change them) and the environment a handler is given."""
    _fake_aws(monkeypatch)
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "1")
    for name, value in deployment().handler_environment().items():
        monkeypatch.setenv(name, value)


def deployment() -> Resources:
    """The deployment the tests provision: resources("test")."""
    return resources("test", region=REGION)


@dataclass(frozen=True)
class Aws:
    """moto's AWS, with the test deployment's table and buckets created."""

    resources: Resources
    dynamodb: Any
    s3: Any


@pytest.fixture(scope="session")
def aws_clients(fake_aws_credentials: None) -> dict[str, Any]:
    """boto3 clients made once: making one costs about 0.2 s. moto intercepts every client made after
    it is imported, so each test's own ``mock_aws`` serves them with fresh, empty services."""
    return {name: boto3.client(name, region_name=REGION) for name in ("dynamodb", "s3")}


@pytest.fixture
def aws(aws_clients: dict[str, Any]) -> Iterator[Aws]:
    with mock_aws():
        described = deployment()
        provision(described, aws_clients["dynamodb"], aws_clients["s3"])
        yield Aws(described, aws_clients["dynamodb"], aws_clients["s3"])


@pytest.fixture
def store(aws: Aws) -> Store:
    return Store(aws.resources.settings(), aws.dynamodb, aws.s3)
