"""Read a SQLite write-ahead log (``X.sqlite-wal``) the way SQLite's recovery does, to tell damage
from a write cut short.

SQLite replays a WAL frame by frame and silently stops at the first frame whose checksum fails:
one flipped byte drops that transaction and every later one without a word. The table log keeps
its WAL empty at rest (a checkpoint after every append, :mod:`companion.log`), so a WAL holding
frames at start means the table stopped during an append; :func:`inspect` says whether what is
there is only that append cut short (harmless: nobody was told of it) or **whole frames that do not
check** — damage, which the table then says in words.

Format (https://www.sqlite.org/fileformat2.html#walformat): a 32-byte header (magic 0x377f0682 or
0x377f0683 — the low bit says the checksum words are big-endian —, version, page size, checkpoint
sequence, two salts, a checksum of the first 24 bytes), then frames of a 24-byte header (page
number, database size in pages for a commit frame else 0, the two salts, a checksum running over
every frame so far) and one page.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

MAGIC = (0x377F0682, 0x377F0683)
HEADER = 32
FRAME_HEADER = 24


@dataclass(frozen=True)
class WalReport:
    """What :func:`inspect` found.

    Attributes:
        size: the file's size in bytes (0 when it is missing).
        valid: frames SQLite will replay (up to and including the last good commit frame).
        damaged: whole frames after them that belong to this WAL (same salts) but fail their
            checksum — or every frame, when the header itself fails. Non-zero means damage.
        commits_lost: commit frames among the damaged ones (about the number of actions lost).
        detail: one English sentence for logs ("" when nothing is wrong).
    """

    size: int = 0
    valid: int = 0
    damaged: int = 0
    commits_lost: int = 0
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.damaged == 0


def _checksum(data: bytes, big: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    """SQLite's WAL checksum (``walChecksumBytes``) over ``data`` (a multiple of 8 bytes)."""
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    mask = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & mask
        s1 = (s1 + words[i + 1] + s0) & mask
    return s0, s1


def inspect(path: str | Path) -> WalReport:
    """Check the WAL file ``path`` (read only; a missing file is an empty WAL)."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return WalReport()
    size = len(data)
    if size < HEADER:
        return WalReport(size)  # a header being written when the table stopped: nothing in it
    magic, _version, page_size, _seq, salt1, salt2, c1, c2 = struct.unpack(">8I", data[:HEADER])
    frame = FRAME_HEADER + page_size
    whole = (size - HEADER) // frame if 512 <= page_size <= 65536 else (size - HEADER) // 4120
    if magic not in MAGIC or not 512 <= page_size <= 65536 or _checksum(data[:24], bool(magic & 1)) != (c1, c2):
        if size < HEADER + FRAME_HEADER + 512:
            return WalReport(size)  # no whole frame after the header: no record can have been in it
        return WalReport(size, 0, max(whole, 1), max(whole, 1) and 1,
                         f"the WAL header fails its check ({size - HEADER} bytes after it cannot be read)")
    big = bool(magic & 1)
    s0, s1 = c1, c2
    valid = last_commit = 0
    for i in range(whole):
        at = HEADER + i * frame
        head = data[at:at + FRAME_HEADER]
        _page, commit, f1, f2, k1, k2 = struct.unpack(">6I", head)
        if (f1, f2) != (salt1, salt2):
            break  # a frame of an earlier WAL generation: SQLite stops here too, nothing lost
        s0, s1 = _checksum(head[:8], big, s0, s1)
        s0, s1 = _checksum(data[at + FRAME_HEADER:at + frame], big, s0, s1)
        if (s0, s1) != (k1, k2):
            damaged = [j for j in range(i, whole)
                       if struct.unpack(">2I", data[HEADER + j * frame + 8:HEADER + j * frame + 16]) == (salt1, salt2)]
            lost = sum(1 for j in damaged
                       if struct.unpack(">I", data[HEADER + j * frame + 4:HEADER + j * frame + 8])[0])
            return WalReport(size, last_commit, len(damaged), lost,
                             f"WAL frame {i + 1} of {whole} fails its checksum: {len(damaged)} frame(s) after the "
                             f"last good record cannot be read")
        valid += 1
        if commit:
            last_commit = valid
    return WalReport(size, last_commit)
