"""The learned index-corner detector (companion/vision/card_corners.py): decoding its output map
into card frames, joining a card's two index corners, and adding only cards it reads surely."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from companion.vision import card_corners as CC
from companion.vision import render_cards as R
from companion.vision import render_scenes as RS
from companion.vision import table_surfaces as TS
from companion.vision.cards import CardRead, CardReader, corner_patch


def test_corner_model_is_small_committed_and_names_its_training_data():
    """The detector ships as a small ONNX file; its .json says what trained it (renders, and
    the shared Vosloo photos as faces: that set is then no held-out figure for it)."""
    assert CC.available() and CC.MODEL.stat().st_size < 3_000_000
    meta = json.loads(CC.MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    assert meta["input_long"] == CC.INPUT_LONG and meta["stride"] == CC.STRIDE
    assert ("Vosloo" in meta["trained_on"]) == bool(meta["real_faces"])
    assert CardReader().corners is True and CardReader(corners=False).corners is False


def _map(h: int, w: int, peaks: list[tuple[int, int, float, float, float, float]]) -> np.ndarray:
    """An output map with heat-map peaks at cells (x, y): short-side angle (degrees), width,
    height (input px) and chirality sign (+1: the face's top left)."""
    out = np.zeros((CC.CHANNELS, h, w), np.float32)
    out[0] = -8.0
    for x, y, ang, wd, ht, sign in peaks:
        a = math.radians(ang)
        u = (math.cos(a), math.sin(a))
        v = (-sign * u[1], sign * u[0])
        out[:, y, x] = [6.0, 0.25, -0.25, u[0], u[1], v[0], v[1], math.log(wd / 32.0), math.log(ht / wd)]
    return out


def test_decode_gives_the_corner_sides_and_size_in_image_px():
    out = _map(72, 128, [(20, 30, 0.0, 60.0, 84.0, 1)])
    (c,) = CC.decode(out, 0.5, 0.5)  # the input was half the image's size
    assert c.point == pytest.approx([(20.75) * 4 / 0.5, (30.25) * 4 / 0.5])
    assert c.short_dir == pytest.approx([1.0, 0.0], abs=1e-6)
    assert c.long_dir == pytest.approx([0.0, 1.0], abs=1e-6)
    assert (c.width, c.height) == pytest.approx((120.0, 168.0), rel=1e-5)
    q, k = c.quad()
    assert k == 0 and q[2] == pytest.approx(c.point + [120.0, 168.0])


def test_a_top_right_corner_gives_a_face_order_quad_with_that_corner_observed():
    """A four-index deck's top-right index: the sides turn the other way; the frame is still in
    face order (TL, TR, BR, BL clockwise) with corner 1 observed, and its patch reads upright."""
    out = _map(72, 128, [(60, 20, 180.0, 50.0, 70.0, -1)])
    (c,) = CC.decode(out, 1.0, 1.0)
    q, k = c.quad()
    assert k == 1 and q[1] == pytest.approx(c.point)
    e1, e2 = q[1] - q[0], q[3] - q[0]
    assert e1[0] * e2[1] - e1[1] * e2[0] > 0  # clockwise on screen, like every CardFrame
    face = R.render_face("7S", four_index=True)
    frame = np.full((400, 400, 3), 40, np.uint8)
    quad = np.float32([[100, 100], [226, 100], [226, 276], [100, 276]])
    RS.paste_card(frame, face, quad, shadow=False)
    tr = CC.IndexCorner(quad[1].copy(), np.float32([-1, 0]), np.float32([0, 1]), 126, 176, 0.9)
    hyp, k = tr.quad()
    assert k == 1 and hyp == pytest.approx(quad)
    assert np.array_equal(corner_patch(frame, hyp, k), corner_patch(frame, quad, 1))


def test_weak_peaks_and_degenerate_sides_are_no_corner():
    out = _map(40, 40, [(5, 5, 30.0, 40.0, 56.0, 1), (30, 30, 30.0, 40.0, 56.0, 1)])
    out[0, 30, 30] = -1.0  # probability 0.27, under the peak line
    out[3:7, 5, 5] = 0.0
    assert CC.decode(out, 1.0, 1.0) == []


def test_a_cards_two_index_corners_make_one_frame():
    a = CC.IndexCorner(np.float32([100, 100]), np.float32([1, 0]), np.float32([0, 1]), 60, 84, 0.9)
    b = CC.IndexCorner(np.float32([161, 183]), np.float32([-1, 0]), np.float32([0, -1]), 60, 84, 0.8)
    other = CC.IndexCorner(np.float32([300, 100]), np.float32([1, 0]), np.float32([0, 1]), 60, 84, 0.7)
    frames = CC.corner_frames([a, b, other])
    assert len(frames) == 2
    assert frames[0].verify and not frames[0].complete and frames[0].readable == (0,)
    assert len(frames[0].views) == 1 and frames[0].views[0][1] == (0,)


class _Net:
    """A stand-in detector answering fixed corners."""

    def __init__(self, corners):
        self.corners = corners

    def detect(self, image):
        return self.corners


def _scene():
    rng = np.random.default_rng(5)
    frame = TS.surface("felt", (640, 480), rng)
    face = R.render_face("QH")
    quad = RS.pose_quad((320, 240), 20.0, 200.0)
    RS.paste_card(frame, face, quad)
    return frame, quad


def test_a_detected_corner_adds_the_card_it_reads_and_drops_the_null_it_explains():
    frame, quad = _scene()
    reader = CardReader("standard", "en", corners=False)
    w, h = np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])
    corner = CC.IndexCorner(quad[0].copy(), (quad[1] - quad[0]) / w, (quad[3] - quad[0]) / h, w, h, 0.9)
    null = CardRead(None, [0, 0, 1, 1], 0.0, "weak_index", CC.corner_frames([corner])[0], None)
    got = CC.add_corner_reads(reader, frame, [null], _Net([corner]))
    assert [r.card for r in got] == ["QH"]
    assert got[0].detail.get("corner_net")


def test_a_corner_of_a_card_already_read_is_not_read_again():
    frame, quad = _scene()
    reader = CardReader("standard", "en", corners=False)
    (read,) = reader.read(frame)
    assert read.card == "QH"
    w, h = np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])
    corner = CC.IndexCorner(quad[0] + 3, (quad[1] - quad[0]) / w, (quad[3] - quad[0]) / h, w, h, 0.9)
    calls = []
    orig = reader.read_frame
    reader.read_frame = lambda *a, **k: calls.append(1) or orig(*a, **k)
    assert [r.card for r in CC.add_corner_reads(reader, frame, [read], _Net([corner]))] == ["QH"]
    assert calls == []


def test_a_corner_that_reads_nothing_adds_nothing():
    rng = np.random.default_rng(2)
    frame = TS.surface("wood", (640, 480), rng)
    corner = CC.IndexCorner(np.float32([200, 200]), np.float32([1, 0]), np.float32([0, 1]), 90, 126, 0.9)
    reader = CardReader("standard", "en", corners=False)
    assert CC.add_corner_reads(reader, frame, [], _Net([corner])) == []


def test_a_frame_scaled_about_its_observed_corner_keeps_that_corner():
    a = CC.IndexCorner(np.float32([100, 100]), np.float32([1, 0]), np.float32([0, 1]), 60, 84, 0.9)
    b = CC.IndexCorner(np.float32([161, 183]), np.float32([-1, 0]), np.float32([0, -1]), 60, 84, 0.8)
    (f,) = CC.corner_frames([a, b])
    g = CC.scaled(f, 0.5)
    assert g.verify and g.readable == f.readable and g.quad[0] == pytest.approx([100, 100])
    assert g.quad[2] == pytest.approx([130, 142])
    (vq, vk), = g.views
    assert vq[vk[0]] == pytest.approx([161, 183]) and vq[2] == pytest.approx([131, 141])
    assert CC.SCALES and all(0.5 <= s <= 2 and s != 1 for s in CC.SCALES)
