"""Figures of the simulated table: wall time of a headless demo game and the share of camera
reads that had to be retried.

Runs the same thing as ``companion run --sim --game skull --until-end --json`` (the headless
``make demo``) in process, so it can also print the simulated table's counters::

    python bench/table.py                      # one skull game, seed 0, 4 players
    python bench/table.py --game doubt --seeds 0 1 2

Printed per game: wall time (s, from the first bot action to game over, start-up excluded, and
start-up separately), actions, button presses, camera observations and reads, observations that
needed a retry (and their share), wrong reads caught, manual entries, why reads were retried.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.service import TableService, choose_backends  # noqa: E402
from companion.settings import Settings  # noqa: E402


def one_game(game: str, seed: int, seats: int) -> dict:
    with tempfile.TemporaryDirectory() as d:
        names = [f"Игрок {i + 1}" for i in range(seats)]
        s = Settings(game=game, seats=names, sim=True, seed=seed, data_dir=Path(d), host="127.0.0.1", port=0)
        t0 = time.monotonic()
        svc = TableService(s, choose_backends(s), dashboard=False).start()
        try:
            startup = time.monotonic() - t0
            t1 = time.monotonic()
            svc.run_bots()
            svc.wait(until_end=True, poll=0.05)
            wall = time.monotonic() - t1
            summary = svc.summary()
            st = svc.simtable.stats.to_json()
        finally:
            svc.stop()
    return {"game": game, "seed": seed, "seats": seats, "startup_s": round(startup, 2), "wall_s": round(wall, 2),
            "winner": summary.get("winner"), **st}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="skull")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = [one_game(args.game, seed, args.seats) for seed in args.seeds]
    for r in rows:
        if args.json:
            print(json.dumps(r, ensure_ascii=False))
            continue
        print(f"{r['game']} seed {r['seed']}, {r['seats']} seats: game {r['wall_s']:.1f} s wall "
              f"(start-up {r['startup_s']:.1f} s), {r['actions']} actions, {r['presses']} presses, "
              f"{r['observations']} camera observations in {r['reads']} reads; "
              f"retried {r['retried']} = {100 * r['retry_share']:.1f} % of observations, "
              f"{r['wrong']} wrong reads caught, {r['manual']} manual entries; reasons {r['reasons']}")
    if len(rows) > 1:
        obs = sum(r["observations"] for r in rows)
        ret = sum(r["retried"] for r in rows)
        print(f"total: {sum(r['wall_s'] for r in rows):.1f} s wall, {ret}/{obs} observations retried "
              f"({100 * ret / max(1, obs):.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
