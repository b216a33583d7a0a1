"""The schedule, locally: what the EventBridge schedule does in AWS and moto never does.

:meth:`Clock.tick` starts one execution of the turn workflow (always with a unique name: moto
rejects a second unnamed execution) and waits for it to end; :class:`Ticker` ticks every N
seconds in the background.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

log = logging.getLogger("warpmail.local")

SCHEDULE_INPUT: dict[str, Any] = {"source": "schedule"}
"""The input the schedule passes to each execution (the same in AWS: infra sets it)."""


class ExecutionResult(BaseModel):
    name: str
    status: str
    output: Any = None
    error: str | None = None
    cause: str | None = None
    seconds: float


class Clock:
    def __init__(self, stepfunctions: Any, state_machine_arn: str) -> None:
        self.stepfunctions = stepfunctions
        self.state_machine_arn = state_machine_arn

    def tick(self, payload: dict[str, Any] | None = None, timeout: float = 600.0) -> ExecutionResult:
        """One execution of the workflow, run to its end (or ``timeout`` seconds)."""
        started = time.monotonic()
        name = f"tick-{datetime.now(UTC):%Y%m%dT%H%M%S%f}-{uuid.uuid4().hex[:8]}"
        execution = self.stepfunctions.start_execution(
            stateMachineArn=self.state_machine_arn,
            name=name,
            input=json.dumps(SCHEDULE_INPUT if payload is None else payload),
        )
        arn = execution["executionArn"]
        pause = 0.005
        while True:
            described = self.stepfunctions.describe_execution(executionArn=arn)
            if described["status"] != "RUNNING" or time.monotonic() - started > timeout:
                break
            time.sleep(pause)
            pause = min(pause * 2, 0.2)
        output = described.get("output")
        return ExecutionResult(
            name=name,
            status=described["status"],
            output=json.loads(output) if output else None,
            error=described.get("error"),
            cause=described.get("cause"),
            seconds=round(time.monotonic() - started, 3),
        )


class Ticker:
    """Calls ``tick`` every ``interval`` seconds on a background thread until stopped."""

    def __init__(self, tick: Callable[[], object], interval: float) -> None:
        self.tick = tick
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        def run() -> None:
            while not self._stop.wait(self.interval):
                try:
                    self.tick()
                except Exception:
                    log.exception("tick failed")

        self._stop.clear()
        self._thread = threading.Thread(target=run, name="warpmail-ticker", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
