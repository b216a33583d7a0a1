"""The CDK app: ``npx aws-cdk@2 deploy`` (cdk.json runs ``python3 -m infra.app``) deploys the
environment the context names, with cdk-nag's AWS Solutions checks run on it."""

from __future__ import annotations

import os
import sys

from aws_cdk import App

from infra.checks import add_checks
from infra.config import ConfigError, from_context
from infra.stack import WarpMailStack


def build(app: App) -> WarpMailStack:
    """The app's one stack, from the settings in its context; ConfigError if they are wrong."""
    add_checks(app)
    return WarpMailStack(app, from_context(app.node), account=os.environ.get("CDK_DEFAULT_ACCOUNT"))


def main() -> int:
    app = App()
    try:
        build(app)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    app.synth()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
