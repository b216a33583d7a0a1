"""docs/rules-interpretations.md cannot drift from the tests or from the rules.

Every ``tests/...py::test_name`` it cites must exist, and every rule it quotes (the text between
double quotes in a **Rule** field) must be found in the rules text, the 2nd-edition HTML seed.
"""

from __future__ import annotations

import ast
import html
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules-interpretations.md"
RULES = Path(__file__).resolve().parents[2] / "shared/seeds/002_2d50a569e7168ea6.txt"

TEST_REFERENCE = re.compile(r"\b(tests/[\w/]+\.py)::(test_\w+)")
ENTRY = re.compile(r"^### (\d+)\. (.+)$", re.MULTILINE)
RULE_FIELD = re.compile(r"^\*\*Rule\*\*:(.*?)^\*\*Reading\*\*", re.MULTILINE | re.DOTALL)
QUOTE = re.compile(r'"([^"]+)"')
ELLIPSIS = re.compile(r"\.\.\.|\u2026")


@cache
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def normalise(text: str) -> str:
    """Whitespace collapsed; double quotes inside the rules are quoted as single quotes."""
    return " ".join(text.replace('"', "'").split())


@cache
def rules_text() -> str:
    """The rules as text, exactly as the seeds' README reads them: tags stripped, entities unescaped."""
    raw = RULES.read_text(encoding="cp1252")
    return normalise(html.unescape(re.sub(r"<[^>]+>", "", raw)))


def defined_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def found_in_order(fragments: list[str], text: str) -> bool:
    position = 0
    for fragment in fragments:
        at = text.find(fragment, position)
        if at < 0:
            return False
        position = at + len(fragment)
    return True


def test_entries_are_numbered_in_order_and_each_has_a_rule_a_reading_and_its_tests() -> None:
    headings = ENTRY.findall(doc())
    assert headings, "no numbered entries found"
    assert [int(number) for number, _ in headings] == list(range(1, len(headings) + 1))
    bodies = ENTRY.split(doc())[3::3]
    for (number, title), body in zip(headings, bodies, strict=True):
        fields = [body.find(f"**{name}**:") for name in ("Rule", "Reading", "Pinned by")]
        assert -1 not in fields and fields == sorted(fields), f"entry {number} ({title}) lacks a field"


def test_every_test_named_in_the_doc_exists() -> None:
    references = sorted(set(TEST_REFERENCE.findall(doc())))
    assert references, "the doc names no tests"
    functions: dict[str, set[str]] = {}
    missing = []
    for file, name in references:
        path = ROOT / file
        if not path.is_file():
            missing.append(f"{file} (no such file)")
            continue
        if file not in functions:
            functions[file] = defined_functions(path)
        if name not in functions[file]:
            missing.append(f"{file}::{name}")
    assert missing == []


def test_every_rule_quoted_in_the_doc_is_in_the_rules_text() -> None:
    if not RULES.is_file():
        pytest.skip(f"the rules text is not at {RULES} (the shared/ folder beside the repository)")
    fields = RULE_FIELD.findall(doc())
    assert len(fields) == len(ENTRY.findall(doc()))
    unquoted = [field.strip()[:60] for field in fields if not QUOTE.search(field)]
    assert unquoted == [], "every Rule field quotes the rules"
    misquoted = []
    for field in fields:
        for quote in QUOTE.findall(field):
            fragments = [normalise(part) for part in ELLIPSIS.split(quote) if part.strip()]
            if not found_in_order(fragments, rules_text()):
                misquoted.append(normalise(quote))
    assert misquoted == []
