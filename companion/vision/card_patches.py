"""What the reader cuts from a card's image: the rectified card and its upright index patches."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import render_cards as rc
from companion.vision.card_frames import _norm
from companion.vision.card_segments import PATCH_H, PATCH_W
from companion.vision.card_worker import _PATCH_MEMO

#: Index patch: fraction of the card's short side (width) and long side (height) it covers.
PATCH_FW, PATCH_FH = 0.27, 0.33
#: How far outside the corner the patch starts (fraction of the short side).
PATCH_MARGIN = 0.03
#: Widening of the second, wider look at a partly hidden card's corners (see corner_patch).
PARTIAL_GROW = 1.4


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


def corner_patch(image: np.ndarray, quad: np.ndarray, corner: int, grow: float = 1.0) -> np.ndarray:
    """:func:`_corner_patch`, remembered while :meth:`companion.vision.cards.CardReader.read` reads ``image`` (the
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
