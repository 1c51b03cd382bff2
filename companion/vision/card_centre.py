"""A whole card's centre: a picture or pips (:func:`centre_is_picture`), a face or a back
(:func:`is_back`)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.card_patches import rectify
from companion.vision.card_segments import disc_dilate
from companion.vision.card_worker import _PATCH_MEMO
from companion.vision.percentiles import channel_percentiles as _pct_channels

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


def centre_is_picture(image: np.ndarray, quad: np.ndarray) -> bool:
    """:func:`_centre_is_picture`, remembered while :meth:`companion.vision.cards.CardReader.read` reads ``image`` (the
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
