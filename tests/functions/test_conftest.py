"""The fixtures of tests/functions/conftest.py: no test module, run on its own or with others, may
find itself without the fake AWS credentials."""

from __future__ import annotations

import boto3
import pytest


@pytest.fixture(scope="session")
def credentials_seen_by_a_session_fixture() -> str | None:
    """The access key a session-wide fixture resolves when it makes a client, as conftest's
    ``aws_clients`` does."""
    credentials = boto3.Session().get_credentials()
    return None if credentials is None else str(credentials.access_key)


def test_session_wide_fixtures_see_the_fake_credentials(
    credentials_seen_by_a_session_fixture: str | None,
) -> None:
    assert credentials_seen_by_a_session_fixture == "testing"
