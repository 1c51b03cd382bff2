"""The card reader's calibrated confidence and suit-colour check (issue 17, "never a confident
wrong card"): the committed calibration model, fitted on its own scenes only; the colour of a
pip measured against the card's paper under coloured light; unsure cards kept with their box."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.vision import card_calib as K
from companion.vision import render_cards as R
from companion.vision import render_scenes as RS
from companion.vision import table_scenes as T
from companion.vision.card_segments import segment_index
from companion.vision.cards import CardReader, corner_patch

ROOT = Path(__file__).resolve().parents[2]


def _card_frame(code: str, tint=(1.0, 1.0, 1.0), seed: int = 0, colours=None) -> np.ndarray:
    face = R.render_face(code, "en", T.fonts("train")[0], **({"colours": colours} if colours else {}))
    frame = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    RS.paste_card(frame, face, RS.pose_quad((320, 240), 12, 300, 0.0))
    return T.photometric(frame, np.random.default_rng(seed), {"tint": tint, "noise": 2.0})


def test_calibration_model_is_committed_and_fitted_on_its_own_scenes():
    meta = json.loads(K.MODEL.read_text(encoding="utf-8"))
    assert tuple(meta["features"]) == K.FEATURES
    assert "calibration_scene" in meta["fitted_on"] and "no training, validation, held-out" in meta["fitted_on"]
    assert 0.5 <= meta["line"] < 1.0
    assert K.shared() is not None


def test_calibration_scenes_are_neither_training_nor_held_out():
    """Own surfaces (style c), own fonts, own seeds."""
    cal = set(T.fonts("calib"))
    assert cal and not cal & set(T.fonts("train")) and not cal & set(T.fonts("heldout"))
    f, truth, facts = T.calibration_scene(3)
    assert facts["style"] == "c" and f.ndim == 3 and truth
    a = T.surface("wood", (200, 120), np.random.default_rng(5), "c")
    b = T.surface("wood", (200, 120), np.random.default_rng(5), "a")
    assert a.shape == b.shape and np.abs(a.astype(int) - b.astype(int)).mean() > 5


@pytest.mark.parametrize("tint", [(1.0, 1.0, 1.0), (1.1, 0.65, 1.1), (0.72, 0.9, 1.08)])
def test_pip_colour_is_measured_against_the_paper_under_coloured_light(tint):
    """A red and a black index under neutral, purple and warm light: the measured colour agrees
    with its own suit and contradicts the other colour's."""
    for code, other in (("KH", "KC"), ("KC", "KH"), ("7D", "7S"), ("7S", "7D")):
        frame = _card_frame(code, tint)
        reads = CardReader("standard", "en").read(frame)
        assert len(reads) == 1
        q = reads[0].frame.quad
        sg = segment_index(corner_patch(frame, q, 0))
        if isinstance(sg, str) or sg.pip is None:
            sg = segment_index(corner_patch(frame, q, 2))
        assert not isinstance(sg, str) and sg.pip is not None, (code, tint)
        assert K.colour_agreement(code, sg.red) > 0.5, (code, tint, sg.red)
        assert K.colour_agreement(other, sg.red) < -0.5, (code, tint, sg.red)
    assert K.colour_agreement("JK", 0.9) == 0.0 and K.colour_agreement("KH", None) == 0.0


def test_a_clear_card_reads_with_its_calibrated_confidence():
    reader = CardReader("standard", "en", calibrated=True)
    (r,) = reader.read(_card_frame("QS"))
    assert r.card == "QS", (r.card, r.reason)
    cal = K.shared()
    assert r.confidence >= cal.line
    assert r.confidence == pytest.approx(cal.probability(r.detail["calib"]))


def test_below_the_line_a_card_is_reported_unsure_with_its_box():
    """The same frame with the line raised above any probability: the card stays in the answer,
    unnamed, with its box and the code it was not sure of — never dropped."""
    reader = CardReader("standard", "en", calibrated=True)
    frame = _card_frame("10D")
    (sure,) = reader.read(frame)
    cal = K.shared()
    old = cal.line
    try:
        cal.line = 1.01
        (unsure,) = reader.read(frame)
    finally:
        cal.line = old
    assert sure.card == "10D"
    assert unsure.card is None and unsure.reason == "weak_index" and unsure.box == sure.box
    assert unsure.detail["unsure"] == "10D" and unsure.confidence == pytest.approx(sure.confidence)


def test_a_sure_colour_contradiction_vetoes_the_card(monkeypatch):
    """Whatever the shape readers say, a pip measured surely red is not a spade."""
    from companion.vision import cards as C
    from companion.vision.card_index_read import RED_SPLIT

    reader = CardReader("standard", "en", calibrated=True)
    frame = _card_frame("9S")
    (r,) = reader.read(frame)
    assert r.card == "9S"
    real = K.features

    def red_pip(classic, learned, final):
        x = real(classic, learned, final)
        x[K.FEATURES.index("colour")] = K.colour_agreement(final.card, RED_SPLIT + 0.5)
        return x
    monkeypatch.setattr(K, "features", red_pip)
    (v,) = reader.read(frame)
    assert v.card is None and v.reason == "suit_colour_mismatch" and v.box == r.box
    assert "suit_colour_mismatch" in C.REASONS
    from companion.i18n import render

    assert render(C.reason_message("suit_colour_mismatch"), "ru") != "suit_colour_mismatch"


def test_logistic_fit_of_the_calibration_tool_separates_what_it_can():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import calibrate_cards
    finally:
        sys.path.remove(str(ROOT / "tools"))
    rng = np.random.default_rng(0)
    X = rng.normal(0, 1, (400, 3))
    y = (X[:, 0] - 0.5 * X[:, 1] + rng.normal(0, 0.3, 400) > 0).astype(float)
    mean, scale, w, b = calibrate_cards.fit(X, y)
    p = 1 / (1 + np.exp(-(((X - mean) / scale) @ w + b)))
    assert ((p > 0.5) == (y > 0.5)).mean() > 0.9
    assert w[0] > 0 > w[1] and abs(w[2]) < abs(w[1])
