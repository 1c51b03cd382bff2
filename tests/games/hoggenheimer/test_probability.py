"""Monte Carlo check of RULINGS §3: every bet on k cards wins with probability exactly 1/(k+1).

200,000 simulated deals (uniform shuffles of 33 cards into 32 slots + the 33rd aside), the chain
run exactly as the seed describes, vectorised with numpy. Every one of the 117 bet targets is
checked against 1/(k+1) within 5 binomial standard errors (for p = 1/2 that is ±0.0056; the
chance that any of the 117 fails by accident is below 1e-4, and the seed is fixed). Each shape's
pooled rate is checked within 4 standard errors of the pooled binomial. A second test drives the
real engine with 2,000 of these deals and asserts its settlement equals the vectorised model bet
for bet, so the Monte Carlo is about the engine, not a separate model.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.games.hoggenheimer import CARDS, SHAPES, HoggenheimerGame, all_bet_targets, win_probability
from companion.games.hoggenheimer.sim import ASIDE, JOKER_ID, simulate_chains

N_DEALS = 200_000
INDEX = {c: i for i, c in enumerate(CARDS)}


@pytest.fixture(scope="module")
def mc():
    return simulate_chains(N_DEALS, seed=20261130)


def test_every_bet_target_wins_with_one_over_k_plus_one(mc):
    _deals, turned = mc
    pooled: dict[str, list[float]] = {}
    worst = 0.0
    for shape, cards in all_bet_targets():
        k = SHAPES[shape]
        p = float(win_probability(k))
        rate = turned[:, [INDEX[c] for c in cards]].all(axis=1).mean()
        se = math.sqrt(p * (1 - p) / N_DEALS)
        z = abs(rate - p) / se
        worst = max(worst, z)
        assert z < 5, f"{shape} {cards}: {rate:.4f} vs 1/{k + 1} = {p:.4f} (z = {z:.1f})"
        pooled.setdefault(shape, []).append(rate)
    for shape, rates in pooled.items():
        k = SHAPES[shape]
        p = 1 / (k + 1)
        mean = sum(rates) / len(rates)
        # pooled over correlated targets: the standard error is at most that of one target
        se = math.sqrt(p * (1 - p) / N_DEALS)
        assert abs(mean - p) < 4 * se, f"{shape}: pooled {mean:.4f} vs {p:.4f}"
    assert worst < 5


def test_joker_first_is_one_in_33(mc):
    """Joker as the 33rd card: probability 1/33 (no card turned)."""
    _deals, turned = mc
    rate = (~turned.any(axis=1)).mean()
    se = math.sqrt((1 / 33) * (32 / 33) / N_DEALS)
    assert abs(rate - 1 / 33) < 5 * se


def test_engine_settles_exactly_as_the_model(mc):
    """2,000 of the simulated deals through the real engine (camera observations ``table turn``):
    its settlement marks exactly the bets the vectorised chain says win."""
    deals, turned = mc
    targets = all_bet_targets()
    rng = np.random.default_rng(7)
    g = HoggenheimerGame(["Bank", "Punter"], {"starting_chips": 10**6, "max_stake": 1, "rounds": 1000,
                                              "bank_must_cover": False})
    for d in range(2000):
        banker = g.banker
        punter = 1 - banker
        picks = rng.choice(len(targets), size=6, replace=False)
        for t in picks:
            g.apply(f"{punter} bet 1 {','.join(targets[t][1])}")
        g.apply(f"{banker} close")
        cur = int(deals[d, ASIDE])
        while cur != JOKER_ID:
            card = CARDS[cur]
            g.apply(f"table turn {card} {card}")
            cur = int(deals[d, cur])
        ev = g.apply("table turn JK ?")
        won = [b["won"] for b in ev[1].data["bets"]]
        model = [bool(turned[d, [INDEX[c] for c in targets[t][1]]].all()) for t in picks]
        assert won == model, d
    assert g.chips_in_play() == 2 * 10**6
