"""The turn workflow at scale and under failure, handler by handler against the real Store under
moto: the due ids paged, the run lease and the game leases (overlapping runs never process one
game twice), and failures that heal (transient ones left for the next tick, others counted and
parked at the third tick in a row, an engine error parked at once)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from engine.warpwar.mailgame import WarpWarMail
from functions.handlers import workflow
from functions.mail.ses import MailNotSent, MailThrottled
from functions.store import Store
from tests.functions.test_store import a_game, created
from tests.functions.test_turns import GAME, START, Recorder, mail_orders, new_game, subjects
from tests.functions.test_turns import quick_rendering as quick_rendering  # autouse: no map drawn

handlers_mail: list[Any] = []
"""What the handlers mailed in the current test."""
RUN_A = "arn:aws:states:eu-west-1:123456789012:execution:warpmail-test-turns:run-a"
RUN_B = "arn:aws:states:eu-west-1:123456789012:execution:warpmail-test-turns:run-b"
HOUR = timedelta(hours=1)


@pytest.fixture
def handlers(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    """The handlers on the test's store (their container caches made again), mail recorded."""
    caches = (workflow.settings, workflow.store, workflow.mailer, workflow.stepfunctions)
    for cached in caches:
        cached.cache_clear()
    recorder = Recorder()
    monkeypatch.setattr(workflow, "mailer", lambda: recorder)
    handlers_mail[:] = []
    monkeypatch.setattr(recorder, "sent", handlers_mail)
    yield store
    for cached in caches:
        cached.cache_clear()


def work_list(store: Store, due: dict[str, Any]) -> list[str]:
    body = store.s3.get_object(Bucket=store.settings.state_bucket, Key=due["work_list"])["Body"].read()
    listed: list[str] = json.loads(body)
    return listed


# --- The due ids, paged ---


def test_the_due_ids_are_read_a_bounded_page_at_a_time_earliest_first(store: Store) -> None:
    # Given five games due at different times, one not yet due, one parked
    for number in range(5):
        created(store, a_game(f"g{number}", deadline=START - (number + 1) * HOUR))
    created(store, a_game("later", deadline=START + HOUR))
    created(store, a_game("parked", parked="crashed", deadline=START - HOUR))
    limits: list[int] = []
    store.dynamodb.meta.events.register(
        "before-parameter-build.dynamodb.Query", lambda params, **_: limits.append(params.get("Limit"))
    )
    # When the workflow reads them two at a time
    ids = list(store.due_game_ids(START, page_size=2))
    # Then every due game comes, the longest overdue first, in pages of at most two
    assert ids == ["g4", "g3", "g2", "g1", "g0"]
    assert limits == [2, 2, 2]
    assert sorted(ids) == [game.game_id for game in store.due_games(START)]


# --- The run lease ---


def test_a_run_takes_the_lease_unless_a_live_run_holds_it(store: Store) -> None:
    asked: list[str] = []

    def alive(run: str) -> bool:
        asked.append(run)
        return run == RUN_A

    until = START + HOUR
    assert store.lease_run(RUN_A, START, until, alive) == RUN_A, "free: taken"
    assert store.lease_run(RUN_B, START, until, alive) == RUN_A, "held by a run still running"
    assert store.lease_run(RUN_A, START, until, alive) == RUN_A, "a retried FindDue takes its own again"
    assert store.lease_run(RUN_B, START + HOUR, START + 2 * HOUR, alive) == RUN_B, "expired: taken"
    assert asked == [RUN_A], "the holder is only asked about while its lease runs"
    assert store.lease_run(RUN_A, START + HOUR, START + 2 * HOUR, lambda run: False) == RUN_A, "over: taken"


def test_a_run_overlapping_a_live_one_finds_no_game(handlers: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a game due and run A still running, holding the run lease
    created(handlers, a_game("g1", deadline=START - HOUR))
    first = workflow.find_due({"run": RUN_A, "input": {"now": START.isoformat()}}, None)
    monkeypatch.setattr(workflow, "run_is_running", lambda run: run == RUN_A)
    # When the schedule starts run B
    second = workflow.find_due({"run": RUN_B, "input": {"now": START.isoformat()}}, None)
    # Then B's work list is empty: it ends at once
    assert (first["games"], work_list(handlers, first)) == (1, ["g1"])
    assert (second["games"], second["lease_holder"], work_list(handlers, second)) == (0, RUN_A, [])
    assert first["work_list"] != second["work_list"], "a work list per run"


def test_a_run_is_running_until_step_functions_says_otherwise(handlers: Store) -> None:
    # Given an execution of a state machine (which moto, not executing it, shows running)
    sfn = boto3.client("stepfunctions", region_name="eu-west-1")
    iam = boto3.client("iam", region_name="eu-west-1")
    role = iam.create_role(RoleName="r", AssumeRolePolicyDocument="{}")["Role"]["Arn"]
    definition = json.dumps({"StartAt": "Done", "States": {"Done": {"Type": "Succeed"}}})
    machine = sfn.create_state_machine(name="turns", definition=definition, roleArn=role)
    run = sfn.start_execution(stateMachineArn=machine["stateMachineArn"], name="run")["executionArn"]
    running = workflow.run_is_running(run)
    # When it is stopped
    sfn.stop_execution(executionArn=run)
    # Then it held the run lease while it ran, not after; nor does a run Step Functions never knew
    assert (running, workflow.run_is_running(run)) == (True, False)
    assert workflow.run_is_running(RUN_A) is False


# --- Game leases ---


def test_a_game_is_leased_to_one_run_at_a_time(store: Store) -> None:
    until = START + timedelta(minutes=6)
    assert store.lease_game("g1", RUN_A, START, until)
    assert not store.lease_game("g1", RUN_B, START, until), "leased to A"
    assert store.lease_game("g1", RUN_A, START, until), "A's retry"
    store.release_game("g1", RUN_B)
    assert not store.lease_game("g1", RUN_B, START, until), "B cannot release A's lease"
    assert store.lease_game("g1", RUN_B, until, until + HOUR), "expired: B takes it"
    store.release_game("g1", RUN_B)
    assert store.lease_game("g1", RUN_A, START, until), "released"


def test_a_game_leased_by_another_run_is_skipped_not_failed(handlers: Store) -> None:
    # Given a game due, leased by run A
    new_game(handlers)
    mail_orders(handlers, "P1", START)
    clock = datetime.now(UTC)
    assert handlers.lease_game(GAME, RUN_A, clock, clock + HOUR)
    # When run B gets to it
    summary = workflow.process_game({"game_id": GAME, "now": START.isoformat(), "run": RUN_B}, None)
    # Then B leaves it to A: nothing played, nothing counted
    assert summary == {"game_id": GAME, "result": "leased"}
    game = handlers.game(GAME)
    assert game is not None and (game.version, game.failures) == (0, 0)


# --- Failures that heal ---


class Throttled(Recorder):
    """SES throttling after ``allowed`` mails."""

    def __init__(self, allowed: int) -> None:
        super().__init__()
        self.allowed = allowed

    def send(self, message: EmailMessage) -> str:
        if len(self.sent) >= self.allowed:
            raise MailThrottled("Throttling", "Maximum sending rate exceeded", str(message["To"]))
        return super().send(message)


def test_a_throttled_tick_leaves_the_game_due_and_the_next_sends_what_it_did_not(
    handlers: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a game whose player's orders are in, and SES throttling after the first mail
    new_game(handlers)
    mail_orders(handlers, "P1", START)
    throttled = Throttled(allowed=1)
    monkeypatch.setattr(workflow, "mailer", lambda: throttled)
    event = {"game_id": GAME, "now": START.isoformat(), "run": RUN_A}
    # When a tick processes it: the steps are committed (P1's player-turn and the robot's), the
    # opening's mail goes, then SES throttles
    with pytest.raises(workflow.TransientError, match="Throttling"):
        workflow.process_game(event, None)
    after_first = handlers.game(GAME)
    # and the next tick runs with SES back
    delivered = Recorder()
    monkeypatch.setattr(workflow, "mailer", lambda: delivered)
    summary = workflow.process_game(event | {"run": RUN_B}, None)
    # Then the first tick left the game unparked, uncounted and unleased; the second sent the
    # mail the first did not (the run's two steps, one mail): every mail once
    assert after_first is not None and (after_first.version, after_first.parked, after_first.failures) == (
        2,
        None,
        0,
    )
    assert subjects(throttled.sent) == ["[WarpWar g1] Turn 1: P1's player-turn"]
    assert subjects(delivered.sent) == ["[WarpWar g1] Turn 2: P1's player-turn"]
    assert (summary["result"], summary["steps"], summary["mails"]) == ("not_due", 0, 1)


def client_error(code: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": "no"}}, "Operation")


@pytest.mark.parametrize(
    ("error", "named"),
    [
        (MailThrottled("Throttling", "Maximum sending rate exceeded", "a@b"), "TransientError"),
        (MailNotSent("SendingPausedException", "sending paused", "a@b"), "TransientError"),
        (MailNotSent("LimitExceededException", "daily quota", "a@b"), "TransientError"),
        (MailNotSent("MessageRejected", "Email address is not verified", "a@b"), None),
        (client_error("ProvisionedThroughputExceededException"), "TransientError"),
        (client_error("ThrottlingException"), "TransientError"),
        (client_error("RequestLimitExceeded"), "TransientError"),
        (client_error("ValidationException"), None),
        (RuntimeError("the host fell over"), None),
    ],
)
def test_failures_are_named_for_the_state_machine(error: Exception, named: str | None) -> None:
    try:
        try:
            raise error
        except Exception as inner:
            raise RuntimeError("while processing") from inner
    except RuntimeError as outer:
        found = workflow.named_failure(outer)
    assert (None if found is None else type(found).__name__) == named


def test_an_exception_raised_inside_the_engine_is_an_engine_error() -> None:
    with pytest.raises(ValueError) as raised:
        WarpWarMail().read_orders("not a state", "P1", "BUILD")
    assert isinstance(workflow.named_failure(raised.value), workflow.EngineError)
    assert workflow.named_failure(ValueError("raised by the host")) is None


def test_a_game_is_parked_at_its_third_failed_tick_in_a_row_and_a_good_tick_starts_again(
    handlers: Store,
) -> None:
    # Given a running game, due
    new_game(handlers)
    failure = {"Error": "RuntimeError", "Cause": "the host fell over"}
    event = {"game_id": GAME, "now": START.isoformat(), "run": RUN_A, "error": failure}
    # When two ticks fail, then one succeeds, then three fail
    counted = [workflow.park_failed(event, None) for _ in range(2)]
    workflow.process_game({"game_id": GAME, "now": START.isoformat(), "run": RUN_A}, None)
    healed = handlers.game(GAME)
    again = [workflow.park_failed(event, None) for _ in range(3)]
    # Then the failures are counted, the good tick clears them, and the third in a row parks it
    assert [(c["failures"], c["parked"]) for c in counted] == [(1, False), (2, False)]
    assert healed is not None and healed.failures == 0
    assert [(c["failures"], c["parked"]) for c in again] == [(1, False), (2, False), (3, True)]
    game = handlers.game(GAME)
    assert game is not None and game.parked == "RuntimeError: the host fell over"
    # And the GM (the host's address: the game has none) is told once, with the way out
    [told] = [m for m in handlers_mail if "is parked" in str(m["Subject"])]
    assert told["To"] == handlers.settings.sender
    text = told.get_body(("plain",)).get_content()
    assert "RuntimeError: the host fell over" in text and f"warpmail turn unpark {GAME}" in text
    workflow.park_failed(event, None)
    assert len([m for m in handlers_mail if "is parked" in str(m["Subject"])]) == 1, "once a park"


def test_an_engine_error_parks_the_game_at_once(handlers: Store) -> None:
    new_game(handlers)
    failure = {"Error": "EngineError", "Cause": "KeyError: 'P3'"}
    parked = workflow.park_failed(
        {"game_id": GAME, "now": START.isoformat(), "run": RUN_A, "error": failure}, None
    )
    assert (parked["failures"], parked["parked"]) == (1, True)
    assert handlers.due_games(START + 1000 * HOUR) == []
