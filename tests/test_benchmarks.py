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


def test_render_report_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import render_report

    # When the report-rendering benchmark runs in quick mode
    assert render_report.main(["--quick"]) == 0
    # Then it prints the timing and size tables and a target line for each map
    out = capsys.readouterr().out
    assert "all artefacts of one report" in out
    assert "sizes in bytes" in out
    assert "target: classic map (322 hexes) < 150 ms" in out
    assert "target: generated map" in out


def test_parse_orders_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import parse_orders

    # When the order-mail benchmark runs in quick mode
    assert parse_orders.main(["--quick"]) == 0
    # Then it prints the parse_mail row and the target line
    out = capsys.readouterr().out
    assert "parse_mail: block, header, orders" in out
    assert "target: parse_mail < 20 ms" in out
