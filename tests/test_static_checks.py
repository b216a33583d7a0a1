"""ruff and mypy are part of the test suite: style and types are checked on every run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["engine", "functions", "infra", "tests", "benchmarks"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint_is_clean() -> None:
    result = run("ruff", "check", *PACKAGES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = run("ruff", "format", "--check", *PACKAGES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean_and_strict_on_the_engine() -> None:
    result = run("mypy", "engine", "functions", "infra", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr
