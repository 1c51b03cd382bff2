"""Card frames and reads (the reader's data) and the quad helpers every step shares."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np



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
    from companion.vision.images import check_min_side, to_bgr

    image = to_bgr(image)
    check_min_side(image, 32)
    return image


def _order_quad(pts: np.ndarray) -> np.ndarray:
    """Order 4 corners TL, TR, BR, BL with TL→TR the short side (clockwise on screen)."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise on screen (y down)
    if _norm(pts[1] - pts[0]) > _norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def _frame_quads(f: CardFrame):
    """A frame's quads with the corners observed on each: ``[(quad, corners), …]``."""
    return [(f.quad, f.readable)] + [(np.asarray(q), ks) for q, ks in f.views]


def _overlap(q1: np.ndarray, q2: np.ndarray) -> float:
    """Intersection area of two convex quads over the smaller one's area (0–1)."""
    a1, a2 = cv2.contourArea(np.float32(q1)), cv2.contourArea(np.float32(q2))
    if min(a1, a2) <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(np.float32(q1), np.float32(q2))
    return float(inter) / min(a1, a2)
