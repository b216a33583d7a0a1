"""cdk-nag's AWS Solutions checks on the app, and the acknowledgements of findings that do not apply.

Every acknowledgement is made on the construct it concerns, names one finding (for IAM5, the
action or resource it is about) and says why it does not apply; synth fails on any other finding.
The acknowledgements are also written into the template's metadata (``cdk_nag``), where the tests
read them back.
"""

from __future__ import annotations

from aws_cdk import Acknowledgment, App, Validations
from cdk_nag import AwsSolutionsChecks
from constructs import IConstruct


def add_checks(app: App) -> None:
    """Run the AWS Solutions pack on every stack of ``app`` when it synthesizes."""
    Validations.of(app).add_plugins(AwsSolutionsChecks(app, write_suppressions_to_cloud_formation=True))


def acknowledge(scope: IConstruct, finding: str, reason: str) -> None:
    """Acknowledge cdk-nag ``finding`` (e.g. "AwsSolutions-IAM5[Resource::*]") on ``scope``."""
    Validations.of(scope).acknowledge(Acknowledgment(id=finding, reason=reason))
