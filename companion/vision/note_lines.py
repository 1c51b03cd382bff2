"""Serial lines in a frame: a line cut out upright (:func:`warp_quad`), the candidate lines and a
stream's tracked regions, the scene-change and read-again checks, and the line renderings the
recognisers read (printed background flattened, growing glyphs brought to one height)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.images import to_bgr
from companion.vision.note_read import NoteRead


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Check and normalise an image array to H×W×3 BGR uint8 (:func:`companion.vision.images.to_bgr`).

    Raises:
        VisionError: wrong dtype or shape, or empty.
    """
    return to_bgr(image)


def is_strip(image: np.ndarray) -> bool:
    """True for a tight crop of one serial strip (short and wide)."""
    h, w = image.shape[:2]
    return h <= 160 and w >= 2.5 * h


def warp_quad(image: np.ndarray, quad: np.ndarray, pad: float = 0.12) -> np.ndarray:
    """Cut the quadrilateral ``quad`` (4×2, clockwise from top-left, px) out of ``image`` as an
    upright rectangle, grown by ``pad`` × its height on every side."""
    q = np.asarray(quad, np.float32)
    w = max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[2] - q[3]))
    h = max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2]))
    m = pad * min(w, h)
    W, H = int(round(w + 2 * m)), int(round(h + 2 * m))
    dst = np.float32([[m, m], [m + w, m], [m + w, m + h], [m, m + h]])
    M = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, M, (max(W, 2), max(H, 2)), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)


@dataclass
class Line:
    """A candidate serial line: its upright image (H×W×3 BGR uint8), its quadrilateral in the
    frame (4×2 px) and whether it was turned from vertical."""

    image: np.ndarray
    quad: np.ndarray
    vertical: bool


@dataclass
class Track:
    """The serial regions a stream reuses: ``boxes`` (x0, y0, x1, y1 px, disjoint), the
    detection scale of the full read that found them, that frame's thumbnail and shape, and
    the tracked frames since."""

    boxes: list[tuple[int, int, int, int]]
    scale: float
    thumb: np.ndarray
    shape: tuple
    age: int = 0


THUMB_W = 96


def thumb(frame: np.ndarray) -> np.ndarray:
    """A small grey copy of ``frame`` (96 px wide, float32) for scene-change checks."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (THUMB_W, max(1, round(h * THUMB_W / w))), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)


def boxed(res: NoteRead, cands: list[Line]) -> NoteRead:
    """``res`` with its :attr:`NoteRead.box`: round the best-scored line whose reading gave its
    serial (or its candidate when abstaining), else the best-scored line of its evidence; left
    ``None`` when no evidence names a line of ``cands``."""
    want = res.serial or res.candidate
    ev = [e for e in res.evidence if 0 <= e.line < len(cands)]
    best = max((e for e in ev if want and e.match.serial == want), key=lambda e: e.score, default=None) \
        or max(ev, key=lambda e: e.score, default=None)
    if best is not None:
        q = np.asarray(cands[best.line].quad, np.float32).reshape(-1, 2)
        (x0, y0), (x1, y1) = q.min(axis=0), q.max(axis=0)
        res.box = [int(x0), int(y0), int(round(x1 - x0)), int(round(y1 - y0))]
    return res


def merge_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) with every overlapping pair replaced by their union."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return boxes


def scene_change(before: np.ndarray, now: np.ndarray, boxes: list[tuple[int, int, int, int]],
                  shape: tuple) -> float:
    """Share of thumbnail pixels outside ``boxes`` (frame px) that changed: darker than the
    darkest or lighter than the lightest of the 3×3 pixels around them before, by more than 24
    grey levels — a shift by up to one thumbnail pixel (≈ 13 px of a 1280 px frame: a held
    note moving a little) is no change; something new in view is."""
    k = before.shape[1] / shape[1]
    kernel = np.ones((3, 3), np.uint8)
    low, high = cv2.erode(before, kernel), cv2.dilate(before, kernel)
    changed = (now < low - 24) | (now > high + 24)
    outside = np.ones(changed.shape, bool)
    for box in boxes:
        x0, y0, x1, y1 = (int(v * k) for v in box)
        outside[max(0, y0 - 1):y1 + 2, max(0, x0 - 1):x1 + 2] = False
    n = int(outside.sum())
    return float((changed & outside).sum()) / n if n else 0.0


#: How much of a line's quadrilateral (its area, px²) another pass's line must cover for the
#: line to count as read again there (:func:`reread`).
REREAD_COVER = 0.5


def reread(quad: np.ndarray, cands: list["Line"]) -> bool:
    """Whether one of ``cands`` (the lines another detection pass read, quadrilaterals in the
    same frame's pixels) covers at least :data:`REREAD_COVER` of ``quad`` (4×2 px)."""
    q = np.asarray(quad, np.float32)
    area = abs(cv2.contourArea(q))
    if area <= 0:
        return False
    for c in cands:
        inter, _ = cv2.intersectConvexConvex(q, np.asarray(c.quad, np.float32))
        if inter >= REREAD_COVER * area:
            return True
    return False


def ink_on_flat_paper(gray: np.ndarray, sigma: float) -> np.ndarray:
    """A grey strip (H×W uint8) with its printed background flattened: the background is the
    strip blurred with a Gaussian of ``sigma`` px (wider than a glyph's strokes), the ink is how
    far each pixel departs from it on the print's side (darker for dark print on light paper,
    lighter for light print on dark paper: the side whose strongest departures — the 0.5 %
    extremes — are the stronger), stretched to the full range and returned dark on white
    (H×W uint8). Guilloche and the paper's shading vary little at that scale next to the
    serial's strokes. An inverted strip gives the same image."""
    g = gray.astype(np.float32)
    d = cv2.GaussianBlur(g, (0, 0), sigma) - g
    # the print's side: a serial's strokes are the strip's strongest departures from its
    # background (the guilloche's are weaker), darker for dark print, lighter for light print
    if np.percentile(d, 99.5) < -np.percentile(d, 0.5):
        d = -d
    ink = np.clip(d, 0, None)
    top = float(ink.max())
    if top <= 0:
        return np.full_like(gray, 255)
    return (255 - ink * (255.0 / top)).astype(np.uint8)


def even_glyph_heights(line: np.ndarray) -> np.ndarray:
    """A line image (H×W×3 BGR uint8) whose glyphs are scaled to one height: the vertical RUB
    copy prints its glyphs growing in height (0.7 → 1.3 ×), which recognisers trained on even
    lines misread. Glyphs are found as column runs of ink (Otsu on grey); a line without clear
    glyph runs is returned unchanged."""
    from companion.vision import letters as L

    gray = cv2.cvtColor(line, cv2.COLOR_BGR2GRAY)
    ink = L.ink_mask(gray)
    runs = L.column_runs(ink)
    if not 6 <= len(runs) <= 14:
        return line
    boxes = L.run_boxes(ink, runs)
    target = int(np.median([b[3] - b[2] for b in boxes]))
    if target < 6:
        return line
    pad = max(2, target // 4)
    out_h = target + 2 * pad
    pieces = [np.full((out_h, pad), 255, np.uint8)]
    norm = cv2.normalize(gray, None, 0, 255, cv2.NORM_MINMAX)
    if np.median(norm) < 128:
        norm = 255 - norm
    for j, (x0, x1, y0, y1) in enumerate(boxes):
        g = norm[y0:y1, x0:x1]
        k = target / max(1, y1 - y0)
        g = cv2.resize(g, (max(1, int(round((x1 - x0) * min(k, 1.6)))), target),
                       interpolation=cv2.INTER_CUBIC)
        # keep the gaps as printed (the space between letters and digits), scaled like the glyph
        gap = boxes[j + 1][0] - x1 if j + 1 < len(boxes) else 0
        col = np.full((out_h, g.shape[1] + max(pad // 2, int(gap * min(k, 1.6)))), 255, np.uint8)
        col[pad:pad + target, :g.shape[1]] = g
        pieces.append(col)
    pieces.append(np.full((out_h, pad), 255, np.uint8))
    return cv2.cvtColor(np.hstack(pieces), cv2.COLOR_GRAY2BGR)
