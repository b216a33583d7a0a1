"""The turn workflow's definition (functions/statemachine/turn.asl.json): its shape, and one run
by moto's Step Functions interpreter with stub handlers invoked in-process (functions/local/aws.py)."""

from __future__ import annotations

import io
import json
import logging
import re
import time
import zipfile
from email.parser import BytesParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl

from functions.handlers import workflow
from functions.local.aws import in_process_lambdas, substitute
from functions.resources import FUNCTIONS, STATE_MACHINE_FILE
from functions.store import Store, keys
from tests.functions.test_turns import GAME, START, mail_orders, new_game

REGION = "eu-west-1"
NOW = {"now": "2025-03-01T12:00:00+00:00"}
BUCKET = "turns-state"
RUN = "arn:aws:states:eu-west-1:123456789012:execution:warpmail-test-turns:tick-1"
CALLS: list[tuple[str, dict[str, Any]]] = []


def definition() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(STATE_MACHINE_FILE.read_text(encoding="utf-8"))
    return loaded


TRANSIENT = {
    "TransientError",
    "Lambda.TooManyRequestsException",
    "Lambda.ServiceException",
    "Lambda.AWSLambdaException",
    "Lambda.SdkClientException",
}


def test_the_definition_is_json_path_asl_with_the_workflow_states() -> None:
    asl = definition()
    assert asl["QueryLanguage"] == "JSONPath"
    assert asl["TimeoutSeconds"] == 3600, "a run stuck for an hour is stopped (the workflow-failed alarm)"
    assert asl["TimeoutSeconds"] == workflow.RUN_LEASE.total_seconds(), "no run outlives its run lease"
    assert asl["StartAt"] == "FindDue"
    find_due = asl["States"]["FindDue"]
    assert find_due["Next"] == "ProcessGames"
    assert find_due["Parameters"] == {"run.$": "$$.Execution.Id", "input.$": "$"}
    fan_out = asl["States"]["ProcessGames"]
    assert (fan_out["Type"], fan_out["MaxConcurrency"]) == ("Map", 10)
    assert fan_out["ItemProcessor"]["ProcessorConfig"] == {"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"}
    assert "ItemsPath" not in fan_out, "the ids never travel in the state: 256 KB is about 10,000 ids"
    assert fan_out["ItemReader"] == {
        "Resource": "arn:aws:states:::s3:getObject",
        "ReaderConfig": {"InputType": "JSON"},
        "Parameters": {"Bucket": "${StateBucket}", "Key.$": "$.work_list"},
    }
    assert fan_out["ItemSelector"] == {"game_id.$": "$$.Map.Item.Value", "now.$": "$.now", "run.$": "$.run"}
    assert fan_out["ResultPath"] is None, "no game's summary comes back into the run's state"
    per_game = fan_out["ItemProcessor"]["States"]
    engine, transient, other = per_game["ProcessGame"]["Retry"]
    assert engine == {"ErrorEquals": ["EngineError"], "MaxAttempts": 0}
    assert set(transient["ErrorEquals"]) == TRANSIENT | {"States.Timeout"}
    assert (transient["JitterStrategy"], transient["MaxDelaySeconds"], transient["MaxAttempts"]) == (
        "FULL",
        30,
        4,
    )
    assert (other["ErrorEquals"], other["MaxAttempts"]) == (["States.ALL"], 2)
    left_due, counted = per_game["ProcessGame"]["Catch"]
    assert (set(left_due["ErrorEquals"]), left_due["Next"]) == (TRANSIENT, "LeftDue")
    assert per_game["LeftDue"]["Type"] == "Succeed"
    assert (counted["ErrorEquals"], counted["Next"]) == (["States.ALL"], "ParkFailed")
    text = STATE_MACHINE_FILE.read_text(encoding="utf-8")
    assert "{%" not in text and "JSONata" not in text and '"Assign"' not in text
    functions = {f.placeholder for f in FUNCTIONS if f.key != "inbound"}
    assert set(re.findall(r"\$\{(\w+)\}", text)) == functions | {"StateBucket"}


# --- Stub handlers, invoked by moto's Lambda in this process ---


def stub_find_due(event: dict[str, Any], context: Any) -> dict[str, Any]:
    CALLS.append(("find_due", event))
    games = event["input"].get("games", ["g1", "broken", "throttled", "engine", "g2"])
    key = keys.work_list_key(event["run"])
    boto3.client("s3", region_name=REGION).put_object(Bucket=BUCKET, Key=key, Body=json.dumps(games).encode())
    return {"run": event["run"], "now": event["input"]["now"], "work_list": key}


def stub_process_game(event: dict[str, Any], context: Any) -> dict[str, Any]:
    CALLS.append(("process_game", event))
    failures: dict[str, Exception] = {
        "broken": RuntimeError("the host fell over"),
        "throttled": workflow.TransientError("Throttling: Maximum sending rate exceeded"),
        "engine": workflow.EngineError("KeyError: 'P3'"),
    }
    if event["game_id"] in failures:
        raise failures[event["game_id"]]
    return {"game_id": event["game_id"], "result": "processed"}


def stub_park_failed(event: dict[str, Any], context: Any) -> dict[str, Any]:
    CALLS.append(("park_failed", event))
    return {"game_id": event["game_id"], "parked": True}


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README.txt", "stub")
    return buffer.getvalue()


@pytest.fixture
def retry_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits moto's interpreter makes before each retry, recorded instead of slept."""
    waits: list[float] = []
    monkeypatch.setattr(retrier_decl, "time", SimpleNamespace(sleep=waits.append))
    return waits


@pytest.fixture
def machine(retry_waits: list[float]) -> Any:
    logging.getLogger("moto.stepfunctions").setLevel(logging.CRITICAL)
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}), in_process_lambdas():
        iam = boto3.client("iam", region_name=REGION)
        trust = {"Version": "2012-10-17", "Statement": []}
        role = iam.create_role(RoleName="r", AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": REGION})
        lambdas = boto3.client("lambda", region_name=REGION)
        values = {"StateBucket": BUCKET}
        for spec in (f for f in FUNCTIONS if f.key != "inbound"):
            created = lambdas.create_function(
                FunctionName=spec.key,
                Runtime="python3.11",
                Role=role,
                Handler=f"{__name__}.stub_{spec.key}",
                Code={"ZipFile": _zip()},
            )
            values[spec.placeholder] = created["FunctionArn"]
        text = substitute(STATE_MACHINE_FILE.read_text(encoding="utf-8"), values)
        sfn = boto3.client("stepfunctions", region_name=REGION)
        arn = sfn.create_state_machine(name="turns", definition=text, roleArn=role)["stateMachineArn"]
        yield sfn, arn


def run_to_end(sfn: Any, arn: str, name: str, payload: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """One execution, waited for: (its description, the types of its history events)."""
    run = sfn.start_execution(stateMachineArn=arn, name=name, input=json.dumps(NOW | payload))
    described = sfn.describe_execution(executionArn=run["executionArn"])
    for _ in range(400):
        if described["status"] != "RUNNING":
            break
        time.sleep(0.05)
        described = sfn.describe_execution(executionArn=run["executionArn"])
    history = sfn.get_execution_history(executionArn=run["executionArn"], maxResults=1000)["events"]
    return described, [event["type"] for event in history]


def test_one_run_processes_every_due_game_and_heals_transient_failures(
    machine: Any, retry_waits: list[float]
) -> None:
    # Given five games due: one whose host fails every time, one throttled every time, one whose
    # engine raises
    sfn, arn = machine
    CALLS.clear()
    # When the schedule starts the workflow
    described, _ = run_to_end(sfn, arn, "tick-1", {})
    # Then the run succeeds with the work list's games each processed in the run's own name
    assert described["status"] == "SUCCEEDED", described
    run = described["executionArn"]
    output = json.loads(described["output"])
    assert output == {"run": run, "now": NOW["now"], "work_list": "work/tick-1.json"}, "no results collected"
    tries = [event["game_id"] for name, event in CALLS if name == "process_game"]
    assert sorted(set(tries)) == ["broken", "engine", "g1", "g2", "throttled"]
    assert {event["run"] for name, event in CALLS if name == "process_game"} == {run}
    # the host's failure retried twice, the throttling four times, the engine's never
    assert (tries.count("g1"), tries.count("broken"), tries.count("throttled"), tries.count("engine")) == (
        1,
        3,
        5,
        1,
    )
    # and only the host's and the engine's failures go to be counted: the throttled game stays due
    parked = [event for name, event in CALLS if name == "park_failed"]
    assert sorted(event["game_id"] for event in parked) == ["broken", "engine"]
    assert all(event["now"] == NOW["now"] for event in parked)
    assert {event["error"]["Error"] for event in parked} == {"RuntimeError", "EngineError"}
    # the backoff: 1 s then 2 s for the host's failure; for the throttling, full jitter under
    # 2, 4, 8, 16 s capped at 30
    exact = [wait for wait in retry_waits if wait in (1, 2)]
    jittered = [wait for wait in retry_waits if wait not in (1, 2)]
    assert exact == [1, 2], retry_waits
    assert len(jittered) == 4 and all(
        0 <= wait <= cap for wait, cap in zip(jittered, (2, 4, 8, 16), strict=True)
    ), jittered
    assert len(set(jittered)) == 4, "jittered: never the same wait twice"


def test_the_run_history_stays_the_same_size_however_many_games_are_due(machine: Any) -> None:
    # Given runs with 2 and with 40 games due (an inline Map would add 7 events per game)
    sfn, arn = machine
    runs = {}
    for count in (2, 40):
        CALLS.clear()
        games = [f"g{number}" for number in range(count)]
        # When the workflow runs
        described, events = run_to_end(sfn, arn, f"tick-{count}", {"games": games})
        processed = sorted(event["game_id"] for name, event in CALLS if name == "process_game")
        runs[count] = (described, events, processed, games)
    # Then every game is processed once, in a child execution: the run's own history is the same
    for described, _, processed, games in runs.values():
        assert described["status"] == "SUCCEEDED", described
        assert processed == sorted(games)
        assert len(described["output"]) < 300, "the run's output is the same few fields"
    assert runs[2][1] == runs[40][1]
    assert "MapRunStarted" in runs[40][1] and "TaskStateEntered" in runs[40][1]


# --- The real handlers, called as the workflow calls them ---


def test_the_handlers_find_process_and_park_a_game(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a game against a robot, its player's orders in, and mail going to a local outbox
    monkeypatch.setenv(workflow.OUTBOX_VARIABLE, str(tmp_path))
    for cached in (workflow.settings, workflow.store, workflow.mailer, workflow.stepfunctions):
        cached.cache_clear()
    new_game(store)
    mail_orders(store, "P1", START)
    # When the workflow's handlers run
    due = workflow.find_due({"run": RUN, "input": {"now": START.isoformat()}}, None)
    listed = store.s3.get_object(Bucket=store.settings.state_bucket, Key=due["work_list"])["Body"].read()
    (game_id,) = json.loads(listed)
    summary = workflow.process_game({"game_id": game_id, "now": due["now"], "run": RUN}, None)
    failure = {"Error": "EngineError", "Cause": "KeyError: 'P3'"}
    parked = workflow.park_failed({"game_id": GAME, "now": due["now"], "run": RUN, "error": failure}, None)
    # Then the game was due, played (the player's turn, the robot's), mailed, and is now parked,
    # its GM told
    assert due == {
        "run": RUN,
        "now": START.isoformat(),
        "games": 1,
        "work_list": "work/tick-1.json",
        "lease_holder": RUN,
    }
    assert game_id == GAME
    # (the player's turn and the robot's, played in one run, are one results mail to the player)
    assert (summary["result"], summary["steps"], summary["mails"]) == ("processed", 2, 2)
    mailed = [BytesParser().parsebytes(eml.read_bytes()) for eml in tmp_path.glob("*.eml")]
    [told] = [mail for mail in mailed if "is parked" in str(mail["Subject"])]
    assert told["To"] == store.settings.sender, "the GM (the host's address: the game names none)"
    results = [mail for mail in mailed if mail is not told]
    assert len(results) == 2
    assert {(mail["X-WarpMail-Kind"], mail["Auto-Submitted"]) for mail in results} == {
        ("results", "auto-generated")
    }, "sent on the host's own, not in answer to a mail (RFC 3834)"
    assert parked["parked"] is True
    game = store.game(GAME)
    assert game is not None and game.parked == "EngineError: KeyError: 'P3'" and game.failures == 1
    # and the next run (the first one over: Step Functions does not know it) finds nothing due
    again = workflow.find_due(
        {"run": RUN.replace("tick-1", "tick-2"), "input": {"now": START.isoformat()}}, None
    )
    assert again["games"] == 0 and again["lease_holder"].endswith("tick-2")
