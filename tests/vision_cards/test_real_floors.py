"""Per-set floors on the real photo sets (issue 4 and 17 goal: ≥ 98 % per set, no confident
wrong answer). Each floor is one card under this revision's count.

Phantom nulls: a ``card`` null entry can stand for a real card that was seen but not read; any
null entries beyond the photo's true cards left unnamed are "unknown cards" that do not exist.
The reader of the third pass reported 14 of them on the felt pairs (11 on one photo, from the
pieces of a face card's picture) and 1 on the dark cloth; now none may appear."""

from __future__ import annotations

import csv
import functools
import random
from pathlib import Path

import cv2
import pytest

from companion.vision import render_cards as R
from companion.vision import render_scenes as RS
from companion.vision.cards import CardReader


@functools.lru_cache(maxsize=None)
def _reads(real: Path, name: str, alphabet: str):
    """Every photo of a set read once: ``[(filename, truth, reads)]`` (shared by the tests)."""
    reader = CardReader("standard", alphabet)
    with open(real / "cards" / name / "MANIFEST.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(r["filename"], r["label"].split(),
             reader.read(cv2.imread(str(real / "cards" / name / r["filename"])))) for r in rows]


def _score(real, name, alphabet):
    read = total = 0
    wrong = []
    for fn, truth, reads in _reads(real, name, alphabet):
        got = [x.card for x in reads if x.card]
        read += len(set(truth) & set(got))
        total += len(truth)
        wrong += [(fn, g) for g in got if g not in truth]
    return read, total, wrong


def _phantoms(truth, reads) -> int:
    """Null entries beyond the true cards left unnamed (0 when every null can be a real card)."""
    named = {x.card for x in reads if x.card} & set(truth)
    nulls = sum(1 for x in reads if x.card is None)
    return max(0, nulls - (len(truth) - len(named)))


@pytest.mark.parametrize("name, alphabet, floor, total", [
    # the combined reader of issue 17 (learned index classifier + templates); in brackets the
    # templates alone (the classic pipeline), which were fitted to these photos
    ("Vosloo__playing-cards-detection", "en", 129, 144),          # now 130 (143)
    ("Vosloo__playing-cards-detection", "auto", 128, 144),        # now 129 (142)
    ("AnimaNoProject__Detecting-playing-cards", "de", 39, 40),    # now 40 (40)
    ("AnimaNoProject__Detecting-playing-cards", "auto", 38, 40),  # now 39 (39)
    ("jrkaczmarek__CardRecognition", "en", 19, 22),               # now 20 (21)
    # the wrong alphabet (a realistic user mistake): German B (Bube) is an English "8" look-
    # alike; the reader read 8 of them as 8s (Pik_Bube 8S at 0.676) and must abstain instead
    ("AnimaNoProject__Detecting-playing-cards", "en", 24, 40),    # now 25 (25)
])
def test_real_set_floor_and_no_confident_wrong(real_data, name, alphabet, floor, total):
    read, n, wrong = _score(real_data, name, alphabet)
    assert n == total
    assert wrong == [], wrong
    assert read >= floor, f"{name} ({alphabet}): {read}/{n}"


@pytest.mark.parametrize("name, alphabet, before", [
    ("Vosloo__playing-cards-detection", "en", 0),
    ("AnimaNoProject__Detecting-playing-cards", "de", 14),
    ("jrkaczmarek__CardRecognition", "en", 1),
])
def test_real_set_no_phantom_nulls(real_data, name, alphabet, before):
    """Per set, no photo has more null entries than true cards left unnamed (``before``: the
    third pass's count, which this check fails on)."""
    extra = {fn: (_phantoms(truth, reads), [(x.reason, x.box) for x in reads if x.card is None])
             for fn, truth, reads in _reads(real_data, name, alphabet) if _phantoms(truth, reads)}
    assert extra == {}, f"{sum(n for n, _ in extra.values())} phantom nulls (before: {before}): {extra}"


def test_numbered_rank_on_a_picture_card_abstains(real_data):
    """Pik_Bube under the English alphabet: its "B" index matches the "8" template, but the
    card's centre is a picture, not eight pips: the reader abstains with that reason."""
    reads = dict((fn, r) for fn, _, r in _reads(real_data, "AnimaNoProject__Detecting-playing-cards", "en"))
    got = [(x.card, x.reason) for x in reads["Pik_Bube.JPG"]]
    assert got == [(None, "rank_picture_mismatch")], got


def test_hidden_card_region_kept_while_picture_fragments_are_not(real_data):
    """Spiel2_7: the Continental jack (no corner found from the outline) is one entry and the
    queen under it is read; the ~11 corner hypotheses from the jack's picture islands
    (each a tiny "card") are gone. Spiel2_2: the 10♠ under the jack is reported once (its
    hypotheses gave two null entries before)."""
    felt = "AnimaNoProject__Detecting-playing-cards"
    by_name = {fn: reads for fn, _t, reads in _reads(real_data, felt, "de")}
    r7 = by_name["Spiel2__Spielzug_7.jpg"]
    assert len(r7) == 2 and "QD" in [x.card for x in r7], [(x.card, x.reason) for x in r7]
    (jack,) = [x for x in r7 if x.card != "QD"]
    # one entry for the jack: its region, now read from the region's corners
    assert jack.card == "JH" or jack.reason == "no_corner_visible"
    r2 = by_name["Spiel2__Spielzug_2.jpg"]
    assert len(r2) == 2 and "JC" in [x.card for x in r2]
    (hidden,) = [x for x in r2 if x.card != "JC"]
    assert hidden.card in ("10S", None)  # read since the sides-swapped corner patch
    x, y, w, h = hidden.box
    assert x + w > 1500 and y < 400  # the 10♠ shows at the top right, above the jack


def test_rendered_scenes_have_no_phantom_nulls():
    """Rendered single cards and overlapping pairs: one entry per card at most (the third pass
    reported a sides-swapped hypothesis of nearly every card of a pair as an extra null)."""
    extra = []
    for overlap in (False, True):
        for seed in range(8):
            rnd = random.Random(seed)
            alphabet = rnd.choice(["en", "ru", "de"])
            labels = rnd.sample(R.DECKS[52] + ["JK"],
                                rnd.randint(1, 4) if not overlap else 2 * rnd.randint(1, 2))
            img, _ = RS.scatter_scene(labels, seed=seed, alphabet=alphabet, overlap=overlap)
            reads = CardReader("standard", alphabet).read(img)
            assert all(x.card in labels for x in reads if x.card)
            if n := _phantoms(labels, reads):
                extra.append((overlap, seed, n))
    assert extra == []
