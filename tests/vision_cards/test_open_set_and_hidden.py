"""Open-set rejection of learned deck profiles, and reporting (not dropping) cards that are seen
but cannot be read (the hidden card of an overlapping pair)."""

from __future__ import annotations

import csv

import cv2
import numpy as np

from companion.vision import render_cards as R
from companion.vision import render_scenes as RS
from companion.vision.cards import CardReader
from companion.vision.decks import MIN_SIMILARITY, DeckProfile, profile_from_images

VOSLOO = "Vosloo__playing-cards-detection"
KINDS = ["Грибы", "Ягоды", "Шишки", "Жёлуди", "Орехи", "Цветы", "Листья", "Ракушки"]


def _rows(real, name):
    with open(real / "cards" / name / "MANIFEST.tsv", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_real_profile_without_some_faces_abstains_on_them(real_data):
    """Learn the real 24-card deck from one photo per face but without the four 9s, then show
    every photo of a 9 (the 24 photos of the deck): the profile never names its nearest learned
    face (the closed-world match named 15 of these 24 wrongly), the reader gives no wrong card,
    and the learned faces' other photos are still matched."""
    rows = _rows(real_data, VOSLOO)
    missing = {"9C", "9D", "9H", "9S"}
    train = {r["label"]: cv2.imread(str(real_data / "cards" / VOSLOO / r["filename"]))
             for r in rows if r["filename"].endswith("_00.jpg") and r["label"] not in missing}
    prof = profile_from_images("no-nines", train, kind="standard", alphabet="en")
    line = prof.open_set_threshold()
    assert MIN_SIMILARITY < line < 0.98
    reader = CardReader(prof)
    named, wrong, known_right, known = [], [], 0, 0
    for r in rows:
        img = cv2.imread(str(real_data / "cards" / VOSLOO / r["filename"]))
        label, conf, _up = prof.match(cv2.resize(img, (R.CARD_W, R.CARD_H)))
        got = [x.card for x in reader.read(img) if x.card]
        wrong += [(r["filename"], g) for g in got if g != r["label"]]
        if r["label"] in missing:
            if label is not None:
                named.append((r["filename"], label, conf))
        elif not r["filename"].endswith("_00.jpg"):
            known += 1
            known_right += label == r["label"]
    assert named == []
    assert wrong == []
    assert known_right >= 0.5 * known, (known_right, known)


def test_closed_world_line_would_name_the_missing_faces(real_data):
    """The check above can fail: with the old closed-world acceptance line the same profile
    names unknown 9s as learned faces."""
    rows = _rows(real_data, VOSLOO)
    missing = {"9C", "9D", "9H", "9S"}
    train = {r["label"]: cv2.imread(str(real_data / "cards" / VOSLOO / r["filename"]))
             for r in rows if r["filename"].endswith("_00.jpg") and r["label"] not in missing}
    prof = profile_from_images("no-nines", train, kind="standard", alphabet="en")
    prof._open_line = MIN_SIMILARITY  # closed world
    named = sum(prof.match(cv2.resize(cv2.imread(str(real_data / "cards" / VOSLOO / r["filename"])),
                                      (R.CARD_W, R.CARD_H)))[0] is not None
                for r in rows if r["label"] in missing)
    assert named >= 5


def test_rendered_picture_deck_unknown_kinds_abstain_and_line_survives_save(tmp_path):
    """A picture deck learned without two kinds: scenes of those kinds abstain
    (``no_profile_match``), the learned kinds are still read, and the acceptance line is the
    same after the profile is saved and loaded (it is derived from the features)."""
    learned, unknown = KINDS[:6], KINDS[6:]
    photos = {lab: RS.scatter_scene([lab], seed=700 + i, kind="picture", card_height=(380, 440),
                                   upside_down=False)[0] for i, lab in enumerate(learned)}
    prof = profile_from_images("six-kinds", photos, kind="picture")
    prof.save(tmp_path)
    again = DeckProfile.load("six-kinds", tmp_path)
    assert abs(again.open_set_threshold() - prof.open_set_threshold()) < 1e-6
    reader = CardReader(again)
    read = total = 0
    for seed in range(8):
        img, _ = RS.scatter_scene([unknown[seed % 2], learned[seed % 6]], seed=seed, kind="picture")
        got = reader.read(img)
        cards = [r.card for r in got if r.card]
        assert not set(cards) & set(unknown) and set(cards) <= {learned[seed % 6]}, cards
        assert len(got) == 2 and any(r.card is None and r.reason == "no_profile_match" for r in got)
        read += learned[seed % 6] in cards
        total += 1
    assert read >= 6, read


FELT = "AnimaNoProject__Detecting-playing-cards"


def test_real_overlapping_pairs_never_drop_the_hidden_card(real_data):
    """Every photo of an overlapping pair on felt reports at least two cards: the card lying
    almost wholly under the other (only its corner index showing) is read or reported with
    ``card`` null and a reason, never dropped (the previous reader dropped the hidden card of
    two photos, merging it with the card on top). Nothing is read wrong."""
    reader = CardReader("standard", "de")
    for r in _rows(real_data, FELT):
        if not r["filename"].startswith("Spiel"):
            continue
        reads = reader.read(cv2.imread(str(real_data / "cards" / FELT / r["filename"])))
        truth = r["label"].split()
        assert len(reads) >= 2, (r["filename"], [(x.card, x.reason) for x in reads])
        assert all(x.card in truth or (x.card is None and x.reason) for x in reads), r["filename"]
        out = [x.to_json() for x in reads]
        assert all(set(o) >= {"card", "box", "confidence"} for o in out)
        assert all(o["card"] is not None or o["reason"] for o in out)
    # the two photos whose hidden card used to be dropped: it is reported (read from its one
    # corner, or "not sure" with its box)
    for name, top, hidden in (("Spiel1__Spielzug_7.JPG", "JS", "10C"), ("Spiel3__Spielzug_7.jpg", None, "AD")):
        reads = reader.read(cv2.imread(str(real_data / "cards" / FELT / name)))
        others = [x for x in reads if x.card != top]
        assert len(reads) >= 2 and any(x.card == hidden or (x.card is None and x.reason) for x in others), \
            (name, [(x.card, x.reason) for x in reads])


def test_card_paper_with_no_visible_corner_is_found_and_read(real_data):
    """A Continental jack whose picture breaks its paper into pieces, lying over another card:
    no corner of it is found from the outline, yet its paper is one region (the third pass
    reported it as a ``no_corner_visible`` null); that region has a card's shape, so it is read
    as a whole card from its corners: the jack, with a box around the whole card."""
    reads = CardReader("standard", "de").read(
        cv2.imread(str(real_data / "cards" / FELT / "Spiel2__Spielzug_7.jpg")))
    assert len(reads) == 2 and "QD" in [x.card for x in reads], [(x.card, x.reason) for x in reads]
    (jack,) = [x for x in reads if x.card != "QD"]
    # the jack: read from its region's corners, or that region reported "not sure"
    assert jack.card == "JH" or (jack.card is None and jack.reason), (jack.card, jack.reason)
    x, y, w, h = jack.box
    assert w > 800 and h > 800  # the jack is ~1250 px across in this 2016×1512 photo


def test_card_cut_by_the_image_border_is_reported_once_phantoms_are_gone():
    """Two rendered pairs where one card runs off the image and none of its corners is found
    (seed 22: the A♣ on top of a K♠; seed 73: a 10♦ under an 8♦). Before phantom nulls were
    dropped, a sides-swapped hypothesis of the read card happened to stand in for it; now the
    paper that no kept frame explains is one ``no_corner_visible`` region (read as a card when
    it has a card's shape and its corners read surely), so every card is read or reported, and
    no more entries than cards appear."""
    import random

    for seed, hidden in ((22, "AC"), (73, "10D")):
        rnd = random.Random(seed)
        alphabet = rnd.choice(["en", "ru", "de"])
        labels = rnd.sample(R.DECKS[52] + ["JK"], 2 * rnd.randint(1, 2))
        img, truth = RS.scatter_scene(labels, seed=seed, alphabet=alphabet, overlap=True)
        reads = CardReader("standard", alphabet).read(img)
        assert hidden in labels
        assert len(reads) == len(labels), [(x.card, x.reason) for x in reads]
        assert all(x.card in labels for x in reads if x.card)
        # the region, or the card read from the region's corners (A♣ is: its region is
        # card-shaped)
        (region,) = [x for x in reads if x.card in (None, hidden)]
        assert region.card == hidden or region.reason == "no_corner_visible"
        # the region lies on the hidden card: its centre is inside the card's true outline
        quad = next(p.quad for p in truth if p.label == hidden)
        cx, cy = region.frame.center
        assert cv2.pointPolygonTest(np.float32(quad), (cx, cy), False) >= 0
