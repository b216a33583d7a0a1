"""Shared helpers of the benchmarks: timing, peak memory, plain-text tables, the machine.

Not a benchmark itself. Times are wall-clock (``time.perf_counter``) in one Python process, so
on one core; the garbage collector stays on, as it is in production.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Timing:
    """Seconds per call over ``runs`` calls."""

    runs: int
    best: float
    median: float

    @property
    def per_second(self) -> float:
        return 1.0 / self.median if self.median > 0 else float("inf")


def measure(
    call: Callable[[], object],
    repeat: int,
    warmup: int = 1,
    collector: bool = True,
    back_to_back: bool = False,
) -> Timing:
    """Call ``call`` ``warmup`` times untimed, then ``repeat`` times, each timed on its own.
    Each call starts after a full collection, so no call pays for another's garbage; the
    collection also leaves the processor's caches cold. ``back_to_back=True`` collects once
    before the first call only: the calls follow one another as in a host working through
    them, and the collector runs in whichever call its thresholds fall. ``collector=False``
    turns the garbage collector off while timing (a diagnostic only)."""
    for _ in range(warmup):
        call()
    samples = []
    if back_to_back:
        gc.collect()
    for _ in range(repeat):
        if not back_to_back:
            gc.collect()
        if not collector:
            gc.disable()
        try:
            start = time.perf_counter()
            call()
            samples.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return Timing(runs=repeat, best=min(samples), median=statistics.median(samples))


def peak_memory(call: Callable[[], object]) -> int:
    """Bytes allocated at the peak of one call, above what was allocated before it."""
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - before


def retained_memory(build: Callable[[], T]) -> tuple[T, int]:
    """What ``build`` returns, and the bytes still allocated for it once it has returned."""
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        built = build()
        gc.collect()
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return built, after - before


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table: text left-aligned, numbers right-aligned."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max(len(str(h)), *(len(row[i]) for row in cells)) for i, h in enumerate(headers)]
    numeric = [all(isinstance(row[i], int | float) for row in rows) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        padded = (v.rjust(w) if n else v.ljust(w) for v, w, n in zip(values, widths, numeric, strict=True))
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(row) for row in cells)])


def _cell(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}" if value >= 100 else f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def ms(seconds: float) -> float:
    return seconds * 1000.0


def mib(size: int) -> float:
    return size / (1024 * 1024)


def reference_loop(repeat: int = 20) -> Timing:
    """A fixed pure-Python loop (100,000 additions), timed like the benchmarks: on a shared or
    throttled machine its spread shows how far the other numbers can be trusted."""

    def loop() -> int:
        total = 0
        for number in range(100_000):
            total += number
        return total

    return measure(loop, repeat)


def speed_note(repeat: int = 20) -> str:
    reference = reference_loop(repeat)
    return (
        f"reference loop (100,000 additions): best {ms(reference.best):.2f} ms, "
        f"median {ms(reference.median):.2f} ms"
    )


def machine() -> str:
    """One line naming the machine: CPU model, cores, Python."""
    model = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def arguments(description: str, repeat: int) -> argparse.ArgumentParser:
    """The flags every benchmark takes; callers add their own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--repeat", type=int, default=repeat, help=f"timed runs (default {repeat})")
    parser.add_argument("--quick", action="store_true", help="tiny sizes and few runs (smoke test)")
    return parser
