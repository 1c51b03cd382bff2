"""The table log's cost per action under each SQLite durability policy (issue #20 item 3).

Appends the same actions (a real skull game's, seed 3) to a fresh SQLite log under four policies
and prints the wall time and the CPU time (process time) per append, with the ratio to the old
policy (WAL, ``synchronous=FULL``, SQLite's own checkpoints) measured in the same run:

* ``wal`` — the old policy: the game lives in the ``-wal`` until SQLite checkpoints (every 1000
  pages), so the ``.sqlite`` file alone is not the game;
* ``wal+checkpoint`` — the shipped one (:class:`companion.log.TableLog`): WAL, FULL, and a
  ``wal_checkpoint(TRUNCATE)`` after every append: the record is in the ``.sqlite`` file when
  ``append`` returns and the WAL is empty again;
* ``delete`` / ``truncate`` — a rollback journal (``journal_mode=DELETE`` / ``TRUNCATE``) with FULL.

The folder is the data folder's disk (``--dir``, default a temporary folder under the system's
temporary directory; a tmpfs such as /dev/shm has no real fsync and shows only the CPU side).

    python bench/tablelog.py [--actions 200] [--dir PATH] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.log import TableLog  # noqa: E402
from companion.sim import play_random_game  # noqa: E402

POLICIES = ("wal", "wal+checkpoint", "delete", "truncate")


def raw_log(path: Path, policy: str):
    """A connection set up as ``policy`` and its append function (the old and the rollback ones;
    ``wal+checkpoint`` is the shipped TableLog itself)."""
    if policy == "wal+checkpoint":
        log = TableLog.create(path, "skull", ["Аня", "Борис", "Вера", "Гена"], {})
        return log.append, log.close
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute(f"PRAGMA journal_mode={'WAL' if policy == 'wal' else policy.upper()}")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE actions (seq INTEGER PRIMARY KEY, action TEXT, source TEXT, ts TEXT)")

    def append(action: str, source: str) -> None:
        with conn:
            conn.execute("INSERT INTO actions (action, source, ts) VALUES (?, ?, ?)", (action, source, "t"))

    return append, conn.close


def measure(folder: Path, policy: str, actions: list[tuple[str, str]]) -> tuple[float, float]:
    """(wall ms, CPU ms) per append, medians over the appends."""
    path = folder / f"{policy}-{time.monotonic_ns()}.sqlite"
    append, close = raw_log(path, policy)
    walls, cpus = [], []
    try:
        for text, source in actions:
            w0, c0 = time.perf_counter(), time.process_time()
            append(text, source)
            walls.append((time.perf_counter() - w0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
    finally:
        close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    return statistics.median(walls), statistics.mean(cpus)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3, help="each policy this many times, interleaved")
    ap.add_argument("--dir", type=Path, default=None)
    args = ap.parse_args()
    _game, actions = play_random_game("skull", ["Аня", "Борис", "Вера", "Гена"], None, 3)
    actions = (actions * (args.actions // max(1, len(actions)) + 1))[:args.actions]
    folder = Path(tempfile.mkdtemp(prefix="bench-tablelog-", dir=args.dir))
    fs = os.statvfs(folder)
    print(f"table log cost per append: {args.actions} actions of a skull game, {args.rounds} rounds, folder {folder} "
          f"(block size {fs.f_bsize})")
    results: dict[str, list[tuple[float, float]]] = {p: [] for p in POLICIES}
    for _ in range(args.rounds):  # interleaved, so a load change hits every policy alike
        for policy in POLICIES:
            results[policy].append(measure(folder, policy, actions))
    base_wall = statistics.median(w for w, _ in results["wal"])
    base_cpu = statistics.median(c for _, c in results["wal"])
    print(f"{'policy':<16} {'wall ms (median)':>17} {'CPU ms (mean)':>14} {'wall ratio':>11} {'CPU ratio':>10}")
    for policy in POLICIES:
        wall = statistics.median(w for w, _ in results[policy])
        cpu = statistics.median(c for _, c in results[policy])
        mark = "  <- shipped" if policy == "wal+checkpoint" else ("  (baseline: old policy)" if policy == "wal" else "")
        print(f"{policy:<16} {wall:17.2f} {cpu:14.3f} {wall / base_wall:11.2f} {cpu / base_cpu:10.2f}{mark}")
    try:
        folder.rmdir()
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
