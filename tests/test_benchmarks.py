"""Smoke tests of the benchmarks: each runs end to end in --quick mode (tiny sizes) and prints
its table. Timings are never asserted: they depend on the machine."""

from __future__ import annotations

import gc
import re

import pytest

from benchmarks import classic_turn, large_blind_turn, scaling, timing


def test_classic_turn_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    # When the classic-map benchmark runs in quick mode
    assert classic_turn.main(["--quick"]) == 0
    # Then it prints the engine, robot and self-play rows and the target line
    out = capsys.readouterr().out
    assert "engine: one game-turn" in out
    assert "engine, cold: after a full GC" in out
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
    # Then it prints the parse_mail and acknowledge rows and the target line
    out = capsys.readouterr().out
    assert "parse_mail: block, header, orders" in out
    assert "acknowledge: read, check, forecast" in out
    assert "target: reading and checking < 20 ms" in out


def test_import_time_prints_a_row_per_handler(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import import_time

    # When the import-time benchmark runs with one interpreter per handler
    assert import_time.main(["--runs", "1"]) == 0
    # Then it prints a row for each function, the floor, and the top contributors
    out = capsys.readouterr().out
    for name in ("inbound", "find_due, park_failed", "process_game", "(floor)"):
        assert name in out
    assert "first work ms" in out
    assert "top contributors" in out


def test_lambda_size_prints_the_project_packages(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import lambda_size

    # When the deployment-size benchmark runs in quick mode (no download)
    assert lambda_size.main(["--quick"]) == 0
    # Then it prints the project's packages, both Lambda packages zipped, and a target line saying its scope
    out = capsys.readouterr().out
    assert "engine/ (this project)" in out
    assert "functions/ (this project)" in out
    assert "zipped MB" in out
    assert "rendering (process_game)" in out and "plain (inbound, find_due, park_failed)" in out
    assert "target: < 20 MB unzipped (the project's own packages only (--quick))" in out


@pytest.mark.parametrize(("back_to_back", "collections"), [(False, 5), (True, 1)])
def test_measure_collects_before_each_call_unless_timing_back_to_back(
    monkeypatch: pytest.MonkeyPatch, back_to_back: bool, collections: int
) -> None:
    # Given a count of full collections
    collected: list[int] = []

    def collect() -> int:
        collected.append(1)
        return 0

    monkeypatch.setattr(gc, "collect", collect)
    calls: list[int] = []
    # When five calls are timed
    result = timing.measure(lambda: calls.append(1), 5, back_to_back=back_to_back)
    # Then each call was timed, after a collection each, or one before them all
    assert result.runs == 5 and len(calls) == 6
    assert len(collected) == collections


def test_lambda_size_measures_the_packages_the_deployment_builds() -> None:
    from benchmarks import lambda_size
    from infra import bundle

    # The benchmark selects nothing itself: it measures infra/bundle.py's packages
    assert lambda_size.bundle is bundle
    wanted = {bundle.requirement_name(spec) for spec in bundle.requirements()}
    assert "boto3" not in wanted and {"aws-lambda-powertools", "pydantic"} <= wanted


def test_cost_model_prices_a_game_turn_and_the_idle_month(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import cost_model

    # When the cost model plays one game-turn of a 2-player game by mail
    assert cost_model.main(["--quick"]) == 0
    # Then every service is counted and priced, and the idle month is priced against its target
    out = capsys.readouterr().out
    assert "one game-turn, 2 players" in out
    for service in ("Lambda inbound", "Lambda process_game", "Step Functions", "DynamoDB", "S3", "SES"):
        assert service in out
    # And the calls are really counted: the meter hooks the clients the handlers make
    assert re.search(r"DynamoDB requests +[1-9][\d.]* WRU, [1-9][\d.]* RRU", out)
    assert re.search(r"S3 requests +[1-9][\d.]* writes", out)
    assert re.search(r"SES +[1-9][\d.]* sent", out)
    assert "idle deployment, per month" in out
    assert "target: idle < $1 a month" in out


def test_lta_turn_prints_its_phases_and_soak(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import lta_turn

    # When the Lighter Than Air benchmark runs with one game a size and a two-game soak
    assert lta_turn.main(["--games", "1", "--soak", "2"]) == 0
    # Then it prints every phase timed for 2 and 6 players, and the soak's re-verified rolls
    out = capsys.readouterr().out
    for what in ("robots, movement", "play, combat", "results, every player"):
        assert re.search(rf"^ +2  {what} ", out, re.M) and re.search(rf"^ +6  {what} ", out, re.M)
    assert re.search(r"soak: 2 robot games, \d+ phases, \d+ rolls re-verified", out)
    assert "played and every roll re-verified" in out
