"""Random playouts of ``infinity`` (Hypothesis) over its own options and bot habits, with actions
thrown at random between the moves (:func:`tests.gamekit.playout`: only legal actions happen, a
rejected action changes nothing, the game ends — the promises every game keeps, also checked in
tests/games/test_api.py): the deck's cards and points are conserved, the engine's counts follow
the physical hands, and no view leaks a hidden fact."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from companion.games.infinity import INF, InfinityGame
from companion.games.infinity.sim import InfinitySim
from tests.gamekit import playout

CARD_TOKENS = ["10", "36", "40", "100", "106", "200", "225", "333", "500", INF, "7", "0", "x", "?"]


def check_invariants(g: InfinityGame, sim: InfinitySim) -> None:
    s = g.s
    if s["phase"] in ("play", "kept"):
        # every card of the deck is in a hand, aside, in the stock, or has been seen this deal
        # (a declared card not yet read still counts in its seat's hand)
        assert sum(s["hands"]) + s["aside"] + s["stock"] == sum(s["unseen"].values())
        seen = [c for c, k in g.deck.items() for _ in range(k - s["unseen"].get(c, 0))]
        on_table = [c for _, c in s["trick"]]
        assert sum(s["points"]) + sum(g.points_of(c) for c in on_table) == sum(g.points_of(c) for c in seen)
        # the engine's counts follow the physical hands
        for seat, hand in enumerate(sim.hands):
            extra = 1 if s["pending"] == seat else 0
            assert len(hand) + extra == s["hands"][seat]
    pub = g.view(None)
    text = json.dumps(pub, ensure_ascii=False)
    assert "hands" not in pub and "piles" not in text
    # the trick shown is exactly the cards lying face up and read; a declared card not yet read
    # is not shown
    assert [t["card"] for t in pub["trick"]] == [t["card"] for t in sim.truth["trick"]]
    # a seat's own view adds nothing the public does not know (the engine never sees hands)
    for seat in range(len(g.seats)):
        mine = dict(g.view(seat))
        mine.pop("you")
        mine.pop("your_turn")
        assert mine == pub


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 8), deals=st.integers(1, 3),
       simplified=st.booleans(), declare=st.sampled_from([0.0, 0.3, 1.0]))
def test_random_playouts(seed, n, deals, simplified, declare):
    g = InfinityGame([f"P{i}" for i in range(n)], {"deals": deals, "simplified_scoring": simplified})
    sim = InfinitySim(g, seed, declare_rate=declare, void_rate=0.15)
    playout(g, sim, random.Random(seed ^ 0x5EED), [*CARD_TOKENS, "-"], check_invariants, limit=3000)
    r = g.result()
    assert len(r["deal_scores"]) == deals and sum(r["totals"]) <= (5600 if simplified else 6100) * deals
