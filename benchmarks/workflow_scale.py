"""The turn workflow at scale: one run over N due games through moto's Step Functions interpreter,
with the deployed Amazon States Language file and the real find_due, process_game and
park_failed handlers (the local mode's in-process Lambda), each game's processing itself a no-op.

    python -m benchmarks.workflow_scale [--games N ...]

The point is the workflow and find_due, not the turn service: the games are bare META items in
the due index, and ``turns.process_game`` answers "not_due" at once. What runs for real: the run
lease, the due index read in pages, the work list written to S3 and read by the Distributed
Map's ItemReader, a child execution per game, each game's lease taken and released. Prints, per
N: the wall time of the run, games processed, the work list's bytes (and per id), the run's
output bytes (its largest state), and what the old inline design (the ids in FindDue's output)
would have put in the state against the 256 KB limit.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from functions.host import turns
from functions.local.host import LocalHost
from functions.resources import GSI2PK, GSI2SK, PK, SK
from functions.store import keys

STATE_LIMIT = 256 * 1024
"""Step Functions' limit on a state's input or output, in bytes."""
NOW = datetime(2030, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Figures:
    games: int
    seconds: float
    status: str
    processed: int
    each_once: bool
    work_list_bytes: int
    output_bytes: int
    inline_bytes: int

    @property
    def bytes_per_id(self) -> float:
        return self.work_list_bytes / max(self.games, 1)


def game_id(number: int) -> str:
    """A realistic id: a game's name and a number (``warpwar-spring-00042``, 19 characters)."""
    return f"warpwar-spring-{number:05d}"


def seed_due_games(dynamodb: Any, table: str, count: int) -> list[str]:
    """``count`` running games, each due an hour before NOW (bare META items in the due index)."""
    ids = [game_id(number) for number in range(count)]
    due = keys.iso(NOW - timedelta(hours=1))
    items = [
        {
            PK: {"S": keys.game_pk(game)},
            SK: {"S": keys.META},
            "kind": {"S": "game"},
            "game_id": {"S": game},
            "title": {"S": game},
            "status": {"S": "running"},
            "version": {"N": "0"},
            GSI2PK: {"S": keys.DUE},
            GSI2SK: {"S": due},
        }
        for game in ids
    ]
    for start in range(0, len(items), 25):
        pending: dict[str, Any] = {
            table: [{"PutRequest": {"Item": item}} for item in items[start : start + 25]]
        }
        while pending:
            pending = dynamodb.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
    return ids


@contextmanager
def no_op_processing() -> Iterator[list[str]]:
    """Every game's processing answers "not_due" at once; the ids processed, in order."""
    processed: list[str] = []
    original = turns.process_game

    def process(game: str, now: datetime, *_: Any, **__: Any) -> turns.TurnSummary:
        processed.append(game)
        return turns.TurnSummary(game_id=game, result="not_due")

    turns.process_game = process  # type: ignore[assignment]
    try:
        yield processed
    finally:
        turns.process_game = original


def run(games: int, timeout: float = 3600.0) -> Figures:
    """One workflow run over ``games`` due games, in a local host of its own."""
    with (
        tempfile.TemporaryDirectory() as root,
        LocalHost(Path(root)) as host,
        no_op_processing() as processed,
    ):
        described = host.resources
        ids = seed_due_games(host.client("dynamodb"), described.table, games)
        started = time.perf_counter()
        result = host.tick(now=NOW, timeout=timeout)
        seconds = time.perf_counter() - started
        if result.status != "SUCCEEDED":
            raise RuntimeError(f"the run over {games} games ended {result.status} after {seconds:.0f} s")
        output = result.output or {}
        listed = host.client("s3").get_object(Bucket=described.state_bucket, Key=output["work_list"])
        inline = {"games": ids, "now": NOW.isoformat()}
        host.stop(save=False)
        return Figures(
            games=games,
            seconds=seconds,
            status=result.status,
            processed=len(processed),
            each_once=sorted(processed) == sorted(ids),
            work_list_bytes=len(listed["Body"].read()),
            output_bytes=len(json.dumps(output)),
            inline_bytes=len(json.dumps(inline)),
        )


def main() -> None:
    # As the local mode's command line does: a log line and a metric blob per game would be
    # most of what is measured.
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000])
    options = parser.parse_args()
    print(
        "games  status     seconds  games/s  processed  work list  bytes/id  run output  inline ids (256 KB)"
    )
    for count in options.games:
        figures = run(count)
        rate = figures.games / figures.seconds
        share = figures.inline_bytes / STATE_LIMIT
        print(
            f"{figures.games:>5}  {figures.status:<9} {figures.seconds:>8.1f}  {rate:>7.0f}"
            f"  {figures.processed:>9}  {figures.work_list_bytes:>9}  {figures.bytes_per_id:>8.1f}"
            f"  {figures.output_bytes:>10}  {figures.inline_bytes:>8} ({share:.0%})"
        )


if __name__ == "__main__":
    main()
