"""The Lambda packages, built without Docker: pip installs pyproject's ``[project]`` dependencies,
pinned by .ci/constraints.txt, as wheels for the Lambda platform (arm64, the runtime's Python and
glibc), and the project's ``engine`` and ``functions`` packages are copied beside them. The package
is then compiled to bytecode by the runtime's own Python (:func:`compile_package`): Lambda cannot
write ``.pyc`` files (its file system is read-only) but reads those it is given, and without them
every cold start compiles every module it imports.

Left out: what the Lambda Python runtime ships (boto3 and its dependencies), what only the GM's
console uses, and the distributions' own test suites. Two packages: ``rendering`` for process_game,
which draws the maps, and ``plain`` for the other functions, without the map rasteriser
(:data:`RENDERING_ONLY`).

CDK builds each package through infra/assets.py when it synthesizes a stack it deploys (so
``cdk deploy`` needs PyPI). The asset hash is computed from the inputs (:func:`source_hash`): an
unchanged lock and source tree give the same asset, and no redeploy. benchmarks/lambda_size.py
measures the packages with the same code.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from enum import StrEnum
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"
PYPROJECT = ROOT / "pyproject.toml"
PROJECT_PACKAGES = ("engine", "functions")
RUNTIME = "python3.12"
PROVIDED_BY_RUNTIME = frozenset(
    {"boto3", "botocore", "s3transfer", "jmespath", "python-dateutil", "six", "urllib3"}
)
"""Distributions the Lambda Python runtime ships (boto3 and what it depends on)."""
CONSOLE_ONLY = frozenset(
    {"typer", "rich", "click", "shellingham", "markdown-it-py", "mdurl", "pygments", "annotated-doc"}
)
"""Distributions only the GM's console (the ``warpmail`` command line) imports."""
RENDERING_ONLY = frozenset({"resvg-py"})
"""The map rasterisers: only process_game draws maps."""
GLIBC_MINOR = {"python3.11": 26, "python3.12": 34, "python3.13": 34}
"""The glibc of each runtime's Amazon Linux: 2 for python3.11, 2023 from python3.12."""
INTERPRETER_VARIABLE = "WARPMAIL_LAMBDA_PYTHON"
"""The path of the runtime's Python, for a machine where it is neither on PATH nor a pyenv version."""
TEST_SUITES = "tests"
"""The folder of a distribution's own tests (icalendar ships 1.3 MB of them): no function imports it."""


class Package(StrEnum):
    RENDERING = "rendering"
    PLAIN = "plain"


def package_of(function_key: str) -> Package:
    """The package a function is deployed with."""
    return Package.RENDERING if function_key == "process_game" else Package.PLAIN


def left_out(package: Package) -> frozenset[str]:
    """The distributions that package does without."""
    rendering = frozenset() if package is Package.RENDERING else RENDERING_ONLY
    return PROVIDED_BY_RUNTIME | CONSOLE_ONLY | rendering


def normalise(name: str) -> str:
    """A distribution's name as PEP 503 compares them: "Aws_Lambda.Powertools" -> "aws-lambda-powertools"."""
    lowered = name.lower()
    for separator in "_.":
        lowered = lowered.replace(separator, "-")
    return "-".join(part for part in lowered.split("-") if part)


def requirement_name(spec: str) -> str:
    """The normalised distribution name of a requirement: "aws-lambda-powertools[tracer]==3" -> ..."""
    for separator in "[=<>!~; ":
        spec = spec.split(separator, 1)[0]
    return normalise(spec)


def requirements(pyproject: Path = PYPROJECT) -> list[str]:
    """pyproject's runtime dependencies that some function needs (neither the runtime's nor the
    console's)."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    needed_by_none = PROVIDED_BY_RUNTIME | CONSOLE_ONLY
    return [spec for spec in project["dependencies"] if requirement_name(spec) not in needed_by_none]


def platforms(runtime: str = RUNTIME) -> list[str]:
    """Every manylinux tag the runtime's glibc loads, for pip's ``--platform`` (pip does not infer
    the older tags from the newest)."""
    newest = GLIBC_MINOR[runtime]
    return ["manylinux2014_aarch64", *(f"manylinux_2_{minor}_aarch64" for minor in range(17, newest + 1))]


def pip_command(target: Path, runtime: str = RUNTIME, specs: Iterable[str] | None = None) -> list[str]:
    """``pip install`` of the requirements into ``target``: wheels only, for the Lambda platform,
    pinned by the constraints file, no bytecode (pip's Python is not the runtime's: see
    :func:`compile_package`)."""
    return [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-compile",
        "--disable-pip-version-check",
        "--target",
        str(target),
        *(flag for platform in platforms(runtime) for flag in ("--platform", platform)),
        "--only-binary=:all:",
        "--python-version",
        runtime.removeprefix("python"),
        "--implementation",
        "cp",
        "--constraint",
        str(CONSTRAINTS),
        *(requirements() if specs is None else specs),
    ]


class InstallError(RuntimeError):
    """pip could not install the dependencies for the Lambda platform."""


def install(target: Path, runtime: str = RUNTIME) -> None:
    """Install the requirements into ``target``; InstallError carries pip's own explanation."""
    done = subprocess.run(pip_command(target, runtime), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        reasons = "\n".join(line for line in done.stderr.splitlines() if not line.startswith("WARNING"))
        raise InstallError(
            f"pip could not install the Lambda dependencies for {runtime} on arm64 (from PyPI):\n{reasons}"
        )


def distribution_files(site: Path) -> dict[str, list[Path]]:
    """The files of each distribution installed in ``site``, from its RECORD (no ``__pycache__``, no test
    suite)."""
    files: dict[str, list[Path]] = defaultdict(list)
    for record in sorted(site.glob("*.dist-info/RECORD")):
        name = normalise(record.parent.name.removesuffix(".dist-info").rsplit("-", 1)[0])
        for line in record.read_text(encoding="utf-8").splitlines():
            path = line.rsplit(",", 2)[0]
            file = site / path
            # "../" paths are scripts pip put outside the target: no function runs them.
            if not path.startswith("..") and _shipped(file.relative_to(site)) and file.is_file():
                files[name].append(file)
    return dict(files)


def _shipped(path: Path) -> bool:
    return "__pycache__" not in path.parts and path.parts[1:2] != (TEST_SUITES,)


def installed_versions(site: Path) -> dict[str, str]:
    """Each distribution installed in ``site`` and its version."""
    found = {}
    for info in site.glob("*.dist-info"):
        name, _, version = info.name.removesuffix(".dist-info").rpartition("-")
        found[normalise(name)] = version
    return found


def pins(constraints: Path = CONSTRAINTS, pyproject: Path = PYPROJECT) -> dict[str, str]:
    """The exact versions the lock names: ``name==version`` lines of the constraints file and of
    pyproject's dependencies."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    lines = [*constraints.read_text(encoding="utf-8").splitlines(), *project["dependencies"]]
    pinned = {}
    for line in lines:
        spec = line.split("#", 1)[0].strip()
        if "==" in spec:
            name, version = spec.split("==", 1)
            pinned[requirement_name(name)] = version.split(";", 1)[0].strip()
    return pinned


def unpinned(installed: Mapping[str, str], pinned: Mapping[str, str]) -> list[str]:
    """The installed distributions whose version the lock does not fix, as "name version"."""
    return sorted(f"{name} {version}" for name, version in installed.items() if pinned.get(name) != version)


def project_files(root: Path = ROOT, packages: Iterable[str] = PROJECT_PACKAGES) -> list[Path]:
    """The project's own package files, as deployed (no ``__pycache__``, no compiled files)."""
    return [
        file
        for package in packages
        for file in sorted((root / package).rglob("*"))
        if file.is_file() and "__pycache__" not in file.parts and file.suffix != ".pyc"
    ]


def source_hash(package: Package, runtime: str = RUNTIME, root: Path = ROOT) -> str:
    """What the package is built from: this module, the lock, the runtime and the project's files."""
    digest = hashlib.sha256(f"{package}|{runtime}".encode())
    digest.update(Path(__file__).read_bytes())
    for file in (root / "pyproject.toml", root / ".ci" / "constraints.txt", *project_files(root)):
        digest.update(str(file.relative_to(root)).encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


def kept_distributions(site: Path, package: Package) -> dict[str, list[Path]]:
    """The files of the distributions in ``site`` that ``package`` ships, by distribution."""
    omitted = left_out(package)
    return {name: files for name, files in distribution_files(site).items() if name not in omitted}


def assemble(output: Path, site: Path, package: Package, root: Path = ROOT) -> None:
    """Copy into ``output`` the distributions in ``site`` the package keeps, and the project."""
    for files in kept_distributions(site, package).values():
        for file in files:
            _copy(file, output / file.relative_to(site))
    for file in project_files(root):
        _copy(file, output / file.relative_to(root))


class InterpreterError(RuntimeError):
    """No Python of the runtime's version to compile the package's bytecode with."""


def runtime_interpreter(runtime: str = RUNTIME, environ: Mapping[str, str] = os.environ) -> str:
    """The runtime's Python on this machine (the ``.pyc`` format changes with each version): the one
    :data:`INTERPRETER_VARIABLE` names if it is set, else ``python3.12`` on PATH, else pyenv's."""
    version = runtime.removeprefix("python")
    tried = _interpreter_candidates(runtime, environ)
    for candidate in tried:
        if _reports_version(candidate, version):
            return candidate
    raise InterpreterError(
        f"Building the Lambda packages needs Python {version} (the {runtime} runtime's) to compile their"
        f" bytecode, and none was found (tried: {', '.join(tried) or f'no {runtime} on PATH, no pyenv'})."
        f" Install Python {version} so that `{runtime}` is on PATH (or `pyenv install {version}`),"
        f" or set {INTERPRETER_VARIABLE} to its path."
    )


def _interpreter_candidates(runtime: str, environ: Mapping[str, str]) -> list[str]:
    if INTERPRETER_VARIABLE in environ:
        return [environ[INTERPRETER_VARIABLE]]
    search = environ.get("PATH", os.defpath)
    candidates = [shutil.which(runtime, path=search)]
    pyenv = shutil.which("pyenv", path=search)
    if pyenv:
        # pyenv's shims refuse a version that is not selected: ask for its folder instead.
        done = _run([pyenv, "prefix", runtime.removeprefix("python")])
        if done and done.returncode == 0 and done.stdout.strip():
            candidates.append(str(Path(done.stdout.split()[0]) / "bin" / runtime))
    return [candidate for candidate in candidates if candidate]


def _reports_version(interpreter: str, version: str) -> bool:
    done = _run([interpreter, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
    return done is not None and done.returncode == 0 and done.stdout.strip() == version


def _run(command: list[str]) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None


class CompileError(RuntimeError):
    """The runtime's Python could not compile a file of the package."""


def compile_package(output: Path, interpreter: str) -> None:
    """Compile the package in ``output`` with ``interpreter`` (the runtime's Python).

    The project's modules keep their sources, for tracebacks, with their ``.pyc`` in ``__pycache__``.
    The dependencies' legacy ``.pyc`` (``compileall -b``, beside the source) replace their sources:
    with both, the rendering package would be 25.1 MB, over its 20 MB. The ``.pyc`` are
    unchecked-hash ones: the CDK asset zip fixes every file's time, which would make timestamp-checked
    ones look stale, and the package never changes once built.
    """
    project = [output / name for name in PROJECT_PACKAGES if (output / name).exists()]
    dependencies = sorted(
        path for path in output.iterdir() if path not in project and not path.name.endswith(".dist-info")
    )
    _compileall(interpreter, project)
    _compileall(interpreter, dependencies, "-b")
    for path in dependencies:
        for source in [path] if path.is_file() else path.rglob("*.py"):
            if source.suffix == ".py" and source.with_suffix(".pyc").is_file():
                source.unlink()


def _compileall(interpreter: str, paths: Iterable[Path], *options: str) -> None:
    targets = [str(path) for path in paths]
    if not targets:
        return
    command = [interpreter, "-m", "compileall", "-q", "-j0", "--invalidation-mode", "unchecked-hash"]
    done = subprocess.run([*command, *options, *targets], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CompileError(f"{interpreter} could not compile the Lambda package:\n{done.stdout}{done.stderr}")


def _copy(source: Path, destination: Path) -> None:
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, destination)


@cache
def installed_site(runtime: str = RUNTIME) -> Path:
    """The requirements installed once per process (both packages are cut from it)."""
    site = Path(tempfile.mkdtemp(prefix="warpmail-lambda-"))
    install(site, runtime)
    loose = unpinned(installed_versions(site), pins())
    if loose:
        # Reproducible only if the lock fixes every version: say which it does not.
        print(f"warning: not pinned in .ci/constraints.txt: {', '.join(loose)}", file=sys.stderr)
    return site


def build(output: Path, package: Package, runtime: str = RUNTIME) -> None:
    """Build ``package`` into ``output``, compiled by the runtime's Python (found before pip runs)."""
    interpreter = runtime_interpreter(runtime)
    assemble(output, installed_site(runtime), package)
    compile_package(output, interpreter)
