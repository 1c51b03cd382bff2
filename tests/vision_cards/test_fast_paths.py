"""The per-frame fast paths of the card reader (eighth pass) compute what the slower code they
replaced computed: percentiles from histograms, the local-contrast paper mask by OpenCV's
saturating arithmetic, and corner patches cut once per read."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import card_find as F
from companion.vision import cards as C
from companion.vision import percentiles as P
from companion.vision import table_scenes as T


def test_histogram_percentiles_are_numpys():
    rng = np.random.default_rng(3)
    for shape in ((124, 72), (360, 640), (7, 5)):
        a = rng.integers(0, 256, shape, dtype=np.uint8)
        a[: shape[0] // 3] = 250  # a paper-like plateau
        for q in (10, 37.3, 90, 99):
            assert P.percentile(a, q) == float(np.percentile(a, q))
            hist = cv2.calcHist([a], [0], None, [256], [0, 256]).ravel()
            assert P.percentile_hist(hist, a.size, q, numpy_lerp=True) == float(np.percentile(a, q))
            assert P.percentile_u8(a, q, numpy_lerp=True) == float(np.percentile(a, q))
        img = rng.integers(0, 256, shape + (3,), dtype=np.uint8)
        assert P.channel_percentiles(img, 90) == [float(np.percentile(img[..., k], 90)) for k in range(3)]


def _reference_local_mask(small: np.ndarray) -> np.ndarray:
    """The local-contrast mask as first written (numpy, int16 comparisons)."""
    f = small[::3, ::3].reshape(-1, 3)
    k = int(0.99 * (len(f) - 1))
    top = np.partition(f, k, axis=0)[k].astype(np.float32) + 1
    wb = np.clip(small.astype(np.float32) * (245.0 / top), 0, 255).astype(np.uint8)
    lo = wb.min(axis=2)
    chroma = wb.max(axis=2).astype(np.int16) - lo
    h, w = lo.shape
    kk = max(15, (max(h, w) // 5) | 1)
    bg = cv2.blur(lo, (kk, kk))
    m = ((lo.astype(np.int16) > bg.astype(np.int16) + F.LOCAL_DELTA) & (chroma < F.CHROMA_MAX)).astype(np.uint8) * 255
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def test_local_paper_mask_is_the_numpy_one():
    for i in range(6):
        frame = T.heldout_scene(i)[0]
        h, w = frame.shape[:2]
        s = min(1.0, 640 / max(h, w))
        small = cv2.resize(frame, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        assert np.array_equal(F.local_paper_mask(small), _reference_local_mask(small)), i


def test_corner_patches_are_cut_once_per_read_and_only_then():
    frame = T.heldout_scene(2)[0]
    quad = np.array([[100, 100], [180, 100], [180, 220], [100, 220]], np.float32)
    assert C.corner_patch(frame, quad, 0) is not C.corner_patch(frame, quad, 0)  # outside a read
    C._PATCH_MEMO.image, C._PATCH_MEMO.patches = frame, {}
    try:
        a = C.corner_patch(frame, quad, 1, 1.4)
        assert C.corner_patch(frame, quad.copy(), 1, 1.4) is a
        assert np.array_equal(a, C._corner_patch(frame, quad, 1, 1.4))
        assert C.corner_patch(frame.copy(), quad, 1, 1.4) is not a  # another image
    finally:
        C._PATCH_MEMO.image = C._PATCH_MEMO.patches = None
