"""Index segmentation of the card reader (:mod:`companion.vision.cards`): an upright index patch
split into its rank glyph and its pip, and exact fast helpers of the reader's per-frame path
(eleventh pass, docs/vision-cards.md: the same values as the code they replaced — ink planes
shared by a patch's three segmentations, 16-bit component labels, the components filtered as
arrays, one histogram search a plane, a partial sort for the pip's medians)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Index patch size in px after rectification.
PATCH_W, PATCH_H = 72, 124
#: A pixel is ink when one of its channels is this much darker than the paper's (0–1).
INK_CHANNEL_DARK = 0.3
#: Disc (px, in the PATCH_W×PATCH_H patch) whose opening keeps broad filled shapes (big pips,
#: picture) and drops glyph strokes (3–6 px wide at patch scale).
STRIP_DISC = 9

@dataclass
class IndexSegments:
    """Ink found in an index patch: the rank glyph group (components as (id, x, y, w, h, area)),
    its ink-strength crop, the pip's crop (None if no pip) and the pip's redness per unit of ink
    (see :data:`companion.vision.card_index_read.RED_SPLIT`)."""
    group: list
    glyph: np.ndarray
    glyph_box: tuple[int, int, int, int]
    pip: np.ndarray | None
    red: float
    stacked: int = 0
    #: for a two-component rank group: the right component is a closed ring (the "0" of a
    #: "10"); a letter broken in two (a serif D's stem and bowl) is not
    ring: bool = False


def paper_levels(planes, q: float = 90) -> list[float]:
    """The ``q`` percentile of each of ``planes`` (contiguous uint8 arrays of one size, e.g. the
    grey level and the channels of a patch): :func:`companion.vision.percentiles.percentile`'s
    value, each plane's histogram searched once for both order statistics."""
    n = planes[0].size
    pos = q / 100.0 * (n - 1)
    lo = int(pos)
    hi = min(lo + 1, n - 1)
    t = pos - lo
    out = []
    for p in planes:
        cum = np.cumsum(cv2.calcHist([p], [0], None, [256], [0, 256]).ravel())
        a, b = cum.searchsorted((lo, hi), side="right").tolist()
        out.append(float(a) + (float(b) - float(a)) * t)
    return out


def median(v: np.ndarray) -> float:
    """``float(np.median(v))`` of a 1-D float32 array without NaN, by one partial sort."""
    n = v.size
    k = n // 2
    if n % 2:
        return float(np.partition(v, k)[k])
    part = np.partition(v, (k - 1, k))
    return float(part[k - 1:k + 1].mean())


def disc_dilate(img: np.ndarray, d: int) -> np.ndarray:
    """``cv2.dilate(img, ellipse d×d)`` (uint8, the default border) as the maximum of the disc's
    rows: each row a horizontal line dilation, shifted; the same values, about twice as fast."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))
    half = [(int(np.count_nonzero(row)) - 1) // 2 for row in disc]
    r = d // 2
    lines = {w: cv2.dilate(img, np.ones((1, 2 * w + 1), np.uint8)) if w else img for w in set(half) if w >= 0}
    out = lines[half[r]].copy()
    for i, w in enumerate(half):
        dy = i - r
        if dy == 0 or w < 0:
            continue
        if dy > 0:
            np.maximum(out[:-dy], lines[w][dy:], out=out[:-dy])
        else:
            np.maximum(out[-dy:], lines[w][:dy], out=out[-dy:])
    return out


_PLANES: dict = {}
_SEGMENTS: dict = {}


def segment_index(patch: np.ndarray, strip_blobs: bool | str = False) -> IndexSegments | str:
    """:func:`_segment_index`, remembered for the last few patches: the learned and the template
    read of one card cut the same corner patches (the results are not to be modified)."""
    h = hash(patch.tobytes())
    key = (patch.shape, h, strip_blobs)
    got = _SEGMENTS.get(key)
    if got is None:
        if len(_SEGMENTS) >= 64:
            _SEGMENTS.clear()
        got = _SEGMENTS[key] = _segment_index(patch, strip_blobs, (patch.shape, h))
    return got


def _ink_planes(patch: np.ndarray, key=None):
    """The patch's ink mask (uint8 0/1), ink strength (uint8 0–255), redness and darkest-channel
    darkness against the paper (float32), or ``no_paper``; remembered by ``key`` (the three
    segmentations of one patch share them)."""
    got = _PLANES.get(key) if key is not None else None
    if got is not None:
        return got
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    (paper,) = paper_levels([gray])
    if paper < 60:
        got = "no_paper"
    else:
        # each channel over the paper's, as contiguous planes (the same values as dividing the
        # whole patch, faster than working on strided channel views)
        bgr = cv2.split(patch)
        rb, rg, rr = (c.astype(np.float32) / p for c, p in zip(bgr, np.array(paper_levels(bgr), np.float32) + 1))
        redness = rr - np.maximum(rb, rg)
        dark = gray.astype(np.float32) / (paper + 1)
        # darkness in the channel where the pixel is darkest against the paper's own colour: red
        # ink under blue light keeps a grey level close to the paper's, but its blue and green
        # channels stay far below the paper's (coloured light scales paper and ink alike)
        chdark = 1 - np.minimum(np.minimum(rb, rg), rr)
        ink = ((dark < 0.62) | ((redness > 0.28) & (dark < 0.85)) | (chdark > INK_CHANNEL_DARK)).view(np.uint8)
        # anti-aliased ink strength 0–255 (dark or red against the paper), for matching
        inkness = np.clip(np.maximum(np.maximum((1 - dark) / 0.6, redness / 0.5), chdark / 0.75), 0, 1)
        got = (ink, (inkness * 255).astype(np.uint8), redness, chdark)
    if key is not None:
        if len(_PLANES) >= 64:
            _PLANES.clear()
        _PLANES[key] = got
    return got


def _components(ink: np.ndarray):
    """``cv2.connectedComponentsWithStats(ink, connectivity=8)`` with 16-bit labels: the same
    labels and stats, in about half the time (a patch has far fewer than 65 536 components)."""
    return cv2.connectedComponentsWithStats(ink, None, None, None, 8, cv2.CV_16U)


def _segment_index(patch: np.ndarray, strip_blobs: bool | str = False, key=None) -> IndexSegments | str:
    """Split an upright index patch (PATCH_H×PATCH_W×3 BGR) into rank glyph and pip.

    With ``strip_blobs``, the broad filled shapes (a big corner pip or picture that a glyph
    touches, as on German decks where the index sits against the corner pips) are taken out
    of the ink first: what survives an opening with a disc wider than any glyph stroke is
    such a shape, and it is removed with a 1 px rim, so the strokes that touched it become
    components of their own. ``close``: the ink mask closed with 3×3 first.

    Returns:
        :class:`IndexSegments`, or a reason code string (``no_paper``, ``no_index``).
    """
    planes = _ink_planes(patch, key)
    if isinstance(planes, str):
        return planes
    ink, inkness, redness, chdark = planes
    if strip_blobs == "close":
        # thin hairlines of a light serif face (the "0" of a "10") break up in the ink mask
        ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    elif strip_blobs:
        # only inside the components the index reader would drop (too big, or at the border)
        n, lab, stats, _ = _components(ink)
        x, y, w, h = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
        drop = ((x <= 0) | (y <= 0) | (x + w >= PATCH_W) | (y + h >= PATCH_H)
                | (h > 0.55 * PATCH_H) | (w > 0.8 * PATCH_W))
        drop[0] = False
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (STRIP_DISC, STRIP_DISC))
        body = cv2.morphologyEx(drop[lab].astype(np.uint8), cv2.MORPH_OPEN, disc)
        ink = ink & ~cv2.dilate(body, np.ones((3, 3), np.uint8))
    n, lab, stats, _ = _components(ink)
    x, y, w, h, a = stats[1:, :5].T
    # too small; touching the patch's border (card edge, rounded corner outside the card, face
    # art); too big
    keep = ((h >= 0.07 * PATCH_H) & (a >= 18) & (x > 0) & (y > 0) & (x + w < PATCH_W) & (y + h < PATCH_H)
            & (h <= 0.55 * PATCH_H) & (w <= 0.8 * PATCH_W))
    idx = np.flatnonzero(keep)
    if not idx.size:
        return "no_index"
    comps = [(i + 1, *row) for i, row in zip(idx.tolist(), stats[idx + 1, :5].tolist())]
    comps.sort(key=lambda c: c[2])
    first = comps[0]
    group = [first]
    for c in comps[1:]:
        ov = min(first[2] + first[4], c[2] + c[4]) - max(first[2], c[2])
        if ov > 0.6 * min(first[4], c[4]) and abs(c[4] - first[4]) < 0.35 * first[4]:
            group.append(c)
    gx0 = min(c[1] for c in group)
    gx1 = max(c[1] + c[3] for c in group)
    gy0 = min(c[2] for c in group)
    gy1 = max(c[2] + c[4] for c in group)
    gmask = _soft(inkness, lab, [c[0] for c in group], gx0, gy0, gx1, gy1)
    rank_h = gy1 - gy0
    below = [c for c in comps if c not in group and c[2] >= gy1 - 2
             and c[1] < gx1 + 0.3 * rank_h and c[1] + c[3] > gx0 - 0.3 * rank_h
             and 0.3 * rank_h < c[4] < 1.6 * rank_h]
    ring = False
    if len(group) == 2:
        i, x, y, w, h, _a = max(group, key=lambda c: c[1])
        sel = (lab[y:y + h, x:x + w] == i).astype(np.uint8)
        _cs, hier = cv2.findContours(sel, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        ring = hier is not None and any(hh[3] >= 0 for hh in hier[0])
    if not below:
        return IndexSegments(group, gmask, (gx0, gy0, gx1, gy1), None, 0.0, ring=ring)
    # a column of letters under the rank (J, O, K, E, R) is a joker's index
    stacked = sum(1 for c in below if abs(c[4] - rank_h) < 0.2 * rank_h)
    i, x, y, w, h, _a = below[0]
    sel = lab[y:y + h, x:x + w] == i
    pmask = np.where(sel, inkness[y:y + h, x:x + w], 0).astype(np.uint8)
    # redness per unit of ink: a small or blurred pip mixes with the paper, which lowers its
    # redness and its darkness alike; their ratio keeps red and black apart (see RED_SPLIT)
    red = median(redness[y:y + h, x:x + w][sel]) / max(0.05, median(chdark[y:y + h, x:x + w][sel]))
    return IndexSegments(group, gmask, (gx0, gy0, gx1, gy1), pmask, red, stacked, ring)


def _soft(inkness, lab, ids, x0, y0, x1, y1) -> np.ndarray:
    """Ink strength inside the components ``ids`` (others zeroed), cropped to the box."""
    crop = lab[y0:y1, x0:x1]
    m = crop == ids[0]
    for i in ids[1:]:
        m |= crop == i
    return np.where(m, inkness[y0:y1, x0:x1], 0).astype(np.uint8)
