"""Fixtures for the tests of functions/: fake AWS credentials for every test (no test may reach
AWS), and moto-backed resources provisioned from the one description (functions/resources.py)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3  # type: ignore[import-untyped]
import pytest
from moto import mock_aws

from functions.resources import Resources, resources
from functions.store import Store, provision

REGION = "eu-west-1"


@pytest.fixture(autouse=True)
def fake_aws_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Credentials that cannot reach AWS, the region, and the environment a handler is given."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SECURITY_TOKEN", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("AWS_ACCOUNT_ID_ENDPOINT_MODE", "disabled")
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "1")
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
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
def aws_clients() -> dict[str, Any]:
    """boto3 clients made once: making one costs about 0.2 s. moto intercepts every client made after
    it is imported, so each test's own ``mock_aws`` serves them with fresh, empty services."""
    fake = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing", "region_name": REGION}
    return {name: boto3.client(name, **fake) for name in ("dynamodb", "s3")}


@pytest.fixture
def aws(aws_clients: dict[str, Any]) -> Iterator[Aws]:
    with mock_aws():
        described = deployment()
        provision(described, aws_clients["dynamodb"], aws_clients["s3"])
        yield Aws(described, aws_clients["dynamodb"], aws_clients["s3"])


@pytest.fixture
def store(aws: Aws) -> Store:
    return Store(aws.resources.settings(), aws.dynamodb, aws.s3)
