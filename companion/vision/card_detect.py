"""Finding cards: the card-paper mask and the classic contour pipeline (:func:`detect_cards`)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.card_blobs import _corner_hypotheses, _margin_card, _perspective_quad, _split_touching
from companion.vision.card_frames import CardFrame, _norm, _order_quad, check_image
from companion.vision.percentiles import percentile_u8 as _pct_u8

#: Width (px) the frame is scaled to for detection.
WORK_WIDTH = 640


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
