"""Synthetic playing-card faces and their fonts: the card reader's tests and the simulated table.

Everything here is deterministic from a seed (``numpy.random.Generator``) or the card's code, so a
test or a simulated table can reproduce any frame. Images are H×W×3 BGR uint8 (OpenCV order).

Public API:

* :func:`render_face` — a standard card face (``"QH"``, ``"10S"``, ``"JK"``) with corner indices in
  the English (A K Q J), Russian (Т К Д В) or German (A K D B) alphabet.
* :func:`render_picture_face` — a custom picture card (a named kind, the "Верю — не верю" deck).
* :func:`render_numbered_face` — a numbered card (the 6100 game's values and the Infinity card).
* :func:`render_back` — a card back (white border, patterned centre).
* :func:`face_for` — dispatches on a label and a deck kind.
* :func:`text_mask`, :func:`pip_mask`, :func:`card_alpha`, :func:`rounded_alpha` — glyphs, pips
  and card outlines.

Scenes of these cards (pose, table, light): :mod:`companion.vision.render_scenes`.

Card geometry: faces are :data:`CARD_W` × :data:`CARD_H` px (63 × 88 mm poker ratio, 1.397).
"""

from __future__ import annotations

import functools
import hashlib
import math
from pathlib import Path

import cv2
import numpy as np

#: Face size in px (width, height); 63×88 mm poker card at ~4 px/mm.
CARD_W, CARD_H = 252, 352
#: Corner radius of the card in px.
CORNER_R = 14

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
SUITS = ["S", "H", "D", "C"]
RED_SUITS = {"H", "D"}
#: Glyph printed in the corner index for each rank, per alphabet (deck setting).
ALPHABETS = {
    "en": {"A": "A", "K": "K", "Q": "Q", "J": "J"},
    "ru": {"A": "Т", "K": "К", "Q": "Д", "J": "В"},
    "de": {"A": "A", "K": "K", "Q": "D", "J": "B"},
}
#: Standard decks by size (the 36-card deck is 6–A, the 32-card deck 7–A).
DECKS = {
    52: [r + s for s in SUITS for r in RANKS],
    36: [r + s for s in SUITS for r in RANKS[:9]],
    32: [r + s for s in SUITS for r in RANKS[:8]],
}

_FONT_DIRS = [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation"),
              Path("/usr/share/fonts/truetype")]
_FONT_NAMES = ["DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif.ttf",
               "LiberationSerif-Bold.ttf", "LiberationSans-Bold.ttf", "LiberationSerif-Regular.ttf",
               "LiberationSansNarrow-Bold.ttf", "DejaVuSansCondensed-Bold.ttf",
               "DejaVuSerifCondensed-Bold.ttf"]


@functools.lru_cache(maxsize=None)
def font_paths() -> tuple[str, ...]:
    """TrueType fonts found on this machine (DejaVu from ``fonts-dejavu-core`` first).

    Returns an empty tuple when none is installed; text then falls back to OpenCV's Hershey font.
    """
    found = []
    for name in _FONT_NAMES:
        for d in _FONT_DIRS:
            p = d / name
            if p.is_file():
                found.append(str(p))
                break
    return tuple(found)


@functools.lru_cache(maxsize=256)
def _font(path: str, size: int):
    from PIL import ImageFont
    return ImageFont.truetype(path, size)


def text_mask(text: str, height: int, font: int | str = 0, max_width: int | None = None) -> np.ndarray:
    """A tight binary mask (uint8 0/255) of ``text`` whose ink is ``height`` px tall.

    Args:
        text: the string (Latin, Cyrillic, digits, ``∞``).
        height: ink height in px.
        font: index into :func:`font_paths` (wraps around), or a font file's path.
        max_width: squeeze horizontally to at most this many px (like the narrow "10" on cards).
    """
    paths = font_paths()
    if paths or isinstance(font, str):
        from PIL import Image, ImageDraw
        f = _font(font if isinstance(font, str) else paths[font % len(paths)], 96)
        img = Image.new("L", (96 * (len(text) + 1), 160), 0)
        ImageDraw.Draw(img).text((20, 10), text, font=f, fill=255)
        m = np.array(img)
    else:  # pragma: no cover - machines without fonts
        m = np.zeros((160, 80 * (len(text) + 1)), np.uint8)
        cv2.putText(m, text, (10, 120), cv2.FONT_HERSHEY_DUPLEX, 3.5, 255, 8, cv2.LINE_AA)
    ys, xs = np.nonzero(m > 96)
    if len(xs) == 0:
        return np.zeros((height, max(1, height // 2)), np.uint8)
    m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    w = max(1, round(m.shape[1] * height / m.shape[0]))
    if max_width and w > max_width:
        w = max_width
    return cv2.resize(m, (w, height), interpolation=cv2.INTER_AREA)


def pip_mask(suit: str, size: int) -> np.ndarray:
    """A ``size``×``size`` uint8 mask (0/255) of a suit pip: ``S`` ♠, ``H`` ♥, ``D`` ♦, ``C`` ♣."""
    s = 4 * size  # draw large, then shrink (anti-aliasing)
    m = np.zeros((s, s), np.uint8)
    c = s // 2
    if suit == "D":
        pts = np.array([[c, 0], [int(s * 0.86), c], [c, s - 1], [int(s * 0.14), c]], np.int32)
        cv2.fillPoly(m, [pts], 255)
    elif suit in ("H", "S"):
        r = int(s * 0.255)
        cv2.circle(m, (int(s * 0.27), int(s * 0.30)), r, 255, -1)
        cv2.circle(m, (int(s * 0.73), int(s * 0.30)), r, 255, -1)
        pts = np.array([[int(s * 0.035), int(s * 0.40)], [int(s * 0.965), int(s * 0.40)],
                        [c, int(s * 0.97)]], np.int32)
        cv2.fillPoly(m, [pts], 255)
        cv2.rectangle(m, (int(s * 0.27), int(s * 0.3)), (int(s * 0.73), int(s * 0.55)), 255, -1)
        if suit == "S":
            m = m[::-1].copy()
            m = cv2.resize(m[int(s * 0.0):, :], (s, int(s * 0.8)))
            m = np.vstack([m, np.zeros((s - m.shape[0], s), np.uint8)])
            stem = np.array([[c, int(s * 0.62)], [int(s * 0.68), s - 1], [int(s * 0.32), s - 1]], np.int32)
            cv2.fillPoly(m, [stem], 255)
    elif suit == "C":
        r = int(s * 0.21)
        cv2.circle(m, (c, int(s * 0.24)), r, 255, -1)
        cv2.circle(m, (int(s * 0.25), int(s * 0.56)), r, 255, -1)
        cv2.circle(m, (int(s * 0.75), int(s * 0.56)), r, 255, -1)
        cv2.circle(m, (c, int(s * 0.5)), int(r * 0.7), 255, -1)
        stem = np.array([[c, int(s * 0.45)], [int(s * 0.68), s - 1], [int(s * 0.32), s - 1]], np.int32)
        cv2.fillPoly(m, [stem], 255)
    else:
        raise ValueError(f"unknown suit {suit!r}")
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)


def _ink(img: np.ndarray, mask: np.ndarray, x: int, y: int, color) -> None:
    """Blend ``color`` into ``img`` through ``mask`` at top-left (x, y), clipped to the image."""
    h, w = mask.shape
    H, W = img.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = (mask[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32) / 255.0)[..., None]
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (roi * (1 - a) + np.array(color, np.float32) * a).astype(np.uint8)


def _blank(paper=(246, 248, 250)) -> np.ndarray:
    img = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    img[:] = paper
    return img


def card_alpha() -> np.ndarray:
    """The card's outline as a CARD_H×CARD_W uint8 mask (255 inside the rounded rectangle)."""
    m = np.zeros((CARD_H, CARD_W), np.uint8)
    r = CORNER_R
    cv2.rectangle(m, (r, 0), (CARD_W - 1 - r, CARD_H - 1), 255, -1)
    cv2.rectangle(m, (0, r), (CARD_W - 1, CARD_H - 1 - r), 255, -1)
    for cx, cy in [(r, r), (CARD_W - 1 - r, r), (r, CARD_H - 1 - r), (CARD_W - 1 - r, CARD_H - 1 - r)]:
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def _corner_indices(img: np.ndarray, top: np.ndarray, bottom: np.ndarray | None, color,
                    four: bool = False, x: int = 12, y: int = 12, gap: int = 6) -> None:
    """Draw ``top`` (rank glyph) and ``bottom`` (pip) at the top-left corner and, rotated 180°,
    at the bottom-right corner (and the other two corners when ``four``)."""
    layer = np.zeros(img.shape[:2], np.uint8)
    tw = top.shape[1]
    bx = x + max(0, (tw - (bottom.shape[1] if bottom is not None else 0)) // 2)
    layer[y:y + top.shape[0], x:x + tw] = np.maximum(layer[y:y + top.shape[0], x:x + tw], top)
    if bottom is not None:
        by = y + top.shape[0] + gap
        layer[by:by + bottom.shape[0], bx:bx + bottom.shape[1]] = bottom
    if four:
        # the same index, upright (not mirrored), in the top-right corner too
        ys, xs = np.nonzero(layer)
        piece = layer[:ys.max() + 1, x:xs.max() + 1]
        x2 = layer.shape[1] - x - piece.shape[1]
        layer[:piece.shape[0], x2:x2 + piece.shape[1]] = np.maximum(layer[:piece.shape[0], x2:x2 + piece.shape[1]], piece)
    full = np.maximum(layer, layer[::-1, ::-1])
    _ink(img, full, 0, 0, color)


def render_face(code: str, alphabet: str = "en", font: int | str = 0, four_index: bool = False,
                paper=(246, 248, 250), index: tuple[int, int, int, int, int] = (34, 24, 12, 12, 6),
                colours=((30, 30, 205), (25, 25, 25)), pip_font: int | str | None = None,
                pip_aspect: float = 1.0, pip: np.ndarray | None = None) -> np.ndarray:
    """Render a standard card face, CARD_H×CARD_W×3 BGR uint8.

    Args:
        code: ``rank + suit`` (``"QH"``, ``"10S"``, ``"7D"``) or ``"JK"`` for the joker.
        alphabet: ``en`` (A K Q J), ``ru`` (Т К Д В) or ``de`` (A K D B) for the corner indices.
        font: index of the index font in :func:`font_paths`, or a font file's path.
        four_index: print indices in all four corners (some Continental decks do).
        paper: the paper colour (BGR).
        index: the corner index's layout in face px: glyph height, pip size, left and top
            margin, gap between glyph and pip.
        colours: the red and the black ink (BGR).
        pip_font: draw the index pip as this font's suit glyph (♠ ♥ ♦ ♣) instead of the drawn
            pip; ``pip_aspect`` squeezes (< 1) or widens it.
        pip: the index pip's own mask (uint8, 255 = ink; resized to the pip size) instead of
            the drawn or font pip.

    Raises:
        ValueError: an unknown code or alphabet.
    """
    if alphabet not in ALPHABETS:
        raise ValueError(f"unknown alphabet {alphabet!r}")
    img = _blank(paper)
    if code == "JK":
        color = (30, 30, 200)
        letters = [text_mask(ch, 22, font) for ch in "JOKER"]
        layer = np.zeros(img.shape[:2], np.uint8)
        y = 12
        for m in letters:
            x = 14 + (16 - min(16, m.shape[1])) // 2
            m = m[:, :16]
            layer[y:y + m.shape[0], x:x + m.shape[1]] = m
            y += m.shape[0] + 4
        full = np.maximum(layer, layer[::-1, ::-1])
        _ink(img, full, 0, 0, color)
        star = np.zeros((140, 140), np.uint8)
        pts = [(70 + 66 * math.cos(math.pi / 2 + k * 4 * math.pi / 5),
                70 - 66 * math.sin(math.pi / 2 + k * 4 * math.pi / 5)) for k in range(5)]
        cv2.fillPoly(star, [np.array(pts, np.int32)], 255, cv2.LINE_AA)
        cv2.fillPoly(star, [np.array([pts[0], pts[2], pts[4], pts[1], pts[3]], np.int32)], 255)
        _ink(img, star, (CARD_W - 140) // 2, (CARD_H - 140) // 2, color)
        return img
    rank, suit = code[:-1], code[-1]
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"unknown card code {code!r}")
    color = colours[0] if suit in RED_SUITS else colours[1]
    glyph = ALPHABETS[alphabet].get(rank, rank)
    gh, ph, mx, my, gap = index
    top = text_mask(glyph, gh, font, max_width=round(gh * 40 / 34))
    if pip is not None:
        small_pip = pip
    elif pip_font is None:
        small_pip = pip_mask(suit, ph)
    else:
        small_pip = text_mask({"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit], ph, pip_font)
    if pip_aspect != 1.0 or pip_font is not None or pip is not None:
        small_pip = cv2.resize(small_pip, (max(4, round(ph * pip_aspect)), ph), interpolation=cv2.INTER_AREA)
    _corner_indices(img, top, small_pip, color, four_index, mx, my, gap)
    # centre
    if rank in ("K", "Q", "J"):
        x0, y0, x1, y1 = 44, 50, CARD_W - 44, CARD_H - 50
        cv2.rectangle(img, (x0, y0), (x1, y1), (40, 140, 210), 2)
        inner = img[y0 + 3:y1 - 2, x0 + 3:x1 - 2]
        rng = np.random.default_rng(int(hashlib.md5(code.encode()).hexdigest()[:8], 16))
        for _ in range(40):
            c = tuple(int(v) for v in rng.choice([(40, 60, 200), (200, 120, 40), (40, 180, 230), (60, 60, 60)]))
            p = rng.integers(0, [inner.shape[1], inner.shape[0]], size=(3, 2)).astype(np.int32)
            cv2.fillPoly(inner, [p], c)
        big = text_mask(glyph, 70, font)
        _ink(img, big, (CARD_W - big.shape[1]) // 2, (CARD_H - 70) // 2, color)
    elif rank == "A":
        p = pip_mask(suit, 90)
        _ink(img, p, (CARD_W - 90) // 2, (CARD_H - 90) // 2, color)
    else:
        n = int(rank)
        cols = [CARD_W * 0.33, CARD_W * 0.67]
        spots = {2: [(0.5, 0.2), (0.5, 0.8)], 3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)]}
        if n in spots:
            pos = spots[n]
        else:
            rows = {4: [0.2, 0.8], 5: [0.2, 0.8], 6: [0.2, 0.5, 0.8], 7: [0.2, 0.5, 0.8],
                    8: [0.2, 0.4, 0.6, 0.8], 9: [0.2, 0.4, 0.6, 0.8], 10: [0.2, 0.4, 0.6, 0.8]}[n]
            pos = [(c / CARD_W, r) for r in rows for c in cols]
            extra = {5: [(0.5, 0.5)], 7: [(0.5, 0.35)], 9: [(0.5, 0.5)], 10: [(0.5, 0.3), (0.5, 0.7)]}
            pos += extra.get(n, [])
        for fx, fy in pos:
            s = 40
            p = pip_mask(suit, s)
            if fy > 0.5:
                p = p[::-1]
            _ink(img, p, int(fx * CARD_W - s / 2), int(fy * CARD_H - s / 2), color)
    return img


def _label_colour(label: str) -> tuple[int, int, int]:
    h = hashlib.md5(label.encode()).digest()
    return (int(h[0]) % 180 + 40, int(h[1]) % 180 + 40, int(h[2]) % 180 + 40)


def render_picture_face(name: str, kind: int = 0, font: int = 0) -> np.ndarray:
    """Render a custom picture card (one kind of a picture deck such as "Верю — не верю"):
    a coloured picture built from the kind's name and number, the name printed at the bottom.
    CARD_H×CARD_W×3 BGR uint8."""
    img = _blank()
    seed = int(hashlib.md5(f"{name}/{kind}".encode()).hexdigest()[:8], 16)
    rng = np.random.default_rng(seed)
    base = _label_colour(name)
    cv2.rectangle(img, (16, 16), (CARD_W - 17, CARD_H - 70), base, -1)
    full, img = img, img[16:CARD_H - 69, 16:CARD_W - 16]  # shapes stay inside the picture
    for _ in range(6 + kind % 5):
        c = tuple(int(v) for v in rng.integers(0, 255, 3))
        shape = rng.integers(0, 3)
        x, y = int(rng.integers(24, CARD_W - 56)), int(rng.integers(24, CARD_H - 126))
        r = int(rng.integers(14, 50))
        if shape == 0:
            cv2.circle(img, (x, y), r, c, -1, cv2.LINE_AA)
        elif shape == 1:
            cv2.rectangle(img, (x - r, y - r // 2), (x + r, y + r // 2), c, -1)
        else:
            cv2.fillPoly(img, [np.array([[x, y - r], [x + r, y + r], [x - r, y + r]], np.int32)], c)
    img = full
    t = text_mask(name, 30, font, max_width=CARD_W - 40)
    _ink(img, t, (CARD_W - t.shape[1]) // 2, CARD_H - 52, (20, 20, 20))
    return img


def render_numbered_face(value: str, font: int = 0) -> np.ndarray:
    """Render a numbered card (the 6100 game: ``"10"``, ``"333"``, ``"Infinity"`` shows ``∞``).
    CARD_H×CARD_W×3 BGR uint8."""
    img = _blank()
    shown = "∞" if value.lower() in ("infinity", "inf", "∞") else value
    color = (150, 40, 30) if shown != "∞" else (30, 30, 190)
    small = text_mask(shown, 28, font, max_width=70)
    layer = np.zeros(img.shape[:2], np.uint8)
    layer[12:12 + small.shape[0], 12:12 + small.shape[1]] = small
    _ink(img, np.maximum(layer, layer[::-1, ::-1]), 0, 0, color)
    big = text_mask(shown, 90 if len(shown) < 3 else 70, font, max_width=CARD_W - 50)
    cv2.ellipse(img, (CARD_W // 2, CARD_H // 2), (105, 140), 0, 0, 360, _label_colour(shown), 6)
    _ink(img, big, (CARD_W - big.shape[1]) // 2, (CARD_H - big.shape[0]) // 2, color)
    return img


def render_back(style: int = 0) -> np.ndarray:
    """Render a card back: a white border around a red (``style`` even) or blue (odd) lattice."""
    img = _blank()
    colour = (40, 40, 180) if style % 2 == 0 else (170, 80, 30)
    cv2.rectangle(img, (12, 12), (CARD_W - 13, CARD_H - 13), colour, -1)
    light = tuple(min(255, c + 70) for c in colour)
    for k in range(-CARD_H, CARD_W + CARD_H, 14):
        cv2.line(img, (k, 12), (k + CARD_H, 12 + CARD_H), light, 2)
        cv2.line(img, (k, 12), (k - CARD_H, 12 + CARD_H), light, 2)
    img[:12] = img[-12:] = (246, 248, 250)
    img[:, :12] = img[:, -12:] = (246, 248, 250)
    return img


def face_for(label: str, kind: str = "standard", alphabet: str = "en", font: int = 0,
             index: int = 0) -> np.ndarray:
    """Render the face for ``label`` of a deck ``kind``: ``standard`` (card codes), ``picture``
    (kind names) or ``numbered`` (values); ``label == "back"`` renders a back."""
    if label == "back":
        return render_back(index)
    if kind == "standard":
        return render_face(label, alphabet, font)
    # a custom deck looks the same wherever a card lies: its picture and font depend on the
    # label only
    if kind == "picture":
        return render_picture_face(label)
    if kind == "numbered":
        return render_numbered_face(label)
    raise ValueError(f"unknown deck kind {kind!r}")


def rounded_alpha(h: int, w: int) -> np.ndarray:
    """A card outline of any face size (h×w uint8, 255 inside; corner radius 5.6 % of the
    width, as :func:`card_alpha`)."""
    if (h, w) == (CARD_H, CARD_W):
        return card_alpha()
    m = np.zeros((h, w), np.uint8)
    r = max(2, round(CORNER_R * w / CARD_W))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in [(r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)]:
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m
