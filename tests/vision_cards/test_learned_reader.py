"""The learned card reader (issue 17): the committed ONNX models, cards on tables no part of the
reader was trained on (held-out synthetic surfaces and fonts), the issue's lone cards on wood
and carpet, a learned deck refusing the faces it never learned, and the simulated table's
varied scenes through the real reader."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.vision import card_index as CI
from companion.vision import card_paper as CP
from companion.vision import render_cards as R
from companion.vision import render_scenes as RS
from companion.vision import table_scenes as T
from companion.vision.cards import CardReader, corner_patch
from companion.vision.decks import profile_from_images
from companion.vision.learned_read import ACCEPT_P

ROOT = Path(__file__).resolve().parents[2]


def test_model_is_small_committed_and_trained_on_renders_only():
    path = CI.MODEL
    assert path.is_file() and path.stat().st_size < 3_000_000, path
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    assert "no real photo" in meta["trained_on"]
    assert meta["glyphs"] == CI.GLYPHS and meta["suits"] == CI.SUITS
    assert CardReader().learned is True


def test_paper_segmenter_without_its_model_says_so(tmp_path):
    """The paper segmenter is not shipped yet (docs/vision-cards.md): the default mask is the
    multi-cue one, and asking for the segmenter without a model is a clear error."""
    from companion.errors import VisionError
    if CP.available():
        pytest.skip("a paper segmenter model is installed")
    assert CardReader().read(T.table_scene(["QH"], np.random.default_rng(1), (640, 480))[0]) is not None
    with pytest.raises(VisionError, match="card paper model missing"):
        CP.PaperNet(tmp_path / "none.onnx")


def test_the_runtime_needs_no_training_library():
    code = ("import sys, numpy as np; from companion.vision import render_cards as R, table_scenes as T; "
            "from companion.vision.cards import CardReader; "
            "f = T.table_scene(['QH'], np.random.default_rng(3), (640, 480))[0]; CardReader().read(f); "
            "print(sorted(m for m in ('torch', 'onnx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_index_classifier_on_clean_faces_in_fonts_it_never_saw():
    """Every card of the deck in three alphabets, drawn with the held-out fonts, both index
    corners: nearly all read, and none read as another card with a confident probability."""
    fonts = T.fonts("heldout", cyrillic=True)
    if not fonts:
        pytest.skip("no held-out fonts installed (fonts-freefont-ttf, fonts-urw-base35)")
    net = CI.shared()
    quad = np.array([[0, 0], [R.CARD_W - 1, 0], [R.CARD_W - 1, R.CARD_H - 1], [0, R.CARD_H - 1]], np.float32)
    right = total = 0
    wrong = []
    for a, alphabet in enumerate(("en", "ru", "de")):
        for i, code in enumerate(R.DECKS[52] + ["JK"]):
            face = R.render_face(code, alphabet, fonts[(i + a) % len(fonts)])
            for k in (0, 2):
                got, p = net.classify([corner_patch(face, quad, k)])[0].card(alphabet)
                total += 1
                right += got == code and p >= ACCEPT_P
                if got != code and p >= ACCEPT_P:
                    wrong.append((alphabet, code, got, round(p, 3)))
    # measured: the v3 model (seventh pass) 244/318 read surely, 0 wrong; v1 before it read 263
    # surely but 2 wrong (one held-out font's "3" read as "8" at 0.98, both corners). v3 learned
    # worn prints, so a clean vector face is less often sure; these floors keep it from getting worse
    assert len(wrong) <= 0.01 * total, wrong
    assert right >= 0.74 * total, f"{right}/{total}"


@functools.lru_cache(maxsize=None)
def _heldout(n):
    """The first ``n`` held-out scenes, rendered once for every reader that scores them (the
    rendering is half the cost; under a loaded machine twice of it ran past the test timeout)."""
    return [T.heldout_scene(i) for i in range(n)]


def _score(reader_kw, n):
    read = seen = wrong = 0
    readers = {}
    for frame, truth, facts in _heldout(n):
        r = readers.setdefault(facts["alphabet"], CardReader("standard", facts["alphabet"], **reader_kw))
        got = [x.card for x in r.read(frame) if x.card]
        codes = [t.code for t in truth]
        wrong += sum(1 for g in got if g not in codes)
        for t in truth:
            if t.visible:
                seen += 1
                read += t.code in got
    return read, seen, wrong


def test_new_tables_learned_reader_reads_far_more_and_never_guesses():
    """Held-out synthetic tables (surface styles and fonts never used in training): the reader
    reads several times as many of the cards a person could read as the classic pipeline
    (brightness contours + templates), and the learned corner detector (ninth pass) finds many
    the outline cues miss. Measured on these 24 scenes: 42/69 (25/69 without the corner
    detector) against the classic 8/69; 1 confident wrong answer against 3 (the goal is none:
    docs/vision-cards.md, known limits)."""
    read, seen, wrong = _score({}, 24)
    n_read, _n_seen, _n_wrong = _score({"corners": False}, 24)
    c_read, c_seen, _c_wrong = _score({"learned": False, "mask_mode": "white"}, 24)
    assert read >= 0.5 * seen, f"{read}/{seen}"
    assert read >= n_read + 0.15 * seen, (read, n_read, seen)
    assert read >= 3 * c_read, (read, c_read, seen)
    assert wrong <= 2, wrong


@pytest.mark.parametrize("surface_kind, size, width, code", [
    ("wood", (960, 540), 230, "10C"),    # the issue's lone 10♣ on a wooden table, webcam frame
    ("carpet", (378, 504), 140, "9S"),   # the issue's lone 9♠ on carpet, phone photo
])
def test_the_issue_lone_cards_are_read(surface_kind, size, width, code):
    ok = 0
    for seed in range(4):
        rng = np.random.default_rng(4200 + seed)
        frame, truth, _ = T.table_scene([code], rng, size, surface_kind, "b", width=(width, width + 1),
                                        font_split="heldout", hands=0.0, clutter=0.0,
                                        light=T.random_light(rng, harsh=False))
        reads = CardReader("standard", "en").read(frame)
        assert all(r.card in (None, code) for r in reads), reads
        ok += [r.card for r in reads if r.card] == [code]
    # measured: the 10♣ on wood 3 of 4, the 9♠ on carpet 1 of 4
    assert ok >= {"wood": 3, "carpet": 1}[surface_kind], ok


def test_learned_deck_refuses_the_half_it_never_learned():
    """Learn half of a picture deck (one photo per face) and show every face: each unlearned
    face is refused, never named as its nearest learned face; the learned faces are read."""
    kinds = ["Грибы", "Ягоды", "Шишки", "Жёлуди", "Орехи", "Цветы", "Листья", "Ракушки"]
    learned = kinds[::2]
    photos = {k: RS.scatter_scene([k], seed=1000 + i, kind="picture", card_height=(380, 440), upside_down=False)[0]
              for i, k in enumerate(learned)}
    reader = CardReader(profile_from_images("half", photos, kind="picture"))
    named_unlearned, learned_read = [], 0
    for i, k in enumerate(kinds):
        got = [r.card for r in reader.read(RS.scatter_scene([k], seed=40 + i, kind="picture")[0]) if r.card]
        if k in learned:
            learned_read += got == [k]
        elif got:
            named_unlearned.append((k, got))
    assert named_unlearned == []
    assert learned_read == len(learned)


def test_simulated_table_sends_varied_tables_and_the_reader_reads_them():
    from companion.vision.scene import SceneRenderer

    renderer = SceneRenderer("lottery", seed=5, real_photos=False, context=False)
    reader = CardReader("standard")
    looks, read, wrong = set(), 0, []
    codes = ["QH", "10S", "7D", "AC", "KS", "2H", "9C", "JD", "5S", "8H", "3C", "6D"]
    for i, code in enumerate(codes):
        frame = renderer.render([("card", code)], attempt=i)
        looks.add(int(frame[::40, ::40].mean() // 20))
        got = [r.card for r in reader.read(frame) if r.card]
        read += got == [code]
        wrong += [g for g in got if g != code]
    assert len(looks) >= 3  # not one table colour
    assert wrong == []
    assert read >= 6, read  # measured 7 of 12


def test_a_weak_template_read_alone_is_reported_unsure():
    """A card only the templates name, the classifier naming nothing and contradicting nothing,
    is reported unsure below the template-alone floor (seventh pass), with its box; above it, and
    with the floor off, it is the templates' card."""
    from companion.vision.cards import CardRead
    from companion.vision.learned_read import CLASSIC_ALONE_MIN, combine

    assert 0.5 < CLASSIC_ALONE_MIN < 0.6
    box = [10, 20, 60, 90]
    learned = CardRead(None, box, 0.0, "weak_index", None, True, {})
    weak = CardRead("7H", box, CLASSIC_ALONE_MIN - 0.01, None, None, True, {})
    got = combine(weak, learned, classic_alone_min=CLASSIC_ALONE_MIN)
    assert got.card is None and got.reason == "weak_index" and got.box == box
    assert got.detail["unsure"] == "7H"
    assert combine(weak, learned).card == "7H"  # no floor
    sure = CardRead("7H", box, CLASSIC_ALONE_MIN + 0.05, None, None, True, {})
    assert combine(sure, learned, classic_alone_min=CLASSIC_ALONE_MIN).card == "7H"
    assert CardReader("standard", "en").classic_alone_min == CLASSIC_ALONE_MIN


def _learned(card, box, probs=None, glyph=None, suit=None, good=1):
    """A learned read with one view's distributions (``glyph``/``suit``: {class: p})."""
    from companion.vision.cards import CardRead

    gp = np.zeros((1, len(CI.GLYPHS)))
    sp = np.zeros((1, len(CI.SUITS)))
    for g, p in (glyph or {"none": 1.0}).items():
        gp[0, CI.GLYPHS.index(g)] = p
    for s, p in (suit or {"none": 1.0}).items():
        sp[0, CI.SUITS.index(s)] = p
    return CardRead(card, box, max((probs or {}).values(), default=0.0), None if card else "weak_index", None, True,
                    {"probs": probs or {}, "good": good, "dist": ("en", gp, sp)})


def test_a_weak_template_read_the_classifier_leans_against_is_reported_unsure():
    """Eighth pass: a template-only read below CLASSIC_SURE stands only when the classifier gives
    its card at least the probability it gives any other card; a surer template read stands."""
    from companion.vision.cards import CardRead
    from companion.vision.learned_read import CLASSIC_ALONE_MIN, CLASSIC_SURE, card_probability, combine

    assert CLASSIC_ALONE_MIN < CLASSIC_SURE < 0.8
    box = [10, 20, 60, 90]
    weak = CardRead("7H", box, CLASSIC_SURE - 0.05, None, None, True, {})
    against = _learned(None, box, {"7D": 0.6}, {"7": 0.95}, {"D": 0.63, "H": 0.37})
    assert abs(card_probability(against, "7H") - 0.95 * 0.37) < 1e-9
    got = combine(weak, against, classic_sure=CLASSIC_SURE)
    assert got.card is None and got.reason == "weak_index" and got.detail["unsure"] == "7H" and got.box == box
    assert combine(weak, against).card == "7H"  # rule off
    leaning = _learned(None, box, {"7H": 0.6}, {"7": 0.95}, {"H": 0.63, "D": 0.37})
    assert combine(weak, leaning, classic_sure=CLASSIC_SURE).card == "7H"
    sure = CardRead("7H", box, CLASSIC_SURE + 0.05, None, None, True, {})
    assert combine(sure, against, classic_sure=CLASSIC_SURE).card == "7H"
    reader = CardReader("standard", "en")
    assert reader.classic_sure == CLASSIC_SURE
