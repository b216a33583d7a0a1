"""The turn workflow's Lambda handlers (functions/statemachine/turn.asl.json), thin over
functions/host/turns.py.

``find_due`` reads the clock once per workflow run (or takes ``now`` from its input: the local
mode's clock) and hands that ``now`` to every game, so a retried ``process_game`` decides exactly
as its first attempt did. ``process_game`` lets a failure escape: the state machine retries it,
then catches it into ``park_failed``, which parks the game for the GM and counts it in the
``GamesParked`` metric that the alarm watches.
"""

from __future__ import annotations

import os
import warnings
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from functions.handlers import TRACED_MODULES, container_cache, tag_environment
from functions.mail.ses import mailer_quota
from functions.resources import METRICS_NAMESPACE, SERVICE, Settings
from functions.schedule import oldest_due_minutes
from functions.store import Store

if TYPE_CHECKING:
    from functions.mail.ses import Mailer

OUTBOX_VARIABLE = "WARPMAIL_OUTBOX"
"""Set (a folder) in the local mode: mail goes there instead of to SES."""
PARK_ATTEMPTS = 3
CAUSE_LIMIT = 1000

# Named here as well as in the environment: the module may be imported before its environment is set.
logger = Logger(service=SERVICE)
metrics = Metrics(namespace=METRICS_NAMESPACE, service=SERVICE)
tracer = Tracer(service=SERVICE, patch_modules=TRACED_MODULES)
# find_due publishes no metric when no game is due (see there); Powertools would warn each time.
warnings.filterwarnings("ignore", "No application metrics to publish")


class FindDueEvent(BaseModel):
    """The schedule's event; ``now`` only when a local clock drives the workflow."""

    model_config = ConfigDict(extra="ignore")

    now: AwareDatetime | None = None


class GameEvent(BaseModel):
    model_config = ConfigDict(extra="ignore")

    game_id: str
    now: AwareDatetime


class Failure(BaseModel):
    """What the state machine's Catch puts in ``$.error``."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    error: str = Field("Unknown", alias="Error")
    cause: str = Field("", alias="Cause")


class FailedGame(GameEvent):
    error: Failure = Failure()


@container_cache
@cache
def settings() -> Settings:
    return Settings.from_environment()


@container_cache
@cache
def store() -> Store:
    return Store(settings())


@container_cache
@cache
def mailer() -> Mailer:
    # Imported here: only process_game sends mail, and find_due runs every 5 minutes.
    from functions.mail.outbox import OutboxMailer
    from functions.mail.ses import SesMailer

    outbox = os.environ.get(OUTBOX_VARIABLE)
    return OutboxMailer(outbox) if outbox else SesMailer(configuration_set=settings().configuration_set)


@metrics.log_metrics
@tracer.capture_lambda_handler
def find_due(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """{"games": [game ids], "now": ISO time}: the games with something due."""
    tag_environment(metrics)
    now = FindDueEvent.model_validate(event or {}).now or datetime.now(UTC)
    due = store().due_games(now)
    games = [game.game_id for game in due]
    logger.info("games due", extra={"games": games, "now": now.isoformat()})
    if games:
        # Only when there are some: a custom metric is billed for every hour it is published
        # in, and the schedule's idle runs (every 5 minutes) would make it $0.30 of a month
        # whose whole idle budget is $1 (benchmarks/cost_model.py). The alarms on these treat
        # no data as fine (infra/monitoring.py).
        metrics.add_metric(name="DueGames", unit=MetricUnit.Count, value=len(games))
        metrics.add_metric(name="OldestDueMinutes", unit=MetricUnit.Count, value=oldest_due_minutes(due, now))
        if (sending := mailer_quota(mailer())) is not None:
            metrics.add_metric(
                name="SesQuotaUsedPercent", unit=MetricUnit.Percent, value=sending.used_percent
            )
    return {"games": games, "now": now.isoformat()}


@metrics.log_metrics
@tracer.capture_lambda_handler
def process_game(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Process one game; the summary is the Map iteration's result."""
    # Imported here: the turn service brings the game and the report rendering (about a second
    # of imports), which find_due and park_failed, deployed from this same module, never use.
    from functions.host import turns

    tag_environment(metrics)
    request = GameEvent.model_validate(event)
    logger.append_keys(game_id=request.game_id)
    summary = turns.process_game(request.game_id, request.now, store(), mailer(), settings())
    logger.info("game processed", extra=summary.model_dump())
    metrics.add_metric(name="StepsPlayed", unit=MetricUnit.Count, value=summary.steps)
    metrics.add_metric(name="ResultsMailsSent", unit=MetricUnit.Count, value=summary.mails)
    metrics.add_metric(name="RemindersSent", unit=MetricUnit.Count, value=summary.reminders)
    metrics.add_metric(name="MissedTurnAlerts", unit=MetricUnit.Count, value=summary.alerts)
    return summary.model_dump(mode="json")


@metrics.log_metrics
@tracer.capture_lambda_handler
def park_failed(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Park the game whose processing failed every attempt, with the error, for the GM."""
    tag_environment(metrics)
    failed = FailedGame.model_validate(event)
    logger.append_keys(game_id=failed.game_id)
    reason = f"{failed.error.error}: {failed.error.cause[:CAUSE_LIMIT]}"
    parked = park(failed.game_id, reason)
    logger.error("game parked", extra={"reason": reason, "parked": parked})
    metrics.add_metric(name="GamesParked", unit=MetricUnit.Count, value=1)
    return {"game_id": failed.game_id, "parked": parked, "reason": reason}


def park(game_id: str, reason: str) -> bool:
    """Mark the game parked (a new version of its record, conditional as every write is)."""
    games = store()
    for _ in range(PARK_ATTEMPTS):
        game = games.game(game_id)
        if game is None:
            return False
        update = {"parked": reason, "failures": game.failures + 1}
        if games.update_game(game.model_copy(update=update), expected_version=game.version):
            return True
    return False
