"""Read a PNG with the standard library, for tests: its header, and its pixels when it is the
8-bit RGBA (or RGB) image the map renderer writes."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {2: 3, 6: 4}
"""Bytes per pixel by PNG colour type, at 8 bits a channel: RGB, RGBA."""


@dataclass(frozen=True)
class Png:
    width: int
    height: int
    bit_depth: int
    colour_type: int
    data: bytes
    """The image data (every IDAT chunk, concatenated), still compressed and filtered."""


def read(png: bytes) -> Png:
    """The header and image data of a PNG; ValueError if it is not one."""
    if not png.startswith(SIGNATURE):
        raise ValueError("not a PNG: no signature")
    chunks = dict.fromkeys((b"IHDR", b"IDAT"), b"")
    offset = len(SIGNATURE)
    while offset < len(png):
        length, kind = struct.unpack_from(">I4s", png, offset)
        if kind in chunks:
            chunks[kind] += png[offset + 8 : offset + 8 + length]
        offset += 12 + length
    width, height, depth, colour = struct.unpack_from(">IIBB", chunks[b"IHDR"])
    return Png(width, height, depth, colour, chunks[b"IDAT"])


def pixels(png: bytes) -> list[tuple[int, ...]]:
    """Every pixel, row by row, as (r, g, b, a) or (r, g, b) tuples."""
    image = read(png)
    if image.bit_depth != 8 or image.colour_type not in CHANNELS:
        raise ValueError(f"only 8-bit RGB and RGBA are read here, not {image}")
    step = CHANNELS[image.colour_type]
    stride = image.width * step
    raw = zlib.decompress(image.data)
    previous = bytes(stride)
    out: list[tuple[int, ...]] = []
    for y in range(image.height):
        start = y * (stride + 1)
        row = _unfilter(raw[start], bytearray(raw[start + 1 : start + 1 + stride]), previous, step)
        out += (tuple(row[x : x + step]) for x in range(0, stride, step))
        previous = bytes(row)
    return out


def _unfilter(kind: int, row: bytearray, up: bytes, step: int) -> bytearray:
    if kind == 0:
        return row
    if kind == 2:
        return bytearray((a + b) & 0xFF for a, b in zip(row, up, strict=True))
    for i in range(len(row)):
        left = row[i - step] if i >= step else 0
        if kind == 1:
            row[i] = (row[i] + left) & 0xFF
        elif kind == 3:
            row[i] = (row[i] + (left + up[i]) // 2) & 0xFF
        else:
            above, corner = up[i], up[i - step] if i >= step else 0
            # Paeth: whichever of left, above and corner is nearest to left + above - corner.
            to_left, to_above, to_corner = (
                abs(above - corner),
                abs(left - corner),
                abs(left + above - 2 * corner),
            )
            if to_left <= to_above and to_left <= to_corner:
                row[i] = (row[i] + left) & 0xFF
            elif to_above <= to_corner:
                row[i] = (row[i] + above) & 0xFF
            else:
                row[i] = (row[i] + corner) & 0xFF
    return row
