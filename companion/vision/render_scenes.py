"""Synthetic table scenes of rendered cards (:mod:`companion.vision.render_cards` faces): the
card reader's tests and the simulated table.

Deterministic from a seed, like the faces. Images are H×W×3 BGR uint8 (OpenCV order).

* :func:`pose_quad`, :func:`paste_card`, :func:`background`, :func:`photometric` — the building
  blocks (also of :mod:`companion.vision.scene` and :mod:`companion.vision.table_scenes`).
* :func:`compose_scene` / :func:`scatter_scene` / :func:`render_layout` — cards under random pose,
  light and blur on felt, dark cloth or wood, returning the frame and the ground truth
  (:class:`Placed`).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.render_cards import (CARD_H, CARD_W, face_for, font_paths, render_back, render_face,
                                           rounded_alpha)


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
