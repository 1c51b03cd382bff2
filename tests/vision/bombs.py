"""Image files that claim a huge size while being small on disk (image bombs), written without
ever holding the decoded image: a PNG is its chunks, the pixel rows a zlib stream of zeros."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bomb(path: Path, width: int, height: int, *, bit_depth: int = 8, colour: int = 2,
             rows: int | None = None) -> Path:
    """A valid PNG of ``width`` × ``height`` (colour type ``colour``: 0 grey, 2 RGB, 3 palette,
    4 grey+alpha, 6 RGBA) whose pixels are all zero; ``rows``: write only that many rows (a
    truncated file). Streams the compression: memory stays at one row."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    row = b"\x00" + bytes(width * channels * bit_depth // 8 if bit_depth >= 8 else (width * bit_depth + 7) // 8)
    comp = zlib.compressobj(9)
    parts = []
    for _ in range(height if rows is None else rows):
        parts.append(comp.compress(row))
    parts.append(comp.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, colour, 0, 0, 0)
    body = [_chunk(b"IHDR", ihdr)]
    if colour == 3:
        body.append(_chunk(b"PLTE", bytes(range(256)) * 3))
    body.append(_chunk(b"IDAT", b"".join(parts)))
    if rows is None:
        body.append(_chunk(b"IEND", b""))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"".join(body))
    return path
