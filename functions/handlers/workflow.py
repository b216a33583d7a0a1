"""The turn workflow's Lambda handlers (functions/statemachine/turn.asl.json), thin over
functions/host/turns.py.

``find_due`` reads the clock once per workflow run (or takes ``now`` from its input: the local
mode's clock) and hands that ``now`` to every game, so a retried ``process_game`` decides exactly
as its first attempt did. It takes the run lease first: while an earlier run still runs, the new
one finds no game. It writes the run's work list (the due game ids) to the state bucket, where the
Distributed Map reads it (docs/architecture.md, "The workflow at scale").

``process_game`` leases its game to the run before processing it (a game leased by another run
is skipped: "leased") and releases it after. A failure escapes, named for the state machine:
``TransientError`` (throttling, a quota: retried with backoff, then the game is left due for the
next tick), ``EngineError`` (raised inside the engine, so raised again by any retry: parked at
once), or the exception's own name (retried, then counted). ``park_failed`` counts a game's
failed ticks (``GameRecord.failures``) and parks it for the GM at ``PARK_AFTER_TICKS``, or at once
for an ``EngineError``; the ``GamesParked`` metric raises the alarm. A game processed without
failure starts counting from zero again.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from botocore.exceptions import ClientError
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from functions import clients
from functions.handlers import TRACED_MODULES, container_cache, tag_environment
from functions.mail.ses import SendQuota, mailer_quota
from functions.resources import FUNCTIONS, METRICS_NAMESPACE, SERVICE, Settings
from functions.schedule import oldest_due_minutes
from functions.store import Store
from functions.store.records import GameRecord

if TYPE_CHECKING:
    from functions.mail.ses import Mailer

OUTBOX_VARIABLE = "WARPMAIL_OUTBOX"
"""Set (a folder) in the local mode: mail goes there instead of to SES."""
PARK_ATTEMPTS = 3
CAUSE_LIMIT = 1000
PARK_AFTER_TICKS = 3
"""A game whose processing fails (other than transiently) at this many ticks in a row is parked."""
MAILS_PER_GAME = 9
"""Mails one game's run may send at most, as reckoned against the sending quota: a results mail
to each of 8 players, and an alert to the GM."""
OLDEST_SAMPLE = 50
"""Due games read for the backlog metric (``OldestDueMinutes``)."""
RUN_LEASE = timedelta(seconds=3600)
"""The state machine's TimeoutSeconds: no run holds the run lease longer than it can run."""
GAME_LEASE = timedelta(seconds=next(f.timeout_s for f in FUNCTIONS if f.key == "process_game") + 60)
"""process_game's timeout and a margin: a lease outlasts the invocation that took it."""
TRANSIENT_CODES = frozenset(
    {
        # SES: throttled, over the sending quota, sending paused for the account
        "Throttling", "TooManyRequestsException", "LimitExceededException", "SendingPausedException",
        # DynamoDB: throttled (botocore's own retries exhausted)
        "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
    }
)  # fmt: skip
"""AWS error codes that a later attempt heals. SES's MessageRejected is not one: the message
itself is refused."""
ENGINE = Path(__file__).resolve().parents[2] / "engine"
"""The engine package: the games, pure, so an exception raised inside it is raised again by any
retry with the same state and orders."""
TERMINAL_EXECUTION = frozenset({"ExecutionDoesNotExist", "InvalidArn"})
"""describe_execution's answers for a run Step Functions does not know (another deployment's,
a local snapshot's): it is not running."""


class TransientError(Exception):
    """A failure a later attempt heals (the state machine retries it with backoff and jitter,
    then leaves the game due for the next tick)."""


class EngineError(Exception):
    """An exception raised inside the engine: never retried, the game is parked at once."""


# Named here as well as in the environment: the module may be imported before its environment is set.
logger = Logger(service=SERVICE)
metrics = Metrics(namespace=METRICS_NAMESPACE, service=SERVICE)
tracer = Tracer(service=SERVICE, patch_modules=TRACED_MODULES)
# find_due publishes no metric when no game is due (see there); Powertools would warn each time.
warnings.filterwarnings("ignore", "No application metrics to publish")


class ScheduleInput(BaseModel):
    """The schedule's event; ``now`` only when a local clock drives the workflow."""

    model_config = ConfigDict(extra="ignore")

    now: AwareDatetime | None = None


class FindDueEvent(BaseModel):
    """What the state machine gives FindDue: the run (its execution ARN) and the run's input."""

    model_config = ConfigDict(extra="ignore")

    run: str
    input: ScheduleInput = ScheduleInput()


class GameEvent(BaseModel):
    model_config = ConfigDict(extra="ignore")

    game_id: str
    now: AwareDatetime
    run: str


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


@container_cache
@cache
def stepfunctions() -> Any:
    return clients.client("stepfunctions")


@metrics.log_metrics
@tracer.capture_lambda_handler
def find_due(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """{"run", "now", "games": how many, "work_list": its key, "lease_holder"}: the games with
    something due, written for the Map to read; none while an earlier run holds the run lease."""
    tag_environment(metrics)
    request = FindDueEvent.model_validate(event or {})
    clock = datetime.now(UTC)
    now = request.input.now or clock
    holder = store().lease_run(request.run, clock, clock + RUN_LEASE, run_is_running)
    due = list(store().due_game_ids(now)) if holder == request.run else []
    sending = mailer_quota(mailer()) if due else None
    games = within_quota(due, sending)
    work_list = store().put_work_list(request.run, games)
    logger.info(
        "games due",
        extra={"games": len(games), "now": now.isoformat(), "work_list": work_list, "lease_holder": holder}
        | {"held_for_quota": len(due) - len(games)},
    )
    if games:
        # Only when there are some: a custom metric is billed for every hour it is published
        # in, and the schedule's idle runs (every 5 minutes) would make it $0.30 of a month
        # whose whole idle budget is $1 (benchmarks/cost_model.py). The alarms on these treat
        # no data as fine (infra/monitoring.py).
        metrics.add_metric(name="DueGames", unit=MetricUnit.Count, value=len(games))
        # The index gives the earliest due first (the ready games, then by deadline): the
        # longest-waiting game is among the first, without reading 10,000 records.
        first = [game for game_id in games[:OLDEST_SAMPLE] if (game := store().game(game_id)) is not None]
        metrics.add_metric(
            name="OldestDueMinutes", unit=MetricUnit.Count, value=oldest_due_minutes(first, now)
        )
        if sending is not None:
            metrics.add_metric(
                name="SesQuotaUsedPercent", unit=MetricUnit.Percent, value=sending.used_percent
            )
    return {
        "run": request.run,
        "now": now.isoformat(),
        "games": len(games),
        "work_list": work_list,
        "lease_holder": holder,
    }


def within_quota(games: list[str], sending: SendQuota | None) -> list[str]:
    """The first of ``games`` (the earliest due first) whose mail fits in what is left of the SES
    account's 24-hour quota, at ``MAILS_PER_GAME`` each: the rest stay due, and a later tick
    takes them when the window has moved on. All of them when the quota is unknown."""
    if sending is None or len(games) * MAILS_PER_GAME <= sending.mails_left:
        return games
    return games[: int(sending.mails_left // MAILS_PER_GAME)]


def run_is_running(run: str) -> bool:
    """Whether the workflow execution ``run`` (its ARN) is still running."""
    try:
        return bool(stepfunctions().describe_execution(executionArn=run)["status"] == "RUNNING")
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") in TERMINAL_EXECUTION:
            return False
        raise


@metrics.log_metrics
@tracer.capture_lambda_handler
def process_game(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Process one game under the run's lease; the summary is logged (the Map keeps no result)."""
    # Imported here: the turn service brings the game and the report rendering (about a second
    # of imports), which find_due and park_failed, deployed from this same module, never use.
    from functions.host import turns

    tag_environment(metrics)
    request = GameEvent.model_validate(event)
    logger.append_keys(game_id=request.game_id)
    games = store()
    clock = datetime.now(UTC)
    if not games.lease_game(request.game_id, request.run, clock, clock + GAME_LEASE):
        logger.info("game leased by another run", extra={"run": request.run})
        return {"game_id": request.game_id, "result": "leased"}
    try:
        try:
            summary = turns.process_game(request.game_id, request.now, games, mailer(), settings())
        finally:
            games.release_game(request.game_id, request.run)
        if summary.result in ("processed", "not_due"):
            heal(request.game_id)
    except Exception as error:
        named = named_failure(error)
        if named is None:
            raise
        raise named from error
    logger.info("game processed", extra=summary.model_dump())
    metrics.add_metric(name="StepsPlayed", unit=MetricUnit.Count, value=summary.steps)
    metrics.add_metric(name="ResultsMailsSent", unit=MetricUnit.Count, value=summary.mails)
    metrics.add_metric(name="RemindersSent", unit=MetricUnit.Count, value=summary.reminders)
    metrics.add_metric(name="MissedTurnAlerts", unit=MetricUnit.Count, value=summary.alerts)
    return summary.model_dump(mode="json")


def named_failure(error: BaseException) -> Exception | None:
    """The error the state machine matches for ``error``: an ``EngineError`` when the engine
    raised it, a ``TransientError`` when AWS refused for now (anywhere in its chain), None for
    any other (its own name reaches the state machine)."""
    # Imported here: only a failure needs it, and find_due never sends mail.
    from functions.mail.ses import MailNotSent, MailThrottled

    what = f"{type(error).__name__}: {error}"
    if _raised_in_engine(error):
        return EngineError(what)
    for cause in _chain(error):
        if isinstance(cause, MailThrottled):
            return TransientError(what)
        if isinstance(cause, MailNotSent) and cause.code in TRANSIENT_CODES:
            return TransientError(what)
        if isinstance(cause, ClientError) and cause.response.get("Error", {}).get("Code") in TRANSIENT_CODES:
            return TransientError(what)
    return None


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _raised_in_engine(error: BaseException) -> bool:
    """Whether the traceback passes through the engine: the engine does no I/O and calls nothing
    of the host's, so whatever escapes through one of its frames was raised by the game."""
    trace = error.__traceback__
    while trace is not None:
        if Path(trace.tb_frame.f_code.co_filename).resolve().is_relative_to(ENGINE):
            return True
        trace = trace.tb_next
    return False


def heal(game_id: str) -> None:
    """A game processed without failure starts counting its failed ticks from zero again."""
    games = store()
    game = games.game(game_id)
    if game is not None and game.failures:
        games.update_game(game.model_copy(update={"failures": 0}), expected_version=game.version)


@metrics.log_metrics
@tracer.capture_lambda_handler
def park_failed(event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Count the failed tick of a game whose processing failed every attempt; park it for the GM
    at ``PARK_AFTER_TICKS`` of them in a row, or at once when the engine raised the error."""
    tag_environment(metrics)
    failed = FailedGame.model_validate(event)
    logger.append_keys(game_id=failed.game_id)
    reason = f"{failed.error.error}: {failed.error.cause[:CAUSE_LIMIT]}"
    game = count_failure(failed.game_id, reason, park_now=failed.error.error == EngineError.__name__)
    failures = 0 if game is None else game.failures
    parked = game is not None and game.parked is not None
    if parked:
        assert game is not None
        logger.error("game parked", extra={"reason": reason, "failures": failures})
        metrics.add_metric(name="GamesParked", unit=MetricUnit.Count, value=1)
        tell_gm(game)
    else:
        logger.warning(
            "game failed: due again at the next tick", extra={"reason": reason, "failures": failures}
        )
    return {"game_id": failed.game_id, "parked": parked, "failures": failures, "reason": reason}


def tell_gm(game: GameRecord) -> None:
    """The game's GM is mailed why it was parked and how to release it; a failure to mail is
    logged, never raised: the park stands, and the alarm tells the operator anyway."""
    from functions.host.parked import tell_gm_parked

    version = game.version + 1  # the version the park wrote
    try:
        tell_gm_parked(
            store(), mailer(), settings(), game.model_copy(update={"version": version}), datetime.now(UTC)
        )
    except Exception:
        logger.exception("could not mail the GM of the parked game")


def count_failure(game_id: str, reason: str, park_now: bool) -> GameRecord | None:
    """One more failed tick on the game's record, parked (with the reason) at the threshold or
    when ``park_now``: a new version, conditional as every write is. The record written, or None
    (no such game, or it kept changing under us)."""
    games: Store = store()
    for _ in range(PARK_ATTEMPTS):
        game = games.game(game_id)
        if game is None or game.parked is not None:
            # Parked already (by an overlapping run): nothing more to count, nobody to tell again.
            return game
        failures = game.failures + 1
        update: dict[str, Any] = {"failures": failures}
        if park_now or failures >= PARK_AFTER_TICKS:
            update["parked"] = reason
        record = game.model_copy(update=update)
        if games.update_game(record, expected_version=game.version):
            return record.model_copy(update={"version": game.version + 1})
    return None
