"""Target: each Lambda handler module imports in under 300 ms (the cold-start proxy of issue 4).

    python -m benchmarks.import_time [--runs N] [--quick]

Each handler module is imported in ``N`` fresh interpreters (``python -X importtime``), in the
environment Lambda gives it (``LAMBDA_TASK_ROOT`` set: see ``_environment``); the import time is
the sum of the cumulative times of what the import brought in, median over the runs. The top
contributors are the modules' own ("self") times summed by top-level package, from the run with
the median import time.

The import is not the whole cold start: what a handler imports only when it needs it (the game,
for an order mail or a game to process) and the AWS clients it makes on its first call are paid
by the first invocation. The "first work" columns time that too, in the same interpreter after
the import (the clients are made without a network call), so the table shows what was deferred
rather than hiding it. The "floor" row is what every handler imports whatever it does: botocore
(the functions make their clients without boto3: functions/clients.py), pydantic with one model
built, and Powertools.

Bytecode is read as on Lambda, whose packages ship it compiled by the runtime's Python
(infra/bundle.py): the interpreters here read the installed dependencies' bytecode and the
project's ``__pycache__``, which a warm-up import writes before the timed runs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.timing import machine, speed_note, table
from functions.resources import resources

TARGET_MS = 300.0
TOP = 6
IMPORTING = "-- importing --"
WORKING = "-- first work --"


@dataclass(frozen=True)
class Probe:
    """What a fresh interpreter imports, then what the first invocation does before any AWS call."""

    name: str
    imports: str
    first_work: str
    first_work_label: str


PROBES = (
    Probe(
        name="inbound",
        imports="import functions.handlers.inbound",
        first_work=(
            "from functions.handlers import inbound; inbound.dependencies(); "
            "from engine.games import MAIL_GAMES; MAIL_GAMES['warpwar']"
        ),
        first_work_label="clients, the game (order mail)",
    ),
    Probe(
        name="find_due, park_failed",
        imports="import functions.handlers.workflow",
        first_work="from functions.handlers import workflow; workflow.store()",
        first_work_label="clients",
    ),
    Probe(
        name="process_game",
        imports="import functions.handlers.workflow",
        first_work=(
            "from functions.handlers import workflow; workflow.store(); workflow.mailer(); "
            "import functions.host.turns"
        ),
        first_work_label="clients, turn service, game, rendering",
    ),
    Probe(
        name="(floor)",
        imports=(
            "import botocore.session, botocore.client; from aws_lambda_powertools import Logger, Metrics, "
            "Tracer; Tracer(patch_modules=('botocore',)); from pydantic import BaseModel\n"
            "class Event(BaseModel):\n    key: str"
        ),
        first_work="pass",
        first_work_label="",
    ),
)

SCRIPT = """
import sys, time
sys.stderr.write({importing!r} + "\\n")
start = time.perf_counter()
{imports}
sys.stderr.write({working!r} + "\\n")
imported = time.perf_counter()
{first_work}
print(time.perf_counter() - imported)
"""


@dataclass(frozen=True)
class Run:
    import_us: int
    first_work_us: int
    first_work_s: float
    import_packages: dict[str, int]
    first_work_packages: dict[str, int]


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    runs = 3 if "--quick" in args else 15
    if "--runs" in args:
        runs = int(args[args.index("--runs") + 1])
    print(f"handler import time, median of {runs} fresh interpreters (python -X importtime)")
    print(f"machine: {machine()}; {speed_note()}")
    rows = []
    contributors = []
    for probe in PROBES:
        _run(probe)  # warm-up: writes the bytecode a Lambda package ships
        measured = sorted((_run(probe) for _ in range(runs)), key=lambda run: run.import_us)
        median = measured[len(measured) // 2]
        import_ms = statistics.median(run.import_us for run in measured) / 1000
        rows.append(
            (
                probe.name,
                import_ms,
                measured[0].import_us / 1000,
                statistics.median(run.first_work_s for run in measured) * 1000,
                probe.first_work_label,
                "met" if import_ms < TARGET_MS else "NOT met",
            )
        )
        contributors.append((probe.name, "import", _top(median.import_packages)))
        if median.first_work_packages:
            contributors.append((probe.name, "first work", _top(median.first_work_packages)))
    headers = ("handler", "import ms", "best ms", "first work ms", "first work", f"< {TARGET_MS:.0f} ms")
    print(table(headers, rows))
    print("\ntop contributors (self time by package, ms, in the median run)")
    for name, phase, text in contributors:
        print(f"  {name}, {phase}: {text}")
    return 0


def _top(packages: dict[str, int]) -> str:
    ranked = sorted(packages.items(), key=lambda item: -item[1])[:TOP]
    return ", ".join(f"{name} {us / 1000:.0f}" for name, us in ranked)


def _run(probe: Probe) -> Run:
    script = SCRIPT.format(
        importing=IMPORTING, working=WORKING, imports=probe.imports, first_work=probe.first_work
    )
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env=_environment(),
    )
    _, rest = done.stderr.split(IMPORTING, 1)
    importing, working = rest.split(WORKING, 1)
    return Run(
        import_us=_total(importing),
        first_work_us=_total(working),
        first_work_s=float(done.stdout),
        import_packages=_by_package(importing),
        first_work_packages=_by_package(working),
    )


def _environment() -> dict[str, str]:
    """The handlers' environment as Lambda sets it, with fake credentials (no call is made).
    ``LAMBDA_TASK_ROOT`` matters: outside Lambda the X-Ray SDK (Powertools Tracer) makes a
    sampling client for the X-Ray daemon at import, hundreds of milliseconds that a Lambda
    function never pays."""
    described = resources("bench")
    return {
        **os.environ,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": described.region,
        "AWS_REGION": described.region,
        "LAMBDA_TASK_ROOT": str(Path(__file__).resolve().parent.parent),
        "AWS_LAMBDA_FUNCTION_NAME": "import-time",
        "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
        **described.handler_environment(),
    }


def _lines(importtime: str) -> list[tuple[int, int, str]]:
    """(self µs, cumulative µs, module with its indentation) per ``-X importtime`` line."""
    lines = []
    for line in importtime.splitlines():
        if not line.startswith("import time:") or "[us]" in line:
            continue
        own, cumulative, name = line.removeprefix("import time:").split("|")
        lines.append((int(own), int(cumulative), name))
    return lines


def _total(importtime: str) -> int:
    """The cumulative time of the top-level imports (one space before the name)."""
    return sum(cumulative for _, cumulative, name in _lines(importtime) if not name.startswith("  "))


def _by_package(importtime: str) -> dict[str, int]:
    packages: dict[str, int] = defaultdict(int)
    for own, _, name in _lines(importtime):
        packages[name.strip().split(".")[0]] += own
    return dict(packages)


if __name__ == "__main__":
    raise SystemExit(main())
