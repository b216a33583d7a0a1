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
from typing import Any

import boto3
import pytest
from moto import mock_aws

from functions.handlers import workflow
from functions.local.aws import in_process_lambdas, substitute
from functions.resources import FUNCTIONS, STATE_MACHINE_FILE
from functions.store import Store
from tests.functions.test_turns import GAME, START, mail_orders, new_game

REGION = "eu-west-1"
NOW = {"now": "2025-03-01T12:00:00+00:00"}
CALLS: list[tuple[str, dict[str, Any]]] = []


def definition() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(STATE_MACHINE_FILE.read_text(encoding="utf-8"))
    return loaded


def test_the_definition_is_json_path_asl_with_the_workflow_states() -> None:
    asl = definition()
    assert asl["QueryLanguage"] == "JSONPath"
    assert asl["TimeoutSeconds"] == 3600, "a run stuck for an hour is stopped (the workflow-failed alarm)"
    assert asl["StartAt"] == "FindDue"
    assert asl["States"]["FindDue"]["Next"] == "ProcessGames"
    fan_out = asl["States"]["ProcessGames"]
    assert (fan_out["Type"], fan_out["ItemsPath"], fan_out["MaxConcurrency"]) == ("Map", "$.games", 10)
    assert fan_out["ItemProcessor"]["ProcessorConfig"] == {"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"}
    assert "ItemReader" not in fan_out, "the games come in the state input, not from S3"
    per_game = fan_out["ItemProcessor"]["States"]
    assert per_game["ProcessGame"]["Retry"][0]["MaxAttempts"] == 2
    assert per_game["ProcessGame"]["Catch"][0]["Next"] == "ParkFailed"
    text = STATE_MACHINE_FILE.read_text(encoding="utf-8")
    assert "{%" not in text and "JSONata" not in text and '"Assign"' not in text
    assert set(re.findall(r"\$\{(\w+)\}", text)) == {f.placeholder for f in FUNCTIONS if f.key != "inbound"}


# --- Stub handlers, invoked by moto's Lambda in this process ---


def stub_find_due(event: dict[str, Any], context: Any) -> dict[str, Any]:
    CALLS.append(("find_due", event))
    return {"games": event.get("games", ["g1", "broken", "g2"]), "now": event["now"]}


def stub_process_game(event: dict[str, Any], context: Any) -> dict[str, Any]:
    CALLS.append(("process_game", event))
    if event["game_id"] == "broken":
        raise RuntimeError("the engine fell over")
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
def machine() -> Any:
    logging.getLogger("moto.stepfunctions").setLevel(logging.CRITICAL)
    with mock_aws(config={"stepfunctions": {"execute_state_machine": True}}), in_process_lambdas():
        iam = boto3.client("iam", region_name=REGION)
        trust = {"Version": "2012-10-17", "Statement": []}
        role = iam.create_role(RoleName="r", AssumeRolePolicyDocument=json.dumps(trust))["Role"]["Arn"]
        lambdas = boto3.client("lambda", region_name=REGION)
        arns = {}
        for spec in (f for f in FUNCTIONS if f.key != "inbound"):
            created = lambdas.create_function(
                FunctionName=spec.key,
                Runtime="python3.11",
                Role=role,
                Handler=f"{__name__}.stub_{spec.key}",
                Code={"ZipFile": _zip()},
            )
            arns[spec.placeholder] = created["FunctionArn"]
        text = substitute(STATE_MACHINE_FILE.read_text(encoding="utf-8"), arns)
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


def test_one_run_processes_every_due_game_and_parks_the_one_that_fails(machine: Any) -> None:
    # Given three games due, one of which always fails
    sfn, arn = machine
    CALLS.clear()
    # When the schedule starts the workflow
    described, _ = run_to_end(sfn, arn, "tick-1", {})
    # Then the run succeeds: the good games processed, the failing one retried twice then parked
    assert described["status"] == "SUCCEEDED", described
    output = json.loads(described["output"])
    assert [item["game_id"] for item in output["processed"]] == ["g1", "broken", "g2"]
    tries = [event["game_id"] for name, event in CALLS if name == "process_game"]
    assert tries.count("broken") == 3 and tries.count("g1") == 1
    parked = [event for name, event in CALLS if name == "park_failed"]
    assert [event["game_id"] for event in parked] == ["broken"]
    assert parked[0]["now"] == "2025-03-01T12:00:00+00:00"
    assert "fell over" in parked[0]["error"]["Cause"]


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
        assert len(json.loads(described["output"])["processed"]) == len(games)
    assert runs[2][1] == runs[40][1]
    assert "MapRunStarted" in runs[40][1] and "TaskStateEntered" in runs[40][1]


# --- The real handlers, called as the workflow calls them ---


def test_the_handlers_find_process_and_park_a_game(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a game against a robot, its player's orders in, and mail going to a local outbox
    monkeypatch.setenv(workflow.OUTBOX_VARIABLE, str(tmp_path))
    for cached in (workflow.settings, workflow.store, workflow.mailer):
        cached.cache_clear()
    new_game(store)
    mail_orders(store, "P1", START)
    # When the workflow's handlers run
    due = workflow.find_due({"now": START.isoformat()}, None)
    summary = workflow.process_game({"game_id": due["games"][0], "now": due["now"]}, None)
    failure = {"Error": "RuntimeError", "Cause": "the engine fell over"}
    parked = workflow.park_failed({"game_id": GAME, "now": due["now"], "error": failure}, None)
    # Then the game was due, played (the player's turn, the robot's), mailed, and is now parked
    assert due == {"games": [GAME], "now": START.isoformat()}
    assert (summary["result"], summary["steps"], summary["mails"]) == ("processed", 2, 3)
    results = [BytesParser().parsebytes(eml.read_bytes()) for eml in tmp_path.glob("*.eml")]
    assert len(results) == 3
    assert {(mail["X-WarpMail-Kind"], mail["Auto-Submitted"]) for mail in results} == {
        ("results", "auto-generated")
    }, "sent on the host's own, not in answer to a mail (RFC 3834)"
    assert parked["parked"] is True
    game = store.game(GAME)
    assert game is not None and game.parked == "RuntimeError: the engine fell over" and game.failures == 1
    assert workflow.find_due({"now": START.isoformat()}, None)["games"] == []
