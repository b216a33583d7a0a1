"""The Lambda packages' selection (infra/bundle.py), offline: pip is never run here; an installed
site is faked with the files and RECORDs pip would leave."""

from __future__ import annotations

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
            (site / file).write_text(file)
        (info / "RECORD").write_text("".join(f"{name},sha256=x,1\n" for name in listed))
    return site


SITE = {
    "pillow-13.0.0": ["PIL/__init__.py", "pillow.libs/libz.so"],
    "resvg_py-0.5.0": ["resvg_py/__init__.py"],
    "pydantic-2.13.4": ["pydantic/__init__.py", "pydantic/__pycache__/x.cpython-312.pyc"],
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
        (Package.RENDERING, {"PIL/__init__.py", "resvg_py/__init__.py"}, set()),
        (Package.PLAIN, set(), {"PIL/__init__.py", "pillow.libs/libz.so", "resvg_py/__init__.py"}),
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
    # The runtime's boto3 family and the console's packages are never shipped, nor bytecode
    assert not any(f.startswith(("botocore", "rich", "bin/")) for f in files)
    assert not any("__pycache__" in f or f.endswith(".pyc") for f in files)


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
