"""Domain-randomised table scenes: procedural surfaces, randomised card faces, light, blur,
glare, shadows, JPEG, occluders — for the index classifier's training composites
(``tools/train_cards.py``), the held-out "new table" set of ``bench/cards.py`` and the simulated
table's camera (:mod:`companion.vision.scene`).

Everything is deterministic from a ``numpy.random.Generator``. Images are H×W×3 BGR uint8.

Two styles per surface kind keep a held-out set honest: style ``"a"`` is what training uses,
style ``"b"`` (other generators and colours, see :func:`surface`) only the held-out set; index
fonts are split the same way (:func:`fonts`).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.vision import render_cards as rc
from companion.vision import render_scenes as rs

#: Surface kinds (the per-condition table's "background kind").
SURFACES = ("felt", "wood", "carpet", "tiles", "cloth")

#: Index fonts per split: training renders use DejaVu and Liberation; the held-out set only fonts
#: training never saw (GNU FreeFont, URW base35), when installed.
_FONT_GLOBS = {
    "train": ["/usr/share/fonts/truetype/dejavu/DejaVu*.ttf", "/usr/share/fonts/truetype/liberation/Liberation*.ttf"],
    "heldout": ["/usr/share/fonts/truetype/freefont/Free*.ttf", "/usr/share/fonts/opentype/urw-base35/*.otf"],
    # more training fonts for the ninth pass's classifier (tools/train_cards.py --extra-fonts): in
    # neither the held-out nor the calibration split (fonts-open-sans, fonts-roboto,
    # fonts-bebas-neue, fonts-league-spartan, fonts-croscore)
    "extra": ["/usr/share/fonts/truetype/open-sans/*.ttf", "/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/*.ttf",
              "/usr/share/fonts/opentype/bebas-neue/*.otf", "/usr/share/fonts/opentype/league-spartan/*.otf",
              "/usr/share/fonts/truetype/croscore/*.ttf"],
    # the confidence calibration's own fonts (tools/calibrate_cards.py): neither trained on nor in
    # the held-out set (fonts-paratype, fonts-ocr-b)
    "calib": ["/usr/share/fonts/truetype/paratype/PT[SFNCZ][57]5F.ttf", "/usr/share/fonts/truetype/paratype/PTN[57]7F.ttf",
              "/usr/share/fonts/opentype/ocr-b/OCRB.otf"],
}
_FONT_SKIP = ("Mono", "Italic", "Oblique", "Light", "ExtraLight", "Z003", "D050000L", "StandardSymbols",
              "Math", "Thin", "Cousine")


@functools.lru_cache(maxsize=None)
def fonts(split: str = "train", cyrillic: bool = False) -> tuple[str, ...]:
    """Font files of a split (``train`` or ``heldout``), upright text faces only; with
    ``cyrillic`` only those that draw Т К Д В. Empty when none is installed."""
    import glob

    out = []
    for g in _FONT_GLOBS[split]:
        for p in sorted(glob.glob(g)):
            if any(s in Path(p).name for s in _FONT_SKIP):
                continue
            if cyrillic and not _draws(p, "Д"):
                continue
            out.append(p)
    return tuple(out)


def _draws(path: str, ch: str) -> bool:
    """Whether the font has a glyph for ``ch`` (not its missing-glyph box)."""
    from PIL import ImageFont
    try:
        f = ImageFont.truetype(path, 48)
    except OSError:
        return False
    a = np.array(f.getmask(ch))
    b = np.array(f.getmask("\U000f0000"))
    return a.size > 0 and (a.shape != b.shape or not np.array_equal(a, b))


# ---------------------------------------------------------------------------- surfaces

def _noise(h: int, w: int, rng, scale: float) -> np.ndarray:
    """Smooth noise in about [-1, 1], features ``scale`` px."""
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    n = rng.normal(0, 1, (sh, sw)).astype(np.float32)
    return cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC)


def _colour(rng, base, spread=0.25) -> np.ndarray:
    return np.clip(np.array(base, np.float32) * rng.uniform(1 - spread, 1 + spread, 3), 0, 255)


def surface(kind: str, size: tuple[int, int], rng: np.random.Generator, style: str = "a") -> np.ndarray:
    """A procedural table surface of ``size`` (width, height).

    Kinds (:data:`SURFACES`) and their two styles: ``felt`` (a: green noise; b: blue, red or grey
    felt with a vignette), ``wood`` (a: wavy grain; b: planks with knots and seams), ``carpet``
    (a: looped pile, grey/beige/brown; b: speckled multi-colour berber), ``tiles`` (a: square
    tiles, light grout; b: large diagonal tiles, marble veins, dark grout), ``cloth`` (a: stripes
    or checks; b: dots or paisley-like blobs on a tablecloth, or a dark bag)."""
    w, h = size
    if style == "c":
        return _surface_c(kind, size, rng)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "felt":
        base = _colour(rng, [40, 110, 30] if style == "a" else rng.choice([[120, 60, 20], [40, 40, 140], [90, 90, 90]]))
        img = base * (1 + 0.06 * _noise(h, w, rng, 3)[..., None] + 0.05 * _noise(h, w, rng, 60)[..., None])
        if style == "b":
            r = np.hypot((x - w / 2) / w, (y - h / 2) / h)
            img *= (1 - 0.5 * r ** 2)[..., None]
    elif kind == "wood":
        base = _colour(rng, rng.choice([[60, 110, 170], [40, 75, 120], [110, 160, 200], [30, 50, 80]]), 0.2)
        if style == "a":
            ang = rng.uniform(0, math.pi)
            u = x * math.cos(ang) + y * math.sin(ang)
            v = -x * math.sin(ang) + y * math.cos(ang)
            g = np.sin((u + 15 * _noise(h, w, rng, 120)) / rng.uniform(3, 9)) * 0.5 + 0.5
            img = base * (0.78 + 0.3 * g[..., None]) * (1 + 0.05 * _noise(h, w, rng, 4)[..., None])
            img *= (1 + 0.08 * np.sin(v / rng.uniform(40, 120)))[..., None]
        else:
            pw = rng.uniform(60, 160)
            ang = rng.choice([0.0, math.pi / 2]) + rng.uniform(-0.2, 0.2)
            u = x * math.cos(ang) + y * math.sin(ang)
            v = -x * math.sin(ang) + y * math.cos(ang)
            plank = np.floor(v / pw)
            shade = (np.sin(plank * 12.9898) * 43758.5453) % 1.0
            g = np.sin((u + plank * 97 + 6 * _noise(h, w, rng, 40)) / rng.uniform(2, 5)) * 0.5 + 0.5
            img = base * (0.75 + 0.2 * shade[..., None] + 0.15 * g[..., None])
            seam = np.abs((v % pw) - pw / 2) > pw / 2 - 1.5
            img[seam] *= 0.45
            for _ in range(int(rng.integers(0, 4))):
                cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(5, 18)
                d = np.hypot(x - cx, (y - cy) * 1.8)
                img *= (1 - 0.5 * np.exp(-(d / r) ** 2))[..., None]
    elif kind == "carpet":
        if style == "a":
            base = _colour(rng, rng.choice([[120, 120, 120], [130, 160, 180], [60, 80, 110], [150, 150, 160]]), 0.2)
            pile = rng.normal(0, 1, (h, w)).astype(np.float32)
            pile = cv2.GaussianBlur(pile, (0, 0), rng.uniform(0.8, 1.6))
            img = base * (1 + 0.35 * pile[..., None] + 0.08 * _noise(h, w, rng, 40)[..., None])
        else:
            cols = np.array([_colour(rng, c, 0.3) for c in ([200, 200, 190], [90, 110, 140], [60, 60, 60],
                                                              [150, 170, 190], [120, 90, 160])], np.float32)
            idx = rng.integers(0, len(cols), (h // 2 + 1, w // 2 + 1))
            speck = cv2.resize(cols[idx], (w, h), interpolation=cv2.INTER_NEAREST)
            img = cv2.GaussianBlur(speck, (0, 0), 0.8) * (1 + 0.1 * _noise(h, w, rng, 30)[..., None])
    elif kind == "tiles":
        if style == "a":
            t = rng.uniform(80, 260)
            base = _colour(rng, rng.choice([[220, 220, 215], [180, 190, 200], [150, 160, 170], [200, 210, 225]]), 0.1)
            grout = _colour(rng, [170, 170, 170], 0.2)
            ang = rng.uniform(-0.3, 0.3)
            u = x * math.cos(ang) + y * math.sin(ang)
            v = -x * math.sin(ang) + y * math.cos(ang)
            cell = (np.floor(u / t) * 7 + np.floor(v / t) * 13) % 5 / 5.0
            img = base * (0.93 + 0.08 * cell[..., None]) * (1 + 0.03 * _noise(h, w, rng, 8)[..., None])
            line = (np.abs(u % t) < 3) | (np.abs(v % t) < 3)
            img[line] = grout
        else:
            t = rng.uniform(150, 400)
            base = _colour(rng, rng.choice([[235, 235, 235], [200, 205, 210], [120, 130, 140], [60, 60, 70]]), 0.1)
            u, v = (x + y) / math.sqrt(2), (x - y) / math.sqrt(2)
            vein = np.abs(_noise(h, w, rng, 50)) < 0.05
            img = base * (1 + 0.04 * _noise(h, w, rng, 20)[..., None])
            img[vein] *= 0.8
            line = (np.abs(u % t) < 2.5) | (np.abs(v % t) < 2.5)
            img[line] = _colour(rng, [50, 50, 50], 0.3)
    elif kind == "cloth":
        if style == "a":
            c1 = _colour(rng, rng.choice([[180, 60, 40], [40, 40, 160], [40, 120, 40], [200, 200, 200], [60, 40, 30]]))
            c2 = _colour(rng, rng.choice([[230, 230, 230], [40, 40, 40], [30, 150, 200]]))
            p = rng.uniform(10, 50)
            ang = rng.uniform(0, math.pi)
            u = x * math.cos(ang) + y * math.sin(ang)
            v = -x * math.sin(ang) + y * math.cos(ang)
            m = ((u // p) % 2).astype(np.float32)
            if rng.random() < 0.5:
                m = np.abs(m - ((v // p) % 2)) * 0.5 + 0.25 * m
            img = c1 * (1 - m[..., None]) + c2 * m[..., None]
        else:
            if rng.random() < 0.3:  # a dark bag or jacket
                img = _colour(rng, [35, 30, 30], 0.4) * (1 + 0.3 * _noise(h, w, rng, 25)[..., None])
            else:
                c1 = _colour(rng, rng.choice([[200, 220, 240], [90, 40, 120], [40, 90, 180], [230, 230, 230]]))
                c2 = _colour(rng, rng.choice([[40, 40, 200], [200, 120, 40], [30, 30, 30], [60, 160, 60]]))
                img = np.empty((h, w, 3), np.float32)
                img[:] = c1
                p = rng.uniform(18, 60)
                for cy in np.arange(0, h + p, p):
                    for cx in np.arange((cy // p) % 2 * p / 2, w + p, p):
                        cv2.ellipse(img, (int(cx), int(cy)), (int(p * 0.25), int(p * rng.uniform(0.15, 0.3))),
                                    float(rng.uniform(0, 180)), 0, 360, c2.tolist(), -1)
        img = img * (1 + 0.06 * _noise(h, w, rng, 2)[..., None])
    else:
        raise ValueError(f"unknown surface {kind!r}")
    return np.clip(img, 0, 255).astype(np.uint8)


def _surface_c(kind: str, size: tuple[int, int], rng) -> np.ndarray:
    """Style ``c``, the calibration set's own surfaces (neither training's ``a`` nor the held-out
    ``b``): felt as a lit two-colour gradient; wood as cross-cut rings; carpet as two-colour
    blotches; tiles as a running bond of bricks; cloth as a plaid."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "felt":
        c1, c2 = _colour(rng, [90, 30, 110]), _colour(rng, rng.choice([[60, 90, 40], [30, 60, 120]]))
        t = np.clip((x * rng.uniform(-1, 1) + y * rng.uniform(-1, 1)) / max(w, h) + 0.5, 0, 1)[..., None]
        img = (c1 * t + c2 * (1 - t)) * (1 + 0.05 * _noise(h, w, rng, 2)[..., None])
    elif kind == "wood":
        base = _colour(rng, rng.choice([[50, 100, 160], [70, 120, 150], [40, 60, 100]]), 0.2)
        cx, cy = rng.uniform(-0.5, 1.5) * w, rng.uniform(-0.5, 1.5) * h
        d = np.hypot(x - cx, y - cy) + 20 * _noise(h, w, rng, 80)
        g = np.sin(d / rng.uniform(4, 10)) * 0.5 + 0.5
        img = base * (0.7 + 0.35 * g[..., None]) * (1 + 0.04 * _noise(h, w, rng, 3)[..., None])
    elif kind == "carpet":
        c1, c2 = _colour(rng, [170, 150, 140], 0.3), _colour(rng, [80, 70, 90], 0.3)
        m = (_noise(h, w, rng, rng.uniform(4, 12)) > 0).astype(np.float32)
        m = cv2.GaussianBlur(m, (0, 0), 1.0)[..., None]
        img = (c1 * m + c2 * (1 - m)) * (1 + 0.15 * rng.normal(0, 1, (h, w, 1)).astype(np.float32))
    elif kind == "tiles":
        bw, bh = rng.uniform(60, 200), rng.uniform(30, 90)
        base = _colour(rng, rng.choice([[210, 215, 220], [90, 110, 160], [170, 175, 170]]), 0.1)
        row = np.floor(y / bh)
        u = x + (row % 2) * bw / 2
        img = base * (0.95 + 0.05 * ((np.floor(u / bw) * 3 + row * 5) % 4 / 4.0))[..., None]
        line = (np.abs(u % bw) < 2.5) | (np.abs(y % bh) < 2.5)
        img[line] = _colour(rng, [110, 110, 110], 0.3)
    elif kind == "cloth":
        c1, c2, c3 = (_colour(rng, c) for c in ([40, 40, 150], [40, 110, 40], [210, 210, 210]))
        p = rng.uniform(20, 70)
        a = ((x // p) % 2)[..., None]
        b = ((y // (p * rng.uniform(0.6, 1.4))) % 2)[..., None]
        img = c1 * (1 - a) * (1 - b) + c2 * a * b + c3 * np.abs(a - b) * 0.8
        img = img * (1 + 0.06 * _noise(h, w, rng, 2)[..., None])
    else:
        raise ValueError(f"unknown surface {kind!r}")
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------- faces

def random_face(code: str, alphabet: str, font: str | int, rng: np.random.Generator) -> np.ndarray:
    """A standard face with a randomised index: glyph 8–12 % of the card's height, pip, margins,
    ink colours, paper tint, sometimes four indices (CARD_H×CARD_W×3 BGR)."""
    paper = tuple(int(v) for v in np.clip(rng.normal([238, 243, 246], 8), 190, 255))
    gh = int(rng.uniform(0.08, 0.12) * rc.CARD_H)
    ph = int(gh * rng.uniform(0.6, 0.85))
    mx, my = int(rng.uniform(7, 16)), int(rng.uniform(7, 16))
    red = tuple(int(v) for v in np.clip(rng.normal([35, 30, 200], [15, 15, 25]), 0, 255))
    black = tuple(int(v) for v in np.clip(rng.normal([30, 30, 30], 10), 0, 90))
    return rc.render_face(code, alphabet, font, four_index=bool(rng.random() < 0.2), paper=paper,
                          index=(gh, ph, mx, my, int(rng.uniform(2, 8))), colours=(red, black),
                          pip_font=font if rng.random() < 0.6 else None, pip_aspect=float(rng.uniform(0.8, 1.15)))


# ---------------------------------------------------------------------------- scenes

@dataclass
class SceneCard:
    """Ground truth of one card in a scene: code, quad (TL, TR, BR, BL px, face order), the
    width in px, which index corners (0 TL, 2 BR) are visible (≥ 85 % of the index area
    uncovered and in view), whether it lies under another card."""
    code: str
    quad: np.ndarray
    width: float
    angle: float
    visible: tuple[int, ...] = ()
    under: bool = False
    extra: dict = field(default_factory=dict)


def _index_quad(quad: np.ndarray, corner: int) -> np.ndarray:
    """The index area (the reader's patch, 27 % × 33 % of the card) at ``corner`` of ``quad``."""
    q = np.asarray(quad, np.float64)
    o = q[corner]
    nx, ny = q[[1, 0, 3, 2][corner]], q[[3, 2, 1, 0][corner]]
    ux, uy = (nx - o) * 0.22, (ny - o) * 0.27
    return np.array([o, o + ux, o + ux + uy, o + uy], np.float32)


def _hand(frame: np.ndarray, rng) -> np.ndarray:
    """A hand-like occluder entering from a frame edge (skin or sleeve colour); returns its mask."""
    H, W = frame.shape[:2]
    m = np.zeros((H, W), np.uint8)
    side = int(rng.integers(4))
    r = rng.uniform(0.08, 0.18) * min(H, W) + 20
    t = rng.uniform(0.15, 0.85)
    pts = {0: (t * W, -r * 0.3), 1: (W + r * 0.3, t * H), 2: (t * W, H + r * 0.3), 3: (-r * 0.3, t * H)}[side]
    cx, cy = pts
    cv2.ellipse(m, (int(cx), int(cy)), (int(r), int(r * 1.3)), float(rng.uniform(0, 180)), 0, 360, 255, -1)
    ang = math.atan2(H / 2 - cy, W / 2 - cx)
    for k in range(int(rng.integers(2, 5))):
        a = ang + rng.uniform(-0.6, 0.6)
        L = r * rng.uniform(1.2, 2.0)
        p1 = (int(cx + r * 0.5 * math.cos(a)), int(cy + r * 0.5 * math.sin(a)))
        p2 = (int(cx + L * math.cos(a)), int(cy + L * math.sin(a)))
        cv2.line(m, p1, p2, 255, max(4, int(r * 0.28)))
    skin = _colour(rng, rng.choice([[120, 150, 200], [90, 120, 170], [60, 80, 110], [150, 170, 215]]), 0.15)
    a = cv2.GaussianBlur(m.astype(np.float32) / 255, (0, 0), 2)[..., None]
    shade = 1 + 0.15 * _noise(H, W, rng, 30)[..., None]
    frame[:] = np.clip(frame * (1 - a) + skin * shade * a, 0, 255).astype(np.uint8)
    return m


def _clutter(frame: np.ndarray, rng) -> None:
    """Coins, a phone, a pen: small things on the table that are no card."""
    H, W = frame.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        k = rng.random()
        cx, cy = int(rng.uniform(0, W)), int(rng.uniform(0, H))
        if k < 0.5:
            r = int(rng.uniform(0.015, 0.035) * W) + 3
            col = _colour(rng, rng.choice([[60, 150, 190], [170, 170, 170]]), 0.2).tolist()
            cv2.circle(frame, (cx, cy), r, col, -1, cv2.LINE_AA)
            cv2.circle(frame, (cx, cy), max(1, r - 3), [c * 0.8 for c in col], 1, cv2.LINE_AA)
        elif k < 0.8:
            box = ((cx, cy), (rng.uniform(0.05, 0.1) * W, rng.uniform(0.1, 0.2) * W), float(rng.uniform(0, 180)))
            cv2.fillConvexPoly(frame, np.int32(cv2.boxPoints(box)), _colour(rng, [30, 30, 30], 0.3).tolist(), cv2.LINE_AA)
        else:
            a = rng.uniform(0, math.pi)
            L = rng.uniform(0.1, 0.25) * W
            cv2.line(frame, (cx, cy), (int(cx + L * math.cos(a)), int(cy + L * math.sin(a))),
                     _colour(rng, rng.choice([[200, 60, 30], [30, 30, 30]]), 0.3).tolist(), max(3, int(0.008 * W)))


def photometric(frame: np.ndarray, rng, light: dict) -> np.ndarray:
    """Light colour and level, a soft shadow, glare, motion blur, defocus, noise and JPEG."""
    H, W = frame.shape[:2]
    img = frame.astype(np.float32)
    gain = light.get("gain", 1.0) * (1 + 0.25 * _noise(H, W, rng, max(H, W) / 2))
    img *= gain[..., None]
    img *= np.asarray(light.get("tint", (1, 1, 1)), np.float32)
    if light.get("shadow"):
        m = np.zeros((H, W), np.float32)
        pts = rng.uniform([0, 0], [W, H], (int(rng.integers(3, 6)), 2)).astype(np.int32)
        cv2.fillPoly(m, [cv2.convexHull(pts)], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(8, 40))
        img *= (1 - light["shadow"] * m)[..., None]
    if light.get("glare"):
        m = np.zeros((H, W), np.float32)
        cv2.ellipse(m, (int(rng.uniform(0, W)), int(rng.uniform(0, H))),
                    (int(rng.uniform(0.05, 0.2) * W), int(rng.uniform(0.03, 0.12) * W)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(10, 30))
        img += light["glare"] * 255 * m[..., None]
    if light.get("motion", 0) > 1:
        n = int(light["motion"])
        k = np.zeros((n, n), np.float32)
        a = rng.uniform(0, math.pi)
        c = (n - 1) / 2
        cv2.line(k, (int(round(c - c * math.cos(a))), int(round(c - c * math.sin(a)))),
                 (int(round(c + c * math.cos(a))), int(round(c + c * math.sin(a)))), 1.0, 1)
        img = cv2.filter2D(img, -1, k / max(1.0, k.sum()))
    if light.get("blur", 0) > 0:
        img = cv2.GaussianBlur(img, (0, 0), light["blur"])
    img += rng.normal(0, light.get("noise", 2.0), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    q = light.get("jpeg")
    if q:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(q)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def random_light(rng, harsh: bool = True) -> dict:
    """A random light: level, colour (neutral, warm, cool or coloured), shadow, glare, blur, noise,
    JPEG quality. ``harsh=False`` keeps to a quiet table (the simulated table's default)."""
    kind = rng.choice(["neutral", "warm", "cool", "coloured"], p=[0.35, 0.3, 0.2, 0.15] if harsh else [0.5, 0.3, 0.2, 0.0])
    tint = {"neutral": (1, 1, 1), "warm": (0.72, 0.9, 1.08), "cool": (1.1, 1.0, 0.85)}.get(kind)
    if tint is None:
        tint = tuple(rng.uniform(0.6, 1.15, 3))
    s = 1.0 if harsh else 0.5
    return {"gain": float(rng.uniform(0.6, 1.2) if harsh else rng.uniform(0.8, 1.1)), "tint": tint,
            "shadow": float(rng.uniform(0.2, 0.5)) if rng.random() < 0.35 * s else 0.0,
            "glare": float(rng.uniform(0.2, 0.6)) if rng.random() < 0.2 * s else 0.0,
            "motion": float(rng.choice([0, 0, 0, 3, 5, 7])) if harsh else 0.0,
            "blur": float(rng.choice([0, 0, 0.5, 0.8, 1.2] if harsh else [0, 0, 0.5])),
            "noise": float(rng.uniform(1, 5 if harsh else 3)),
            "jpeg": int(rng.uniform(40, 92)) if rng.random() < 0.7 * s else 0}


def table_scene(codes: list[str], rng: np.random.Generator, size=(1280, 720), surface_kind: str | None = None,
                style: str = "a", width: tuple[float, float] = (70, 400), overlap: bool = False,
                alphabet: str = "en", font_split: str = "train", faces: dict | None = None,
                hands: float = 0.3, clutter: float = 0.4, light: dict | None = None,
                max_angle: float = 180.0) -> tuple[np.ndarray, list[SceneCard], dict]:
    """Cards ``codes`` lying on a procedural table.

    Args:
        size: (width, height) px; ``width``: card width band (px) to draw from (clipped to fit).
        overlap: lay the cards in overlapping pairs (the second on the first, shifted so the
            first keeps at least one index in view most of the time).
        faces: ``code → face image`` to use instead of rendered faces (e.g. real photos).
        max_angle: the cards' rotation is drawn from ±this (degrees).

    Returns:
        (frame, truth per card in paste order, scene facts: surface, style, light, font).
    """
    W, H = size
    kind = surface_kind or str(rng.choice(SURFACES))
    frame = surface(kind, size, rng, style)
    if rng.random() < clutter:
        _clutter(frame, rng)
    fl = fonts(font_split, cyrillic=alphabet == "ru") or fonts(font_split) or (0,)
    font = fl[int(rng.integers(len(fl)))]
    n = len(codes)
    wmax = min(width[1], 0.95 * H / 1.4 / (1.3 if overlap else 1), 0.9 * W / max(1, (n + 1) // 2 if overlap else n))
    cw = float(np.exp(rng.uniform(np.log(width[0]), np.log(max(width[0] + 1, wmax)))))
    truth: list[SceneCard] = []
    masks = []
    slots = n if not overlap else (n + 1) // 2
    for i, code in enumerate(codes):
        ch = cw * rc.CARD_H / rc.CARD_W * rng.uniform(0.98, 1.02)
        if overlap and i % 2 == 1:
            prev = truth[-1]
            a = math.radians(prev.angle)
            dx, dy = rng.uniform(0.25, 0.5) * cw, rng.uniform(0.2, 0.45) * ch
            sgn = rng.choice([-1, 1])
            c0 = prev.quad.mean(0)
            cx = c0[0] + sgn * dx * math.cos(a) - dy * math.sin(a)
            cy = c0[1] + sgn * dx * math.sin(a) + dy * math.cos(a)
            angle = prev.angle + float(rng.uniform(-25, 25))
        else:
            slot = i if not overlap else i // 2
            span = W / slots
            cx = span * (slot + 0.5) + rng.uniform(-0.15, 0.15) * max(0.0, span - cw)
            cy = H / 2 + rng.uniform(-0.5, 0.5) * max(0.0, H - ch * (1.5 if overlap else 1.1))
            angle = float(rng.uniform(-max_angle, max_angle))
        quad = rs.pose_quad((cx, cy), angle, ch, 0.0)
        # perspective: a camera not straight above (up to ±8 % of the size at one end)
        tilt = rng.uniform(0, 0.08)
        quad[:2] += (quad[:2] - quad.mean(0)) * tilt * rng.choice([-1, 1])
        if faces and code in faces:
            face = faces[code]
        elif code == "back":
            face = rc.render_back(int(rng.integers(2)))
        else:
            face = random_face(code, alphabet, font, rng)
        rs.paste_card(frame, face, quad, shadow=bool(rng.random() < 0.7))
        m = np.zeros((H, W), np.uint8)
        cv2.fillConvexPoly(m, np.round(quad).astype(np.int32), 255)
        masks.append(m)
        truth.append(SceneCard(code, quad, cw, angle))
    occ = [np.zeros((H, W), np.uint8)]
    if rng.random() < hands:
        occ.append(_hand(frame, rng))
    light = light or random_light(rng)
    frame = photometric(frame, rng, light)
    for i, t in enumerate(truth):
        cover = np.zeros((H, W), np.uint8)
        for m in masks[i + 1:] + occ:
            cover |= m
        t.under = any(np.count_nonzero(m & masks[i]) for m in masks[i + 1:])
        vis = []
        for k in (0, 2):
            iq = _index_quad(t.quad, k)
            im = np.zeros((H, W), np.uint8)
            cv2.fillConvexPoly(im, np.round(iq).astype(np.int32), 255)
            inside = cv2.pointPolygonTest(np.float32([[0, 0], [W, 0], [W, H], [0, H]]), tuple(map(float, iq.mean(0))), False) > 0
            area = 0.22 * 0.27 * t.width * t.width * rc.CARD_H / rc.CARD_W
            seen = np.count_nonzero(im & ~cover)
            if inside and seen >= 0.85 * area and iq.min() >= 0 and iq[:, 0].max() < W and iq[:, 1].max() < H:
                vis.append(k)
        t.visible = tuple(vis)
    occluder = np.zeros((H, W), np.uint8)
    for m in occ:
        occluder |= m
    return frame, truth, {"surface": kind, "style": style, "light": light, "font": font, "occluder": occluder}


def angle_band(angle: float) -> str:
    """The per-condition table's angle band of a card's rotation (degrees, folded to 0–90)."""
    a = abs(((angle + 90) % 180) - 90)
    return "0-15" if a < 15 else ("15-45" if a < 45 else "45-90")


def width_band(w: float) -> str:
    """The per-condition table's card width band (px)."""
    return "70-110" if w < 110 else ("110-180" if w < 180 else ("180-280" if w < 280 else "280-400"))


#: Frame sizes of the held-out set: webcam, phone portrait and landscape, the table camera.
HELDOUT_SIZES = ((1280, 720), (960, 540), (378, 504), (640, 480), (504, 378))


def heldout_scene(i: int, seed: int = 7_000_000, style: str = "b", font_split: str = "heldout"):
    """Scene ``i`` of the held-out "new table" set: style-``b`` surfaces and held-out fonts only
    (never used in training), new seeds, 1–4 cards of a 52-card deck + joker in a random
    alphabet, overlapping pairs in a third of the scenes. Returns (frame, truth, facts) with
    ``facts["alphabet"]`` and ``facts["overlap"]`` added. (:func:`validation_scene`: the same
    with the training styles and fonts, for choosing the reader's constants.)"""
    rng = np.random.default_rng(seed + i)
    alphabet = str(rng.choice(["en", "en", "ru", "de"]))
    overlap = bool(rng.random() < 0.33)
    n = int(rng.integers(1, 3)) * 2 if overlap else int(rng.integers(1, 5))
    deck = rc.DECKS[52] + ["JK"]
    codes = [deck[k] for k in rng.choice(len(deck), n, replace=False)]
    size = HELDOUT_SIZES[int(rng.integers(len(HELDOUT_SIZES)))]
    frame, truth, facts = table_scene(codes, rng, size, style=style, overlap=overlap, alphabet=alphabet,
                                      font_split=font_split, width=(70, 400))
    facts.update(alphabet=alphabet, overlap=overlap, size=size)
    return frame, truth, facts


def calibration_scene(i: int):
    """Scene ``i`` of the confidence calibration set (``tools/calibrate_cards.py``): like
    :func:`heldout_scene` on surfaces of style ``c`` and the ``calib`` fonts, seeds 9 000 000+
    — neither trained on nor the held-out set."""
    return heldout_scene(i, 9_000_000, "c", "calib")


def validation_scene(i: int):
    """Scene ``i`` of the validation set: like :func:`heldout_scene` but on the training styles
    and fonts, with seeds of its own. The reader's constants are chosen on it, never on the
    held-out set or a real photo."""
    return heldout_scene(i, 8_000_000, "a", "train")
