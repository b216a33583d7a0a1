"""One synthesis of the CDK app for the whole session (jsii's start-up and the synth take seconds),
offline: bundling skipped (context ``aws:cdk:bundling-stacks`` = []), with cdk.json's context
defaults and a mail domain and operator address of the tests' own. cdk-nag's checks run in the
synth: it raises on any finding not acknowledged."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

ROOT = Path(__file__).resolve().parents[2]
MAIL_DOMAIN = "games.example.org"
OPERATOR = "gm@example.org"
ENVIRONMENT = "prod"


def cdk_context(**overrides: Any) -> dict[str, Any]:
    """cdk.json's context, bundling skipped, the tests' domain and operator, then ``overrides``."""
    context: dict[str, Any] = json.loads((ROOT / "cdk.json").read_text())["context"]
    return context | {
        "aws:cdk:bundling-stacks": [],
        "warpmail:environment": ENVIRONMENT,
        "warpmail:mailDomain": MAIL_DOMAIN,
        "warpmail:operatorEmail": OPERATOR,
        **overrides,
    }


@dataclass(frozen=True)
class Synthesized:
    stack: Any
    template: dict[str, Any]
    directory: Path
    """The cloud assembly's folder (assets staged there)."""

    def resources(self, kind: str) -> dict[str, dict[str, Any]]:
        """The template's resources of CloudFormation type ``kind``, by logical id."""
        return {name: r for name, r in self.template["Resources"].items() if r["Type"] == kind}

    def one(self, kind: str) -> dict[str, Any]:
        found = list(self.resources(kind).values())
        assert len(found) == 1, f"{len(found)} resources of type {kind}"
        return found[0]


def synthesize(**context: Any) -> Iterator[Synthesized]:
    """The app synthesized with ``context`` over :func:`cdk_context`'s, in a folder kept while the
    caller's fixture lives."""
    from aws_cdk import App

    from infra.app import build

    with tempfile.TemporaryDirectory() as outdir:
        # CDK's own template validation is left out here: it takes ~17 s, and cfn-lint runs instead.
        app = App(outdir=outdir, context=cdk_context(**context), builtin_cloud_formation_validation=False)
        stack = build(app)
        assembly = app.synth()
        template = assembly.get_stack_by_name(stack.stack_name).template
        yield Synthesized(stack, template, Path(assembly.directory))


@pytest.fixture(scope="session")
def synthesized() -> Iterator[Synthesized]:
    yield from synthesize()


@pytest.fixture(scope="session")
def synthesized_snap_start() -> Iterator[Synthesized]:
    """The stack with SnapStart on the inbound function (``warpmail:inboundSnapStart``)."""
    yield from synthesize(**{"warpmail:inboundSnapStart": True})
