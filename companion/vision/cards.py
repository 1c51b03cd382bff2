"""Playing-card reader: find every card in a frame and read its corner index.

Pipeline (all OpenCV, no network, no training for standard decks):

1. **Detection** (:func:`detect_cards`): a "whiteness" map (the minimum of B, G, R — card paper is
   bright in every channel, felt, dark cloth and wood are not) is thresholded with Otsu at a
   working width of :data:`WORK_WIDTH` px. Each blob that fills its minimum-area rectangle is a
   whole card. Other blobs (overlapping cards) are cut into straight edges; every convex corner
   between two long, roughly perpendicular edges is a card corner, and a card frame is
   hypothesised from it with the card size seen elsewhere in the frame (one visible corner index
   is enough to read a card).
2. **Rectification**: each corner of a card frame is warped to an upright index patch (mirrored
   corners are flipped), so a card lying upside down reads the same.
3. **Index reading** (:class:`IndexReader`): ink components in the patch give the rank glyph (the
   topmost group, "10" being two components) and the suit pip below it. Both are matched against
   templates rendered from the system's fonts (ranks in the English, Russian and German alphabets)
   and drawn pips; the pip colour (red / black) is measured against the paper colour.
4. **Decision**: each card combines its corner reads; disagreeing or weak reads abstain with a
   reason instead of guessing.

Images are H×W×3 BGR uint8. Coordinates are px in the input image.
"""

from __future__ import annotations

import functools
import math
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.i18n import M, MP, NC_, Message
from companion.vision import render_cards as rc
from companion.vision.card_segments import (INK_CHANNEL_DARK, PATCH_H, PATCH_W, STRIP_DISC,  # noqa: F401
                                            IndexSegments, disc_dilate, segment_index)
from companion.vision.percentiles import channel_percentiles as _pct_channels
from companion.vision.percentiles import percentile_u8 as _pct_u8

#: Width (px) the frame is scaled to for detection.
WORK_WIDTH = 640
#: Default long/short side ratio when no whole card is visible (between poker 1.40 and
#: bridge/Continental 1.55 cards).
DEFAULT_ASPECT = 1.45
#: Index patch: fraction of the card's short side (width) and long side (height) it covers.
PATCH_FW, PATCH_FH = 0.27, 0.33
#: How far outside the corner the patch starts (fraction of the short side).
PATCH_MARGIN = 0.03
#: Glyph feature size (w, h) in px.
GLYPH_W, GLYPH_H = 20, 28
#: Gaussian blur (sigma, px at glyph size) that makes the match tolerant to stroke and font.
GLYPH_BLUR = 1.5
PIP_BLUR = 0.6
#: A hypothesised frame of a partly hidden card must lie on card area (its own paper or a whole
#: card on top) for this fraction of its area.
HYPOTHESIS_COVERAGE = 0.65
#: Pip colour: the pip's median redness against the paper (red channel over the paper's red
#: minus the larger of green and blue over theirs) divided by its median ink depth (1 − the
#: darkest channel over the paper's). Above RED_SPLIT is red; the colour is sure at RED_SCALE
#: from it. On the real sets black pips reach 0.19 and red ones start at 0.41 (mis-cut pips
#: aside); RED_SPLIT is the middle of that gap (chosen on alternate manifest rows, see
#: docs/vision-cards.md).
RED_SPLIT, RED_SCALE = 0.3, 0.15
#: Widening of the second, wider look at a partly hidden card's corners (see corner_patch).
PARTIAL_GROW = 1.4
#: Pip feature size (px, square).
PIP_SIZE = 32

#: Corner glyph → rank, per alphabet (RULINGS: English A K Q J, Russian Т К Д В, German A K D B).
GLYPH_RANK = {
    "en": {"A": "A", "K": "K", "Q": "Q", "J": "J"},
    "ru": {"Т": "A", "К": "K", "Д": "Q", "В": "J"},
    "de": {"A": "A", "K": "K", "D": "Q", "B": "J"},
}
NUMERALS = ["10", "9", "8", "7", "6", "5", "4", "3", "2"]
#: Letters of the Russian and German indices that English indices do not have.
_FOREIGN_GLYPHS = {"Т", "Д", "В", "D", "B"}
#: With the ``auto`` alphabet, how much better than every English letter such a letter must match.
AUTO_MARGIN = 0.2
#: Glyphs that are no rank but must compete so they are not taken for one: a lone "1" or a lone
#: "0" (a "10" whose other digit touches a picture or pip; a lone "0" otherwise reads as Q or D).
DECOYS = ["1", "0", "O"]
#: Ranks in a deck of each size.
DECK_RANKS = {52: set(rc.RANKS), 36: set(rc.RANKS[:9]), 32: set(rc.RANKS[:8])}

#: Minimum template similarity for a rank / suit to count, and the minimum margin to the best
#: other class (fractions of the normalised correlation, see :meth:`IndexReader.read_patch`).
MIN_RANK_SIM, MIN_RANK_MARGIN = 0.55, 0.04
MIN_SUIT_SIM, MIN_SUIT_MARGIN = 0.55, 0.012
#: Confidence at or above which a read is reported as a card (below it: abstain).
MIN_CONFIDENCE = 0.5
#: Corner reads whose rank glyph may dissent: read, or weakly read with its pip (a glyph with no
#: pip under it is more often a cut-off letter or picture detail than an index).
DISSENT_REASONS = (None, "weak_index")
#: An abstained card's reason codes (``CardRead.reason``, listed in ``docs/vision-cards.md``),
#: marked for the catalogue in the context ``card reason``: the operator's console words them
#: (``companion scan-card --lang ru``; English shows the code itself); the JSON keeps the code.
REASONS = (
    NC_("card reason", "weak_index"), NC_("card reason", "no_index"), NC_("card reason", "no_pip"),
    NC_("card reason", "no_paper"), NC_("card reason", "no_rank"), NC_("card reason", "corners_disagree"),
    NC_("card reason", "not_in_deck"), NC_("card reason", "not_an_index"),
    NC_("card reason", "rank_picture_mismatch"), NC_("card reason", "alphabet_lookalike"),
    NC_("card reason", "face_down"), NC_("card reason", "no_profile_match"),
    NC_("card reason", "suit_colour_mismatch"), NC_("card reason", "no_corner_visible"),
    NC_("card reason", "unreadable"), NC_("card reason", "no_card_found"),
)


def reason_message(code: str) -> Message:
    """The words of an abstained card's reason ``code`` (English: the code itself)."""
    return MP("card reason", code)


#: Whether readers apply the confidence calibration by default (:mod:`companion.vision.card_calib`).
#: Off: fitted on rendered calibration scenes, it refuses most template reads — which on the real
#: Continental decks are right — and the real sets fall to 5–35 % read (docs/vision-cards.md).
CALIBRATED = False
#: Corners read at least this confidently that agree on one code vote it through (see
#: :meth:`CardReader.read_frame`).
VOTE_CONFIDENCE = 0.4
#: A rank glyph read this well at another corner, if it differs, makes the card doubtful.
DISSENT_CONFIDENCE = 0.4
#: Ranks whose index glyph has a look-alike in another alphabet: the English "8" and the
#: German "B" (Bube) / Russian "В" (валет). A partly hidden card read as one of these under a
#: single alphabet is cross-checked with ``auto`` (a wrongly set deck alphabet must abstain).
LOOKALIKE_RANKS = frozenset({"8", "J"})
#: Reasons of an unread card that show no sign of a card beyond its paper (see CardReader.read).
NO_SIGN_REASONS = frozenset({"no_index", "no_paper", "no_pip", "no_corner_visible", "unreadable"})
#: Numbered ranks: their card's centre shows pips, not a picture.
NUMBERED_RANKS = frozenset({"2", "3", "4", "5", "6", "7", "8", "9", "10"})
#: A whole card's centre is a picture when its largest ink component covers more than this
#: fraction of the centre window. Measured on the three real sets: numbered cards 0.02–0.07
#: (one pip), face cards 0.52–0.87 (the picture is one connected ink area).
PICTURE_COMPONENT = 0.25
#: The neighbourhood (px of the 126×176 rectified card) whose brightest pixel is the local paper
#: level of :func:`centre_is_picture` (ninth pass: chosen on the validation scenes, where the
#: global level called 29 of 206 numbered cards under a shadow pictures, this one 3; the real
#: decks' measures unchanged); 0: the card's one global level (the eighth pass).
PAPER_DISC = 41


@dataclass
class CardFrame:
    """A card (whole or partly hidden) found in a frame.

    Attributes:
        quad: 4×2 float32 corners in the image, in face order TL, TR, BR, BL where TL→TR is the
            short side (the card may be upside down: TL is then the face's bottom-right).
        complete: the whole outline was seen (False: hypothesised from one visible corner).
        readable: indices of the corners (0 TL, 1 TR, 2 BR, 3 BL) that were actually observed.
        views: other hypotheses of the same partly hidden card, as (quad, readable corners):
            each is most accurate at its own observed corners.
    """
    quad: np.ndarray
    complete: bool
    readable: tuple[int, ...] = (0, 1, 2, 3)
    views: list = field(default_factory=list)
    #: found only by the extra cues of :mod:`companion.vision.card_find` (closed edges, local
    #: contrast): reported only when read surely (else it may be a tile, not a card)
    verify: bool = False

    @property
    def center(self) -> tuple[float, float]:
        return float(self.quad[:, 0].mean()), float(self.quad[:, 1].mean())

    @property
    def box(self) -> list[int]:
        """Axis-aligned [x, y, w, h] in px."""
        x0, y0 = self.quad.min(0)
        x1, y1 = self.quad.max(0)
        return [int(round(x0)), int(round(y0)), int(round(x1 - x0)), int(round(y1 - y0))]

    @property
    def size(self) -> tuple[float, float]:
        """(short side, long side) in px."""
        q = self.quad
        return float(_norm(q[1] - q[0])), float(_norm(q[3] - q[0]))


@dataclass
class CardRead:
    """The reader's answer for one card.

    Attributes:
        card: the card code (``QH``, ``10S``, ``JK``) or learned label, or None (abstained).
        box: [x, y, w, h] in px.
        confidence: 0–1.
        reason: why it abstained (None when ``card`` is set).
        frame: the :class:`CardFrame`.
        face_up: False when the card shows its back, None when unknown.
    """
    card: str | None
    box: list[int]
    confidence: float
    reason: str | None
    frame: CardFrame
    face_up: bool | None = True
    detail: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"card": self.card, "box": self.box, "confidence": round(float(self.confidence), 3),
                **({"reason": self.reason} if self.reason else {})}


def _norm(v):
    """``np.linalg.norm(v)`` (no axis) without its overhead: the same dot product and root."""
    v = np.asarray(v)
    if v.dtype.kind != "f":
        v = v.astype(float)
    v = v.ravel(order="K")
    return np.sqrt(v.dot(v))


def _any_near(points, anchors, k: float) -> bool:
    """``any(_norm(np.subtract(c, p)) < k * S for c in points for p, S in anchors)``: the pairs
    surely farther apart (a coordinate differing by more than that, with room for rounding) are
    left out by array first, the others measured as there."""
    if not len(points) or not anchors:
        return False
    pts = np.array([np.asarray(c, np.float64) for c in points]).reshape(-1, 2)
    ref = np.array([np.asarray(p, np.float64) for p, _S in anchors]).reshape(-1, 2)
    lim = np.array([k * S for _p, S in anchors], np.float64)
    maybe = np.abs(pts[:, None, :] - ref[None, :, :]).max(2) <= lim * (1 + 1e-6) + 1e-6
    return any(_norm(np.subtract(points[i], anchors[j][0])) < k * anchors[j][1]
               for i, j in zip(*np.nonzero(maybe)))


def check_image(image) -> np.ndarray:
    """Validate a frame: H×W×3 BGR uint8 (grey H×W and BGRA are converted,
    :func:`companion.vision.images.to_bgr`), at least 32 px on its short side.

    Raises:
        VisionError: not such an image, or too small.
    """
    from companion.vision.images import to_bgr

    image = to_bgr(image)
    if min(image.shape[:2]) < 32:
        raise VisionError(M("image too small: %(w)s×%(h)s px", w=image.shape[1], h=image.shape[0]))
    return image


# --------------------------------------------------------------------------- detection

def _order_quad(pts: np.ndarray) -> np.ndarray:
    """Order 4 corners TL, TR, BR, BL with TL→TR the short side (clockwise on screen)."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise on screen (y down)
    if _norm(pts[1] - pts[0]) > _norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def _whiteness_mask(small: np.ndarray) -> np.ndarray:
    b, g, r = cv2.split(small)
    w = cv2.min(cv2.min(b, g), r)
    w = cv2.GaussianBlur(w, (5, 5), 0)
    t, _ = cv2.threshold(w, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # a frame that is nearly all card (a rectified crop) makes Otsu split the face instead
    t = max(t, 60)
    # halfway between the table and Otsu's level: thin light borders (card backs) survive even
    # when bright faces pull Otsu's level up
    bg = _pct_u8(w, 10, numpy_lerp=True)
    t = bg + 0.55 * (t - bg) if t > bg else t
    mask = (w > t).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask


def _line_intersection(p1, d1, p2, d2):
    A = np.array([d1, -d2], np.float64).T
    if abs(np.linalg.det(A)) < 1e-6:
        return None
    t = np.linalg.solve(A, np.asarray(p2, np.float64) - np.asarray(p1, np.float64))
    return np.asarray(p1, np.float64) + t[0] * np.asarray(d1, np.float64)


#: How card paper is found: ``multi`` (the global brightness threshold, or local contrast on a
#: table as bright as paper, plus card-shaped closed edges and local-contrast blobs checked by
#: their index: :mod:`companion.vision.card_find`), ``white`` (the global threshold alone: the
#: classic pipeline, dark tables only), ``learned`` / ``union`` (the paper segmenter of
#: :mod:`companion.vision.card_paper`, alone or with ``white``). ``None``: ``learned`` when its
#: model is there, else ``multi``.
MASK_MODE: str | None = None


def _mode(mode: str | None) -> str:
    from companion.vision import card_paper

    return mode or MASK_MODE or ("learned" if card_paper.available() else "multi")


class _Bright(np.ndarray):
    """A paper mask made by local contrast on a table as bright as paper (it says so)."""
    bright = True

    def __new__(cls, a):
        return np.asarray(a).view(cls)


def paper_mask(small: np.ndarray, mode: str | None = None) -> np.ndarray:
    """The card-paper mask (uint8 0/255) of a working-scale frame ``small`` (see :data:`MASK_MODE`)."""
    from companion.vision import card_find, card_paper

    mode = _mode(mode)
    if mode == "white":
        return _whiteness_mask(small)
    if mode == "multi":
        m = _whiteness_mask(small)
        if card_find.bright_table(m):
            if card_find.BRIGHT_PRIMARY == "local":
                return _Bright(card_find.local_paper_mask(small))
            return np.zeros_like(m)  # the closed-edge and local-contrast cards only (verified)
        return m
    m = card_paper.shared().mask(small, (small.shape[1], small.shape[0]))
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if mode == "union":
        m |= _whiteness_mask(small)
    return m


def detect_cards(image: np.ndarray, paper: dict | None = None, mask_mode: str | None = None) -> list[CardFrame]:
    """Find every card (face up or down) in ``image`` (H×W×3 BGR uint8).

    Args:
        paper: if given, receives ``mask`` (the card-paper mask, h×w uint8 0/255 at working
            scale) and ``scale`` (working px per image px).
        mask_mode: how the paper mask is made (:data:`MASK_MODE`).

    Returns:
        Card frames in px of ``image``. Overlapping cards give one frame per visible corner
        hypothesis (deduplicated).

    Raises:
        VisionError: the image is not H×W×3 uint8 or is too small.
    """
    image = check_image(image)
    H, W = image.shape[:2]
    s = min(1.0, WORK_WIDTH / max(W, H))
    small = cv2.resize(image, (round(W * s), round(H * s)), interpolation=cv2.INTER_AREA) if s < 1 else image
    mask = primary = paper_mask(small, mask_mode)
    if paper is not None:
        paper.update(mask=mask, scale=s, bright=getattr(mask, "bright", False))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    sh, sw = mask.shape
    min_area = 0.0012 * sh * sw
    whole, partial_blobs, blobs = [], [], []
    slanted = []  # (quad, contour) of the blobs taken for whole cards seen at a slant
    skewed: dict[int, np.ndarray] = {}  # partial blob index → its askew quadrilateral
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area:
            continue
        rect = cv2.minAreaRect(c)
        (rw, rh) = rect[1]
        if min(rw, rh) < 12:
            continue
        blobs.append(c)
        fill = area / max(1.0, rw * rh)
        aspect = max(rw, rh) / min(rw, rh)
        quad = _perspective_quad(c, area, skewed=True)
        skew = None
        if isinstance(quad, tuple):
            skew, quad = quad[0], None
        if fill > 0.88 and 1.2 <= aspect <= 1.8:
            whole.append(_order_quad(cv2.boxPoints(rect)))
        elif quad is not None:
            whole.append(quad)
            slanted.append((quad, c))
        elif fill > 0.3:
            split = _split_touching(c, mask.shape)
            if split:
                whole.extend(split)
            elif (margin := _margin_card(c, mask)) is not None:
                whole.append(margin)
            else:
                partial_blobs.append(c)
                if skew is not None:
                    skewed[len(partial_blobs) - 1] = skew
        elif skew is not None:
            partial_blobs.append(c)
            skewed[len(partial_blobs) - 1] = skew
    # a "card at a slant" far smaller than the frame's rectangular whole cards is a card cut by
    # another card's edge (cards on one table are one size): read it from its corners
    upright = [cv2.contourArea(q) for q in whole if not any(q is t for t, _ in slanted)]
    if upright:
        a_ref = float(np.median(upright))
        for q, c in slanted:
            if cv2.contourArea(q) < CUT_AREA * a_ref:
                whole = [w for w in whole if w is not q]
                partial_blobs.append(c)
    frames = [CardFrame(q / s, True) for q in whole]
    if whole:
        sizes = np.array([sorted([_norm(q[1] - q[0]), _norm(q[3] - q[0])]) for q in whole])
        S_all, L_all = np.median(sizes[:, 0]), np.median(sizes[:, 1])
    else:
        S_all = L_all = None
    if partial_blobs:
        filled = np.zeros_like(mask)
        cv2.drawContours(filled, partial_blobs, -1, 255, -1)
        # a whole card lying on top of a partly hidden one counts as "card here" for the hidden
        # card's hypothesised frame (grown a little: dark rims and shadows at its edge)
        for q in whole:
            c = q.mean(0)
            cv2.fillConvexPoly(filled, np.round(c + (q - c) * 1.06).astype(np.int32), 255)
        mask = filled
    for k, c in enumerate(partial_blobs):
        hyps = _corner_hypotheses(c, mask, S_all, L_all)
        if not hyps and k in skewed:
            # no card corner explains it: read the quadrilateral as one card after all
            frames.append(CardFrame(skewed[k] / s, True))
        frames.extend(CardFrame(q / s, False, r) for q, r in hyps)
    frames = _dedupe(frames)
    frames = frames + _unexplained(blobs, frames, s, mask.shape, S_all, L_all)
    if _mode(mask_mode) != "white":
        from companion.vision import card_find
        # on a table as bright as paper the paper mask is the local-contrast mask already
        local = primary if getattr(primary, "bright", False) else card_find.local_paper_mask(small)
        cands = card_find.edge_quads(small, min_area) + card_find.mask_quads(local, min_area)
        known = [np.asarray(q, np.float32) * s for f in frames for q in [f.quad] + [v[0] for v in f.views]]
        frames += [CardFrame(_order_quad(q) / s, True, verify=True) for q in card_find.new_quads(cands, known)]
    return frames


#: A paper blob is reported as a card region (``card`` null, reason ``no_corner_visible``) when
#: no detected frame covers this fraction of it and the uncovered part is at least
#: :data:`REGION_MIN_CARD` of a card's area (a card seen, but none of its corners).
REGION_UNCOVERED = 0.5
REGION_MIN_CARD = 0.12
#: Paper left over by the frames is opened with a disc of this fraction of a card's short side
#: before it counts as an unexplained card region (a frame a few px off leaves a sliver).
REGION_SLIVER = 0.12
#: ... and must be at least this fraction of a card's short side wide (card-shaped, not a strip).
REGION_MIN_WIDTH = 0.5


def _unexplained(blobs, frames, s, shape, S_all, L_all) -> list[CardFrame]:
    """Card regions no frame explains: paper blobs (contours at working scale ``s``) that the
    frames found (px of the image) leave mostly uncovered. Each is returned as a partial frame
    with no readable corner (its minimum-area rectangle), so the reader reports it with
    ``card`` null instead of dropping a card it saw."""
    if not blobs:
        return []
    cover = np.zeros(shape, np.uint8)
    for f in frames:
        for q in [f.quad] + [v[0] for v in f.views]:
            cv2.fillConvexPoly(cover, np.round(np.asarray(q) * s).astype(np.int32), 255)
    card_area = S_all * L_all if S_all is not None else None
    out = []
    for c in blobs:
        m = np.zeros(shape, np.uint8)
        cv2.drawContours(m, [c], -1, 255, -1)
        area = int(np.count_nonzero(m))
        free = int(np.count_nonzero(m & ~cover))
        if free < REGION_UNCOVERED * area:
            continue
        if card_area is not None and free < REGION_MIN_CARD * card_area:
            continue
        q = _order_quad(cv2.boxPoints(cv2.minAreaRect(c)))
        out.append(CardFrame(q / s, False, ()))
    return out


#: A quadrilateral taken for a card at a slant is a cut card instead (its far side is another
#: card's edge) when its area is under this fraction of the median area of the frame's
#: rectangular whole cards: a camera above the table does not shrink a card that much.
CUT_AREA = 0.6
#: Largest angle (degrees) between opposite sides of a card seen at a slant.
MAX_SIDE_SKEW_DEG = 15.0
#: A blob whose convex hull is card-shaped is one card (its picture breaking up the paper) when
#: the paper margin runs along this fraction of the hull's outline.
MARGIN_RUN = 0.9


def _margin_card(contour, mask) -> np.ndarray | None:
    """One card whose picture reaches close to its edge, so its paper blob is ragged: the blob's
    convex hull has a card's shape, and the paper margin runs all along the hull's outline (two
    overlapping cards' hull crosses the table where one card's edge meets the other's). Returns
    the card quad or None."""
    hull = cv2.convexHull(contour)
    harea = cv2.contourArea(hull)
    if cv2.contourArea(contour) < 0.3 * harea:
        return None
    rect = cv2.minAreaRect(hull)
    (rw, rh) = rect[1]
    if min(rw, rh) < 12:
        return None
    aspect = max(rw, rh) / min(rw, rh)
    if harea / (rw * rh) > 0.9 and 1.2 <= aspect <= 1.8:
        q = _order_quad(cv2.boxPoints(rect))
    else:
        q = _perspective_quad(hull, harea)
        if q is None:
            return None
    # the outline, 2 px inside, sampled against the paper mask
    c = q.mean(0)
    d = np.linalg.norm(q - c, axis=1).mean()
    inner = c + (q - c) * max(0.5, 1 - 3.0 / max(d, 1.0))
    line = np.zeros_like(mask)
    cv2.polylines(line, [np.round(inner).astype(np.int32)], True, 255, 1)
    on = line > 0
    if np.count_nonzero(mask[on]) < MARGIN_RUN * np.count_nonzero(on):
        return None
    return q


def _perspective_quad(contour, area: float, skewed: bool = False):
    """A card seen at a slant: the blob is a convex quadrilateral (not a rectangle). Returns the
    4 corners (fitted by line intersection of the sides) or None. A quadrilateral whose
    opposite sides are too far from parallel (likely a card cut by another card's edge) is
    None, or with ``skewed`` a 1-tuple ``(quad,)``."""
    hull = cv2.convexHull(contour)
    if area < 0.93 * cv2.contourArea(hull):
        return None
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045):
        ap = cv2.approxPolyDP(hull, eps * peri, True)
        if len(ap) == 4:
            break
    else:
        return None
    q = ap.reshape(4, 2).astype(np.float32)
    if area < 0.9 * cv2.contourArea(q) or area > 1.1 * cv2.contourArea(q):
        return None
    q = _order_quad(q)
    s1 = (_norm(q[1] - q[0]) + _norm(q[2] - q[3])) / 2
    s2 = (_norm(q[3] - q[0]) + _norm(q[2] - q[1])) / 2
    if not 1.05 <= s2 / max(s1, 1.0) <= 2.2:
        return None
    # a camera above the table keeps a card's opposite sides nearly parallel; a card cut by
    # another card's edge is a quadrilateral too, with one side running askew
    for a, b in ((0, 2), (1, 3)):
        da, db = q[(a + 1) % 4] - q[a], q[b] - q[(b + 1) % 4]
        cos = float(da @ db) / (_norm(da) * _norm(db) + 1e-9)
        if cos < math.cos(math.radians(MAX_SIDE_SKEW_DEG)):
            return (q,) if skewed else None
    return q


def _split_touching(contour, shape) -> list[np.ndarray]:
    """Cards that merely touch (a tight layout, a shadow between them): erode the blob until it
    falls apart into card-shaped pieces, and grow each piece's rectangle back. Returns the
    card quads, or [] when the blob does not split that way (overlapping cards)."""
    x, y, w, h = cv2.boundingRect(contour)
    m = np.zeros((h + 4, w + 4), np.uint8)
    cv2.drawContours(m, [contour - [x - 2, y - 2]], -1, 255, -1)
    k = np.ones((3, 3), np.uint8)
    for it in (1, 2, 3, 4):
        e = cv2.erode(m, k, iterations=it)
        cs, _ = cv2.findContours(e, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cs = [c for c in cs if cv2.contourArea(c) > 0.05 * cv2.contourArea(contour)]
        if len(cs) < 2:
            continue
        quads = []
        for c in cs:
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
            fill = cv2.contourArea(c) / max(1.0, rw * rh)
            if fill < 0.88 or not 1.2 <= max(rw, rh) / max(1.0, min(rw, rh)) <= 1.8:
                return []
            rect = ((cx + x - 2, cy + y - 2), (rw + 2 * it, rh + 2 * it), ang)
            quads.append(_order_quad(cv2.boxPoints(rect)))
        return quads
    return []


def _blob_edges(contour):
    """The straight edges of a blob's outline (working px): ``(edges, lengths)`` with each edge
    an (a, b) pair of end points refitted to its contour points (rounded card corners left out),
    in outline order; empty when the outline has fewer than 4 vertices."""
    peri = cv2.arcLength(contour, True)
    pts = contour.reshape(-1, 2)
    approx = cv2.approxPolyDP(contour, 0.008 * peri, True).reshape(-1, 2)
    n = len(approx)
    if n < 4:
        return [], np.zeros(0)
    # each vertex's index on the outline (its last occurrence there, else 0)
    eq = (pts[None, :, 0] == approx[:, None, 0]) & (pts[None, :, 1] == approx[:, None, 1])
    vidx = np.where(eq.any(1), len(pts) - 1 - np.argmax(eq[:, ::-1], axis=1), 0).tolist()
    poly = approx.astype(np.float64)
    edges = []
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        i0, i1 = vidx[i], vidx[(i + 1) % n]
        seg = pts[i0:i1 + 1] if i1 >= i0 else np.concatenate([pts[i0:], pts[:i1 + 1]])
        m = len(seg)
        if m >= 10:
            # refit the edge to its contour points (without the ends, rounded card corners)
            core = seg[m // 6: m - m // 6].astype(np.float32)
            vx, vy, x0, y0 = cv2.fitLine(core, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            d = np.array([vx, vy], np.float64)
            if d @ (b - a) < 0:
                d = -d
            p0 = np.array([x0, y0], np.float64)
            a = p0 + ((a - p0) @ d) * d
            b = p0 + ((b - p0) @ d) * d
        edges.append((a, b))
    return edges, np.array([_norm(b - a) for a, b in edges])


def _corner_hypotheses(contour, mask, S_all, L_all):
    """Card frames hypothesised from the convex right-angle corners of a non-rectangular blob
    (edges from :func:`_blob_edges`), with the card size ``S_all`` × ``L_all`` (working px; the
    blob's own longest edge when None)."""
    edges, lengths = _blob_edges(contour)
    n = len(edges)
    if n < 4:
        return []
    L = L_all if L_all is not None else lengths.max()
    S = S_all if S_all is not None else L / DEFAULT_ASPECT
    long_idx = [i for i in range(n) if lengths[i] >= 0.22 * S]
    if len(long_idx) < 2:
        return []
    out = []
    corners_seen = []
    for k, i in enumerate(long_idx):
        j = long_idx[(k + 1) % len(long_idx)]
        gap = sum(lengths[m % n] for m in range(i + 1, j if j > i else j + n))
        if gap > 0.18 * S:
            continue
        a0, a1 = edges[i]
        b0, b1 = edges[j]
        da = (a1 - a0) / lengths[i]
        db = (b1 - b0) / lengths[j]
        if abs(float(da @ db)) > 0.3:
            continue
        cpt = _line_intersection(a0, da, b0, db)
        if cpt is None:
            continue
        inside = cv2.pointPolygonTest(contour.astype(np.float32), (float(cpt[0]), float(cpt[1])), True)
        if inside > 0.05 * S:  # a concave (re-entrant) corner lies inside the blob
            continue
        u_dir, v_dir = -da, db
        la, lb = _norm(a0 - cpt), _norm(b1 - cpt)
        corners_seen.append(cpt)
        options = []
        if la > 1.12 * S and lb <= 1.12 * S:
            options = [(v_dir, u_dir)]
        elif lb > 1.12 * S and la <= 1.12 * S:
            options = [(u_dir, v_dir)]
        else:
            options = [(u_dir, v_dir), (v_dir, u_dir)]
        for short_d, long_d in options:
            q = np.array([cpt, cpt + S * short_d, cpt + S * short_d + L * long_d, cpt + L * long_d],
                         np.float32)
            if _coverage(mask, q) < HYPOTHESIS_COVERAGE:
                continue
            out.append((q, cpt))
    result = []
    for q, cpt in out:
        seen = tuple(k for k in range(4) if _any_near([q[k]], [(c, S) for c in corners_seen], 0.08))
        result.append((_order_quad_keep(q), seen if seen else (0,)))
    # re-map seen corners after ordering
    fixed = []
    for (q_ord, perm), seen in result:
        fixed.append((q_ord, tuple(perm.index(k) for k in seen)))
    return fixed


def _order_quad_keep(q):
    """Order like :func:`_order_quad` and also return where each original corner went."""
    c = q.mean(0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    order = list(np.argsort(ang))
    if _norm(q[order[1]] - q[order[0]]) > _norm(q[order[2]] - q[order[1]]):
        order = order[1:] + order[:1]
    return q[order], [int(o) for o in order]


def _coverage(mask, quad) -> float:
    """The fraction of the quad's pixels that ``mask`` marks (0 for a quad leaving the mask);
    drawn and counted inside the quad's bounding box only (the same pixels)."""
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int)
    h, w = mask.shape
    if x0 < -3 or y0 < -3 or x1 > w + 3 or y1 > h + 3:
        return 0.0
    pts = np.round(quad).astype(np.int32)
    (bx0, by0), (bx1, by1) = np.maximum(pts.min(0) - 2, 0), np.minimum(pts.max(0) + 3, (w, h))
    if bx1 <= bx0 or by1 <= by0:
        return 0.0
    m = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
    cv2.fillConvexPoly(m, pts - (bx0, by0), 255)
    area = int(np.count_nonzero(m))
    if area == 0:
        return 0.0
    return float(np.count_nonzero(m & mask[by0:by1, bx0:bx1])) / area


def _dedupe(frames: list[CardFrame]) -> list[CardFrame]:
    """Drop partial hypotheses that duplicate another frame of the same card."""
    frames = sorted(frames, key=lambda f: (not f.complete, -len(f.readable)))
    centre = {id(f): f.center for f in frames}
    kept: list[CardFrame] = []
    for f in frames:
        S = f.size[0]
        dup = False
        for g in kept:
            if g.complete and not f.complete:
                # a card lying almost wholly under another has nearly the same centre; it is
                # the same card only if the corners actually seen are that card's corners
                same = all(np.linalg.norm(g.quad - f.quad[k], axis=1).min() < 0.25 * S
                           for k in f.readable)
                if same:
                    dup = True
                    break
                continue
            if _norm(np.subtract(centre[id(f)], centre[id(g)])) < 0.25 * S:
                if not f.complete and not g.complete:
                    g.views.append((f.quad, f.readable))
                dup = True
                break
        if not dup:
            kept.append(f)
    return kept


# --------------------------------------------------------------------------- rectification

def rectify(image: np.ndarray, quad: np.ndarray, width: int = rc.CARD_W, height: int = rc.CARD_H) -> np.ndarray:
    """Warp the card at ``quad`` (TL, TR, BR, BL) to an upright width×height BGR image."""
    dst = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32)
    M = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(image, M, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _sides_swapped(quad: np.ndarray, corner: int) -> np.ndarray:
    """The card frame with the same corner and the same two side directions as ``quad`` at
    ``corner``, but the short and long sides swapped (the card turned 90° about that corner and
    mirrored); its corner 0 is ``corner`` of ``quad``. 4×2 float32."""
    q = np.asarray(quad, np.float64)
    o = q[corner]
    nx = q[[1, 0, 3, 2][corner]]
    ny = q[[3, 2, 1, 0][corner]]
    S, L = _norm(nx - o), _norm(ny - o)
    du, dv = (nx - o) / max(S, 1e-9), (ny - o) / max(L, 1e-9)
    return np.array([o, o + S * dv, o + S * dv + L * du, o + L * du], np.float32)


#: The patches cut while :meth:`CardReader.read` reads one image (per thread): the learned and
#: the template read of a card cut the same corners (and ask the same picture test).
_PATCH_MEMO = threading.local()


#: Whether a card's learned read and the corner detector run on a second thread beside the
#: template read (the results are the same either way; a core of its own halves the wait).
PARALLEL = (os.cpu_count() or 1) > 1
_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="card-reader")


def _beside(fn, *args) -> Future:
    """``fn(*args)`` on the reader's worker thread, cutting patches into the calling thread's
    memo; run at once (a finished future) without :data:`PARALLEL` or on the worker itself."""
    image, patches = getattr(_PATCH_MEMO, "image", None), getattr(_PATCH_MEMO, "patches", None)

    def task():
        _PATCH_MEMO.image, _PATCH_MEMO.patches = image, patches
        try:
            return fn(*args)
        finally:
            _PATCH_MEMO.image = _PATCH_MEMO.patches = None

    if PARALLEL and not threading.current_thread().name.startswith("card-reader"):
        return _WORKER.submit(task)
    done: Future = Future()
    try:
        done.set_result(fn(*args))
    except Exception as e:  # raised again by .result(), as the worker's would be
        done.set_exception(e)
    return done


def corner_patch(image: np.ndarray, quad: np.ndarray, corner: int, grow: float = 1.0) -> np.ndarray:
    """:func:`_corner_patch`, remembered while :meth:`CardReader.read` reads ``image`` (the
    patch returned is shared: not to be modified)."""
    memo = getattr(_PATCH_MEMO, "patches", None)
    if memo is None or getattr(_PATCH_MEMO, "image", None) is not image:
        return _corner_patch(image, quad, corner, grow)
    key = (np.asarray(quad, np.float64).tobytes(), corner, grow)
    got = memo.get(key)
    if got is None:
        got = memo[key] = _corner_patch(image, quad, corner, grow)
    return got


_PATCH_DST = np.array([[0, 0], [PATCH_W, 0], [PATCH_W, PATCH_H], [0, PATCH_H]], np.float32)


def _corner_patch(image: np.ndarray, quad: np.ndarray, corner: int, grow: float = 1.0) -> np.ndarray:
    """The index patch at ``corner`` (0 TL, 1 TR, 2 BR, 3 BL) of the card at ``quad``, rotated
    and, for the mirrored corners, flipped so that a printed index reads upright. ``grow`` > 1
    widens the patch by that factor about its own centre (a hypothesised corner that is a few
    px off). Returns PATCH_H×PATCH_W×3 BGR uint8."""
    # in Python floats: the same double arithmetic as on numpy 2-vectors, without their overhead
    q = np.asarray(quad, np.float64).tolist()
    (ox, oy), (nx, ny), (mx, my) = q[corner], q[[1, 0, 3, 2][corner]], q[[3, 2, 1, 0][corner]]
    ax, ay, bx, by = nx - ox, ny - oy, mx - ox, my - oy  # to the neighbours along the short, long side
    ux, uy, vx, vy = ax * PATCH_FW, ay * PATCH_FW, bx * PATCH_FH, by * PATCH_FH
    # start a little outside the corner: a corner estimated a few px inside the card (an
    # overlapped card's hypothesised frame) must not cut the index at the patch border
    ox = ox - ax * PATCH_MARGIN - bx * PATCH_MARGIN * 0.7
    oy = oy - ay * PATCH_MARGIN - by * PATCH_MARGIN * 0.7
    if grow != 1.0:
        ox, oy = ox - (ux + vx) * (grow - 1) / 2, oy - (uy + vy) * (grow - 1) / 2
        ux, uy, vx, vy = ux * grow, uy * grow, vx * grow, vy * grow
    src = np.array([[ox, oy], [ox + ux, oy + uy], [ox + ux + vx, oy + uy + vy], [ox + vx, oy + vy]], np.float32)
    M = cv2.getPerspectiveTransform(src, _PATCH_DST)
    patch = cv2.warpPerspective(image, M, (PATCH_W, PATCH_H), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_REPLICATE)
    if ux * vy - uy * vx < 0:
        patch = cv2.flip(patch, 1)
    return patch


# --------------------------------------------------------------------------- templates

def _glyph_feature(mask: np.ndarray, blur: float = GLYPH_BLUR) -> np.ndarray:
    """Normalised feature of a binary glyph crop (uint8 0/255): blurred GLYPH_H×GLYPH_W,
    zero-mean, unit norm. Pips use a smaller ``blur`` (PIP_BLUR): ♠ and ♣ differ in detail."""
    size = (PIP_SIZE, PIP_SIZE) if blur == PIP_BLUR else (GLYPH_W, GLYPH_H)
    g = cv2.resize(mask, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    g = cv2.GaussianBlur(g, (0, 0), blur).ravel()
    g -= g.mean()
    n = _norm(g)
    return g / n if n > 0 else g


def _variants(mask: np.ndarray):
    yield mask
    k = np.ones((3, 3), np.uint8)
    big = cv2.resize(mask, (mask.shape[1] * 2, mask.shape[0] * 2))
    yield cv2.resize(cv2.dilate(big, k, iterations=2), mask.shape[::-1])
    yield cv2.resize(cv2.erode(big, k, iterations=2), mask.shape[::-1])


def _drawn_ones() -> list[np.ndarray]:
    """A lone "1" as index fonts draw it: a stem with a flag, with or without a foot, so that a
    "10" that lost its "0" is recognised as no rank."""
    out = []
    for w in (16, 22, 28):
        for thick in (5, 8):
            for foot in (False, True):
                m = np.zeros((52, w + 4), np.uint8)
                x = w // 2 + 2
                cv2.line(m, (x, 2), (x, 49), 255, thick)
                cv2.line(m, (x, 3), (2, 14), 255, max(3, thick - 2))
                if foot:
                    cv2.line(m, (x - w // 2 + 1, 49), (x + w // 2 - 1, 49), 255, max(3, thick - 2))
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return out


def _flat_top_threes() -> list[np.ndarray]:
    """The flat-topped "3" of many card indices (a bar, a diagonal, a round lower bowl), which
    system fonts draw round and which then looks more like a 5."""
    out = []
    for w in (28, 34):
        for thick in (4, 6):
            h = 48
            m = np.zeros((h + 4, w + 6), np.uint8)
            cv2.line(m, (3, 3), (w, 3), 255, thick)
            cv2.line(m, (w, 3), (w // 2, h // 2 - 4), 255, thick)
            cv2.ellipse(m, (w // 2 + 2, h * 2 // 3), (w // 2, h // 3 - 1), 0, -110, 150, 255, thick)
            ys, xs = np.nonzero(m)
            out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return out


def _continental_q() -> list[np.ndarray]:
    """Drawn variants of the Continental (Piatnik-style) "Q": a tall oval bowl with a diagonal
    tail that starts inside the bowl and leaves it below on the right, a form no system font
    has."""
    out = []
    for drop in (0.12, 0.2, 0.28):
        for thick in (3, 5):
            for start in (0.25, 0.4):
                h, w = 48, 30
                m = np.zeros((int(h * (1 + drop)) + 4, w + 8), np.uint8)
                cv2.ellipse(m, (w // 2 + 2, h // 2), (w // 2 - 1, h // 2 - 2), 0, 0, 360, 255, thick)
                cv2.line(m, (int(w * start) + 2, int(h * 0.68)), (int(w * 0.95) + 2, int(h * (1 + drop))),
                         255, thick)
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
                # the tail running out beyond the bowl on the right
                m = np.zeros((int(h * (1 + drop)) + 4, int(w * 1.5) + 8), np.uint8)
                cv2.ellipse(m, (w // 2 + 2, h // 2), (w // 2 - 1, h // 2 - 2), 0, 0, 360, 255, thick)
                cv2.line(m, (int(w * start) + 2, int(h * 0.72)), (int(w * 1.35) + 2, int(h * (1 + drop))),
                         255, thick)
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return out


def _barred_q() -> list[np.ndarray]:
    """More Continental "Q" forms: a tall oval crossed low down by a horizontal bar that leaves
    the bowl on the right and curls down below it (Piatnik-style four-index decks), and an oval
    with a long, flat tail crossing its bottom from the left (the serif "Q" of some index fonts).
    Both have a second, small counter under the bar or tail, which is why a plain font "Q"
    matches them poorly and an "8" competes."""
    out = []
    for thick in (3, 5):
        for wr in (0.55, 0.68):
            for bar in (0.66, 0.74):
                h = 48
                w = int(h * wr)
                m = np.zeros((int(h * 1.12) + 6, w + 14), np.uint8)
                cx = w // 2 + 3
                cv2.ellipse(m, (cx, h // 2 + 2), (w // 2, h // 2), 0, 0, 360, 255, thick)
                yb = int(h * bar) + 2
                cv2.line(m, (3, yb), (cx + w // 2, yb), 255, thick)
                # the tail: out of the bowl on the right, down and round below it
                cv2.ellipse(m, (cx + w // 2, yb + int(h * 0.12)), (int(w * 0.18) + 2, int(h * 0.12)),
                            0, -90, 90, 255, thick)
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
            for slope in (0.35, 0.55):
                h = 48
                w = int(h * wr)
                m = np.zeros((int(h * 1.15) + 6, int(w * 1.3) + 8), np.uint8)
                cx = w // 2 + 3
                cv2.ellipse(m, (cx, h // 2 + 2), (w // 2, h // 2), 0, 0, 360, 255, thick)
                x0, y0 = 3 + int(w * 0.05), int(h * 0.7)
                x1 = int(w * 1.25) + 3
                cv2.line(m, (x0, y0), (x1, min(m.shape[0] - 3, y0 + int((x1 - x0) * slope))), 255, thick + 1)
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return out


def _pipeline_pips():
    """Pips cut from rendered card corners by :func:`segment_index` itself at several card
    sizes and blurs, so the templates carry the same sampling and threshold effects as a
    camera read."""
    out = []
    for suit in rc.SUITS:
        face = rc.render_face("7" + suit)
        for height in (110, 150, 200, 280):
            for blur in (0.0, 0.8):
                k = height / rc.CARD_H
                img = cv2.resize(face, (round(rc.CARD_W * k), round(rc.CARD_H * k)), interpolation=cv2.INTER_AREA)
                if blur:
                    img = cv2.GaussianBlur(img, (0, 0), blur)
                h, w = img.shape[:2]
                q = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
                sg = segment_index(corner_patch(img, q, 0))
                if not isinstance(sg, str) and sg.pip is not None:
                    out.append((suit, sg.pip))
    return out


@functools.lru_cache(maxsize=None)
def _templates():
    """(features N×D, labels, aspects) for rank glyphs and suit pips."""
    feats, labels, aspects = [], [], []
    glyphs = set(NUMERALS) | {g for a in GLYPH_RANK.values() for g in a} | {"O"} | set(DECOYS)
    nfont = max(1, len(rc.font_paths()))
    for g in sorted(glyphs):
        for f in range(nfont):
            m = rc.text_mask(g, 48, f)
            for v in _variants(m):
                for sq in (1.0, 0.8):  # narrow index fonts
                    vv = cv2.resize(v, (max(1, int(v.shape[1] * sq)), v.shape[0])) if sq != 1 else v
                    feats.append(_glyph_feature(vv))
                    labels.append("g:" + g)
                    aspects.append(vv.shape[1] / vv.shape[0])
    for m in _drawn_ones():
        for v in _variants(m):
            feats.append(_glyph_feature(v))
            labels.append("g:1")
            aspects.append(v.shape[1] / v.shape[0])
    for m in _flat_top_threes():
        for v in _variants(m):
            feats.append(_glyph_feature(v))
            labels.append("g:3")
            aspects.append(v.shape[1] / v.shape[0])
    for m in _continental_q() + _barred_q():
        for v in _variants(m):
            feats.append(_glyph_feature(v))
            labels.append("g:Q")
            aspects.append(v.shape[1] / v.shape[0])
    for s, m in _pipeline_pips():
        feats.append(_glyph_feature(m, PIP_BLUR))
        labels.append("s:" + s)
        aspects.append(m.shape[1] / m.shape[0])
    for s in rc.SUITS:
        ms = [rc.pip_mask(s, 48)]
        sym = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[s]
        for f in range(nfont):
            ms.append(rc.text_mask(sym, 48, f))
        for m in ms:
            ys, xs = np.nonzero(m > 100)
            m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
            for v in (m,):
                for sq in (1.0, 0.85, 1.15):
                    vv = cv2.resize(v, (max(1, int(v.shape[1] * sq)), v.shape[0]))
                    feats.append(_glyph_feature(vv, PIP_BLUR))
                    labels.append("s:" + s)
                    aspects.append(vv.shape[1] / vv.shape[0])
    return feats, labels, aspects


@functools.lru_cache(maxsize=None)
def _label_rows() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Template features (N×D float32) and aspect ratios (N) per label."""
    feats, labels, aspects = _templates()
    out: dict[str, tuple[list, list]] = {}
    for f, lab, a in zip(feats, labels, aspects):
        out.setdefault(lab, ([], []))
        out[lab][0].append(f)
        out[lab][1].append(a)
    return {lab: (np.array(fs, np.float32), np.log(np.array(a, np.float32))) for lab, (fs, a) in out.items()}


@functools.lru_cache(maxsize=256)
def _label_block(want: tuple[str, ...]):
    """The templates of the labels ``want``: their matrices, their log aspects end to end, each
    label's first row there, and which labels are pips."""
    groups = _label_rows()
    mats = [groups[lab][0] for lab in want]
    tla = np.concatenate([groups[lab][1] for lab in want])
    starts = np.cumsum([0] + [len(m) for m in mats[:-1]])
    return mats, tla, starts, [lab.startswith("s:") for lab in want]


def _similarities(mask: np.ndarray, allowed) -> dict[str, float]:
    """Each allowed template label's best similarity to a glyph mask (in ``allowed``'s order):
    the correlation of the features less an aspect-ratio penalty, one matrix product per label
    (the same float32 sums as label by label), the rest for all labels at once."""
    groups = _label_rows()
    want = tuple(lab for lab in allowed if lab in groups)
    if not want:
        return {}
    mats, tla, starts, pip = _label_block(want)
    fp = _glyph_feature(mask, PIP_BLUR) if any(pip) else None
    fg = _glyph_feature(mask) if not all(pip) else None
    la = np.log(max(mask.shape[1] / mask.shape[0], 0.05))
    dots = np.concatenate([m @ (fp if p else fg) for m, p in zip(mats, pip)])
    # aspect ratio agreement (log-ratio penalty): glyph shapes are squeezed to a fixed size
    return dict(zip(want, np.maximum.reduceat(dots - 0.35 * np.abs(la - tla), starts).tolist()))


def _classify(mask: np.ndarray, allowed: set[str], classes: dict[str, str] | None = None,
              sims: dict[str, float] | None = None) -> tuple[str | None, float, float]:
    """Best allowed template label for a glyph mask: (label, similarity, margin to the best label
    of another class). ``classes`` maps labels to what they mean (Latin K and Cyrillic К are both
    the king), so look-alike glyphs of one class do not eat the margin. ``sims``: the mask's
    :func:`_similarities` for a set of labels holding ``allowed`` (not computed again). Equal
    similarities (Latin B and Cyrillic В drawn alike) go to the label first in sort order, whatever
    the order of ``allowed`` (a set's order changes with the process's hash seed)."""
    best = _similarities(mask, allowed) if sims is None else {lab: sims[lab] for lab in allowed if lab in sims}
    if not best:
        return None, 0.0, 0.0
    order = sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))  # a tie (B, В): the first label
    top, sim = order[0]
    cls = classes or {}
    others = [v for k, v in order[1:] if cls.get(k, k) != cls.get(top, top)]
    margin = sim - others[0] if others else sim
    return top, sim, margin


# --------------------------------------------------------------------------- OCR fallback

#: Minimum RapidOCR recognition score to accept its reading of a rank glyph.
OCR_MIN_SCORE = 0.9


def rapid_text(crop: np.ndarray) -> tuple[str, float]:
    """Read one text-line crop (H×W×3 BGR uint8) with the project's shared RapidOCR engine
    (:func:`companion.vision.ocr.shared_rapid`, models from the wheel, recogniser only):
    (text, score 0–1). An empty crop reads ``("", 0.0)``.

    Raises:
        VisionError: rapidocr or its bundled models are missing.
    """
    if crop.size == 0:
        return "", 0.0
    from companion.vision.ocr import shared_rapid
    line = shared_rapid().read_lines([crop], min_width=320)[0]
    return line.text.strip(), line.score


class _RapidRank:
    """A rank glyph crop (H×W×3 BGR uint8) read by the shared RapidOCR engine: the crop is
    padded (the recogniser wants some margin around a single glyph) and the text upper-cased.
    Returns (text, score 0–1)."""

    def __call__(self, crop: np.ndarray) -> tuple[str, float]:
        if crop.size == 0:
            return "", 0.0
        h = crop.shape[0]
        crop = cv2.copyMakeBorder(crop, h // 3, h // 3, h // 3, h // 3, cv2.BORDER_REPLICATE)
        text, score = rapid_text(crop)
        return text.upper(), score


# --------------------------------------------------------------------------- index reading

@dataclass
class IndexRead:
    """One corner's read: rank glyph → rank (``A``…``2``, or ``JK``), suit ``S H D C``."""
    rank: str | None
    suit: str | None
    confidence: float
    reason: str | None = None
    glyph: str | None = None
    rank_confidence: float = 0.0

    @property
    def code(self) -> str | None:
        if self.rank == "JK":
            return "JK"
        if self.rank and self.suit:
            return self.rank + self.suit
        return None


class IndexReader:
    """Reads the rank and suit printed in a card's corner index.

    Args:
        alphabet: ``en``, ``ru``, ``de`` or ``auto`` (all three; they never conflict: every glyph
            maps to one rank).
        deck_size: 52, 36 or 32 (restricts the ranks; RULINGS §3 uses 32, §4 the 36-card deck).
        joker: whether the deck has jokers.
        ocr: re-read weak rank glyphs with RapidOCR's recogniser (15–40 ms a glyph on 2 cores:
            for still images, not the video path).

    Raises:
        ValueError: an unknown alphabet or deck size.
    """

    def __init__(self, alphabet: str = "auto", deck_size: int = 52, joker: bool = True,
                 ocr: bool = False) -> None:
        if alphabet != "auto" and alphabet not in GLYPH_RANK:
            raise ValueError(f"unknown index alphabet {alphabet!r} (en, ru, de or auto)")
        if deck_size not in DECK_RANKS:
            raise ValueError(f"unknown deck size {deck_size} (52, 36 or 32)")
        self.alphabet, self.deck_size, self.joker = alphabet, deck_size, joker
        alphs = GLYPH_RANK.values() if alphabet == "auto" else [GLYPH_RANK[alphabet]]
        # every glyph of the alphabet is matched, so a card outside the deck (a 2 in a 32-card
        # deck) is recognised as such and refused, not forced onto the nearest allowed rank
        self.glyph_rank = {g: r for a in alphs for g, r in a.items()}
        for n in NUMERALS:
            self.glyph_rank[n] = n
        self.deck_ranks = DECK_RANKS[deck_size]
        self.rank_labels = {"g:" + g for g in self.glyph_rank} | {"g:" + d for d in DECOYS}
        self.rank_class = {"g:" + g: r for g, r in self.glyph_rank.items()} | {"g:" + d: d for d in DECOYS}
        # "1"+"0" as separate components: "0" alone is matched against "O"
        self.suit_labels = {"s:" + s for s in rc.SUITS}
        self.ocr = _RapidRank() if ocr else None

    def read_patch(self, patch: np.ndarray) -> IndexRead:
        """Read an upright index patch (PATCH_H×PATCH_W×3 BGR, from :func:`corner_patch`).

        When the top ink is a lone decoy digit (a "10" whose other digit runs into a big corner
        pip and was dropped with it), the patch is segmented again with broad filled shapes
        stripped (see :func:`segment_index`); that read is taken only if it is a sure card."""
        r = self._read_patch(patch, False)
        if (r.reason == "not_an_index" and r.glyph in DECOYS) or r.reason == "no_pip":
            for mode in (True, "close"):
                r2 = self._read_patch(patch, mode)
                if r2.code and r2.confidence >= MIN_CONFIDENCE:
                    return r2
        return r

    def _read_patch(self, patch: np.ndarray, strip_blobs: bool) -> IndexRead:
        sg = segment_index(patch, strip_blobs)
        if isinstance(sg, str):
            return IndexRead(None, None, 0.0, sg)
        group, gmask, pmask, red = sg.group, sg.glyph, sg.pip, sg.red
        # "10" is the only two-glyph index: the component count decides it (font independent)
        # (a "10" whose digits touch is one component: then every glyph competes)
        ten = len(group) == 2 and sg.ring
        labels = ({"g:10"} & self.rank_labels) if ten else self.rank_labels
        if not labels:
            return IndexRead(None, None, 0.0, "no_rank")
        rank_sims = _similarities(gmask, labels)
        rank_lab, rsim, rmargin = _classify(gmask, labels, self.rank_class, rank_sims)
        if self.alphabet == "auto" and rank_lab and rank_lab[2:] in _FOREIGN_GLYPHS:
            # auto alphabet: a Russian/German letter must clearly beat every English one, since
            # unusual English glyphs (the Continental Q) resemble them
            en = {"g:" + g for g in GLYPH_RANK["en"]} & labels
            _, en_sim, _ = _classify(gmask, en, self.rank_class, rank_sims)
            rmargin = min(rmargin, rsim - en_sim - AUTO_MARGIN + MIN_RANK_MARGIN)
        if rank_lab and not _holes_agree(rank_lab[2:], gmask):
            rsim, rmargin = min(rsim, MIN_RANK_SIM - 0.1), 0.0
        if ten:
            left, right = sorted(group, key=lambda c: c[1])
            if left[3] < 0.75 * right[3]:  # a narrow "1" then a round "0"
                rsim = max(rsim, MIN_RANK_SIM + 0.2)
                rmargin = max(rmargin, MIN_RANK_MARGIN + 0.1)
        if self.ocr is not None and _conf(rsim, rmargin, MIN_RANK_SIM, MIN_RANK_MARGIN) < MIN_CONFIDENCE:
            gx0, gy0, gx1, gy1 = sg.glyph_box
            pad = max(2, (gy1 - gy0) // 4)
            crop = patch[max(0, gy0 - pad):gy1 + pad, max(0, gx0 - pad):gx1 + pad]
            text, score = self.ocr(crop)
            text = {"0": "Q", "O": "Q", "1": "", "I": ""}.get(text, text)
            if ("g:" + text) in labels and score >= OCR_MIN_SCORE:
                rank_lab, rsim, rmargin = "g:" + text, max(rsim, MIN_RANK_SIM + 0.25), 0.2
        if pmask is None:
            return IndexRead(None, None, 0.0, "no_pip", rank_lab[2:] if rank_lab else None,
                             _conf(rsim, rmargin, MIN_RANK_SIM, MIN_RANK_MARGIN))
        if sg.stacked >= 2:
            if self.joker and rank_lab in ("g:J", "g:1"):
                # a column of letters headed by a J (a small J loses its hook and looks like a 1)
                conf = _conf(rsim, rmargin, MIN_RANK_SIM, MIN_RANK_MARGIN)
                return IndexRead("JK", None, conf, None, "JOKER", conf)
            return IndexRead(None, None, 0.0, "not_an_index", rank_lab)
        suit_sims = _similarities(pmask, self.suit_labels)
        suit_lab, ssim, smargin = _classify(pmask, self.suit_labels, None, suit_sims)
        is_red = red > RED_SPLIT
        colour_conf = min(1.0, abs(red - RED_SPLIT) / RED_SCALE)
        suit = suit_lab[2:] if suit_lab else None
        if suit and (suit in rc.RED_SUITS) != is_red:
            # shape and colour disagree: take the best suit of the measured colour
            allowed = {"s:H", "s:D"} if is_red else {"s:S", "s:C"}
            suit_lab, ssim, smargin = _classify(pmask, allowed, None, suit_sims)
            suit = suit_lab[2:]
            smargin = min(smargin, MIN_SUIT_MARGIN)
        else:
            allowed = {"s:H", "s:D"} if is_red else {"s:S", "s:C"}
            _, _, smargin = _classify(pmask, allowed, None, suit_sims)
        glyph = rank_lab[2:] if rank_lab else None
        rank = self.glyph_rank.get(glyph) if glyph else None
        conf_rank = _conf(rsim, rmargin, MIN_RANK_SIM, MIN_RANK_MARGIN)
        conf_suit = _conf(ssim, smargin, MIN_SUIT_SIM, MIN_SUIT_MARGIN) * colour_conf
        conf = min(conf_rank, conf_suit)
        if glyph in DECOYS:
            return IndexRead(None, None, 0.0, "not_an_index", glyph)
        if rank is not None and rank not in self.deck_ranks and conf >= MIN_CONFIDENCE:
            return IndexRead(None, None, 0.0, "not_in_deck", glyph)
        return IndexRead(rank, suit, conf, None if conf >= MIN_CONFIDENCE else "weak_index", glyph,
                         conf_rank)


#: Glyphs with two stacked bowls, and glyphs with one bowl (RULINGS alphabets and numerals).
_TWO_BOWLS = {"B", "В", "8"}
_ONE_BOWL = {"D", "Д", "Q", "A", "0", "9", "6", "4"}


def _holes_agree(glyph: str, mask: np.ndarray) -> bool:
    """Shape check of a template match: a glyph with one bowl taller than 60 % of the glyph
    cannot be B/В/8, one with two mid-size bowls (each 25–55 % tall) cannot be a one-bowl glyph,
    and a 4 needs its crossbar."""
    m = (mask > 100).astype(np.uint8)
    h = m.shape[0]
    if h < 8:
        return True
    cs, hier = cv2.findContours(m, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return True
    holes = [cv2.boundingRect(c)[3] / h for c, hh in zip(cs, hier[0]) if hh[3] >= 0]
    if glyph in _TWO_BOWLS and any(x > 0.6 for x in holes):
        return False
    if glyph in _ONE_BOWL and sum(1 for x in holes if x >= 0.25) >= 2 and not any(x > 0.55 for x in holes):
        return False  # two mid-size bowls, B-like (a Q whose tail loops keeps its tall bowl)
    if glyph == "4":
        # a 4 has its crossbar across most of its width between 55 % and 85 % of its height
        band = m[int(h * 0.55):int(h * 0.85)]
        widths = [np.ptp(np.nonzero(r)[0]) + 1 for r in band if r.any()]
        if not widths or max(widths) < 0.7 * m.shape[1]:
            return False
    return True


def _conf(sim: float, margin: float, min_sim: float, min_margin: float) -> float:
    """Map a template similarity and margin to 0–1 (0.5 exactly at both minimums)."""
    a = 0.5 + (sim - min_sim) / (2 * (1 - min_sim))
    b = 0.5 + (margin - min_margin) / (4 * min_margin + 1e-6)
    return float(max(0.0, min(1.0, a, b)))


# --------------------------------------------------------------------------- the reader

class CardReader:
    """Finds and reads every card in a frame.

    Args:
        deck: ``standard`` (52 cards + joker), ``standard36``, ``standard32``, or a
            :class:`companion.vision.decks.DeckProfile` (learned deck).
        alphabet: corner-index alphabet: ``en``, ``ru``, ``de`` or ``auto``.
        ocr: let RapidOCR re-read weak rank glyphs (slower; for still images).
        learned: read indices with the learned classifier (:mod:`companion.vision.learned_read`);
            None: when its model is there. False: the glyph templates alone.
        cross_check: with ``learned``, the templates must not read another card at the corners
            that read the card.
        mask_mode: how card paper is found (:data:`MASK_MODE`).
        combine: with ``learned``, also read with the templates and combine the two answers
            (:func:`companion.vision.learned_read.combine`); False: the learned read alone.
        calibrated: report only cards whose calibrated probability reaches the calibration's
            line (:mod:`companion.vision.card_calib`); None: :data:`CALIBRATED`.
        models: a folder holding another ``card_index.onnx`` (+ ``.json``) and
            ``card_calib.json`` (and ``card_corners.onnx``; each only if there) to use instead of
            the committed models (to measure a retrained
            model against them in one run: ``bench/cards.py --models``); None: the committed ones.
        corners: also find cards by their index corners with the learned corner detector
            (:mod:`companion.vision.card_corners`; standard decks); None: when its model is there.
    """

    def __init__(self, deck="standard", alphabet: str = "auto", ocr: bool = False,
                 learned: bool | None = None, cross_check: bool = False, mask_mode: str | None = None,
                 combine: bool = True, calibrated: bool | None = None, models: str | Path | None = None,
                 corners: bool | None = None) -> None:
        from companion.vision import card_calib, card_corners, card_index

        #: the index classifier and calibration of another model folder (``models``: its
        #: card_index.onnx/.json and card_calib.json), else the committed ones
        alt_index = Path(models) / "card_index.onnx" if models else None
        self.index_net = card_index.IndexNet(alt_index) if alt_index is not None and alt_index.is_file() else None
        self.calibrator = card_calib.load(Path(models) / "card_calib.json") if models else None
        self.learned = (card_index.available() or self.index_net is not None) if learned is None else learned
        #: the learned index-corner detector (:mod:`companion.vision.card_corners`) as one more way
        #: of finding cards (standard decks, with the learned classifier); its model from ``models``
        #: when that folder has one
        alt = Path(models) / "card_corners.onnx" if models else None
        self.corner_net = card_corners.CornerNet(alt) if alt is not None and alt.is_file() else None
        self.corners = (self.corner_net is not None or card_corners.available()) if corners is None else corners
        self.cross_check = cross_check
        self.combine = combine
        self.mask_mode = mask_mode
        self.profile = None
        size = 52
        if isinstance(deck, str):
            sizes = {"standard": 52, "standard52": 52, "standard36": 36, "standard32": 32}
            if deck not in sizes:
                raise ValueError(f"unknown standard deck {deck!r} ({', '.join(sizes)})")
            size = sizes[deck]
        else:
            self.profile = deck
            size = getattr(deck, "deck_size", 52) or 52
            alphabet = getattr(deck, "alphabet", alphabet) or alphabet
        self.index = IndexReader(alphabet, size, joker=True, ocr=ocr)
        #: calibrated confidence and line (:mod:`companion.vision.card_calib`), and the suit-colour
        #: veto; tools/calibrate_cards.py turns both off to collect the uncalibrated reads
        self.calibrate = CALIBRATED if calibrated is None else calibrated
        self.colour_veto = True
        #: a template read vetoed only by a sure learned corner is left to the calibration
        #: (see :func:`companion.vision.learned_read.combine`)
        self.contest = True
        #: the template-alone floor (:data:`companion.vision.learned_read.CLASSIC_ALONE_MIN`)
        from companion.vision.learned_read import CLASSIC_ALONE_MIN, CLASSIC_SURE
        self.classic_alone_min = CLASSIC_ALONE_MIN
        #: the eighth pass's rule on weak template-only reads (:data:`companion.vision.learned_read.CLASSIC_SURE`)
        self.classic_sure = CLASSIC_SURE
        self.collect = False
        self._auto: IndexReader | None = None  # the cross-check of look-alike partial reads

    def read(self, image: np.ndarray) -> list[CardRead]:
        """Read every card in ``image`` (H×W×3 BGR uint8), ordered left to right.

        When no card outline is found and the image itself has a card's proportions, the image
        is read as one rectified card (a scan or crop).

        Raises:
            VisionError: unusable image.
        """
        image = check_image(image)
        _PATCH_MEMO.image, _PATCH_MEMO.patches = image, {}
        try:
            return self._read(image)
        finally:
            _PATCH_MEMO.image = _PATCH_MEMO.patches = None

    def _read(self, image: np.ndarray) -> list[CardRead]:
        paper: dict = {}
        detected = None
        if self.corners and self.learned and self.profile is None:
            from companion.vision import card_corners
            detected = _beside((self.corner_net or card_corners.shared()).detect, image)
        frames = detect_cards(image, paper, self.mask_mode)
        H, W = image.shape[:2]
        sure = [f for f in frames if not f.verify]
        if not sure or (len(sure) == 1 and sure[0].box[2] * sure[0].box[3] > 0.8 * W * H):
            asp = max(H, W) / min(H, W)
            if 1.25 <= asp <= 1.75:
                q = np.array([[0, 0], [W - 1, 0], [W - 1, H - 1], [0, H - 1]], np.float32)
                if W > H:
                    q = q[[1, 2, 3, 0]]
                frames = [CardFrame(q, True)]
        # whole cards and the best-seen hypotheses first: a hypothesis sharing an observed corner
        # with a card already read is that card's (see _explained_nulls_dropped) and is not
        # re-read harder (wider and sides-swapped patches) when its first read is unsure
        order = sorted(range(len(frames)), key=lambda i: (not frames[i].complete,
                                                          -len(frames[i].readable)))
        done: dict[int, CardRead] = {}
        named_corners: list = []
        ahead: dict = {}
        if self.learned and self.combine and self.profile is None:
            from companion.vision.learned_read import read_frame_learned
            # a whole card's learned read does not depend on the cards read before it (it is
            # read all round): all queued on the worker at once, which then never waits
            ahead = {i: _beside(read_frame_learned, self, image, frames[i], True) for i in order if frames[i].complete}
        for i in order:
            f = frames[i]
            corners = [q[k] for q, ks in _frame_quads(f) for k in ks] if not f.complete else []
            explained = _any_near(corners, named_corners, SHARED_CORNER)
            r = done[i] = self.read_frame(image, f, retry=not explained, started=ahead.get(i))
            if r.card is not None or f.complete:
                named_corners += [(q[k], min(f.size)) for q, ks in _frame_quads(f) for k in ks]
        # a frame only the extra cues found counts only when it reads as a card
        reads = _merge_same_card([done[i] for i in range(len(frames))
                                  if not (frames[i].verify and done[i].card is None)])
        if "mask" in paper:
            reads = _explained_nulls_dropped(reads, paper["mask"], paper["scale"])
            reads = [self._read_region(image, r) if r.reason == "no_corner_visible" else r
                     for r in reads]
            if paper.get("bright"):
                # a table as bright as paper: local contrast also marks pieces of the table, so
                # unread paper is reported only with some sign of a card (a card's whole
                # outline, or a corner that shows an index, read or not)
                reads = [r for r in reads if r.card or r.frame.complete or r.reason not in NO_SIGN_REASONS]
        if detected is not None:
            from companion.vision.card_corners import add_corner_reads
            reads = _merge_same_card(add_corner_reads(self, image, reads, corners=detected.result()))
        reads.sort(key=lambda r: r.frame.center[0])
        return reads

    def _read_region(self, image: np.ndarray, region: CardRead) -> CardRead:
        """A card region with no corner found (``no_corner_visible``) whose paper spans a card's
        shape — a face card whose picture broke its paper into islands, so its outline was never
        one blob — is read as a whole card from its minimum-area rectangle; kept as the region
        unless that read is sure."""
        w, h = region.frame.size
        if not 1.2 <= max(w, h) / max(1.0, min(w, h)) <= 1.8:
            return region
        q = region.frame.quad
        if w > h:  # TL→TR must be the short side
            q = q[[1, 2, 3, 0]]
        got = self.read_frame(image, CardFrame(np.asarray(q, np.float32), True))
        if got.card is None or got.confidence < MIN_CONFIDENCE:
            return region
        return got

    def read_frame(self, image: np.ndarray, frame: CardFrame, retry: bool = True,
                   started: Future | None = None) -> CardRead:
        """Read one detected card (see :meth:`read`). ``retry``: read the seen corners of a
        partly hidden card again through wider and sides-swapped patches when no first read
        is sure. ``started``: its learned read (with the same ``retry``), already started."""
        box = frame.box
        if self.profile is not None and frame.complete:
            label, conf, face_up = self.profile.match(rectify(image, frame.quad))
            if label is not None and conf >= MIN_CONFIDENCE:
                return CardRead(label, box, conf, None, frame, face_up)
            if face_up is False or (label is None and is_back(rectify(image, frame.quad, 84, 118))
                                    and "back" in self.profile.feature_labels):
                return CardRead(None, box, conf, "face_down", frame, False)
            if self.profile.kind != "standard":
                return CardRead(None, box, conf, "no_profile_match", frame, None)
        if self.learned:
            from companion.vision.learned_read import combine, read_frame_learned
            if not self.combine:
                return read_frame_learned(self, image, frame, retry)
            beside = started if started is not None else _beside(read_frame_learned, self, image, frame, retry)
            classic = self._read_frame_classic(image, frame, retry)
            learned = beside.result()
            std = self.profile is None
            return self._calibrated(classic, learned, combine(
                classic, learned, self.contest and std, self.classic_alone_min if std else 0.0,
                self.classic_sure if std else 0.0))
        return self._read_frame_classic(image, frame, retry)

    def _calibrated(self, classic: CardRead, learned: CardRead, read: CardRead) -> CardRead:
        """A named card of the combined reader with its calibrated confidence
        (:mod:`companion.vision.card_calib`): vetoed when its pip's measured colour surely
        contradicts its suit (``suit_colour_mismatch``), reported unsure (``weak_index``, with its
        box) below the calibration's line. The facts stay in ``detail["calib"]``."""
        from companion.vision import card_calib

        if read.card is None or self.profile is not None:
            return read
        x = card_calib.features(classic, learned, read)
        detail = {**read.detail, "calib": x}
        if x[card_calib.FEATURES.index("colour")] <= card_calib.COLOUR_VETO and self.colour_veto:
            return CardRead(None, read.box, 0.0, "suit_colour_mismatch", read.frame, True,
                            {**detail, "corners": [read.card]})
        cal = (self.calibrator or card_calib.shared()) if self.calibrate else None
        contested = read.detail.get("contested")
        if contested and not self.collect and (cal is None or not cal.contest):
            return CardRead(None, read.box, 0.0, "corners_disagree", read.frame, True,
                            {**detail, "classic": read.card, "learned": contested})
        if cal is None:
            return CardRead(read.card, read.box, read.confidence, None, read.frame, read.face_up, detail)
        p = cal.probability(x)
        if p < cal.line:
            return CardRead(None, read.box, p, "weak_index", read.frame, True,
                            {**detail, "corners": [read.card], "unsure": read.card})
        return CardRead(read.card, read.box, p, None, read.frame, read.face_up, detail)

    def _read_frame_classic(self, image: np.ndarray, frame: CardFrame, retry: bool = True) -> CardRead:
        """The glyph-template read of one card (the classic pipeline's decision)."""
        box = frame.box
        if frame.complete:
            # the two index corners of a standard card first; the other two (four-index decks,
            # or the card's short side taken for its long one) only when those do not settle it
            reads = [self.index.read_patch(corner_patch(image, frame.quad, k)) for k in (0, 2)]
            codes = {r.code for r in reads if r.code and r.confidence >= MIN_CONFIDENCE}
            if len(codes) != 1:
                reads += [self.index.read_patch(corner_patch(image, frame.quad, k)) for k in (1, 3)]
        else:
            reads = [self.index.read_patch(corner_patch(image, q, k))
                     for q, ks in [(frame.quad, frame.readable)] + frame.views for k in ks]
            if retry and reads and not any(r.code and r.confidence >= MIN_CONFIDENCE for r in reads):
                # a hypothesised corner can be a few px off and cut the index at the patch
                # border: read the seen corners again through a wider patch
                reads += [self.index.read_patch(corner_patch(image, q, k, PARTIAL_GROW))
                          for q, ks in [(frame.quad, frame.readable)] + frame.views for k in ks]
            if retry and reads and not any(r.code and r.confidence >= MIN_CONFIDENCE for r in reads):
                # a corner hypothesis can take the card's long side for its short one (only
                # the corner and short stubs of both sides seen): the index is then read
                # sideways; read each seen corner with the sides swapped too
                for g in (1.0, PARTIAL_GROW):
                    reads += [self.index.read_patch(corner_patch(image, _sides_swapped(q, k), 0, g))
                              for q, ks in [(frame.quad, frame.readable)] + frame.views for k in ks]
                    if any(r.code and r.confidence >= MIN_CONFIDENCE for r in reads):
                        break
            if not reads:
                # card paper seen (a card mostly hidden, or cut) but none of its corners
                return CardRead(None, box, 0.0, "no_corner_visible", frame, None)
        good = [r for r in reads if r.code and r.confidence >= MIN_CONFIDENCE]
        if not good and frame.complete:
            # corner vote: two or more different corners of one card reading the same code,
            # each nearly sure and none of them reading another code, settle it
            if len(reads) < 4 and any(r.code and r.confidence >= VOTE_CONFIDENCE for r in reads):
                reads += [self.index.read_patch(corner_patch(image, frame.quad, k)) for k in (1, 3)]
            near = [r for r in reads if r.code and r.confidence >= VOTE_CONFIDENCE]
            if len(near) >= 2 and len({r.code for r in near}) == 1:
                good = near
        if not good:
            best = max(reads, key=lambda r: r.confidence)
            if (frame.complete and all(r.reason in ("no_index", "no_paper") for r in reads)
                    and is_back(rectify(image, frame.quad, 84, 118))):
                return CardRead(None, box, 0.0, "face_down", frame, False)
            return CardRead(None, box, best.confidence, best.reason or "unreadable", frame,
                            None, {"corners": [r.code for r in reads]})
        codes = {r.code for r in good}
        # another corner showing a different rank glyph, even one too weak to report, is doubt
        ranks = {self.index.glyph_rank.get(r.glyph) for r in reads
                 if r.glyph and r.reason in DISSENT_REASONS and r.rank_confidence >= DISSENT_CONFIDENCE}
        ranks.discard(None)
        if len(codes) > 1 or len(ranks) > 1:
            return CardRead(None, box, 0.0, "corners_disagree", frame, True,
                            {"corners": sorted(codes), "ranks": sorted(ranks)})
        conf = max(r.confidence for r in good)
        # agreement of two corners raises confidence
        if len(good) > 1:
            conf = max(MIN_CONFIDENCE, min(1.0, conf + 0.1))
        rank = good[0].rank
        if frame.complete and rank in NUMBERED_RANKS and centre_is_picture(image, frame.quad):
            # a numbered rank shows pips; a picture means the index was misread (a German "B"
            # matched as "8" under the English alphabet): refuse whatever the alphabet says
            return CardRead(None, box, 0.0, "rank_picture_mismatch", frame, True,
                            {"corners": sorted(codes)})
        if not frame.complete and rank in LOOKALIKE_RANKS and self.index.alphabet != "auto":
            # only a corner seen: no centre to check. The glyph must read the same with every
            # alphabet allowed, else the deck setting alone decided it (8 vs B/В)
            if self._auto is None:
                self._auto = IndexReader("auto", self.index.deck_size, self.index.joker)
            alt = [self._auto.read_patch(corner_patch(image, q, k))
                   for q, ks in [(frame.quad, frame.readable)] + frame.views for k in ks]
            if not any(a.code == good[0].code and a.confidence >= MIN_CONFIDENCE for a in alt):
                return CardRead(None, box, 0.0, "alphabet_lookalike", frame, True,
                                {"corners": sorted(codes), "auto": sorted({a.code for a in alt if a.code})})
        return CardRead(good[0].code, box, conf, None, frame, True,
                        {"glyph": good[0].glyph, "corners": len(good)})


#: An observed corner of an unread partial frame within this fraction of a card's short side of
#: an observed corner of a read (or whole) card is that card's corner: the frame is another
#: hypothesis of that card (one corner point belongs to one card).
SHARED_CORNER = 0.1


def _frame_quads(f: CardFrame):
    """A frame's quads with the corners observed on each: ``[(quad, corners), …]``."""
    return [(f.quad, f.readable)] + [(np.asarray(q), ks) for q, ks in f.views]


def _explained_nulls_dropped(reads: list[CardRead], mask: np.ndarray, s: float) -> list[CardRead]:
    """Keep an unread partial frame (``card`` null, not a whole outline) only when it stands for a
    card that nothing else explains.

    A partly hidden card gives several corner hypotheses, and a card's picture can break its
    paper into islands that give more; reported as they are, one real card shows up as many
    "unknown card" entries. An unread partial frame is dropped when an observed corner of it is
    an observed corner of a read card or of a whole card (:data:`SHARED_CORNER`), or when the
    card paper inside it that no read card, whole card or already kept region covers is under
    :data:`REGION_MIN_CARD` of a card's area (the largest read or whole card's frame; else the
    largest frame). Frames with more observed corners are kept first, so the overlapping
    hypotheses of one hidden card come out as one entry; regions with no corner at all
    (``no_corner_visible``) come last.

    Args:
        reads: the reader's answers; ``mask``: the card-paper mask (h×w uint8) at working
            scale ``s`` (working px per image px).

    Returns:
        ``reads`` without the explained entries (order kept).
    """
    if not reads or all(r.frame.complete for r in reads):
        return reads
    nulls = [r for r in reads if r.card is None and not r.frame.complete]
    anchors = [r for r in reads if r.card is not None or r.frame.complete]
    cover = np.zeros(mask.shape, np.uint8)

    def fill(f: CardFrame, grow: float = 1.0):
        for q, _ks in _frame_quads(f):
            q = np.asarray(q, np.float32) * s
            c = q.mean(0)
            cv2.fillConvexPoly(cover, np.round(c + (q - c) * grow).astype(np.int32), 255)

    for a in anchors:
        fill(a.frame, 1.06)  # dark rims and shadows at a card's edge
    frames = [r.frame for r in anchors] or [r.frame for r in reads]
    card_area = max(cv2.contourArea(np.float32(f.quad)) for f in frames) * s * s
    seen = [(q[k], min(anchor_f.size)) for anchor_f in (r.frame for r in anchors)
            for q, ks in _frame_quads(anchor_f) for k in ks]
    order = sorted(nulls, key=lambda r: (-sum(len(ks) for _q, ks in _frame_quads(r.frame)),
                                         -r.confidence))
    dropped = set()
    kept_nulls: list[CardFrame] = []
    for r in order:
        corners = [q[k] for q, ks in _frame_quads(r.frame) for k in ks]
        if _any_near(corners, seen, SHARED_CORNER):
            dropped.add(id(r))
            continue
        free = _free_paper(r.frame, mask, cover, s)
        if free < REGION_MIN_CARD * card_area:
            dropped.add(id(r))
            continue
        fill(r.frame)
        kept_nulls.append(r.frame)
    out = [r for r in reads if id(r) not in dropped]
    # card paper that no kept frame explains (a card cut by the image border, or whose corners
    # all lie under other cards): one region per connected paper area, slivers along the
    # frames' edges (a hypothesised frame a few px off) opened away first
    S = min(min(f.size) for f in frames) * s
    k = max(3, int(REGION_SLIVER * S) | 1)
    left = cv2.morphologyEx(mask & ~cover, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if cv2.countNonZero(left) >= REGION_MIN_CARD * card_area:
        # pieces of one card's paper (its picture breaks it up) join into one region
        joined = cv2.dilate(left, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        # paper running on from an unread card's frame is more of that card (its frame is a
        # guess of where the card lies): it is reported already
        unread = np.zeros(mask.shape, np.uint8)
        for f in kept_nulls:
            for q, _ks in _frame_quads(f):
                cv2.fillConvexPoly(unread, np.round(np.asarray(q, np.float32) * s).astype(np.int32), 255)
        unread = cv2.dilate(unread, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
        n, lab, stats, _ = cv2.connectedComponentsWithStats(joined)
        # each component's paper left over, counted in one pass (its pixels of ``left``)
        counts = np.bincount(lab[left > 0], minlength=n)
        for i in range(1, n):
            if counts[i] < REGION_MIN_CARD * card_area:
                continue
            x, y, w, h = stats[i, :4]
            part = (lab[y:y + h, x:x + w] == i) & (left[y:y + h, x:x + w] > 0)
            if np.count_nonzero(part & (unread[y:y + h, x:x + w] > 0)):
                continue
            pts = (np.argwhere(part)[:, ::-1] + (x, y)).astype(np.float32)
            rect = cv2.minAreaRect(pts)
            if min(rect[1]) < REGION_MIN_WIDTH * S:
                continue  # a strip along a frame's edge (a card at a slant framed square)
            q = _order_quad(cv2.boxPoints(rect)) / s
            f = CardFrame(q, False, ())
            out.append(CardRead(None, f.box, 0.0, "no_corner_visible", f, None))
    return out


def _free_paper(frame: CardFrame, mask: np.ndarray, cover: np.ndarray, s: float) -> int:
    """The card paper (``mask``) inside ``frame``'s quads (at working scale ``s``) that
    ``cover`` does not cover, in px; counted inside the quads' bounding box only."""
    polys = [np.round(np.asarray(q, np.float32) * s).astype(np.int32) for q, _ks in _frame_quads(frame)]
    pts = np.concatenate(polys)
    h, w = mask.shape
    x0, y0 = max(0, int(pts[:, 0].min())), max(0, int(pts[:, 1].min()))
    x1, y1 = min(w, int(pts[:, 0].max()) + 1), min(h, int(pts[:, 1].max()) + 1)
    if x1 <= x0 or y1 <= y0:
        return 0
    own = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for p in polys:
        cv2.fillConvexPoly(own, p - (x0, y0), 255)
    return int(np.count_nonzero(own & mask[y0:y1, x0:x1] & ~cover[y0:y1, x0:x1]))


#: Two frames read as the same card are one physical card when their quads overlap by this
#: fraction of the smaller one (two hypotheses of one partly hidden card).
SAME_CARD_OVERLAP = 0.5


def _merge_same_card(reads: list[CardRead]) -> list[CardRead]:
    """Drop a read that repeats the card of another read whose frame it largely overlaps (two
    corner hypotheses of one partly hidden card read alike), keeping the more confident."""
    order = sorted(range(len(reads)), key=lambda i: -reads[i].confidence)
    kept: list[CardRead] = []
    for i in order:
        r = reads[i]
        if r.card is not None and any(k.card == r.card and _overlap(k.frame.quad, r.frame.quad) >= SAME_CARD_OVERLAP
                                      for k in kept):
            continue
        kept.append(r)
    return kept


def _overlap(q1: np.ndarray, q2: np.ndarray) -> float:
    """Intersection area of two convex quads over the smaller one's area (0–1)."""
    a1, a2 = cv2.contourArea(np.float32(q1)), cv2.contourArea(np.float32(q2))
    if min(a1, a2) <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(np.float32(q1), np.float32(q2))
    return float(inter) / min(a1, a2)


def centre_is_picture(image: np.ndarray, quad: np.ndarray) -> bool:
    """:func:`_centre_is_picture`, remembered while :meth:`CardReader.read` reads ``image`` (the
    template and the learned read of a whole card both ask)."""
    memo = getattr(_PATCH_MEMO, "patches", None)
    if memo is None or getattr(_PATCH_MEMO, "image", None) is not image:
        return _centre_is_picture(image, quad)
    key = ("picture", np.asarray(quad, np.float64).tobytes())
    got = memo.get(key)
    if got is None:
        got = memo[key] = _centre_is_picture(image, quad)
    return got


def _centre_is_picture(image: np.ndarray, quad: np.ndarray) -> bool:
    """True when a whole card's centre shows a picture (a face card), False when it shows pips
    or little ink (numbered cards, aces). Alphabet-independent: used to refuse a numbered rank
    read from an index whose card is really a face card (a German "B" taken for an "8").

    Args:
        image: H×W×3 BGR uint8 frame; quad: the card's 4×2 corners (TL, TR, BR, BL, px).

    The card is rectified to 126×176 px; the centre window (22–78 % of the width, 20–80 % of
    the height, clear of the corner indices) is inked where any channel is 30 % darker than the
    paper's; the picture test is :data:`PICTURE_COMPONENT` on the largest 8-connected ink
    component. The paper level is local (ninth pass): the brightest of each pixel's
    neighbourhood (:data:`PAPER_DISC` px, wider than a pip), smoothed, and never above the 90th
    percentile of the card's interior — so a shadow or a light falling off across the card is
    not one big ink component.
    """
    card = rectify(image, quad, 126, 176)
    h, w = card.shape[:2]
    inner = card[int(0.06 * h):int(0.94 * h), int(0.06 * w):int(0.94 * w)]
    top = np.array(_pct_channels(inner, 90), np.float32) + 1
    f = card.astype(np.float32)
    if PAPER_DISC > 0:
        # dilated as uint8 (a maximum: the same values as on the float copy, faster)
        local = cv2.GaussianBlur(disc_dilate(card, PAPER_DISC).astype(np.float32), (0, 0), 8) + 1
        paper = np.minimum(local, top)
    else:
        paper = top
    win = (f / paper)[int(0.2 * h):int(0.8 * h), int(0.22 * w):int(0.78 * w)]
    ink = ((1 - win.min(axis=2)) > 0.3).astype(np.uint8)
    n, _, st, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if n < 2:
        return False
    return float(st[1:, cv2.CC_STAT_AREA].max()) / ink.size > PICTURE_COMPONENT


def is_back(card: np.ndarray) -> bool:
    """True when a rectified card (H×W×3 BGR) shows a back: its centre has little plain paper.

    The paper colour is taken from the card's outer ring (backs and faces both have a light
    border); a face shows paper over most of its centre, a back a printed pattern.
    """
    h, w = card.shape[:2]
    ring = np.concatenate([card[:max(2, h // 30)].reshape(-1, 3), card[-max(2, h // 30):].reshape(-1, 3)])
    paper = np.median(ring.astype(np.float32), axis=0)
    centre = card[h // 5:4 * h // 5, w // 5:4 * w // 5].astype(np.float32)
    near = np.linalg.norm(centre - paper, axis=2) < 0.18 * (np.linalg.norm(paper) + 1)
    return float(near.mean()) < 0.2
