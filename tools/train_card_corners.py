"""Train the card reader's index-corner detector (companion/vision/card_corners.py) and export it.

    nice -n 10 .venv/bin/python tools/train_card_corners.py [--scenes 3000] [--val-scenes 200]
        [--steps 4000] [--seed 4] [--procs 1] [--threads 1]

Training composites (domain randomisation, docs/vision-cards.md "Ninth pass"): style-"a"
procedural tables (:mod:`companion.vision.table_scenes`), their colours permuted, two blended,
plain light or dark tables, sheets of paper, coins, pens and hands; 1–7 cards 22–230 px wide at
the network's 512-px scale, any rotation, a little perspective, scattered, touching, in
overlapping pairs or fanned; faces rendered with the training fonts (DejaVu, Liberation; 20 %
four-index) or, with ``--real-faces``, the shared rectified Vosloo photos (the 24-card Piatnik
deck, four indices) — which then no longer count as held out; backs; random light colour and
level, shadow, glare, motion blur, defocus, noise and JPEG.

Target per card corner whose index is in view and at most 15 % covered: a Gaussian peak at the
paper corner on the stride-4 grid, with the sub-cell offset, the unit directions of the short and
long sides and the card's size; corners with a partly covered index are left out of the loss.
Scene seeds are ``--seed`` × 10 000 000 on (validation 5 000 000 further), never the measured
sets' (7–20 million). Output: companion/vision/models/card_corners.onnx + .json. Needs the
``train`` extra (torch, onnx).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.vision import card_corners as CC  # noqa: E402
from companion.vision import render_cards as rc  # noqa: E402
from companion.vision import table_scenes as T  # noqa: E402
from companion.vision import table_surfaces as TS  # noqa: E402

SHARED = Path(os.environ.get("COMPANION_SHARED") or ROOT.parent / "shared")
VOSLOO = SHARED / "data" / "real" / "cards" / "Vosloo__playing-cards-detection"
#: Scene seeds of the measured sets (table_scenes: held-out 7 000 000+, validation 8 000 000+,
#: calibration 9 000 000+) and of the index classifier's renders: never trained on.
RESERVED = range(7_000_000, 30_000_000)
SIZES = ((512, 288), (512, 384), (384, 512), (288, 512), (512, 288), (512, 384))
DECK = rc.DECKS[52] + ["JK"]
#: Card width band (px at the input scale).
WIDTH = (22.0, 230.0)
REAL_FACES = 0.0


def real_faces() -> list[tuple[str, np.ndarray]]:
    """The rectified Vosloo photos as (code, face) — only with ``--real-faces``."""
    import csv
    with open(VOSLOO / "MANIFEST.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(r["label"], cv2.imread(str(VOSLOO / r["filename"]))) for r in rows]


_FACES: list = []


def _alpha(h: int, w: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = max(2, int(0.06 * w))
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(m, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in [(r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)]:
        cv2.circle(m, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return m


def paste(frame: np.ndarray, face: np.ndarray, quad: np.ndarray, shadow: bool) -> None:
    """Warp ``face`` (any size) onto ``frame`` at ``quad`` (TL, TR, BR, BL) with rounded corners."""
    H, W = frame.shape[:2]
    fh, fw = face.shape[:2]
    src = np.float32([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]])
    M = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    x0, y0 = np.floor(quad.min(0)).astype(int) - 6
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 6
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:
        return
    Tm = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ M
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, Tm, size, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(_alpha(fh, fw), Tm, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    if shadow:
        sh = np.roll(cv2.GaussianBlur(alpha, (0, 0), 2), (2, 2), (0, 1))
        roi *= (1 - 0.35 * sh[..., None])
    a = alpha[..., None]
    frame[y0:y1, x0:x1] = np.clip(roi * (1 - a) + warped.astype(np.float32) * a, 0, 255).astype(np.uint8)


def table(rng, size) -> np.ndarray:
    """A randomised table: a style-a surface, its colours permuted or two blended, or a plain
    light or dark table; sometimes sheets of paper and clutter on it."""
    W, H = size
    r = rng.random()
    if r < 0.12:
        img = np.empty((H, W, 3), np.float32)
        img[:] = rng.uniform(20, 250, 3) if rng.random() < 0.5 else rng.uniform(170, 250) + rng.uniform(-15, 15, 3)
        img *= 1 + 0.08 * TS._noise(H, W, rng, rng.uniform(2, 80))[..., None]
        img = np.clip(img, 0, 255).astype(np.uint8)
    else:
        img = TS.surface(str(rng.choice(TS.SURFACES)), size, rng, "a")
        if rng.random() < 0.2:
            m = (TS._noise(H, W, rng, rng.uniform(20, 150)) > 0).astype(np.float32)
            m = cv2.GaussianBlur(m, (0, 0), 3)[..., None]
            other = TS.surface(str(rng.choice(TS.SURFACES)), size, rng, "a")
            img = (img * m + other * (1 - m)).astype(np.uint8)
        if rng.random() < 0.4:
            img = np.ascontiguousarray(img[..., rng.permutation(3)])
        if rng.random() < 0.3:  # lighter or darker overall
            g = rng.uniform(0.5, 1.6)
            img = np.clip(255 * (img / 255.0) ** (1 / g), 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.25 else 0):  # sheets of paper: no card
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        a, b = rng.uniform(30, 250), rng.uniform(30, 250)
        box = ((cx, cy), (a, b), float(rng.uniform(0, 180)))
        col = rng.uniform(200, 255) + rng.uniform(-10, 10, 3)
        cv2.fillConvexPoly(img, np.int32(cv2.boxPoints(box)), col.tolist(), cv2.LINE_AA)
        if rng.random() < 0.5:  # printed lines on it
            for k in range(int(rng.integers(2, 8))):
                y = int(cy - b / 3 + k * 6)
                cv2.line(img, (int(cx - a / 3), y), (int(cx + a / 3), y), (60, 60, 60), 1)
    if rng.random() < 0.4:
        T._clutter(img, rng)
    return img


def face(rng, code: str, alphabet: str) -> tuple[np.ndarray, bool]:
    """(face image, four-index) of one card: a real photo, a rendered face, or a back."""
    if code == "back":
        return rc.render_back(int(rng.integers(2))), False
    if _FACES and rng.random() < REAL_FACES:
        return _FACES[int(rng.integers(len(_FACES)))][1], True
    fl = T.fonts("train", cyrillic=alphabet == "ru") or (0,)
    font = fl[int(rng.integers(len(fl)))]
    four = bool(rng.random() < 0.2)
    paper = tuple(int(v) for v in np.clip(rng.normal([238, 243, 246], 8), 190, 255))
    gh = int(rng.uniform(0.08, 0.12) * rc.CARD_H)
    red = tuple(int(v) for v in np.clip(rng.normal([35, 30, 200], [15, 15, 25]), 0, 255))
    black = tuple(int(v) for v in np.clip(rng.normal([30, 30, 30], 10), 0, 90))
    img = rc.render_face(code, alphabet, font, four_index=four, paper=paper,
                         index=(gh, int(gh * rng.uniform(0.6, 0.85)), int(rng.uniform(7, 16)),
                                int(rng.uniform(7, 16)), int(rng.uniform(2, 8))), colours=(red, black),
                         pip_font=fl[int(rng.integers(len(fl)))] if rng.random() < 0.6 else None,
                         pip_aspect=float(rng.uniform(0.8, 1.15)))
    return img, four


def _quad(c, angle: float, w: float, h: float) -> np.ndarray:
    a = math.radians(angle)
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    pts = np.float32([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return pts @ R.T + np.float32(c)


def layout(rng, n: int, W: int, H: int, cw: float) -> list[tuple[tuple[float, float], float]]:
    """Centres and angles of ``n`` cards: scattered, in overlapping pairs, or fanned."""
    mode = rng.choice(["scatter", "pairs", "fan"], p=[0.45, 0.35, 0.2])
    out: list[tuple[tuple[float, float], float]] = []
    while len(out) < n:
        c = (rng.uniform(0.1, 0.9) * W, rng.uniform(0.1, 0.9) * H)
        ang = float(rng.uniform(-180, 180))
        out.append((c, ang))
        if mode == "pairs" and len(out) < n:
            d = rng.uniform(0.25, 0.6) * cw
            b = math.radians(rng.uniform(0, 360))
            out.append(((c[0] + d * math.cos(b), c[1] + d * math.sin(b)), ang + float(rng.uniform(-30, 30))))
        elif mode == "fan":
            step = rng.uniform(0.15, 0.35) * cw
            b = math.radians(ang + rng.choice([0, 90]))
            for k in range(1, int(rng.integers(2, 5))):
                if len(out) >= n:
                    break
                out.append(((c[0] + k * step * math.cos(b), c[1] + k * step * math.sin(b)),
                            ang + float(rng.uniform(-12, 12))))
    return out[:n]


def index_quad(quad: np.ndarray, k: int) -> np.ndarray:
    return T._index_quad(quad, k)


def scene(seed: int):
    """(frame h×w×3 uint8, targets CHANNELS+1 × h/4 × w/4 float16: heat, the regression
    channels, and the loss weight of the heat) of one training composite."""
    rng = np.random.default_rng(seed)
    W, H = SIZES[int(rng.integers(len(SIZES)))]
    frame = table(rng, (W, H))
    n = int(rng.integers(1, 8))
    alphabet = str(rng.choice(["en", "ru", "de"]))
    cw = float(np.exp(rng.uniform(math.log(WIDTH[0]), math.log(WIDTH[1]))))
    codes = [DECK[int(k)] for k in rng.choice(len(DECK), n, replace=False)]
    codes = ["back" if rng.random() < 0.08 else c for c in codes]
    cards = []
    for (c, ang), code in zip(layout(rng, n, W, H, cw), codes):
        img, four = face(rng, code, alphabet)
        aspect = img.shape[0] / img.shape[1] * rng.uniform(0.98, 1.02)
        w = cw * rng.uniform(0.97, 1.03)
        q = _quad(c, ang, w, w * aspect)
        tilt = rng.uniform(0, 0.08)
        q[:2] += (q[:2] - q.mean(0)) * tilt * rng.choice([-1, 1])
        paste(frame, img, q, bool(rng.random() < 0.7))
        cards.append((q, four and code != "back", code != "back"))
    occ = np.zeros((H, W), np.uint8)
    if rng.random() < 0.3:
        occ |= T._hand(frame, rng)
    light = T.random_light(rng)
    light["motion"] = float(light.get("motion", 0)) * 0.6
    frame = T.photometric(frame, rng, light)
    gh, gw = H // CC.STRIDE, W // CC.STRIDE
    tgt = np.zeros((CC.CHANNELS + 1, gh, gw), np.float32)
    tgt[-1] = 1.0
    yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
    masks = []
    for q, _, _ in cards:
        m = np.zeros((H, W), np.uint8)
        cv2.fillConvexPoly(m, np.round(q).astype(np.int32), 255)
        masks.append(m)
    for i, (q, four, printed) in enumerate(cards):
        if not printed:
            continue
        cover = occ.copy()
        for m in masks[i + 1:]:
            cover |= m
        for k in ((0, 1, 2, 3) if four else (0, 2)):
            iq = index_quad(q, k)
            im = np.zeros((H, W), np.uint8)
            cv2.fillConvexPoly(im, np.round(iq).astype(np.int32), 255)
            area = max(1, np.count_nonzero(im))
            inside = iq.min() >= 0 and iq[:, 0].max() < W and iq[:, 1].max() < H
            covered = np.count_nonzero(im & cover) / area
            c = q[k] / CC.STRIDE
            if not (0 <= c[0] < gw and 0 <= c[1] < gh):
                continue
            nx, ny = q[[1, 0, 3, 2][k]], q[[3, 2, 1, 0][k]]
            w, h = float(np.linalg.norm(nx - q[k])), float(np.linalg.norm(ny - q[k]))
            sig = float(np.clip(w / CC.STRIDE / 8, 0.7, 2.5))
            cx, cy = int(c[0]), int(c[1])
            g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sig * sig))
            if not inside or covered > 0.15:
                if covered < 0.6 or not inside:  # a partly covered or cut index: no loss there
                    tgt[-1][g > 0.3] = 0.0
                continue
            tgt[0] = np.maximum(tgt[0], g)
            u, v = (nx - q[k]) / max(w, 1e-6), (ny - q[k]) / max(h, 1e-6)
            for y in range(max(0, cy - 1), min(gh, cy + 2)):
                for x in range(max(0, cx - 1), min(gw, cx + 2)):
                    tgt[1:CC.CHANNELS, y, x] = [c[0] - x - 0.5, c[1] - y - 0.5, u[0], u[1], v[0], v[1],
                                                math.log(w / 32.0), math.log(h / w)]
    return frame, tgt.astype(np.float16)


def seed_ranges(seed: int, scenes: int, val_scenes: int) -> tuple[range, range]:
    base = seed * 10_000_000
    tr, va = range(base, base + scenes), range(base + 5_000_000, base + 5_000_000 + val_scenes)
    for r in (tr, va):
        if r and r.start < RESERVED.stop and RESERVED.start < r.stop:
            raise ValueError(f"--seed {seed}: scene seeds overlap the reserved {RESERVED.start}..{RESERVED.stop - 1}")
    return tr, va


def _init(real: float) -> None:
    global REAL_FACES
    REAL_FACES = real
    if real > 0:
        _FACES[:] = real_faces()


def make_data(seeds, procs: int, real: float):
    rows, t0 = [], time.time()
    with Pool(procs, initializer=_init, initargs=(real,)) as pool:
        for r in pool.imap(scene, seeds, chunksize=8):
            rows.append(r)
            if len(rows) % 250 == 0:
                print(f"  rendered {len(rows)}/{len(seeds)} scenes, {time.time() - t0:.0f} s", flush=True)
    return rows


def build_model():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def cbr(i, o, s=1, d=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o),
                             nn.ReLU(inplace=True))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.s4 = nn.Sequential(cbr(3, 12, 2), cbr(12, 24, 2), cbr(24, 24))          # stride 4
            self.s8 = nn.Sequential(cbr(24, 40, 2), cbr(40, 40))                          # 8
            self.s16 = nn.Sequential(cbr(40, 64, 2), cbr(64, 64), cbr(64, 64, d=2))       # 16
            self.l4, self.l8, self.l16 = nn.Conv2d(24, 32, 1), nn.Conv2d(40, 32, 1), nn.Conv2d(64, 32, 1)
            self.head = nn.Sequential(cbr(32, 32), nn.Conv2d(32, CC.CHANNELS, 1))
            with torch.no_grad():
                self.head[-1].bias[0] = -4.0

        def forward(self, x):
            f4 = self.s4(x)
            f8 = self.s8(f4)
            f16 = self.s16(f8)
            p8 = self.l8(f8) + F.interpolate(self.l16(f16), size=f8.shape[2:], mode="nearest")
            p4 = self.l4(f4) + F.interpolate(p8, size=f4.shape[2:], mode="nearest")
            return self.head(p4)
    return Net()


def losses(pred, tgt):
    """CenterNet's focal loss on the heat map (weighted, ignoring left-out corners) and L1 on
    the regression channels at the cells next to each peak."""
    import torch
    import torch.nn.functional as F
    heat, w = tgt[:, 0], tgt[:, -1]
    p = torch.sigmoid(pred[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat > 0.99).float()
    neg = (1 - pos) * w
    lp = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    ln = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg).sum()
    npos = pos.sum().clamp(min=1)
    reg_m = (tgt[:, 3:5].abs().sum(1) > 0).float()
    nreg = reg_m.sum().clamp(min=1)
    r = F.l1_loss(pred[:, 1:CC.CHANNELS], tgt[:, 1:CC.CHANNELS], reduction="none").sum(1)
    return (lp + ln) / npos, (r * reg_m).sum() / nreg


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=3000)
    ap.add_argument("--val-scenes", type=int, default=200)
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--crop", type=int, default=256)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--real-faces", type=float, default=0.0,
                    help="share of cards whose face is a shared rectified Vosloo photo (that set is then not held out)")
    ap.add_argument("--data", default="/tmp/card-corners/data.npz", help="cache of the rendered scenes")
    ap.add_argument("--out", default=str(CC.MODEL))
    a = ap.parse_args()
    import torch

    tr_seeds, va_seeds = seed_ranges(a.seed, a.scenes, a.val_scenes)
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    t0 = time.time()
    data = Path(a.data)
    if data.is_file():
        d = np.load(data, allow_pickle=True)
        train, val = list(d["train"]), list(d["val"])
    else:
        train = make_data(tr_seeds, a.procs, a.real_faces)
        val = make_data(va_seeds, a.procs, a.real_faces)
        data.parent.mkdir(parents=True, exist_ok=True)
        tr = np.empty(len(train), object)
        tr[:] = train
        va = np.empty(len(val), object)
        va[:] = val
        np.savez(data, train=tr, val=va)
    print(f"data: {len(train)} train / {len(val)} validation scenes, {time.time() - t0:.0f} s", flush=True)
    net = build_model()
    print(f"parameters: {sum(p.numel() for p in net.parameters())}", flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=a.steps, pct_start=0.1)
    rng = np.random.default_rng(a.seed)
    S, s4 = a.crop, a.crop // CC.STRIDE

    def batch():
        xs, ys = [], []
        for _ in range(a.batch):
            f, t = train[int(rng.integers(len(train)))]
            H, W = f.shape[:2]
            y0 = int(rng.integers(0, (H - S) // CC.STRIDE + 1)) * CC.STRIDE if H > S else 0
            x0 = int(rng.integers(0, (W - S) // CC.STRIDE + 1)) * CC.STRIDE if W > S else 0
            fc = np.zeros((S, S, 3), np.uint8)
            tc = np.zeros((t.shape[0], s4, s4), np.float32)
            fp = f[y0:y0 + S, x0:x0 + S]
            fc[:fp.shape[0], :fp.shape[1]] = fp
            tp = t[:, y0 // CC.STRIDE:y0 // CC.STRIDE + s4, x0 // CC.STRIDE:x0 // CC.STRIDE + s4]
            tc[:, :tp.shape[1], :tp.shape[2]] = tp
            if fp.shape[0] < S or fp.shape[1] < S:  # padding: no loss there
                tc[-1, tp.shape[1]:, :] = 0
                tc[-1, :, tp.shape[2]:] = 0
            x = fc.astype(np.float32) / 255.0
            if rng.random() < 0.5:  # colour: channel gains, contrast
                x = np.clip(x * rng.uniform(0.7, 1.3, 3) * rng.uniform(0.7, 1.2) + rng.uniform(-0.1, 0.1), 0, 1)
            xs.append(x.transpose(2, 0, 1) - 0.5)
            ys.append(tc)
        return torch.from_numpy(np.stack(xs).astype(np.float32)), torch.from_numpy(np.stack(ys))

    def evaluate():
        net.eval()
        hit = n_true = n_pred = 0
        err = []
        with torch.no_grad():
            for f, t in val:
                x = torch.from_numpy((f.astype(np.float32) / 255.0).transpose(2, 0, 1)[None] - 0.5)
                out = net(x)[0].numpy()
                got = CC.decode(out, 1.0, 1.0)
                heat = t[0].astype(np.float32)
                peaks = np.argwhere((heat > 0.99))
                n_true += len(peaks)
                n_pred += len(got)
                for y, xg in peaks:
                    c = np.float32([(xg + 0.5 + t[1, y, xg]) * CC.STRIDE, (y + 0.5 + t[2, y, xg]) * CC.STRIDE])
                    w = math.exp(float(t[7, y, xg])) * 32
                    near = [g for g in got if np.linalg.norm(g.point - c) < max(3.0, 0.15 * w)]
                    if near:
                        hit += 1
                        g = near[0]
                        err.append((float(np.linalg.norm(g.point - c)) / w,
                                    float(np.degrees(np.arccos(np.clip(g.short_dir @ t[3:5, y, xg].astype(np.float32), -1, 1)))),
                                    abs(math.log(g.width / w))))
        net.train()
        e = np.array(err) if err else np.zeros((1, 3))
        return (f"corners found {hit}/{n_true} ({100 * hit / max(1, n_true):.1f} %), {n_pred} peaks; median "
                f"error: point {np.median(e[:, 0]):.3f} w, side {np.median(e[:, 1]):.1f}°, width {np.median(e[:, 2]):.3f} (log)")

    net.train()
    t1 = time.time()
    run_h = run_r = 0.0
    for step in range(1, a.steps + 1):
        x, y = batch()
        lh, lr = losses(net(x), y)
        loss = lh + lr
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run_h, run_r = 0.98 * run_h + 0.02 * float(lh), 0.98 * run_r + 0.02 * float(lr)
        if step % 100 == 0:
            print(f"step {step}: heat {run_h:.3f} reg {run_r:.3f}, {time.time() - t1:.0f} s", flush=True)
        if step % 1000 == 0 or step == a.steps:
            print(f"  validation: {evaluate()}", flush=True)
            export(net, a, Path(a.out))
    print(f"done, {time.time() - t0:.0f} s", flush=True)
    return 0


def export(net, a, out: Path) -> None:
    import torch
    net.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, torch.zeros(1, 3, 288, 512), str(out), input_names=["frame"], output_names=["corners"],
                      dynamic_axes={"frame": {2: "h", 3: "w"}, "corners": {2: "gh", 3: "gw"}}, opset_version=17,
                      dynamo=False)
    meta = {"input_long": CC.INPUT_LONG, "stride": CC.STRIDE, "channels": CC.CHANNELS,
            "trained_on": "rendered composites: style-a procedural tables, DejaVu/Liberation faces"
                          + (f", {a.real_faces:.0%} of faces the shared Vosloo rectified photos" if a.real_faces else
                             "; no real photo"),
            "seed": a.seed, "scenes": a.scenes, "steps": a.steps, "batch": a.batch, "crop": a.crop,
            "real_faces": a.real_faces, "torch": torch.__version__}
    out.with_suffix(".json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    net.train()
    print(f"  wrote {out} ({os.path.getsize(out) / 1e6:.2f} MB)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
