"""Lambda entry points: thin, over the services in functions/host."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from functions.resources import ENVIRONMENT_DIMENSION, ENVIRONMENT_VARIABLE, MissingSettingError

if TYPE_CHECKING:
    from aws_lambda_powertools import Metrics

TRACED_MODULES = ("botocore",)
"""What Powertools Tracer patches for X-Ray: the AWS calls, the only calls the functions make.
By default it patches every library the X-Ray SDK knows, importing those it finds (requests,
sqlite3, http.client, ...) into each cold start (benchmarks/import_time.py)."""


def tag_environment(metrics: Metrics) -> None:
    """Put the deployment's name on every metric ``metrics`` publishes (dimension ``environment``).

    Called at each invocation, not at import: a handler module may be imported before its
    environment is set (the local mode, the tests)."""
    environment = os.environ.get(ENVIRONMENT_VARIABLE)
    if not environment:
        raise MissingSettingError(f"environment variables not set: {ENVIRONMENT_VARIABLE}")
    if metrics.default_dimensions.get(ENVIRONMENT_DIMENSION) != environment:
        # Only when it changes: Powertools warns each time a dimension is set again.
        metrics.set_default_dimensions(**{ENVIRONMENT_DIMENSION: environment})
