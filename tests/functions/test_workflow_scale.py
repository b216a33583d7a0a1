"""The turn workflow over 2,000 due games, through moto's interpreter with the deployed Amazon
States Language file and the real handlers (each game's processing a no-op): the size at which
the old design, collecting every game's result into the run's state, failed at the 256 KB
limit. About five minutes on a 2-core machine (moto starts a child execution per game); the
10,000-game figures come from benchmarks/workflow_scale.py (docs/performance.md)."""

from __future__ import annotations

import pytest

from benchmarks.workflow_scale import run

GAMES = 2000


def test_one_run_processes_2000_due_games_with_a_state_of_a_few_hundred_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    figures = run(GAMES)
    assert figures.status == "SUCCEEDED"
    assert (figures.processed, figures.each_once) == (GAMES, True)
    assert figures.output_bytes < 1024, "the run's state holds no id and no result"
    assert figures.work_list_bytes == GAMES * len('"warpwar-spring-00000",') + 1
