"""The README's first command: a whole robot game on the classic map, printed turn by turn."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from enum import StrEnum
from pathlib import Path

import pytest

from engine.warpwar.robot import Level
from engine.warpwar.state import Scenario
from functions.cli import main
from functions.console import cli as console_cli

ROOT = Path(__file__).resolve().parents[1]


def test_demo_prints_a_whole_game_in_the_rules_notation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["demo", "--seed", "4", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== Turn 1, Red's player-turn ==")
    assert "   | GAME demo-basic-4\n   | PLAYER Red\n   | TURN 1\n   | BUILD WARPSHIP AT 0606" in out
    assert re.search(r"built at 0606: W1: TL0 PD=\d+", out)
    assert re.search(r"beam at \S+: (ATTACK|DODGE|RETREAT) \([^)]*\) vs (ATTACK|DODGE|RETREAT)", out)
    assert re.search(r"PD=\{\d+\}\d+|[A-Z]+=\{\d+\}\d+", out), "damage is written as {built}current"
    assert out.rstrip().endswith("wins (every enemy Base destroyed) ==")


def test_demo_writes_every_players_report_after_every_game_turn(tmp_path: Path) -> None:
    assert main(["demo", "--seed", "4", "--out", str(tmp_path)]) == 0
    turns = sorted(p.name for p in tmp_path.iterdir())
    assert turns[0] == "turn-01"
    for player in ("red", "blue"):
        first = tmp_path / "turn-01" / player
        assert "WARPWAR RESULTS - game demo-basic-4" in first.with_suffix(".txt").read_text()
        assert 'src="cid:map"' in first.with_suffix(".html").read_text()
        assert first.with_suffix(".png").read_bytes().startswith(b"\x89PNG")
        assert first.with_suffix(".svg").read_text().startswith("<svg")
        assert json.loads(first.with_suffix(".json").read_text())["schema"] == "warpmail.warpwar.report/1"
    assert "DONE     BUILD WARPSHIP AT 0606" in (tmp_path / "turn-01" / "red.txt").read_text()
    last = (tmp_path / turns[-1] / "blue.txt").read_text()
    assert "ORDERS FOR TURN" not in last, "no orders sheet once the game is over"


def test_demo_advanced_scenario_runs_to_a_result(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--scenario", "advanced", "--seed", "1", "--no-reports"]) == 0
    assert "Game over" in capsys.readouterr().out


def test_demo_admiral_beats_cadet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "4", "--red", "cadet", "--blue", "admiral", "--no-reports"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("Blue wins (every enemy Base destroyed) ==")


def test_local_hands_its_arguments_to_the_local_pipeline_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["local", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: warpmail local")
    assert "run-demo" in out and "serve" in out


@pytest.mark.parametrize(
    ("mirror", "engine"),
    [(console_cli.Scenario, Scenario), (console_cli.RobotLevel, Level)],
)
def test_the_command_lines_choices_are_the_engines(mirror: type[StrEnum], engine: type[StrEnum]) -> None:
    assert [m.value for m in mirror] == [m.value for m in engine]


def test_help_loads_neither_the_game_nor_aws() -> None:
    """typer builds every command for --help and tab completion: they must not import the work."""
    heavy = ("engine", "boto3", "moto", "functions.store", "functions.host.turns", "functions.console.games")
    script = (
        "import sys\n"
        "from functions.cli import main\n"
        "for argv in (['--help'], ['game', '--help'], ['game', 'create', '--help']):\n"
        "    main(argv)\n"
        f"print(sorted(m for m in sys.modules if m.startswith({heavy!r})))\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    assert "Create a game in set-up" in ran.stdout
    assert ran.stdout.rstrip().endswith("[]"), ran.stdout[-300:]
