"""The fonts the map is drawn in, shipped with the code (licence in LICENSE beside them).

The PNG renderer loads these files and no system font, so a map is the same bytes on every
machine. The layout measures text with the same fonts' advance widths, read from their
``cmap`` and ``hmtx`` tables once per process.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FAMILY = "DejaVu Sans"
FOLDER = Path(__file__).parent
REGULAR = FOLDER / "DejaVuSans.ttf"
BOLD = FOLDER / "DejaVuSans-Bold.ttf"
FILES = (REGULAR, BOLD)


@dataclass(frozen=True)
class Metrics:
    """A font's horizontal advances, in font units, by character."""

    units_per_em: int
    advances: dict[str, int]
    missing: int
    """The advance of glyph 0, drawn for a character the font does not have."""

    def width(self, text: str, size: float) -> float:
        """The advance of ``text`` at ``size`` pixels. Kerning is left out: the drawn text is
        a few pixels narrower at most (DejaVu kerns pairs such as "Yo" closer)."""
        units = sum(self.advances.get(char, self.missing) for char in text)
        return units * size / self.units_per_em


def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn at ``size`` pixels in the bundled regular (or bold) font."""
    return metrics(BOLD if bold else REGULAR).width(text, size)


@cache
def metrics(path: Path) -> Metrics:
    data = path.read_bytes()
    tables = _tables(data)
    units_per_em = _u16(data, tables[b"head"] + 18)
    long_metrics = _u16(data, tables[b"hhea"] + 34)
    # Each long metric is (advance, left side bearing): every other number is an advance.
    advances: tuple[int, ...] = struct.unpack_from(f">{2 * long_metrics}H", data, tables[b"hmtx"])[::2]

    def advance(glyph: int) -> int:
        # Glyphs past the long metrics share the last advance (a monospaced tail).
        return advances[min(glyph, long_metrics - 1)]

    characters = _characters(data, tables[b"cmap"])
    if not characters:
        raise ValueError(f"{path.name}: no Unicode cmap of format 4 (platform 3, encoding 1)")
    by_char = {chr(code): advance(glyph) for code, glyph in characters}
    return Metrics(units_per_em=units_per_em, advances=by_char, missing=advance(0))


def _tables(data: bytes) -> dict[bytes, int]:
    """Each table's offset, by tag."""
    count = _u16(data, 4)
    records = (struct.unpack_from(">4sIII", data, 12 + 16 * i) for i in range(count))
    return {tag: offset for tag, _, offset, _ in records}


def _characters(data: bytes, cmap: int) -> list[tuple[int, int]]:
    """(code point, glyph) for every character of the Unicode BMP subtable (platform 3,
    encoding 1, format 4: the bundled subsets have no other); none if there is none."""
    for i in range(_u16(data, cmap + 2)):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        table = cmap + offset
        if (platform, encoding) == (3, 1) and _u16(data, table) == 4:
            return _format_4(data, table)
    return []


def _format_4(data: bytes, table: int) -> list[tuple[int, int]]:
    """The segments of a format 4 subtable: four parallel arrays, and glyph ids that a
    segment's range offset points to (relative to where that offset is stored)."""
    count = _u16(data, table + 6) // 2
    ends = table + 14
    starts, deltas, ranges = (ends + 2 * count * k + 2 for k in (1, 2, 3))
    found = []
    for s in range(count):
        first, last = _u16(data, starts + 2 * s), _u16(data, ends + 2 * s)
        delta, range_offset = _u16(data, deltas + 2 * s), _u16(data, ranges + 2 * s)
        for code in range(first, min(last, 0xFFFE) + 1):
            if range_offset:
                glyph = _u16(data, ranges + 2 * s + range_offset + 2 * (code - first))
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            else:
                glyph = (code + delta) & 0xFFFF
            if glyph:
                found.append((code, glyph))
    return found


def _u16(data: bytes, offset: int) -> int:
    value: int = struct.unpack_from(">H", data, offset)[0]
    return value
