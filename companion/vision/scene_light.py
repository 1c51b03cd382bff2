"""Light and camera on a rendered table frame: light level and colour, shadow, glare, motion blur,
defocus, noise and JPEG."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision.table_surfaces import _noise


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

