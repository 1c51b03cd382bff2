"""Domain-randomised table scenes: cards with randomised faces laid on a procedural table, with
occluders, light and camera effects, and their ground truth — the index classifier's training
composites (``tools/train_cards.py``) and the held-out, validation and calibration sets of
``bench/cards.py``.

Everything is deterministic from a ``numpy.random.Generator``. Images are H×W×3 BGR uint8.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision import render_cards as rc
from companion.vision import render_scenes as rs
# the parts a scene is made of, also used from here by the tools, benchmarks and tests that
# compose scenes of their own
from companion.vision.index_fonts import fonts
from companion.vision.scene_light import photometric, random_light
from companion.vision.table_surfaces import SURFACES, _colour, _noise, surface


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
