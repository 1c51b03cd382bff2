"""Train the card reader's paper segmenter (a tiny U-Net) and export it to ONNX.

    nice -n 10 .venv/bin/python tools/train_card_seg.py [--scenes 3000] [--epochs 12] [--seed 2]
                                                         [--procs 2] [--threads 2] [--wide] [--augment]

The sixth pass's best model (docs/vision-cards.md, not shipped: it loses real cards) was
``--wide --augment --scenes 2000 --val-scenes 200 --epochs 20 --seed 3 --procs 1 --threads 1``:
~10 minutes of rendering and ~10 of training on one free core. A stopped run leaves its last
whole epoch's model (exported after every epoch). Measure a model with
``bench/cards.py --readers multi,learned`` (``--calibration`` to choose, the held-out set to report).

Training scenes are rendered only (:func:`companion.vision.table_scenes.table_scene`, style-"a"
surfaces, DejaVu/Liberation index fonts): 1–6 cards and backs, separate, touching or in
overlapping pairs, 35–200 px wide at 640 px (``--wide``: up to 330 px, and 12 % close-ups of
one card filling the frame), any rotation, hands and clutter, random light,
shadow, glare, blur, noise and JPEG. The target is the card paper (the cards' quads less the
hands over them). A validation split (other seeds) is printed; the model is exported with its
input size. Output: companion/vision/models/card_paper.onnx + card_paper.json. Needs the
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

from companion.vision import card_paper as CP  # noqa: E402
from companion.vision import render_cards as rc  # noqa: E402
from companion.vision import table_scenes as T  # noqa: E402

SIZES = ((640, 360), (640, 480), (480, 640), (640, 360), (640, 480))


#: Card widths (px at 640) of the training scenes; ``--wide`` renders larger cards too, and some
#: close-ups (one card filling the frame, like a phone photo of a card or a rectified crop).
WIDTH = (35, 200)
WIDE = (35, 330)
CLOSE_UP = 0.0


def scene(seed: int):
    """(input CHW float16, target H×W uint8 0/1) of one rendered scene."""
    rng = np.random.default_rng(seed)
    if rng.random() < CLOSE_UP:
        return close_up(rng)
    size = SIZES[int(rng.integers(len(SIZES)))]
    n = int(rng.integers(1, 7))
    deck = rc.DECKS[52] + ["JK"]
    codes = [deck[k] if rng.random() > 0.15 else "back" for k in rng.choice(len(deck), n, replace=False)]
    crop = rng.random() < 0.2  # render a larger table and keep a window: cards cut by the edge
    full = (int(size[0] * 1.35), int(size[1] * 1.35)) if crop else size
    frame, truth, facts = T.table_scene(codes, rng, full, style="a", overlap=bool(rng.random() < 0.4),
                                        alphabet=str(rng.choice(["en", "ru", "de"])), width=WIDTH,
                                        hands=0.3, clutter=0.5)
    target = np.zeros((full[1], full[0]), np.uint8)
    for t in truth:
        cv2.fillConvexPoly(target, np.round(t.quad).astype(np.int32), 1)
    target[facts["occluder"] > 0] = 0
    if crop:
        x0, y0 = int(rng.integers(0, full[0] - size[0] + 1)), int(rng.integers(0, full[1] - size[1] + 1))
        frame = frame[y0:y0 + size[1], x0:x0 + size[0]]
        target = target[y0:y0 + size[1], x0:x0 + size[0]]
    x = CP.prepare(frame)
    w, h = x.shape[2], x.shape[1]
    y = cv2.resize(target, (w, h), interpolation=cv2.INTER_NEAREST)
    return x.astype(np.float16), y


def close_up(rng):
    """One card nearly filling the frame: a window about its bounding box (a little inside to a
    little outside it), scaled to a fixed portrait or landscape size."""
    deck = rc.DECKS[52] + ["JK"]
    code = deck[int(rng.integers(len(deck)))] if rng.random() > 0.1 else "back"
    frame, truth, facts = T.table_scene([code], rng, (640, 480), style="a", alphabet=str(rng.choice(["en", "ru", "de"])),
                                        width=(150, 320), hands=0.2, clutter=0.3, max_angle=float(rng.choice([8.0, 180.0])))
    target = np.zeros(frame.shape[:2], np.uint8)
    for t in truth:
        cv2.fillConvexPoly(target, np.round(t.quad).astype(np.int32), 1)
    target[facts["occluder"] > 0] = 0
    x0, y0, w, h = cv2.boundingRect(np.round(truth[0].quad).astype(np.int32))
    m = rng.uniform(-0.05, 0.15, 4)
    H, W = frame.shape[:2]
    a, b = max(0, int(x0 - m[0] * w)), max(0, int(y0 - m[1] * h))
    c, d = min(W, int(x0 + w + m[2] * w)), min(H, int(y0 + h + m[3] * h))
    frame, target = frame[b:d, a:c], target[b:d, a:c]
    size = (360, 504) if frame.shape[0] >= frame.shape[1] else (504, 360)
    frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    target = cv2.resize(target, size, interpolation=cv2.INTER_NEAREST)
    x = CP.prepare(frame)
    y = cv2.resize(target, (x.shape[2], x.shape[1]), interpolation=cv2.INTER_NEAREST)
    return x.astype(np.float16), y


#: Scene seeds the measured sets use (table_scenes: held-out 7 000 000+, validation 8 000 000+,
#: calibration 9 000 000+; the index classifier's renders 10 000 000+ and 15 000 000+): never trained on.
RESERVED = range(7_000_000, 20_000_000)


def seed_ranges(seed: int, scenes: int, val_scenes: int) -> tuple[range, range]:
    """The training and validation scene seeds of a run (``seed`` × 10 000 000 on), outside
    :data:`RESERVED`; ValueError for a seed whose scenes would fall in it."""
    base = seed * 10_000_000
    tr, va = range(base, base + scenes), range(base + 5_000_000, base + 5_000_000 + val_scenes)
    for r in (tr, va):
        if r and r.start < RESERVED.stop and RESERVED.start < r.stop:
            raise ValueError(f"--seed {seed}: scene seeds {r.start}..{r.stop - 1} overlap the measured sets' "
                             f"{RESERVED.start}..{RESERVED.stop - 1}")
    return tr, va


def make_data(seeds, procs):
    rows, t0 = [], time.time()
    with Pool(procs) as pool:
        for r in pool.imap(scene, seeds, chunksize=16):
            rows.append(r)
            if len(rows) % 250 == 0:
                print(f"  rendered {len(rows)}/{len(seeds)} scenes, {time.time() - t0:.0f} s", flush=True)
    return rows


def build_model():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    def cbr(i, o, s=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.e1 = nn.Sequential(cbr(3, 8, 2), cbr(8, 8))        # 1/2
            self.e2 = nn.Sequential(cbr(8, 16, 2), cbr(16, 16))     # 1/4
            self.e3 = nn.Sequential(cbr(16, 32, 2), cbr(32, 32))    # 1/8
            self.e4 = nn.Sequential(cbr(32, 32, 2), cbr(32, 32))    # 1/16: context for big cards
            self.d3 = cbr(32 + 32, 24)
            self.d2 = cbr(24 + 16, 16)
            self.d1 = cbr(16 + 8, 8)
            self.d0 = cbr(8 + 3, 4)
            self.out = nn.Conv2d(4, 1, 1)

        def forward(self, x):
            e1 = self.e1(x)
            e2 = self.e2(e1)
            e3 = self.e3(e2)
            e4 = self.e4(e3)
            up = lambda a, b: F.interpolate(a, size=b.shape[2:], mode="bilinear", align_corners=False)  # noqa: E731
            d = self.d3(torch.cat([up(e4, e3), e3], 1))
            d = self.d2(torch.cat([up(d, e2), e2], 1))
            d = self.d1(torch.cat([up(d, e1), e1], 1))
            d = self.d0(torch.cat([up(d, x), x], 1))
            return self.out(d)
    return UNet()


def augment(x, rng):
    """Colour augmentation of a batch (B×3×h×w, 0–1): card paper stays light and nearly grey under
    it, the table's colour does not matter (a channel permutation turns green felt blue or red)."""
    import torch

    b = x.shape[0]
    perm = np.stack([rng.permutation(3) if rng.random() < 0.6 else np.arange(3) for _ in range(b)])
    x = torch.stack([x[i, perm[i]] for i in range(b)])
    f32 = np.float32
    grey = torch.from_numpy((rng.random((b, 1, 1, 1)) < 0.15).astype(f32) * rng.uniform(0.5, 1, (b, 1, 1, 1)).astype(f32))
    x = x * (1 - grey) + x.mean(1, keepdim=True) * grey
    gain = torch.from_numpy(rng.uniform(0.75, 1.2, (b, 3, 1, 1)).astype(f32))
    gamma = torch.from_numpy(np.exp(rng.uniform(-0.35, 0.35, (b, 1, 1, 1))).astype(f32))
    x = x.clamp(1e-4, 1) ** gamma * gain
    x = x + torch.from_numpy(rng.normal(0, 1, (b, 1, 1, 1)).astype(f32) * 0.02) * torch.randn_like(x)
    return x.clamp(0, 1)


def export(net, out: Path, facts: dict) -> None:
    """The model as ONNX (dynamic batch and size) plus its JSON facts, next to each other."""
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    net.eval()
    x0 = torch.zeros(1, 3, 144, 256)
    torch.onnx.export(net, x0, str(out), input_names=["frame"], output_names=["paper"],
                      dynamic_axes={"frame": {0: "n", 2: "h", 3: "w"}, "paper": {0: "n", 2: "h", 3: "w"}},
                      opset_version=17, dynamo=False)
    meta = {"input_long": CP.INPUT_LONG, "trained_on": "rendered scenes only (style-a procedural tables, "
            "DejaVu/Liberation fonts); no real photo", **facts, "torch": torch.__version__}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({os.path.getsize(out) / 1e6:.2f} MB)", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=3000)
    ap.add_argument("--val-scenes", type=int, default=200)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--procs", type=int, default=2, help="processes rendering the scenes")
    ap.add_argument("--threads", type=int, default=2, help="torch threads (1 on a shared machine)")
    ap.add_argument("--augment", action="store_true",
                    help="colour augmentation: channels permuted (green felt becomes blue or red), gains, gamma, "
                         "grey, noise")
    ap.add_argument("--wide", action="store_true",
                    help="cards up to 330 px wide at 640 and 12 %% close-ups of one card (default: 35–200 px)")
    ap.add_argument("--data", default="/tmp/cards10-train/seg.npz")
    ap.add_argument("--out", default=str(CP.MODEL))
    a = ap.parse_args()
    global WIDTH, CLOSE_UP
    if a.wide:
        WIDTH, CLOSE_UP = WIDE, 0.12
    import torch
    import torch.nn.functional as F

    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    t0 = time.time()
    tr_seeds, va_seeds = seed_ranges(a.seed, a.scenes, a.val_scenes)
    if Path(a.data).is_file():
        d = np.load(a.data, allow_pickle=True)
        train, val = list(d["train"]), list(d["val"])
    else:
        train = make_data(tr_seeds, a.procs)
        val = make_data(va_seeds, a.procs)
        Path(a.data).parent.mkdir(parents=True, exist_ok=True)
        tr = np.empty(len(train), object)
        tr[:] = train
        va = np.empty(len(val), object)
        va[:] = val
        np.savez(a.data, train=tr, val=va)
    def fit(rows):
        """Rows cached at another input size, rescaled to this version's."""
        out = []
        for x, y in rows:
            w, h = CP.input_size(x.shape[2], x.shape[1])
            if (w, h) != (x.shape[2], x.shape[1]):
                x = cv2.resize(x.astype(np.float32).transpose(1, 2, 0), (w, h), interpolation=cv2.INTER_AREA)
                x = x.transpose(2, 0, 1).astype(np.float16)
                y = cv2.resize(y, (w, h), interpolation=cv2.INTER_NEAREST)
            out.append((x, y))
        return out
    train, val = fit(train), fit(val)
    print(f"data: {len(train)} train / {len(val)} validation scenes, {time.time() - t0:.0f} s", flush=True)
    net = build_model()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    by_shape: dict = {}
    for i, (x, _y) in enumerate(train):
        by_shape.setdefault(x.shape, []).append(i)
    bs = 16
    batches_per_epoch = sum(math.ceil(len(v) / bs) for v in by_shape.values())
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-3, total_steps=a.epochs * batches_per_epoch)
    rng = np.random.default_rng(a.seed)
    for ep in range(a.epochs):
        net.train()
        batches = [v[i:i + bs] for v in (list(rng.permutation(v)) for v in by_shape.values()) for i in range(0, len(v), bs)]
        rng.shuffle(batches)
        tot = 0.0
        for b in batches:
            x = torch.from_numpy(np.stack([train[i][0] for i in b]).astype(np.float32))
            y = torch.from_numpy(np.stack([train[i][1] for i in b]).astype(np.float32))[:, None]
            # a random 128×128 window (the network is fully convolutional): a third of the cost
            h, w = x.shape[2], x.shape[3]
            y0, x0 = int(rng.integers(0, max(1, h - 128) + 1)), int(rng.integers(0, max(1, w - 128) + 1))
            x, y = x[:, :, y0:y0 + 128, x0:x0 + 128], y[:, :, y0:y0 + 128, x0:x0 + 128]
            if rng.random() < 0.5:
                x, y = x.flip(3), y.flip(3)
            if a.augment:
                x = augment(x, rng)
            logit = net(x)
            loss = F.binary_cross_entropy_with_logits(logit, y)
            p = torch.sigmoid(logit)
            dice = 1 - (2 * (p * y).sum() + 1) / (p.sum() + y.sum() + 1)
            loss = loss + 0.5 * dice
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach())
        net.eval()
        inter = union = 0
        with torch.no_grad():
            for x, y in val:
                p = torch.sigmoid(net(torch.from_numpy(x.astype(np.float32))[None]))[0, 0].numpy() > 0.5
                inter += np.count_nonzero(p & (y > 0))
                union += np.count_nonzero(p | (y > 0))
        iou = inter / max(1, union)
        print(f"epoch {ep + 1}: loss {tot / len(batches):.4f}, validation IoU {iou:.4f}, "
              f"{time.time() - t0:.0f} s", flush=True)
        # exported after every epoch: a run stopped early still leaves its last whole epoch
        export(net, Path(a.out), {"seed": a.seed, "scenes": a.scenes, "epochs": a.epochs,
                                  "epochs_done": ep + 1, "validation_iou": round(iou, 4),
                                  "card_width_at_640": list(WIDTH), "close_ups": CLOSE_UP,
                                  "colour_augmentation": a.augment})
    return 0


if __name__ == "__main__":
    sys.exit(main())
