"""Synthetic playing cards and table scenes: the card reader's tests and the simulated table.

Everything here is deterministic from a seed (``random.Random`` / ``numpy.random.Generator``), so a
test or a simulated table can reproduce any frame. Images are H×W×3 BGR uint8 (OpenCV order).

Public API:

* :func:`render_face` — a standard card face (``"QH"``, ``"10S"``, ``"JK"``) with corner indices in
  the English (A K Q J), Russian (Т К Д В) or German (A K D B) alphabet.
* :func:`render_picture_face` — a custom picture card (a named kind, the "Верю — не верю" deck).
* :func:`render_numbered_face` — a numbered card (the 6100 game's values and the Infinity card).
* :func:`render_back` — a card back (white border, patterned centre).
* :func:`face_for` — dispatches on a label and a deck kind.
* :func:`compose_scene` / :func:`scatter_scene` / :func:`render_layout` — cards under random pose,
  light and blur on felt, dark cloth or wood, returning the frame and the ground truth.

Card geometry: faces are :data:`CARD_W` × :data:`CARD_H` px (63 × 88 mm poker ratio, 1.397).
"""

from __future__ import annotations

import functools
import hashlib
import math
import random
from dataclasses import dataclass, field
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


# ---------------------------------------------------------------- scenes

def background(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table surface, H×W×3 BGR uint8: ``felt`` (green), ``cloth`` (dark) or ``wood``.

    Args:
        size: (width, height) in px.
    """
    w, h = size
    noise = rng.normal(0, 1, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    noise = cv2.resize(cv2.GaussianBlur(noise, (0, 0), 1.5), (w, h))
    if kind == "felt":
        base = np.array([50, 95, 20], np.float32) * rng.uniform(0.7, 1.2)
        img = base + noise[..., None] * 8
    elif kind == "cloth":
        base = np.array([40, 25, 28], np.float32) * rng.uniform(0.6, 1.3)
        img = base + noise[..., None] * 6
    elif kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        grain = np.sin((y + 12 * np.sin(x / 90.0 + rng.uniform(0, 6))) / rng.uniform(5, 9)) * 0.5 + 0.5
        base = np.array([45, 95, 150], np.float32) * rng.uniform(0.75, 1.15)
        img = base * (0.8 + 0.25 * grain[..., None]) + noise[..., None] * 6
    else:
        raise ValueError(f"unknown background {kind!r}")
    return np.clip(img, 0, 255).astype(np.uint8)


@dataclass
class Placed:
    """One card in a scene (ground truth).

    Attributes:
        label: the card code / kind / value, or ``"back"`` for a face-down card.
        quad: 4×2 float32 corners in the frame, in face order TL, TR, BR, BL (px).
        face_up: whether the face is visible.
        slot: layout slot (row, col) or None.
    """
    label: str
    quad: np.ndarray
    face_up: bool = True
    slot: tuple[int, int] | None = None
    extra: dict = field(default_factory=dict)

    @property
    def center(self) -> tuple[float, float]:
        return float(self.quad[:, 0].mean()), float(self.quad[:, 1].mean())


def pose_quad(center, angle_deg: float, height_px: float, tilt: float = 0.0,
              rng: np.random.Generator | None = None) -> np.ndarray:
    """Corners (TL, TR, BR, BL) of a card of ``height_px`` rotated by ``angle_deg`` about
    ``center``, with a perspective jitter of ``tilt`` (fraction of the size)."""
    h = height_px
    w = h * CARD_W / CARD_H
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    a = math.radians(angle_deg)
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    pts = pts @ R.T + np.array(center, np.float32)
    if tilt and rng is not None:
        pts = pts + rng.uniform(-tilt * h, tilt * h, pts.shape).astype(np.float32)
    return pts.astype(np.float32)


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


def paste_card(frame: np.ndarray, face: np.ndarray, quad: np.ndarray, shadow: bool = True) -> None:
    """Warp ``face`` (CARD_H×CARD_W×3, or any face size: a photographed face) onto ``frame`` in
    place at ``quad`` (TL, TR, BR, BL)."""
    H, W = frame.shape[:2]
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
    M = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    x0, y0 = np.floor(quad.min(0)).astype(int) - 6
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 6
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ M
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, T, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(rounded_alpha(fh, fw), T, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    if shadow:
        sh = cv2.GaussianBlur(alpha, (0, 0), 3)
        sh = np.roll(sh, (3, 3), (0, 1))
        roi *= (1 - 0.35 * sh[..., None])
    a = alpha[..., None]
    frame[y0:y1, x0:x1] = np.clip(roi * (1 - a) + warped.astype(np.float32) * a, 0, 255).astype(np.uint8)


def photometric(frame: np.ndarray, rng: np.random.Generator, light: float = 1.0,
                blur: float = 0.0, tint: float = 0.0, noise: float = 2.0) -> np.ndarray:
    """Apply lighting (gain ``light`` with a gradient), a colour ``tint`` (0–1), Gaussian ``blur``
    (sigma px) and sensor ``noise`` (sigma, grey levels) to a BGR frame; returns a new frame."""
    h, w = frame.shape[:2]
    img = frame.astype(np.float32)
    gx = np.linspace(rng.uniform(0.75, 1.0), rng.uniform(0.9, 1.1), w, dtype=np.float32)[None, :]
    gy = np.linspace(rng.uniform(0.85, 1.0), rng.uniform(0.9, 1.1), h, dtype=np.float32)[:, None]
    img *= (light * gx * gy)[..., None]
    if tint:
        img *= (1 + tint * rng.uniform(-0.25, 0.25, 3)).astype(np.float32)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if noise:
        img += rng.normal(0, noise, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def compose_scene(cards: list[tuple[np.ndarray, np.ndarray, str, bool]], size=(1280, 720),
                  surface: str = "felt", rng: np.random.Generator | None = None, light: float = 1.0,
                  blur: float = 0.0, tint: float = 0.0) -> np.ndarray:
    """Paste ``cards`` — (face image, quad, label, face_up) — in order (later ones on top) onto a
    ``surface`` of ``size`` (width, height) and apply :func:`photometric`. Returns the frame."""
    rng = rng or np.random.default_rng(0)
    frame = background(surface, size, rng)
    for face, quad, _label, _up in cards:
        paste_card(frame, face, quad)
    return photometric(frame, rng, light, blur, tint)


def _random_look(rng: np.random.Generator) -> dict:
    return dict(light=float(rng.uniform(0.7, 1.15)), blur=float(rng.choice([0, 0, 0.6, 1.0])),
                tint=float(rng.uniform(0, 0.6)), surface=str(rng.choice(["felt", "cloth", "wood"])))


def scatter_scene(labels: list[str], seed: int = 0, size=(1280, 720), kind: str = "standard",
                  alphabet: str = "en", overlap: bool = False, card_height: tuple[int, int] = (230, 330),
                  upside_down: bool = True, **look) -> tuple[np.ndarray, list[Placed]]:
    """Render ``labels`` as cards lying at random angles (non-overlapping, or in overlapping pairs
    fanned so each card keeps one corner index visible when ``overlap``).

    Returns:
        (frame H×W×3 BGR uint8, ground truth list of :class:`Placed`, in paste order).
    """
    rng = np.random.default_rng(seed)
    pyr = random.Random(seed)
    params = _random_look(rng)
    params.update(look)
    W, H = size
    placed: list[Placed] = []
    cards = []
    font = pyr.randrange(len(font_paths()) or 1)
    h = float(rng.uniform(*card_height)) * min(W / 1280, H / 720)
    n = len(labels)
    slots = max(1, n if not overlap else (n + 1) // 2)
    for i, label in enumerate(labels):
        slot = i if not overlap else i // 2
        cx = W * (slot + 0.5) / slots + rng.uniform(-0.04, 0.04) * W / slots
        cy = H / 2 + rng.uniform(-0.12, 0.12) * H
        angle = float(rng.uniform(-35, 35)) if n > 1 else float(rng.uniform(-180, 180))
        if upside_down and rng.random() < 0.3:
            angle += 180
        if overlap and i % 2 == 1:
            # the second card lies on the first, shifted down-right so the first's top-left
            # index stays visible
            a = math.radians(placed[-1].extra["angle"])
            dx, dy = 0.35 * h * CARD_W / CARD_H, 0.3 * h
            cx = placed[-1].center[0] + dx * math.cos(a) - dy * math.sin(a)
            cy = placed[-1].center[1] + dx * math.sin(a) + dy * math.cos(a)
            angle = placed[-1].extra["angle"] + float(rng.uniform(-20, 20))
        hh = h if n <= 4 else h * 4 / max(4, slots)
        quad = pose_quad((cx, cy), angle, hh, 0.03, rng)
        face = face_for(label, kind, alphabet, font, i)
        placed.append(Placed(label, quad, label != "back", extra={"angle": angle}))
        cards.append((face, quad, label, label != "back"))
    frame = compose_scene(cards, size, params.pop("surface"), rng, **params)
    return frame, placed


#: Hoggenheimer layout (RULINGS §3): rows top to bottom, columns left to right.
LAYOUT_ROWS = ["S", "H", "D", "C"]
LAYOUT_COLS = ["A", "K", "Q", "J", "10", "9", "8", "7"]


def render_layout(face_up: dict[tuple[int, int], str] | None = None, extra: str | None = None,
                  seed: int = 0, size=(1280, 720), alphabet: str = "en", **look
                  ) -> tuple[np.ndarray, list[Placed]]:
    """Render the Hoggenheimer 4×8 layout (RULINGS §3) plus the 33rd card to its right.

    Args:
        face_up: slot (row, col) → the card lying face up there (any code, so a card on the wrong
            slot can be rendered); slots not listed lie face down.
        extra: the 33rd card's code if it is face up, else None (face down).
        seed: random seed for pose, light and blur.

    Returns:
        (frame, truth): truth has one :class:`Placed` per slot (``slot`` set) and one for the 33rd
        card (``slot`` None, ``extra["role"] == "extra"``).
    """
    face_up = face_up or {}
    rng = np.random.default_rng(seed)
    params = _random_look(rng)
    params["blur"] = min(params["blur"], 0.6)
    params.update(look)
    W, H = size
    ch = min(H / 5.0, W / 10.2 * CARD_H / CARD_W / 1.12)
    cw = ch * CARD_W / CARD_H
    gx, gy = cw * 1.12, ch * 1.1
    ox = W / 2 - 4.5 * gx + rng.uniform(-0.02, 0.02) * W
    oy = H / 2 - 1.5 * gy + rng.uniform(-0.02, 0.02) * H
    rot = float(rng.uniform(-4, 4))
    a = math.radians(rot)
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    centre = np.array([W / 2, H / 2])
    placed, cards = [], []
    font = int(rng.integers(0, max(1, len(font_paths()))))
    for r in range(4):
        for c in range(8):
            p = np.array([ox + c * gx, oy + r * gy])
            p = (p - centre) @ R.T + centre
            up = (r, c) in face_up
            label = face_up[(r, c)] if up else "back"
            ang = rot + float(rng.uniform(-3, 3)) + (180 if up and rng.random() < 0.3 else 0)
            quad = pose_quad(tuple(p), ang, ch * rng.uniform(0.97, 1.0), 0.01, rng)
            face = render_face(label, alphabet, font) if up else render_back(1)
            placed.append(Placed(label, quad, up, (r, c)))
            cards.append((face, quad, label, up))
    p = (np.array([ox + 8 * gx + 0.05 * cw, oy + 1.5 * gy]) - centre) @ R.T + centre
    quad = pose_quad(tuple(p), rot + float(rng.uniform(-8, 8)), ch, 0.01, rng)
    label = extra if extra else "back"
    placed.append(Placed(label, quad, bool(extra), None, {"role": "extra"}))
    cards.append((render_face(extra, alphabet, font) if extra else render_back(1), quad, label, bool(extra)))
    frame = compose_scene(cards, size, params.pop("surface"), rng, **params)
    return frame, placed
