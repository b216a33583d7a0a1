"""Target: each Lambda function's deployment (code and the dependencies beyond the runtime's own
boto3) is under 20 MB unzipped.

    python -m benchmarks.lambda_size [--runtime python3.12] [--keep DIR] [--quick]

Builds the packages exactly as the CDK app does (infra/bundle.py): pyproject's ``[project]``
dependencies pinned by .ci/constraints.txt, installed for the Lambda platform (arm64, ``pip install
--target --platform --only-binary=:all:``), less what the Lambda Python runtime ships and what only
the GM's console uses, plus the project's ``engine`` and ``functions`` packages, compiled by the
runtime's Python (the project's sources kept, the dependencies' replaced by their bytecode). Two
packages: ``rendering`` for process_game (with the map rasteriser), ``plain`` for the other
functions. Prints the unzipped size of each package by distribution, zipped sizes, and what could
still be left out. ``--quick`` measures the project's own sources only (no download, no bytecode).

The platform follows the runtime: python3.11 runs on Amazon Linux 2 (glibc 2.26), so only
manylinux wheels up to ``manylinux_2_26`` load there; python3.12 and later run on Amazon Linux
2023 (glibc 2.34).
"""

from __future__ import annotations

import io
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from benchmarks.timing import table
from functions.resources import FUNCTIONS
from infra import bundle

TARGET_MB = 20.0
TRIMS = (
    ("Pillow's AVIF codec", ("PIL/_avif.*", "pillow.libs/libavif-*")),
    ("Pillow's WebP codec", ("PIL/_webp.*", "pillow.libs/libwebp*", "pillow.libs/libsharpyuv-*")),
    ("Pillow's colour management (ImageCms)", ("PIL/_imagingcms.*", "pillow.libs/liblcms2-*")),
    (
        "Pillow's Tk, ImageMath, ImageMorph modules",
        ("PIL/_imagingtk.*", "PIL/_imagingmath.*", "PIL/_imagingmorph.*"),
    ),
)
"""What the functions never load, and could be left out: the map is only ever saved as PNG. Only
what the installed packages contain is printed (nothing of Pillow's once Pillow is gone)."""
MB = 1_000_000


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    runtime = args[args.index("--runtime") + 1] if "--runtime" in args else bundle.RUNTIME
    keep = Path(args[args.index("--keep") + 1]) if "--keep" in args else None
    quick = "--quick" in args
    print(f"Lambda deployment size, {runtime} on arm64 (unzipped; zipped with deflate)")
    with tempfile.TemporaryDirectory() as scratch:
        site = keep or Path(scratch) / "site"
        interpreter = None
        if not quick:
            try:
                interpreter = bundle.runtime_interpreter(runtime)
                bundle.install(site, runtime)
            except bundle.InterpreterError as error:
                print(error)
                return 1
            except bundle.InstallError as error:
                print(error)
                print(f"({runtime}'s Amazon Linux has glibc 2.{bundle.GLIBC_MINOR[runtime]}: a wheel for a")
                print(
                    " newer manylinux, as Pillow 13's arm64 wheel is (manylinux_2_27), does not load there)"
                )
                return 1
        packages = {
            package: _built(site, Path(scratch) / package, package, interpreter) for package in bundle.Package
        }
        sizes = {package: _sizes(files) for package, files in packages.items()}
        zipped = {package: _zipped_size(_all(files)) for package, files in packages.items()}
        trims = [(what, _matched_size(site, patterns)) for what, patterns in TRIMS]
    largest = bundle.Package.RENDERING
    _print_distributions(largest, sizes[largest])
    trims = [(what, size) for what, size in trims if size]
    if trims:
        print("\ncould be left out (never loaded by the functions):")
        together = sum(size for _, size in trims)
        print(table(("what", "MB"), [*((w, s / MB) for w, s in trims), ("together", together / MB)]))
    rows = []
    for package in bundle.Package:
        total = sum(sizes[package].values())
        rows.append((_who(package), total / MB, zipped[package] / MB, _verdict(total)))
    print()
    print(table(("package", "MB", "zipped MB", f"< {TARGET_MB:.0f} MB"), rows))
    scope = "the project's own packages only (--quick)" if quick else "each function's package"
    worst = max(sum(package.values()) for package in sizes.values())
    print(f"target: < {TARGET_MB:.0f} MB unzipped ({scope}): {_verdict(worst)}")
    return 0


def _built(
    site: Path, output: Path, package: bundle.Package, interpreter: str | None
) -> dict[str, list[Path]]:
    """``package`` built into ``output`` as infra/bundle.py builds it (compiled if ``interpreter``),
    its files by distribution: each top-level folder or module belongs to the distribution that
    installed it."""
    owners = {f"{name}/": f"{name}/ (this project)" for name in bundle.PROJECT_PACKAGES}
    for name, files in bundle.kept_distributions(site, package).items():
        owners |= {_top(file.relative_to(site)): name for file in files}
    bundle.assemble(output, site, package)
    if interpreter:
        bundle.compile_package(output, interpreter)
    found: dict[str, list[Path]] = {}
    for file in sorted(output.rglob("*")):
        if file.is_file():
            found.setdefault(owners[_top(file.relative_to(output))], []).append(file)
    return found


def _top(path: Path) -> str:
    """The top-level folder ("pydantic/") or module ("typing_extensions", source or bytecode) of a path."""
    if len(path.parts) > 1:
        return f"{path.parts[0]}/"
    return path.name.removesuffix(".pyc").removesuffix(".py")


def _who(package: bundle.Package) -> str:
    functions = [f.key for f in FUNCTIONS if bundle.package_of(f.key) is package]
    return f"{package} ({', '.join(functions)})"


def _print_distributions(package: bundle.Package, sizes: Mapping[str, int]) -> None:
    total = sum(sizes.values())
    ranked = sorted(sizes.items(), key=lambda item: -item[1])
    rows = [(name, size / MB, 100 * size / total) for name, size in ranked]
    print(f"the {package} package, by distribution:")
    print(table(("distribution", "MB", "%"), [*rows, ("total", total / MB, 100.0)]))


def _sizes(files: Mapping[str, list[Path]]) -> dict[str, int]:
    return {name: sum(file.stat().st_size for file in found) for name, found in files.items()}


def _all(files: Mapping[str, list[Path]]) -> Iterable[Path]:
    return (file for found in files.values() for file in found)


def _verdict(size: int) -> str:
    return "met" if size < TARGET_MB * MB else "NOT met"


def _matched_size(site: Path, patterns: Iterable[str]) -> int:
    paths = [path for pattern in patterns for path in site.glob(pattern)]
    return sum(_tree_size(path) if path.is_dir() else path.stat().st_size for path in paths)


def _tree_size(folder: Path) -> int:
    return sum(file.stat().st_size for file in folder.rglob("*") if file.is_file())


def _zipped_size(files: Iterable[Path]) -> int:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            archive.write(file, arcname=str(file))
    return buffer.tell()


if __name__ == "__main__":
    raise SystemExit(main())
