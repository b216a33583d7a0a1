"""Target: the Lambda deployment (code and the dependencies beyond the runtime's own boto3) is under
20 MB unzipped.

    python -m benchmarks.lambda_size [--runtime python3.12] [--keep DIR] [--quick]

Installs the runtime dependencies of pyproject.toml's ``[project]`` table, pinned by
.ci/constraints.txt, for the Lambda platform (arm64, ``pip install --target --platform
--only-binary=:all:``), leaves out what the Lambda Python runtime provides (boto3, botocore,
s3transfer, jmespath and their own dependencies), adds the project's ``engine`` and ``functions``
packages, and prints the unzipped size by distribution, and the zipped size.

The platform follows the runtime: python3.11 runs on Amazon Linux 2 (glibc 2.26), so only
manylinux wheels up to ``manylinux_2_26`` load there; python3.12 and later run on Amazon Linux
2023 (glibc 2.34). ``--quick`` measures the project's own packages only (no download).

Also printed: what could be left out, and how much it weighs (``__pycache__`` folders are never
counted: Lambda writes none and the package ships none).
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from benchmarks.timing import table

TARGET_MB = 20.0
ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / ".ci" / "constraints.txt"
PROJECT_PACKAGES = ("engine", "functions")
PROVIDED_BY_RUNTIME = frozenset(
    {"boto3", "botocore", "s3transfer", "jmespath", "python-dateutil", "six", "urllib3"}
)
"""Distributions the Lambda Python runtime ships (boto3 and what it depends on)."""
GLIBC_MINOR = {"python3.11": 26, "python3.12": 34, "python3.13": 34}
"""The glibc of each runtime's Amazon Linux: 2 for python3.11, 2023 from python3.12."""
TRIMS = (
    ("Pillow's AVIF codec", ("PIL/_avif.*", "pillow.libs/libavif-*")),
    ("Pillow's WebP codec", ("PIL/_webp.*", "pillow.libs/libwebp*", "pillow.libs/libsharpyuv-*")),
    ("Pillow's colour management (ImageCms)", ("PIL/_imagingcms.*", "pillow.libs/liblcms2-*")),
    (
        "Pillow's Tk, ImageMath, ImageMorph modules",
        ("PIL/_imagingtk.*", "PIL/_imagingmath.*", "PIL/_imagingmorph.*"),
    ),
    ("aws-xray-sdk and wrapt (only Powertools Tracer uses them)", ("aws_xray_sdk", "wrapt")),
)
"""What the functions never load, and could be left out of the package: the map is drawn and
saved as PNG (Pillow's core and FreeType), never read or written in another format."""
RENDERING_ONLY = frozenset({"pillow"})
"""Only process_game draws the map: the other functions' package can do without these."""
MB = 1_000_000


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    runtime = args[args.index("--runtime") + 1] if "--runtime" in args else "python3.12"
    keep = Path(args[args.index("--keep") + 1]) if "--keep" in args else None
    print(f"Lambda deployment size, {runtime} on arm64 (unzipped; zipped with deflate)")
    with tempfile.TemporaryDirectory() as scratch:
        target = keep or Path(scratch) / "package"
        if "--quick" not in args:
            failure = _install(target, runtime)
            if failure:
                print(f"pip could not install the dependencies for {runtime}:\n{failure}")
                print(
                    f"({runtime}'s Amazon Linux has glibc 2.{GLIBC_MINOR[runtime]}: a wheel built for a newer"
                )
                print(" manylinux, as Pillow 13's arm64 wheel is (manylinux_2_27), does not load there)")
                return 1
        shipped = _distribution_files(target) if "--quick" not in args else {}
        for package in PROJECT_PACKAGES:
            shipped[f"{package}/ (this project)"] = list(_files(ROOT / package))
        sizes = {name: sum(file.stat().st_size for file in files) for name, files in shipped.items()}
        zipped = _zipped_size(file for files in shipped.values() for file in files)
        trims = [(what, _matched_size(target, patterns)) for what, patterns in TRIMS]
    total = sum(sizes.values())
    ranked = sorted(sizes.items(), key=lambda item: -item[1])
    rows = [(name, size / MB, 100 * size / total) for name, size in ranked]
    print(table(("distribution", "MB", "%"), [*rows, ("total", total / MB, 100.0)]))
    print(f"zipped: {zipped / MB:.1f} MB")
    trimmed = sum(size for _, size in trims)
    print("\ncould be left out (never loaded by the functions):")
    print(table(("what", "MB"), [*((what, size / MB) for what, size in trims), ("together", trimmed / MB)]))
    without_pillow = total - sum(size for name, size in sizes.items() if name in RENDERING_ONLY)
    packages = (
        ("one package for every function", total),
        ("  the same, trimmed", total - trimmed),
        ("inbound, find_due, park_failed: no Pillow", without_pillow),
        ("  the same, trimmed", without_pillow - (trimmed - _pillow_trims(trims))),
    )
    print()
    print(table(("package", "MB", f"< {TARGET_MB:.0f} MB"), [(n, s / MB, _verdict(s)) for n, s in packages]))
    scope = (
        "the project's own packages only (--quick)" if "--quick" in args else "one package for every function"
    )
    print(f"target: < {TARGET_MB:.0f} MB unzipped ({scope}): {_verdict(total)}")
    return 0


def _verdict(size: int) -> str:
    return "met" if size < TARGET_MB * MB else "NOT met"


def _pillow_trims(trims: Sequence[tuple[str, int]]) -> int:
    return sum(size for what, size in trims if what.startswith("Pillow"))


def _matched_size(target: Path, patterns: Iterable[str]) -> int:
    paths = [path for pattern in patterns for path in target.glob(pattern)]
    return sum(_tree_size(path) if path.is_dir() else path.stat().st_size for path in paths)


def requirements() -> list[str]:
    """pyproject.toml's runtime dependencies, less those the Lambda runtime provides."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [spec for spec in project["dependencies"] if _name(spec) not in PROVIDED_BY_RUNTIME]


def platforms(runtime: str) -> list[str]:
    """Every manylinux tag the runtime's glibc loads, for pip's ``--platform``."""
    newest = GLIBC_MINOR[runtime]
    return ["manylinux2014_aarch64", *(f"manylinux_2_{minor}_aarch64" for minor in range(17, newest + 1))]


def _install(target: Path, runtime: str) -> str | None:
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-compile",
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
        *requirements(),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return "\n".join(line for line in done.stderr.splitlines() if not line.startswith("WARNING"))
    return None


def _distribution_files(target: Path) -> dict[str, list[Path]]:
    """The files of each installed distribution (from its RECORD), but those the runtime provides."""
    files: dict[str, list[Path]] = defaultdict(list)
    for record in sorted(target.glob("*.dist-info/RECORD")):
        name = _name(record.parent.name.removesuffix(".dist-info").rsplit("-", 1)[0])
        if name in PROVIDED_BY_RUNTIME:
            continue
        for line in record.read_text().splitlines():
            file = target / line.rsplit(",", 2)[0]
            if file.is_file() and "__pycache__" not in file.parts:
                files[name].append(file)
    return dict(files)


def _tree_size(folder: Path) -> int:
    return sum(file.stat().st_size for file in _files(folder))


def _files(folder: Path) -> Iterable[Path]:
    if not folder.exists():
        return []
    return (f for f in sorted(folder.rglob("*")) if f.is_file() and "__pycache__" not in f.parts)


def _zipped_size(files: Iterable[Path]) -> int:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            archive.write(file, arcname=str(file))
    return buffer.tell()


def _name(spec: str) -> str:
    """The normalised distribution name of a requirement or a dist-info folder name."""
    for separator in "[=<>!~; ":
        spec = spec.split(separator, 1)[0]
    return spec.lower().replace("_", "-")


if __name__ == "__main__":
    raise SystemExit(main())
