"""Smoke tests of the benchmarks: each runs end to end in --quick mode (tiny sizes) and prints
its table. Timings are never asserted: they depend on the machine."""

from __future__ import annotations

import pytest

from benchmarks import classic_turn, large_blind_turn, scaling


def test_classic_turn_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    # When the classic-map benchmark runs in quick mode
    assert classic_turn.main(["--quick"]) == 0
    # Then it prints the engine, robot and self-play rows and the target line
    out = capsys.readouterr().out
    assert "engine: one game-turn" in out
    assert "robots: their decisions" in out
    assert "target: >= 500 engine game-turns/s" in out


def test_large_blind_turn_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    # When the large-game benchmark runs in quick mode
    assert large_blind_turn.main(["--quick"]) == 0
    # Then it prints the game-turn it timed, the table, the peak memory and the target line
    out = capsys.readouterr().out
    assert "battles" in out
    assert "whole game-turn, views included" in out
    assert "peak memory during the game-turn" in out
    assert "target: game-turn < 1 s" in out


def test_scaling_prints_a_table_per_sweep(capsys: pytest.CaptureFixture[str]) -> None:
    # When the scaling benchmark runs in quick mode
    assert scaling.main(["--quick"]) == 0
    # Then it prints one table for each sweep, with time and memory columns
    out = capsys.readouterr().out
    for sweep in ("by ships", "by players", "by battles"):
        assert sweep in out
    assert "median ms" in out
    assert "peak MiB" in out
