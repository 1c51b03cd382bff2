"""The two index classifiers read as one (:class:`companion.vision.card_index.IndexPair`,
thirteenth pass): log-linear pooling of their distributions, and the committed pair."""

from __future__ import annotations

import json

import numpy as np

from companion.vision import card_index as CI
from companion.vision.cards import CardReader
from companion.vision.learned_read import ACCEPT_P


class _Fixed:
    """A stand-in classifier answering every patch with one glyph and one suit distribution."""

    def __init__(self, glyph: dict[str, float], suit: dict[str, float]) -> None:
        self.meta = {"fixed": True}
        self.gp = np.full(len(CI.GLYPHS), 1e-4)
        self.sp = np.full(len(CI.SUITS), 1e-4)
        for g, p in glyph.items():
            self.gp[CI.GLYPHS.index(g)] = p
        for s, p in suit.items():
            self.sp[CI.SUITS.index(s)] = p
        self.gp /= self.gp.sum()
        self.sp /= self.sp.sum()

    def classify(self, patches):
        out = []
        for _ in patches:
            i, j = int(self.gp.argmax()), int(self.sp.argmax())
            out.append(CI.IndexGuess(CI.GLYPHS[i], float(self.gp[i]), CI.SUITS[j], float(self.sp[j]),
                                     self.gp.copy(), self.sp.copy()))
        return out


PATCH = np.zeros((72, 48, 3), np.uint8)


def test_a_card_both_name_surely_stays_sure():
    a = _Fixed({"7": 0.99}, {"S": 0.99})
    b = _Fixed({"7": 0.98}, {"S": 0.995})
    card, p = CI.IndexPair(a, b).classify([PATCH])[0].card("en")
    assert card == "7S" and p >= ACCEPT_P


def test_a_suit_they_disagree_on_is_not_sure():
    """The held-out tables' wrong cards were mostly a suit of the right colour and the wrong shape
    (7♣ for 7♠): one net sure of ♠, the other of ♣ — the pair is sure of neither."""
    a = _Fixed({"7": 0.99}, {"S": 0.97, "C": 0.03})
    b = _Fixed({"7": 0.99}, {"C": 0.97, "S": 0.03})
    guess = CI.IndexPair(a, b).classify([PATCH])[0]
    card, p = guess.card("en")
    assert guess.glyph == "7" and guess.glyph_conf > 0.98
    assert p < ACCEPT_P and guess.suit_conf < 0.6
    assert abs(guess.suit_p.sum() - 1) < 1e-9 and abs(guess.glyph_p.sum() - 1) < 1e-9


def test_one_sure_net_and_one_unsure_give_an_answer_between():
    a = _Fixed({"Q": 0.99}, {"H": 0.99})
    b = _Fixed({"Q": 0.5, "none": 0.5}, {"H": 0.5, "none": 0.5})
    got = CI.IndexPair(a, b).classify([PATCH, PATCH])
    assert len(got) == 2
    card, p = got[0].card("en")
    assert card == "QH" and 0.5 < p < 0.99 * 0.99
    assert CI.IndexPair(a, b).classify([]) == []


def test_the_committed_pair_is_small_and_says_what_it_saw():
    assert CI.PAIR.is_file() and CI.PAIR.stat().st_size < 3_000_000
    meta = json.loads(CI.PAIR.with_suffix(".json").read_text(encoding="utf-8"))
    assert meta["glyphs"] == CI.GLYPHS and meta["suits"] == CI.SUITS
    # the second net saw the shared Vosloo photos: bench/cards.py marks that set as trained on
    assert meta["real_faces"] > 0 and "not held out" in meta["trained_on"]
    net = CI.shared()
    assert isinstance(net, CI.IndexPair)
    assert [m.get("seed") for m in net.meta["pair"]] == [2, 3]


def test_a_models_folder_pairs_its_second_net_with_the_committed_first(tmp_path):
    (tmp_path / "card_index_pair.onnx").write_bytes(CI.PAIR.read_bytes())
    (tmp_path / "card_index_pair.json").write_text(CI.PAIR.with_suffix(".json").read_text(encoding="utf-8"),
                                                   encoding="utf-8")
    r = CardReader("standard", "en", models=tmp_path)
    assert isinstance(r.index_net, CI.IndexPair)
    assert r.index_net.nets[0].meta.get("seed") == 2
    # a folder with a first net alone reads with it alone
    solo = tmp_path / "solo"
    solo.mkdir()
    (solo / "card_index.onnx").write_bytes(CI.MODEL.read_bytes())
    (solo / "card_index.json").write_text(CI.MODEL.with_suffix(".json").read_text(encoding="utf-8"), encoding="utf-8")
    assert isinstance(CardReader("standard", "en", models=solo).index_net, CI.IndexNet)
