"""More ways to find card paper than one brightness threshold: cards on light or textured tables.

The first readers thresholded the frame's "whiteness" (the minimum of B, G, R) once, globally:
right on felt, dark cloth and dark wood, and blind on light carpet, floor tiles, a white
tablecloth or light wood, where the table is as bright as the paper. Two cues do not depend on
the table being darker:

* **local contrast** (:func:`local_paper_mask`): after white balance on the frame's brightest
  pixels, paper is brighter than its own neighbourhood (a box mean a few card widths wide) and
  nearly grey; used as the paper mask when the global one covers most of the frame;
* **closed edges** (:func:`edge_quads`): a card's outline is a closed, straight-sided edge; the
  regions that Canny edges enclose, filled, that have a card's shape are candidate cards.

Candidates found only this way are *unverified* (:attr:`companion.vision.card_frames.CardFrame.verify`):
the reader keeps one only when an index on it reads surely — a tile or a sheet of paper with a
card's proportions has no index, and is not reported as an unknown card.

All at the detector's working scale (px of the small frame); masks are uint8 0/255.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Local contrast: paper is at least this much (grey levels, white-balanced) above the box mean
#: of its neighbourhood, and its chroma (max − min channel) under CHROMA_MAX.
LOCAL_DELTA = 14
CHROMA_MAX = 70
#: The global mask is taken for a bright table when it covers more than this share of the frame.
BRIGHT_TABLE = 0.4
#: The paper mask on such a table: ``local`` (local contrast) or ``none`` (no mask: only the
#: verified closed-edge and local-contrast cards; no hypotheses of partly hidden cards there).
BRIGHT_PRIMARY = "local"


def _balance_lut(small: np.ndarray) -> np.ndarray:
    """The white balance of :func:`balanced` as a 256×1×3 lookup table (each channel's 99th
    percentile maps to 245; the same float32 arithmetic, so the same bytes)."""
    f = small[::3, ::3].reshape(-1, 3)  # a ninth of the pixels is plenty for a percentile
    k = int(0.99 * (len(f) - 1))
    top = np.partition(f, k, axis=0)[k].astype(np.float32) + 1
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * (245.0 / top)[None, :], 0, 255)
    return lut.astype(np.uint8).reshape(256, 1, 3)


def balanced(small: np.ndarray) -> np.ndarray:
    """The frame white-balanced on its brightest pixels (each channel's 99th percentile maps to
    245): under coloured light, paper is grey again. uint8 BGR."""
    return cv2.LUT(small, _balance_lut(small))


def local_paper_mask(small: np.ndarray) -> np.ndarray:
    """Paper by local contrast (see the module docstring). OpenCV's saturating uint8 arithmetic
    gives the same mask as the int16 comparisons it stands for (lo > bg + delta, max − min <
    chroma), at a tenth of numpy's cost over the colour axis (it is on the per-frame path)."""
    b, g, r = cv2.split(balanced(small))
    lo = cv2.min(cv2.min(b, g), r)
    chroma = cv2.subtract(cv2.max(cv2.max(b, g), r), lo)
    h, w = lo.shape
    k = max(15, (max(h, w) // 5) | 1)
    bg = cv2.blur(lo, (k, k))
    m = cv2.bitwise_and(cv2.compare(lo, cv2.add(bg, LOCAL_DELTA), cv2.CMP_GT),
                        cv2.compare(chroma, CHROMA_MAX, cv2.CMP_LT))
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))


def bright_table(mask: np.ndarray) -> bool:
    """Whether the global paper mask says the table itself is as bright as paper: it marks more
    than :data:`BRIGHT_TABLE` of the frame and more than half of the frame's border (cards lie
    on the table; a dense layout leaves the table along the border), and is not one card-shaped
    blob (a photo that is mostly one card)."""
    if np.count_nonzero(mask) <= BRIGHT_TABLE * mask.size:
        return False
    h, w = mask.shape
    b = max(2, min(h, w) // 30)
    ring = np.concatenate([mask[:b].ravel(), mask[-b:].ravel(), mask[:, :b].ravel(), mask[:, -b:].ravel()])
    return np.count_nonzero(ring) > 0.5 * ring.size and not one_card(mask)


def one_card(mask: np.ndarray) -> bool:
    """Whether a mask that covers most of the frame is one card-shaped blob (a photo that is
    mostly one card, a scan or a crop), not a bright table."""
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not cs:
        return False
    c = max(cs, key=cv2.contourArea)
    return _card_shape(c, 0.3 * mask.size, mask.size) is not None


def _card_shape(contour, min_area: float, max_area: float):
    """The minimum-area rectangle of a filled region if it has a card's shape (fills ≥ 88 % of
    its rectangle, long/short 1.2–1.8, area in range), else None."""
    area = cv2.contourArea(contour)
    if not min_area <= area <= max_area:
        return None
    rect = cv2.minAreaRect(contour)
    rw, rh = rect[1]
    if min(rw, rh) < 10:
        return None
    if area / (rw * rh) < 0.88 or not 1.2 <= max(rw, rh) / min(rw, rh) <= 1.8:
        return None
    return rect


def edge_quads(small: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Card-shaped regions enclosed by edges: Canny on the grey frame (edges closed by a 3×3
    dilation), each enclosed region filled (ink holes inside a card do not matter) and kept when
    it has a card's shape; the rectangle is grown back by the dilation. Returns 4×2 float32
    boxes (unordered corners)."""
    g = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    v = float(np.median(g))
    e = cv2.Canny(g, max(10, int(0.4 * v)), max(30, int(0.9 * v)))
    e = cv2.dilate(e, np.ones((3, 3), np.uint8))
    h, w = g.shape
    cs, _ = cv2.findContours(255 - e, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in cs:
        rect = _card_shape(c, min_area, 0.5 * h * w)
        if rect is None:
            continue
        (cx, cy), (rw, rh), a = rect
        out.append(cv2.boxPoints(((cx, cy), (rw + 2, rh + 2), a)).astype(np.float32))
    return out


def mask_quads(mask: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Card-shaped blobs of a paper mask (see :func:`edge_quads`)."""
    h, w = mask.shape
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in cs:
        rect = _card_shape(c, min_area, 0.5 * h * w)
        if rect is not None:
            out.append(cv2.boxPoints(rect).astype(np.float32))
    return out


def new_quads(candidates: list[np.ndarray], known: list[np.ndarray]) -> list[np.ndarray]:
    """The candidates that no known frame (nor an earlier candidate) already explains: their
    centre is not inside a known quad, nor within a quarter short side of a kept one."""
    kept: list[np.ndarray] = []
    for q in candidates:
        c = q.mean(0)
        s = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1]))
        if any(cv2.pointPolygonTest(np.float32(k).reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0
               for k in known):
            continue
        if any(np.linalg.norm(k.mean(0) - c) < 0.25 * s for k in kept):
            continue
        kept.append(q)
    return kept
