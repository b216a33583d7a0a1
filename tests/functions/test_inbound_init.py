"""The inbound handler's one-time work happens at import, in Lambda's init phase (which SnapStart
snapshots), not in the first mail: the clients, the game, the templates, the records' validators,
a first validation of the event model; and no network call is made for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.games import MAIL_GAMES
from functions.store.records import GameRecord, MailLogEntry, PlayerRecord
from tests.functions.conftest import Aws, deployment

ROOT = Path(__file__).resolve().parents[2]
IN_LAMBDA = "AWS_LAMBDA_FUNCTION_NAME"
# The handler module is imported in each test, with the handlers' environment set: its Metrics
# read their namespace from it when made.

PROBE = """
import json, socket, sys
connections = []
def refuse(self, address):
    connections.append(str(address))
    raise OSError("no network at init")
socket.socket.connect = refuse
import functions.handlers.inbound as inbound
from engine.games import MAIL_GAMES
from functions.render.jinja import environment
from functions.store.records import Record
print(json.dumps({
    "games": sorted(MAIL_GAMES._loaded),
    "templates": sorted(name for _, name in environment().cache.keys()),
    "records": sorted(r.__name__ for r in inbound._subclasses(Record) if not r.__pydantic_complete__),
    "ack renderer": "functions.render.acks" in sys.modules,
    "dependencies": inbound.dependencies.cache_info().currsize,
    "connections": connections,
}))
"""


def test_importing_the_handler_in_a_lambda_container_does_the_one_time_work_without_network() -> None:
    from functions.handlers import inbound

    # Given the environment Lambda gives the function (its name, its settings, credentials)
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        IN_LAMBDA: "warpmail-test-inbound",
        "POWERTOOLS_TRACE_DISABLED": "1",
        **deployment().handler_environment(),
    }
    # When a fresh interpreter imports the handler module, sockets refused
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=environment, check=True, cwd=ROOT
    )
    found = json.loads(done.stdout.splitlines()[-1])
    # Then the game is loaded, the answers' templates compiled, every record's validator built
    assert found["games"] == sorted(MAIL_GAMES)
    acks = {f"{game}/ack.{kind}" for game in MAIL_GAMES for kind in ("txt", "html")}
    answers = acks | {"host/notice.txt", "host/help.html"}
    assert answers <= set(found["templates"])
    assert all(name.startswith(inbound.RENDERED_HERE) for name in found["templates"])
    assert found["records"] == []
    assert found["ack renderer"] is True
    # And the clients and settings are made, with no connection opened
    assert found["dependencies"] == 1
    assert found["connections"] == []


def test_outside_lambda_init_makes_no_clients(monkeypatch: pytest.MonkeyPatch) -> None:
    from functions.handlers import inbound

    # Given a process that is no Lambda container (the local host, the tests)
    monkeypatch.delenv(IN_LAMBDA, raising=False)
    inbound.dependencies.cache_clear()
    # When the init work runs
    inbound.init()
    # Then no client is made (its emulated AWS may not exist yet), the rest is done
    assert inbound.dependencies.cache_info().currsize == 0
    assert all(record.__pydantic_complete__ for record in (GameRecord, PlayerRecord, MailLogEntry))


def test_in_lambda_init_makes_the_clients_the_handler_uses(aws: Aws, monkeypatch: pytest.MonkeyPatch) -> None:
    from functions.handlers import inbound

    # Given a Lambda container
    monkeypatch.setenv(IN_LAMBDA, "warpmail-test-inbound")
    inbound.dependencies.cache_clear()
    # When the init work runs
    inbound.init()
    # Then the settings and clients are made once, and the handler's calls use them
    assert inbound.dependencies.cache_info().currsize == 1
    made = inbound.dependencies()
    assert made[0] == deployment().settings()
    assert inbound.dependencies.cache_info().hits >= 1 and inbound.dependencies() is made
