"""Procedural table surfaces (felt, wood, carpet, tiles, cloth) for rendered card scenes
(:mod:`companion.vision.table_scenes`) and the simulated table's camera.

Styles keep the measured sets honest: style ``"a"`` is what training uses, style ``"b"`` only
the held-out set, style ``"c"`` only the calibration set.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: Surface kinds (the per-condition table's "background kind").
SURFACES = ("felt", "wood", "carpet", "tiles", "cloth")


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

