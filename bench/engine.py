"""Engine benchmark: random full games per second, for every game that has an engine and a sim.

Each game is played start to end by the game's simulated table (``companion/games/<id>/sim.py``)
through the real engine (``companion.games.simulator.play_random_game``): set-up observations, every decision, every
camera read, parsing each action from its text form. Figures printed:

* ``1 process``: games per second of one process (wall clock) and per CPU-second (robust when
  the machine is shared);
* ``N processes``: all cores (``os.cpu_count()``) together, wall clock, and the sum of the
  workers' games per CPU-second — what the machine does when nothing else runs on it (on a shared
  machine the wall figure only shows how busy the other processes keep the cores).

Goal (issue 2): at least 1,000 skull games per second on the 2-core reference machine.

Usage: ``python bench/engine.py [--seconds S] [--seats N]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games import registry  # noqa: E402
from companion.games.simulator import play_random_game  # noqa: E402

GOALS = {"skull": 1000.0}
"""Games per second wanted on the 2-core reference machine (issue 2)."""


def _available(game_id: str) -> bool:
    spec = registry.find(game_id)
    return spec is not None and spec.simulator is not None


def run(game_id: str, seconds: float, seats: int, seed0: int = 0) -> tuple[int, int, float, float]:
    """Play games for about ``seconds``; returns (games, actions, wall s, cpu s)."""
    games = actions = 0
    seed = seed0
    w0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - w0 < seconds:
        _game, acts = play_random_game(game_id, seats, None, seed)
        games += 1
        actions += len(acts)
        seed += 1
    return games, actions, time.perf_counter() - w0, time.process_time() - c0


def _worker(args):
    return run(*args)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement (s)")
    ap.add_argument("--seats", type=int, default=4, help="players per game (default 4)")
    args = ap.parse_args(argv)
    cores = os.cpu_count() or 1
    print(f"engine benchmark: random full games, {args.seats} seats, {cores} core(s)")
    for gid in registry.ids():
        if not _available(gid):
            print(f"{gid:13s} skipped (no engine or no sim yet)")
            continue
        run(gid, 0.3, args.seats, 10**6)  # warm-up (imports, caches)
        g, a, wall, cpu = run(gid, args.seconds, args.seats)
        line = (f"{gid:13s} 1 process: {g / wall:8.0f} games/s wall, {g / cpu:8.0f} games/CPU-s,"
                f" {a / g:6.1f} actions/game, {a / cpu:9.0f} actions/CPU-s")
        if cores > 1:
            with ProcessPoolExecutor(cores) as pool:
                t0 = time.perf_counter()
                parts = list(pool.map(_worker, [(gid, args.seconds, args.seats, 10**7 * (i + 1)) for i in range(cores)]))
                wall_all = time.perf_counter() - t0
            total = sum(p[0] for p in parts)
            # Each worker ran for `seconds`; pool start-up is excluded by using the workers' own clocks.
            rate_all = sum(p[0] / p[2] for p in parts)
            cpu_all = sum(p[0] / p[3] for p in parts)
            line += (f" | {cores} processes: {rate_all:8.0f} games/s wall ({total} games in {wall_all:.1f} s),"
                     f" {cpu_all:8.0f} games/s if each had its core (sum of games/CPU-s)")
        goal = GOALS.get(gid)
        if goal:
            best_wall = max(g / wall, rate_all if cores > 1 else 0.0)
            best_cpu = max(g / cpu, cpu_all if cores > 1 else 0.0)
            line += (f" | goal {goal:.0f}/s: {'met' if best_wall >= goal else 'NOT met'} (wall),"
                     f" {'met' if best_cpu >= goal else 'NOT met'} (CPU time)")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
