"""The shape of one card-paper blob (working px): a whole card (upright, at a slant, touching
another, ragged), or card frames hypothesised from its right-angle corners."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision.card_frames import _any_near, _norm, _order_quad

#: Default long/short side ratio when no whole card is visible (between poker 1.40 and
#: bridge/Continental 1.55 cards).
DEFAULT_ASPECT = 1.45
#: A hypothesised frame of a partly hidden card must lie on card area (its own paper or a whole
#: card on top) for this fraction of its area.
HYPOTHESIS_COVERAGE = 0.65
#: Largest angle (degrees) between opposite sides of a card seen at a slant.
MAX_SIDE_SKEW_DEG = 15.0
#: A blob whose convex hull is card-shaped is one card (its picture breaking up the paper) when
#: the paper margin runs along this fraction of the hull's outline.
MARGIN_RUN = 0.9


def _line_intersection(p1, d1, p2, d2):
    A = np.array([d1, -d2], np.float64).T
    if abs(np.linalg.det(A)) < 1e-6:
        return None
    t = np.linalg.solve(A, np.asarray(p2, np.float64) - np.asarray(p1, np.float64))
    return np.asarray(p1, np.float64) + t[0] * np.asarray(d1, np.float64)


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
