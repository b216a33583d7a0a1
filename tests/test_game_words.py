"""The host says no game's words (issue 16): what functions/ can put in front of a player or a GM
(its strings, and the templates of the host and of every game but WarpWar) names no WarpWar
thing, so a Lighter Than Air player never reads of Warpships, BP or ships holding. A game's words
come from the game (engine/games.py, the game interfaces) and its own templates. Comments and
docstrings are for the people reading the code and may name a game as an example."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUNCTIONS = ROOT / "functions"
GAME_TEMPLATES = FUNCTIONS / "templates" / "warpwar"

WARPWAR_WORDS = re.compile(
    r"(?i:\bwarpwar\b|\bwarpships?\b|\bsystemships?\b|\bships\s+hold\b)|\bBP\b|\bBases?\b"
)
"""WarpWar's name and its rules' words (a game key ``warpwar`` in the host is one too); ``BP``
and ``Base`` as the rules write them, not the English "base"."""

TEMPLATE_COMMENTS = re.compile(r"\{#.*?#\}|<!--.*?-->", re.DOTALL)


def _said(source: str) -> list[str]:
    """The strings of a Python module that are not documentation: every string constant (an
    f-string's literal parts included) but those standing alone as a statement (docstrings,
    and the attribute docstrings this code base writes under a name)."""
    tree = ast.parse(source)
    documentation = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation
    ]


def _template_text(source: str) -> str:
    return TEMPLATE_COMMENTS.sub("", source)


def game_words(root: Path, game_templates: Path) -> dict[str, list[str]]:
    """Each file under ``root`` (but those in ``game_templates``, WarpWar's own) that says a
    WarpWar word: the words, sorted."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix == ".py":
            texts = _said(path.read_text(encoding="utf-8"))
        elif path.suffix in (".txt", ".html") and game_templates not in path.parents:
            texts = [_template_text(path.read_text(encoding="utf-8"))]
        else:
            continue
        words = sorted(m.group(0) for text in texts for m in WARPWAR_WORDS.finditer(text))
        if words:
            found[path.relative_to(root).as_posix()] = words
    return found


def test_the_host_says_no_game_words() -> None:
    assert game_words(FUNCTIONS, GAME_TEMPLATES) == {}


def test_the_check_finds_game_words_in_strings_and_templates_only(tmp_path: Path) -> None:
    (tmp_path / "mail.py").write_text(
        '"""A WarpWar example in a docstring."""\n'
        "# a comment on a Base\n"
        "class Rule:\n"
        '    """Systemships, documented."""\n'
        '    name = "turn"\n'
        '    """The Warpship rule (an attribute docstring)."""\n'
        "\n"
        'WAIVED = "your ships\\n hold, nothing is built"\n'
        'COST = f"{1} BP for {2} Bases"\n'
        'BASE = "database, base64, BPM"\n'
        'KEY = {"game": "warpwar"}\n'
    )
    templates = tmp_path / "templates"
    (templates / "host").mkdir(parents=True)
    (templates / "warpwar").mkdir()
    (templates / "host" / "notice.txt").write_text("{# WarpWar, a comment #}Build a Warpship\n")
    (templates / "host" / "notice.html").write_text("<!-- a WarpWar comment --><p>ok</p>\n")
    (templates / "warpwar" / "report.txt").write_text("WarpWar: 5 BP\n")
    assert game_words(tmp_path, templates / "warpwar") == {
        "mail.py": ["BP", "Bases", "ships\n hold", "warpwar"],
        "templates/host/notice.txt": ["Warpship"],
    }
