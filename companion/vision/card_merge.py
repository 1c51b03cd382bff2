"""One answer per physical card: unread frames another read explains are dropped, unexplained
paper is reported as card regions, and repeated reads of one card are merged."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.card_detect import REGION_MIN_CARD, REGION_MIN_WIDTH, REGION_SLIVER
from companion.vision.card_frames import CardFrame, CardRead, _any_near, _frame_quads, _order_quad, _overlap

#: An observed corner of an unread partial frame within this fraction of a card's short side of
#: an observed corner of a read (or whole) card is that card's corner: the frame is another
#: hypothesis of that card (one corner point belongs to one card).
SHARED_CORNER = 0.1


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
