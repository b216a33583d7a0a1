"""The GM console's speed: ``warpmail --help`` and typical commands on the local host, end to end.

    python -m benchmarks.console [--runs N]

Each command runs ``N`` times in a fresh interpreter (``python -m functions.cli``, what the
``warpmail`` script runs), as a GM types it. Wall-clock seconds (best and median) and the CPU
seconds of the process (user + system, median): on a shared machine the wall clock waits for
the other processes, the CPU time does not. The local folder holds one running game (two
players, one a robot), made by the console itself before the timing.

``turn run`` is the one command here that makes the local host's functions and state machine
(moto's Lambda and Step Functions, seconds to import); the others use only the store and SES.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.timing import machine, speed_note, table

ROOT = Path(__file__).resolve().parents[1]
SETUP = (
    ("game", "create", "b1", "--seed", "3"),
    ("player", "invite", "b1", "red@example.org"),
    ("game", "start", "b1", "--robots", "cadet"),
)
HELP = (("--help",), ("game", "--help"))
COMMANDS = (
    ("game", "list"),
    ("game", "show", "b1"),
    ("turn", "show", "b1"),
    ("turn", "run", "b1", "--force"),
)


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float


def warpmail(arguments: tuple[str, ...]) -> Run:
    """One ``warpmail`` command in a fresh interpreter; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "functions.cli", *arguments],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall=wall, cpu=cpu)


def row(
    arguments: tuple[str, ...], runs: int, local: tuple[str, ...] = ()
) -> tuple[str, float, float, float]:
    timed = [warpmail(local + arguments) for _ in range(runs)]
    walls = [t.wall for t in timed]
    return (
        "warpmail " + " ".join(arguments),
        min(walls),
        statistics.median(walls),
        statistics.median(t.cpu for t in timed),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="Runs of each command.")
    runs = parser.parse_args().runs
    print(machine())
    print(speed_note())
    rows = [row(arguments, runs) for arguments in HELP]
    with tempfile.TemporaryDirectory() as folder:
        local = ("--local", folder)
        for arguments in SETUP:
            warpmail(local + arguments)
        rows += [row(arguments, runs, local) for arguments in COMMANDS]
    print(f"\n{runs} runs each, seconds; the local commands with --local <folder>")
    print(table(["command", "wall best", "wall median", "CPU median"], rows))


if __name__ == "__main__":
    main()
