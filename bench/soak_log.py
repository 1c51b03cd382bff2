"""Random kill -9 and random damage of one file of a table in play (issue #20 item 3).

Each case starts a table in a process of its own (:class:`companion.table.Table`: ``table.json``,
the SQLite table log, its ``-wal`` and ``-shm``) that plays a skull game (the bots' actions of a
seeded game, submitted through the referee as fast as the log takes them) and prints the game's
version after every accepted action — what a screen could have shown. The bench kills it with
SIGKILL at a random moment (after a random number of actions, then 0–20 ms more, so the kill
lands anywhere in an append). In a *damage* case it then damages one file: ``table.json``, the
``-wal`` or the ``-shm``, deleted, emptied, cut in half, one random byte flipped, or overwritten
with random bytes. Then a new table starts on the folder, and the bench counts:

* **lost** — actions the writer had reported that the restarted table does not hold (goal ≤ 1);
* **extra** — the action being written at the kill that made it to disk unreported (0 or 1);
* **wrong** — a restarted log that is not a prefix of the game (must be 0), **refused** — starts
  that refused the folder, and **said** — damage the start said in a notice.

``--policy old`` runs the writer with the old policy (no checkpoint after an append, SQLite's own
checkpoints), for the comparison in the same run.

    python bench/soak_log.py [--kills 100] [--damages 100] [--seed 1] [--policy shipped|old]
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.sim import play_random_game  # noqa: E402

SEATS = ["Аня", "Борис", "Вера", "Гена"]
GAME_SEED = 0  # a long skull game

WRITER = textwrap.dedent(
    """
    import sys
    policy = sys.argv[3]
    if policy == "old":
        import companion.log as L
        L.TableLog._checkpoint_conn = staticmethod(lambda conn, path: None)
        real = L.TableLog._connect
        def connect(path):
            conn = real(path)
            conn.execute("PRAGMA wal_autocheckpoint=1000")
            return conn
        L.TableLog._connect = staticmethod(connect)
    from companion.sim import play_random_game
    from companion.table import Table
    data, seed = sys.argv[1], int(sys.argv[2])
    seats = ["Аня", "Борис", "Вера", "Гена"]
    _g, actions = play_random_game("skull", seats, None, seed)
    table = Table(data, pin="246810")
    table.new_game("skull", seats)
    print("ready", flush=True)
    for text, source in actions:
        out = table.submit(text, source)
        assert out.accepted, out
        print(table.referee.version, flush=True)
    print("over", flush=True)
    """
)

FILES = ("table.json", "-wal", "-shm")
MODES = ("delete", "empty", "half", "flip", "garbage")


def damage(folder: Path, log: Path, which: str, mode: str, rng: random.Random) -> str:
    """Damage one file; returns what was done (``"no file"`` when it was not there)."""
    path = folder / "table.json" if which == "table.json" else Path(f"{log}{which}")
    if not path.exists():
        return "no file"
    if mode == "delete":
        path.unlink()
        return "deleted"
    data = path.read_bytes()
    if mode == "empty":
        path.write_bytes(b"")
    elif mode == "half":
        path.write_bytes(data[: len(data) // 2])
    elif mode == "flip":
        if not data:
            return "empty file (nothing to flip)"
        b = bytearray(data)
        b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(b))
    else:
        path.write_bytes(os.urandom(max(64, len(data))))
    return f"{mode} ({len(data)} bytes)"


def one_case(rng: random.Random, planned: list[str], policy: str, damaging: bool) -> dict:
    from companion.table import Table, TableStateError

    folder = Path(tempfile.mkdtemp(prefix="soak-log-"))
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-c", WRITER, str(folder), str(GAME_SEED), policy],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    kill_at = rng.randrange(1, len(planned) - 1)
    reported = 0
    try:
        assert p.stdout.readline().strip() == "ready"
        for line in p.stdout:
            if line.strip() == "over":
                break
            reported = int(line)
            if reported >= kill_at:
                time.sleep(rng.uniform(0, 0.02))
                os.kill(p.pid, signal.SIGKILL)
                break
        rest = p.stdout.read()  # what it printed before it died: reported too
        for line in rest.split():
            if line.isdigit():
                reported = max(reported, int(line))
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
    log = next((folder / "games").glob("*.sqlite"))
    done = ""
    if damaging:
        which, mode = rng.choice(FILES), rng.choice(MODES)
        what = damage(folder, log, which, mode, rng)
        done = f"{which} {mode}" + (f" ({what})" if what in ("no file", "empty file (nothing to flip)") else "")
    out = {"reported": reported, "damage": done, "lost": 0, "extra": 0, "wrong": False, "refused": False,
           "said": False}
    from companion.log import TableLog

    try:
        table = Table(folder)
    except TableStateError:
        out.update(refused=True)
    else:
        out["said"] = bool(table.notices)
        table.close()  # a finished game is not resumed: what counts is what its log holds
    from companion.errors import LogError

    try:
        with TableLog.open(log, readonly=True) as opened:
            records = [r.action for r in opened.records()]
    except LogError:  # the old policy with its WAL gone: the file holds no game at all
        records = []
    out["wrong"] = records != planned[: len(records)]
    out["lost"] = reported if out["refused"] else max(0, reported - len(records))
    out["extra"] = max(0, len(records) - reported)
    shutil.rmtree(folder, ignore_errors=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=100)
    ap.add_argument("--damages", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", choices=("shipped", "old"), default="shipped")
    args = ap.parse_args()
    _g, actions = play_random_game("skull", SEATS, None, GAME_SEED)
    planned = [text for text, _ in actions]
    rng = random.Random(args.seed)
    w0, c0 = time.monotonic(), time.process_time()
    kills = [one_case(rng, planned, args.policy, False) for _ in range(args.kills)]
    damages = [one_case(rng, planned, args.policy, True) for _ in range(args.damages)]
    wall, cpu = time.monotonic() - w0, time.process_time() - c0
    print(f"table log soak, policy {args.policy}: a {len(planned)}-action skull game (seed {GAME_SEED}), "
          f"{args.kills} random kill -9 + {args.damages} kill -9 then one file damaged; "
          f"{wall:.0f} s wall, {cpu:.0f} s CPU in this process (the writers are children)")
    for name, cases in (("kill -9", kills), ("kill -9 + damage", damages)):
        if not cases:
            continue
        lost = collections.Counter(c["lost"] for c in cases)
        print(f"  {name}: {len(cases)} cases; actions lost per case: "
              + ", ".join(f"{k}: {v}" for k, v in sorted(lost.items()))
              + f"; max lost {max(lost)}; unreported action on disk {sum(c['extra'] for c in cases)}; "
              f"not a prefix {sum(c['wrong'] for c in cases)}; refused starts {sum(c['refused'] for c in cases)}")
    if damages:
        by = collections.defaultdict(list)
        for c in damages:
            by[c["damage"].split(" (")[0]].append(c)
        for what, cases in sorted(by.items()):
            print(f"    {what:<26} {len(cases):3d} cases, max lost {max(c['lost'] for c in cases)}, "
                  f"said at start {sum(c['said'] for c in cases)}")
    worst = max(c["lost"] for c in kills + damages) if kills + damages else 0
    print(f"  goal: at most 1 action lost per case -> {'met' if worst <= 1 else 'NOT met'} (worst {worst})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
