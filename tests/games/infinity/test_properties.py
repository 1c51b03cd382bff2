"""Random playouts of ``infinity`` (Hypothesis): only legal actions happen, a rejected action
changes nothing, cards and points are conserved, the game ends, no view leaks a hidden fact."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from companion.games.infinity import INF, InfinityGame
from companion.games.infinity.sim import InfinitySim
from tests.gamekit import probe, sim_step, until_over

CARD_TOKENS = ["10", "36", "40", "100", "106", "200", "225", "333", "500", INF, "7", "0", "x", "?"]


def random_action(rng: random.Random, n: int) -> str:
    """A random action text, legal or not."""
    seat = rng.randrange(-1, n + 1)
    actor = "table" if seat < 0 else str(seat)
    card = rng.choice(CARD_TOKENS)
    kind = rng.randrange(7)
    if kind == 0:
        return f"{actor} play {card}"
    if kind == 1:
        return f"{actor} face {card}"
    if kind == 2:
        cards = ",".join(rng.choice(CARD_TOKENS[:10]) for _ in range(rng.randrange(0, 3))) or "-"
        return f"{actor} kept {rng.randrange(n + 1)} {cards}"
    if kind == 3:
        return f"{actor} deal {rng.choice(['?', str(rng.randrange(n + 1))])}"
    if kind == 4:
        return f"{actor} void"
    if kind == 5:
        return f"{actor} fly {card}"
    return f"{actor} play"


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
    rng = random.Random(seed ^ 0x5EED)
    for _ in until_over(g, 3000):
        probe(g, random_action(rng, n))
        sim_step(g, sim)
        check_invariants(g, sim)
    r = g.result()
    assert len(r["deal_scores"]) == deals and sum(r["totals"]) <= (5600 if simplified else 6100) * deals
    assert g.legal_actions(None) == [] and g.current_seats() == []
    assert sim.next_action() is None
