"""The Lambda packages' selection (infra/bundle.py), offline: pip is never run here; an installed
site is faked with the files and RECORDs pip would leave."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from infra import bundle
from infra.bundle import Package


def fake_site(root: Path, distributions: dict[str, list[str]]) -> Path:
    """A pip ``--target`` folder: each distribution's files and its RECORD listing them."""
    site = root / "site"
    for dist, files in distributions.items():
        info = site / f"{dist}.dist-info"
        info.mkdir(parents=True)
        listed = [*files, f"{dist}.dist-info/RECORD"]
        for file in files:
            (site / file).parent.mkdir(parents=True, exist_ok=True)
            (site / file).write_text(f"PATH = {file!r}\n")
        (info / "RECORD").write_text("".join(f"{name},sha256=x,1\n" for name in listed))
    return site


SITE = {
    "resvg_py-0.5.0": ["resvg_py/__init__.py", "resvg_py/resvg_py.cpython-312-aarch64-linux-gnu.so"],
    "pydantic-2.13.4": ["pydantic/__init__.py", "pydantic/main.py", "pydantic/__pycache__/x.cpython-312.pyc"],
    "typing_extensions-4.15.0": ["typing_extensions.py"],
    "icalendar-7.3.0": ["icalendar/__init__.py", "icalendar/tests/__init__.py", "icalendar/tests/a.ics"],
    "botocore-1.44.5": ["botocore/__init__.py"],
    "rich-15.0.0": ["rich/__init__.py"],
    "aws_lambda_powertools-3.37.0": ["aws_lambda_powertools/__init__.py", "../../bin/powertools"],
}


def test_requirements_leave_out_the_runtimes_and_the_consoles_packages() -> None:
    wanted = {bundle.requirement_name(spec) for spec in bundle.requirements()}
    assert {"aws-lambda-powertools", "pydantic", "jinja2"} <= wanted
    assert not wanted & (bundle.PROVIDED_BY_RUNTIME | bundle.CONSOLE_ONLY)


def test_only_process_game_gets_the_map_rasteriser() -> None:
    assert bundle.package_of("process_game") is Package.RENDERING
    assert {bundle.package_of(key) for key in ("inbound", "find_due", "park_failed")} == {Package.PLAIN}
    assert bundle.left_out(Package.PLAIN) >= bundle.RENDERING_ONLY
    assert not bundle.RENDERING_ONLY & bundle.left_out(Package.RENDERING)


def test_pip_installs_wheels_for_the_lambda_platform_pinned_by_the_lock(tmp_path: Path) -> None:
    command = bundle.pip_command(tmp_path, "python3.12", ["pydantic==2.13.4"])
    assert command[command.index("--target") + 1] == str(tmp_path)
    assert command[command.index("--python-version") + 1] == "3.12"
    assert command[command.index("--constraint") + 1] == str(bundle.CONSTRAINTS)
    assert {"--only-binary=:all:", "--no-compile"} <= set(command)
    platforms = [command[i + 1] for i, flag in enumerate(command) if flag == "--platform"]
    # Every manylinux tag Amazon Linux 2023's glibc loads, arm64 only
    assert platforms[0] == "manylinux2014_aarch64" and platforms[-1] == "manylinux_2_34_aarch64"
    assert all(p.endswith("_aarch64") for p in platforms)
    assert bundle.platforms("python3.11")[-1] == "manylinux_2_26_aarch64"


@pytest.mark.parametrize(
    ("package", "shipped", "not_shipped"),
    [
        (
            Package.RENDERING,
            {"resvg_py/__init__.py", "resvg_py/resvg_py.cpython-312-aarch64-linux-gnu.so"},
            set(),
        ),
        (
            Package.PLAIN,
            set(),
            {"resvg_py/__init__.py", "resvg_py/resvg_py.cpython-312-aarch64-linux-gnu.so"},
        ),
    ],
)
def test_a_package_holds_its_distributions_and_the_project_and_nothing_else(
    tmp_path: Path, package: Package, shipped: set[str], not_shipped: set[str]
) -> None:
    site = fake_site(tmp_path, SITE)
    output = tmp_path / "out"
    bundle.assemble(output, site, package)
    files = {str(f.relative_to(output)) for f in output.rglob("*") if f.is_file()}
    assert shipped <= files and not files & not_shipped
    assert {
        "pydantic/__init__.py",
        "aws_lambda_powertools/__init__.py",
        "pydantic-2.13.4.dist-info/RECORD",
    } <= files
    assert "functions/handlers/inbound.py" in files and "engine/__init__.py" in files
    # The runtime's boto3 family, the console's packages and test suites are never shipped, and the
    # bytecode pip or a developer's Python left is not (compile_package makes the runtime's own)
    assert not any(f.startswith(("botocore", "rich", "bin/", "icalendar/tests")) for f in files)
    assert not any("__pycache__" in f or f.endswith(".pyc") for f in files)


def _python312() -> str | None:
    try:
        return bundle.runtime_interpreter("python3.12")
    except bundle.InterpreterError:
        return None


PYTHON312 = _python312()
needs_python312 = pytest.mark.skipif(
    PYTHON312 is None, reason="no Python 3.12 on this machine to compile with"
)

NEVER_COMPILE = """
import importlib.machinery, sys
from pathlib import Path

def refuse(*args, **kwargs):
    raise SystemExit("compiled from source")

importlib.machinery.SourceFileLoader.source_to_code = refuse
root = Path(sys.argv[1])
for module in sys.argv[2:]:
    path = root.joinpath(*module.split("."))
    package = path.is_dir()
    source = path / "__init__.py" if package else path.with_suffix(".py")
    loader_class = importlib.machinery.SourceFileLoader
    if not source.exists():
        source, loader_class = source.with_suffix(".pyc"), importlib.machinery.SourcelessFileLoader
    code = loader_class(module, str(source)).get_code(module)
    print(module, type(code).__name__, loader_class.__name__)
"""
"""Loads each module's code as the import system would, and fails if a source is compiled again."""


@needs_python312
def test_the_package_is_compiled_by_the_runtimes_python_and_loads_without_compiling(tmp_path: Path) -> None:
    assert PYTHON312 is not None
    output = tmp_path / "out"
    bundle.assemble(output, fake_site(tmp_path, SITE), Package.RENDERING)
    project_sources = list((output / "functions").rglob("*.py"))
    bundle.compile_package(output, PYTHON312)
    files = {str(f.relative_to(output)) for f in output.rglob("*") if f.is_file()}
    # The project keeps its sources (tracebacks) beside their .pyc; the dependencies ship bytecode only
    assert all(f.exists() for f in project_sources)
    assert "functions/handlers/__pycache__/inbound.cpython-312.pyc" in files
    assert "engine/__pycache__/__init__.cpython-312.pyc" in files
    assert {
        "pydantic/__init__.pyc",
        "pydantic/main.pyc",
        "typing_extensions.pyc",
        "resvg_py/__init__.pyc",
    } <= files
    assert not {"pydantic/__init__.py", "pydantic/main.py", "typing_extensions.py"} & files
    assert "resvg_py/resvg_py.cpython-312-aarch64-linux-gnu.so" in files
    # Python 3.12 loads every module from the shipped bytecode, whatever the files' times
    for file in output.rglob("*"):
        os.utime(file, (0, 0))
    modules = ["functions.handlers.inbound", "engine", "pydantic", "pydantic.main", "typing_extensions"]
    loaded = subprocess.run(
        [PYTHON312, "-c", NEVER_COMPILE, str(output), *modules], capture_output=True, text=True, check=False
    )
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.splitlines() == [
        "functions.handlers.inbound code SourceFileLoader",
        "engine code SourceFileLoader",
        "pydantic code SourcelessFileLoader",
        "pydantic.main code SourcelessFileLoader",
        "typing_extensions code SourcelessFileLoader",
    ]


@needs_python312
def test_a_file_the_runtimes_python_cannot_compile_fails_the_build(tmp_path: Path) -> None:
    assert PYTHON312 is not None
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "__init__.py").write_text("print 'Python 2'\n")
    with pytest.raises(bundle.CompileError, match=re.escape("broken/__init__.py")):
        bundle.compile_package(tmp_path, PYTHON312)


def fake_python(folder: Path, name: str, version: str) -> Path:
    """An executable ``name`` in ``folder`` that says it is Python ``version``."""
    folder.mkdir(exist_ok=True)
    script = folder / name
    script.write_text(f"#!/bin/sh\necho {version}\n")
    script.chmod(0o755)
    return script


def test_the_interpreter_is_the_one_on_path_that_reports_the_runtimes_version(tmp_path: Path) -> None:
    right = fake_python(tmp_path / "bin", "python3.12", "3.12")
    assert bundle.runtime_interpreter("python3.12", {"PATH": str(tmp_path / "bin")}) == str(right)
    explicit = fake_python(tmp_path / "opt", "py", "3.12")
    chosen = bundle.runtime_interpreter(
        "python3.12", {"PATH": "", bundle.INTERPRETER_VARIABLE: str(explicit)}
    )
    assert chosen == str(explicit)


@pytest.mark.parametrize("reported", ["3.11", None])
def test_no_interpreter_of_the_runtimes_version_fails_with_what_to_install(
    tmp_path: Path, reported: str | None
) -> None:
    # A pyenv shim that refuses, or a python3.12 that is another version, is not the runtime's Python
    if reported:
        fake_python(tmp_path, "python3.12", reported)
    with pytest.raises(bundle.InterpreterError) as raised:
        bundle.runtime_interpreter("python3.12", {"PATH": str(tmp_path)})
    message = str(raised.value)
    assert "needs Python 3.12" in message and "`python3.12` is on PATH" in message
    assert bundle.INTERPRETER_VARIABLE in message
    wrong = fake_python(tmp_path / "opt", "py", "3.11")
    with pytest.raises(bundle.InterpreterError, match=re.escape(str(wrong))):
        bundle.runtime_interpreter("python3.12", {"PATH": "", bundle.INTERPRETER_VARIABLE: str(wrong)})


def test_versions_the_lock_does_not_fix_are_named(tmp_path: Path) -> None:
    site = fake_site(tmp_path, {"tzdata-2026.6": ["tzdata/__init__.py"], "pydantic-2.13.4": ["p.py"]})
    pinned = bundle.pins()
    assert pinned["pydantic"] == "2.13.4" and pinned["typing-extensions"]
    assert bundle.unpinned(bundle.installed_versions(site), {"pydantic": "2.13.4"}) == ["tzdata 2026.6"]
    assert bundle.unpinned({"pydantic": "2.12.0"}, {"pydantic": "2.13.4"}) == ["pydantic 2.12.0"]


def test_the_asset_hash_follows_the_sources_and_nothing_else(tmp_path: Path) -> None:
    root = tmp_path / "project"
    for name in ("engine/__init__.py", "functions/__init__.py", "pyproject.toml", ".ci/constraints.txt"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)
    first = bundle.source_hash(Package.PLAIN, root=root)
    (root / "functions" / "__pycache__").mkdir()
    (root / "functions" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert bundle.source_hash(Package.PLAIN, root=root) == first
    assert bundle.source_hash(Package.RENDERING, root=root) != first
    (root / ".ci" / "constraints.txt").write_text("pydantic==2.13.5\n")
    assert bundle.source_hash(Package.PLAIN, root=root) != first


def test_names_are_compared_as_pip_does() -> None:
    assert bundle.normalise("Aws_Lambda.Powertools") == "aws-lambda-powertools"
    assert bundle.requirement_name("aws-lambda-powertools[tracer]==3.37.0") == "aws-lambda-powertools"
