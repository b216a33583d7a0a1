"""docs/lta-rules-interpretations.md cannot drift from the tests or from the text: every test it
names exists, and every rule it quotes is in the game's text (the seed, when it is present)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "lta-rules-interpretations.md"
SEED = "shared/seeds/003_a8b0c3b155e1c877.txt"
REFERENCE = re.compile(r"\b(tests/[\w/]+\.py)::(test_\w+)")
ENTRY = re.compile(r"^### (\d+)\. (.+)$", re.MULTILINE)
RULE = re.compile(r"^\*\*Rule\*\*:(.*?)^\*\*Reading\*\*", re.MULTILINE | re.DOTALL)
QUOTE = re.compile(r'"([^"]+)"')


def _normalise(text: str) -> str:
    return " ".join(text.replace("\\*", "*").replace('"', "'").split())


def test_entries_are_numbered_in_order_and_each_names_its_tests() -> None:
    text = DOC.read_text(encoding="utf-8")
    numbers = [int(n) for n, _ in ENTRY.findall(text)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 20
    for body in ENTRY.split(text)[3::3]:
        assert "**Rule**:" in body and "**Reading**:" in body and REFERENCE.search(body)


def test_every_test_named_exists() -> None:
    for file, name in set(REFERENCE.findall(DOC.read_text(encoding="utf-8"))):
        tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
        assert name in {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}, f"{file}::{name}"


def test_every_quoted_rule_is_in_the_text() -> None:
    seed = next((p / SEED for p in (ROOT.parent, ROOT.parent.parent) if (p / SEED).is_file()), None)
    if seed is None:
        pytest.skip(f"{SEED} is not beside this checkout")
    text = _normalise(seed.read_text(encoding="utf-8"))
    for rule in RULE.findall(DOC.read_text(encoding="utf-8")):
        for quote in QUOTE.findall(rule):
            for fragment in quote.split("..."):
                assert _normalise(fragment).strip() in text, fragment
