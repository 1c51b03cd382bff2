"""Random playouts of ``lottery`` (Hypothesis) over its own options, with actions thrown at random
between the moves (:func:`tests.gamekit.playout`: only legal actions happen, a rejected action
changes nothing, the game ends — the promises every game keeps, also checked in
tests/games/test_api.py): every chip and card accounted for at every step, and no view shows a
face-down prize card."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings, strategies as st

from companion.games.lottery import FULL_DECK, LotteryGame
from companion.games.lottery.sim import LotterySim
from tests.gamekit import playout, shows_none

TOKENS = list(FULL_DECK[:8]) + ["QH", "10S", "1S", "ZZ", "?"]


def public_cards(view: dict) -> set[str]:
    out: set[str] = set()
    for cards in list(view["current"].values()) + list(view["aside"].values()):
        out.update(cards)
    out.update(w["card"] for w in view["won"])
    out.update(p["card"] for p in view["prizes"] if p and p["face_up"])
    if "playoff" in view:
        for cards in view["playoff"]["hands"].values():
            out.update(cards)
    return out


def check(g: LotteryGame, sim: LotterySim) -> None:
    # every chip accounted for: balances + box + stakes + chips on prizes never change
    s = g.s
    assert g.chips_total() == g.start_chips_total
    assert s["box"] >= 0 and s["stakes"] >= 0 and all(sl["chips"] >= 0 for sl in s["slots"] if sl)
    # every card of the dealer's deck is in the deck, in a hand, aside, matched or discarded
    matched = [w["card"] for w in s["won"]]
    po = s["po"]
    if po is None:
        held = [c for cards in s["current"].values() for c in cards] + \
            [c for cards in s["aside"].values() for c in cards]
    else:
        held = [c for cards in po["hands"].values() for c in cards] + po["discard"] + \
            ([po["attack"]] if po["attack"] else []) + [c for _, c in po["trick"]]
    assert sorted(held + matched) == sorted(s["dealt"]) and len(set(s["dealt"])) == len(s["dealt"])
    # and every card of the banker's deck is in his deck, face down on the table, or was turned
    face_down = sum(1 for sl in s["slots"] if sl is not None and not sl["face_up"])
    assert s["banker_left"] + face_down + len(s["banker_seen"]) == 52
    truth = sim.truth
    assert truth["banker_deck"] == s["banker_left"] and truth["dealer_deck"] == 52 - len(s["dealt"]) - \
        sum(len(v) for k, v in truth["dealt"].items() if k not in s["current"])
    assert truth["prizes"] is not None
    view = g.view(None)
    json.dumps(view)  # the public view is JSON
    shown = public_cards(view)
    for i, p in enumerate(truth["prizes"]):
        if p is not None and not p["face_up"]:
            assert view["prizes"][i]["card"] is None and view["prizes"][i]["face_up"] is False
            if p["card"] not in shown:
                shows_none(view, [p["card"]])
    assert g.view(0) == dict(view, you=0)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(4, 12), variant=st.sampled_from([1, 2]),
       officials=st.booleans(), stake=st.integers(0, 3), box=st.integers(0, 20))
def test_random_playouts_conserve_chips(seed, n, variant, officials, stake, box):
    g = LotteryGame([f"P{i}" for i in range(n)],
                    {"playoff": variant, "officials_play": officials, "card_stake": stake, "box": box})
    sim = LotterySim(g, seed, void_rate=0.1)
    playout(g, sim, random.Random(seed ^ 0xBEEF), TOKENS, check, limit=5000)
    r = g.result()
    assert r["chips_total"] == n * 30 + box
    assert sum(r["balances"].values()) + r["box"] == n * 30 + box
    dealt = [c for c in g.s["dealt"]]
    assert sorted(dealt) == sorted(FULL_DECK)  # the dealer's whole deck was dealt
