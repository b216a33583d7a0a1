"""Lambda entry points: thin, over the services in functions/host."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from functions.resources import ENVIRONMENT_DIMENSION, ENVIRONMENT_VARIABLE, MissingSettingError

if TYPE_CHECKING:
    from aws_lambda_powertools import Metrics

TRACED_MODULES = ("botocore",)
"""What Powertools Tracer patches for X-Ray: the AWS calls, the only calls the functions make.
By default it patches every library the X-Ray SDK knows, importing those it finds (requests,
sqlite3, http.client, ...) into each cold start (benchmarks/import_time.py)."""


class Cached(Protocol):
    """A ``functools.cache``d factory."""

    def __call__(self) -> Any: ...
    def cache_clear(self) -> None: ...


CONTAINER_CACHES: list[Cached] = []
"""What the handler modules make once per Lambda container from its environment (settings,
clients); each module adds its own factories here."""


def container_cache(factory: Callable[[], Any]) -> Any:
    """Record a cached factory in ``CONTAINER_CACHES`` (use under ``@cache``)."""
    CONTAINER_CACHES.append(factory)  # type: ignore[arg-type]  # functools' cache wrapper
    return factory


def new_container() -> None:
    """Forget what the handlers made from their environment, as a new container would. Lambda
    never changes a container's environment; a local host starting in a process that ran another
    deployment's handlers before (one test after another) does."""
    for factory in CONTAINER_CACHES:
        factory.cache_clear()


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
