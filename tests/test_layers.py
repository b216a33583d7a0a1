"""The host's modules import only downward: no import circle anywhere in functions/ or engine/ (an
import inside a function counts too), rendering lives in functions/render, no host module
grows past about 400 lines, and the host learns no game: it reaches games through engine.games."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("functions", "engine")
MAX_HOST_LINES = 400


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _imports(path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports (``from a import b`` counts ``a.b`` when it is a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = {f"{node.module}.{alias.name}" for alias in node.names}
            found |= (names & known) or ({node.module} & known)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path, known) - {name} for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _without_package_parents(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """A package's ``__init__`` importing its own submodules is not a circle with them."""
    return {
        name: {m for m in deps if not name.startswith(m + ".") and not m.startswith(name + ".")}
        for name, deps in graph.items()
    }


def test_no_import_circles() -> None:
    assert _cycles(_without_package_parents(_graph())) == []


def test_the_circle_check_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_host_modules_stay_small_and_render_nothing_themselves() -> None:
    host = ROOT / "functions" / "host"
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p in host.rglob("*.py")}
    assert {path: n for path, n in sizes.items() if n > MAX_HOST_LINES} == {}
    renders = [p for p in host.rglob("*.py") if "get_template(" in p.read_text()]
    assert renders == []


def test_lower_layers_never_import_the_services() -> None:
    graph = _graph()
    lower = [
        m for m in graph if m.startswith(("functions.store", "functions.mail", "functions.render", "engine"))
    ]
    upward = {
        m: sorted(d for d in graph[m] if d.startswith(("functions.host", "functions.handlers")))
        for m in lower
    }
    assert {m: d for m, d in upward.items() if d} == {}


GAME_NEUTRAL = ("engine.core", "engine.games")
"""What of the engine the host may import: a game plugs in by registering in engine/games.py
(and its templates in functions/templates/<key>/), never by the host importing it."""


def _games_reached(graph: dict[str, set[str]]) -> dict[str, list[str]]:
    """Each host module importing a game's own modules: those modules."""
    reached = {
        module: sorted(d for d in deps if d.startswith("engine.") and not d.startswith(GAME_NEUTRAL))
        for module, deps in graph.items()
        if module.startswith("functions.")
    }
    return {module: deps for module, deps in reached.items() if deps}


def test_the_host_imports_no_game_only_the_interfaces_and_the_registry() -> None:
    assert _games_reached(_graph()) == {}


def test_the_game_check_finds_a_host_module_importing_a_game() -> None:
    graph = {
        "functions.a": {"engine.warpwar.state", "engine.core.turnhost", "engine.games"},
        "functions.b": {"engine.lta.host"},
        "engine.warpwar.host": {"engine.warpwar.state"},
    }
    assert _games_reached(graph) == {
        "functions.a": ["engine.warpwar.state"],
        "functions.b": ["engine.lta.host"],
    }
