"""Monte Carlo of the joker banking game: every bet's win rate against 1/(k+1) (RULINGS §3).

Prints, for each bet shape, the pooled win rate over all targets of that shape, the exact
1/(k+1), and the largest |z| of any single target; then the joker-first rate against 1/33.

    python bench/hoggenheimer_odds.py [deals] [seed]
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.hoggenheimer import CARDS, SHAPES, all_bet_targets  # noqa: E402
from companion.games.hoggenheimer.sim import simulate_chains  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261130
    t0 = time.perf_counter()
    _deals, turned = simulate_chains(n, seed)
    dt = time.perf_counter() - t0
    index = {c: i for i, c in enumerate(CARDS)}
    stats: dict[str, list[float]] = {}
    worst = (0.0, None)
    for shape, cards in all_bet_targets():
        k = SHAPES[shape]
        p = 1 / (k + 1)
        rate = float(turned[:, [index[c] for c in cards]].all(axis=1).mean())
        z = abs(rate - p) / math.sqrt(p * (1 - p) / n)
        if z > worst[0]:
            worst = (z, cards)
        stats.setdefault(shape, []).append(rate)
    print(f"hoggenheimer odds: {n} deals in {dt:.2f} s ({n / dt:,.0f} deals/s), seed {seed}")
    print(f"{'shape':8} {'targets':>7} {'k':>2} {'exact':>8} {'pooled':>8} {'min':>8} {'max':>8}")
    for shape, rates in stats.items():
        k = SHAPES[shape]
        print(f"{shape:8} {len(rates):7d} {k:2d} {1 / (k + 1):8.4f} {sum(rates) / len(rates):8.4f} "
              f"{min(rates):8.4f} {max(rates):8.4f}")
    print(f"largest |z| of any target: {worst[0]:.2f} ({','.join(worst[1])})")
    jf = float((~turned.any(axis=1)).mean())
    print(f"joker first: {jf:.5f} (exact 1/33 = {1 / 33:.5f})")


if __name__ == "__main__":
    main()
