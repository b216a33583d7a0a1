"""The README's first command: a whole robot game on the classic map, printed turn by turn."""

from __future__ import annotations

import re

import pytest

from functions.cli import main


def test_demo_prints_a_whole_game_in_the_rules_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== Turn 1, Red's player-turn ==")
    assert re.search(r"built at 0606: W1: TL0 PD=\d+", out)
    assert re.search(r"beam at \S+: (ATTACK|DODGE|RETREAT) \([^)]*\) vs (ATTACK|DODGE|RETREAT)", out)
    assert re.search(r"PD=\{\d+\}\d+|[A-Z]+=\{\d+\}\d+", out), "damage is written as {built}current"
    assert out.rstrip().endswith("wins (every enemy Base destroyed) ==")


def test_demo_advanced_scenario_runs_to_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--scenario", "advanced", "--seed", "1"]) == 0
    assert "Game over" in capsys.readouterr().out
