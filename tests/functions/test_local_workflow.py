"""Local mode's schedule: the turn workflow's Amazon States Language file (the one CDK deploys)
executed by moto, with the local Lambda ARNs substituted, and stub handlers from this module."""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl
from moto.stepfunctions.parser.asl.component.state.exec.state_map.iteration.itemprocessor.distributed_item_processor_worker import (  # noqa: E501
    DistributedItemProcessorWorker,
)

from functions.local.aws import MAP_RECURSION_LIMIT
from functions.local.host import LocalHost
from functions.resources import FunctionSpec, Resources, Settings, resources
from functions.store import Store

HERE = "tests.functions.test_local_workflow"
CALLS: list[tuple[str, Any]] = []


def find_due(event: dict[str, Any], context: Any) -> dict[str, Any]:
    CALLS.append(("find_due", event))
    games = event["input"].get("games", ["g1", "broken", "g2"])
    key = Store(Settings.from_environment()).put_work_list(event["run"], games)
    return {"run": event["run"], "work_list": key, "now": "2030-01-01T00:00:00+00:00"}


def process_game(event: dict[str, Any], context: Any) -> dict[str, Any]:
    CALLS.append(("process_game", event))
    if event["game_id"] == "broken":
        raise ValueError("the engine fell over")
    return {"game_id": event["game_id"], "now": event["now"]}


def park_failed(event: dict[str, Any], context: Any) -> dict[str, Any]:
    CALLS.append(("park_failed", event))
    return {"parked": event["game_id"], "error": event["error"]["Error"]}


@pytest.fixture(autouse=True)
def no_retry_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """moto's interpreter retries at once (its waits are the ASL's, tests/functions/test_workflow_asl.py)."""
    monkeypatch.setattr(retrier_decl, "time", SimpleNamespace(sleep=lambda seconds: None))


def stub_resources() -> Resources:
    functions = tuple(
        FunctionSpec(key=key, handler=f"{HERE}.{key}", memory_mb=128, timeout_s=30)
        for key in ("find_due", "process_game", "park_failed")
    )
    return resources("local").model_copy(update={"functions": functions})


@pytest.fixture(scope="module")
def running_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalHost]:
    with LocalHost(tmp_path_factory.mktemp("local"), stub_resources()) as running:
        yield running


@pytest.fixture
def host(running_host: LocalHost) -> LocalHost:
    CALLS.clear()
    return running_host


def test_each_due_game_is_processed_and_the_failing_one_parked_after_retries(host: LocalHost) -> None:
    result = host.tick()
    assert result.status == "SUCCEEDED", result
    assert [name for name, _ in CALLS].count("find_due") == 1
    processed = [event["game_id"] for name, event in CALLS if name == "process_game"]
    assert sorted(set(processed)) == ["broken", "g1", "g2"]
    assert processed.count("broken") == 3, "tried once and retried twice"
    assert [event["game_id"] for name, event in CALLS if name == "park_failed"] == ["broken"]
    (run,) = {event["run"] for name, event in CALLS if name == "process_game"}
    assert result.output == {
        "run": run,
        "work_list": f"work/{result.name}.json",
        "now": "2030-01-01T00:00:00+00:00",
    }


def test_ticks_are_separate_executions(host: LocalHost) -> None:
    first, second = host.tick(payload={"games": ["g1"]}), host.tick(payload={"games": []})
    assert first.name != second.name
    assert [name for name, _ in CALLS] == ["find_due", "process_game", "find_due"]
    assert (first.status, second.status) == ("SUCCEEDED", "SUCCEEDED")


def test_a_local_map_may_run_more_items_than_pythons_default_recursion_limit(host: LocalHost) -> None:
    # moto's Distributed Map worker recurses once per item (pinned here: when moto stops doing
    # so, functions/local/aws.py's MAP_RECURSION_LIMIT can go), so the local host raises the limit
    source = inspect.getsource(DistributedItemProcessorWorker._eval_pool)
    assert "self._eval_pool(job=next_job" in source
    assert sys.getrecursionlimit() >= MAP_RECURSION_LIMIT > 10_000 * 2
