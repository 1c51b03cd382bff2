"""Train the card reader's corner-index classifier and export it to ONNX.

    nice -n 10 .venv/bin/python tools/train_cards.py [--scenes 12000] [--val-scenes 1500] [--epochs 6] [--seed 1]

The committed second model (companion/vision/models/card_index_pair.onnx, "v4", thirteenth pass,
read beside v3 by ``card_index.IndexPair``) is ``--seed 3 --epochs 15 --extra-fonts --pip-warp 0.3
--real-faces 0.2`` (≈ 53 min on two shared cores; docs/vision-cards.md, "Thirteenth pass"; train
it with ``--out .../card_index_pair.onnx``). The committed first model (companion/vision/models/card_index.onnx, "v3", seventh pass) is
``--seed 2 --epochs 15`` (12 000 scenes, 1 500 validation scenes): 60 % of the index pips drawn
from the fonts' suit glyphs and every face worn by :func:`_print_wear`. Rendering took 252 s and
training 20 minutes (26–130 s an epoch) on two cores shared with other jobs (docs/vision-cards.md,
"Seventh pass"). The v1 model before it was ``--epochs 6 --seed 1`` as of commit 9adc258 (one
drawn pip shape, no wear).

Training data are rendered only: standard faces with randomised indices (DejaVu and Liberation
fonts, English, Russian and German alphabets, 4-index decks, jokers, backs) pasted on style-"a"
procedural tables (:mod:`companion.vision.table_scenes`) at random pose, size (55–260 px wide),
light colour, shadow, glare, motion blur, noise and JPEG, partly covered by other cards and hands.
Each scene gives index patches cut by :func:`companion.vision.cards.corner_patch` from a jittered
card frame (a detector's few-px error), and "none" patches (corners without an index, sideways
indices, covered corners, the table). No real photo is used, so every real set stays held out.

A validation split (other seeds, same generator) stops training and calibrates the temperature
(one scalar, minimising the negative log-likelihood). Output: companion/vision/models/card_index.onnx
and card_index.json (classes, input size, temperature, data and seeds). Needs the ``train`` extra
(torch, onnx).
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

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.vision import card_index as CI  # noqa: E402
from companion.vision import render_cards as rc  # noqa: E402
from companion.vision import render_scenes as rs  # noqa: E402
from companion.vision import table_scenes as T  # noqa: E402
from companion.vision.card_patches import _sides_swapped, corner_patch  # noqa: E402

DECK = rc.DECKS[52] + ["JK"]


def _glyph_class(code: str, alphabet: str) -> str:
    if code == "JK":
        return "JK"
    rank = code[:-1]
    g = rc.ALPHABETS[alphabet].get(rank, rank)
    return CI.RENDER_GLYPH.get(g, g)


def _covered(quad, k, occ) -> float:
    """Fraction of the index area at corner ``k`` of ``quad`` that ``occ`` (mask) covers."""
    import cv2
    iq = T._index_quad(quad, k)
    m = np.zeros(occ.shape, np.uint8)
    cv2.fillConvexPoly(m, np.round(iq).astype(np.int32), 255)
    a = np.count_nonzero(m)
    return 1.0 if a == 0 else np.count_nonzero(m & occ) / a


def _print_wear(face: np.ndarray, rng) -> np.ndarray:
    """Print and camera softness on a rendered face (v3): ink spread or thinned (a 2×2 min or
    max filter, as a worn print or a bled pip), print blur (Gaussian, sigma 0.3–1.3 face px) and
    a face-level JPEG pass, so rendered pips and glyphs are less crisp than a vector drawing."""
    import cv2
    r = rng.random()
    if r < 0.25:
        face = cv2.erode(face, np.ones((2, 2), np.uint8))
    elif r < 0.4:
        face = cv2.dilate(face, np.ones((2, 2), np.uint8))
    if rng.random() < 0.6:
        face = cv2.GaussianBlur(face, (0, 0), float(rng.uniform(0.3, 1.3)))
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", face, [cv2.IMWRITE_JPEG_QUALITY, int(rng.uniform(30, 80))])
        face = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return face


#: Ninth-pass options (``--real-faces``, ``--extra-fonts``, ``--pip-warp``), set in each worker.
OPTS = {"real": 0.0, "extra": False, "warp": 0.0}
_REAL: list = []


def real_faces() -> list[tuple[str, np.ndarray]]:
    """The shared rectified Vosloo photos (a real 24-card Piatnik deck, indices in four corners)
    as (code, face); only with ``--real-faces``, which takes that set out of the held-out ones."""
    import csv

    import cv2
    shared = Path(os.environ.get("COMPANION_SHARED") or ROOT.parent / "shared")
    d = shared / "data" / "real" / "cards" / "Vosloo__playing-cards-detection"
    with open(d / "MANIFEST.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(r["label"], cv2.imread(str(d / r["filename"]))) for r in rows]


def _init(opts: dict) -> None:
    OPTS.update(opts)
    if OPTS["real"] > 0 and not _REAL:
        _REAL[:] = real_faces()


def warped_pip(suit: str, rng) -> np.ndarray:
    """A drawn pip of ``suit`` with its shape varied (v4): stretched, sheared, bulged, its stroke
    thickened or thinned, its outline rounded — pips of other decks than the drawn one."""
    import cv2
    m = rc.pip_mask(suit, 64)
    m = cv2.copyMakeBorder(m, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=0)
    h, w = m.shape
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src + rng.normal(0, 4.0, (4, 2)).astype(np.float32)
    m = cv2.warpPerspective(m, cv2.getPerspectiveTransform(src, dst), (w, h))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    amp, ph = rng.uniform(0, 3.0, 2), rng.uniform(0, 2 * math.pi, 2)
    mx = xx + amp[0] * np.sin(yy / rng.uniform(8, 20) + ph[0])
    my = yy + amp[1] * np.sin(xx / rng.uniform(8, 20) + ph[1])
    m = cv2.remap(m, mx.astype(np.float32), my.astype(np.float32), cv2.INTER_LINEAR)
    r = rng.random()
    if r < 0.3:
        m = cv2.erode(m, np.ones((3, 3), np.uint8), iterations=int(rng.integers(1, 3)))
    elif r < 0.6:
        m = cv2.dilate(m, np.ones((3, 3), np.uint8), iterations=int(rng.integers(1, 3)))
    if rng.random() < 0.5:
        m = ((cv2.GaussianBlur(m, (0, 0), rng.uniform(1.5, 3.5)) > 127) * 255).astype(np.uint8)
    ys, xs = np.nonzero(m > 127)
    if len(ys) == 0:
        return rc.pip_mask(suit, 64)
    return m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _pose(center, angle: float, w: float, h: float) -> np.ndarray:
    a = math.radians(angle)
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]], np.float32)
    pts = np.float32([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return (pts @ R.T + np.float32(center)).astype(np.float32)


def scene_patches(seed: int):
    """Index patches and labels from one rendered card scene: [(patch, glyph, suit), ...]."""
    import cv2
    rng = np.random.default_rng(seed)
    alphabet = str(rng.choice(["en", "ru", "de"]))
    fl = T.fonts("train", cyrillic=alphabet == "ru") or (0,)
    pip_fonts = fl
    if OPTS["extra"] and rng.random() < 0.45:
        fl = T.fonts("extra", cyrillic=alphabet == "ru") or fl
    font = fl[int(rng.integers(len(fl)))]
    back = rng.random() < 0.06
    code = DECK[int(rng.integers(len(DECK)))] if rng.random() > 0.04 else "JK"
    four = bool(rng.random() < 0.2)
    real = None
    if _REAL and not back and rng.random() < OPTS["real"]:
        code, real = _REAL[int(rng.integers(len(_REAL)))]
        alphabet, four = "en", True
    cw = float(np.exp(rng.uniform(math.log(55), math.log(260))))
    ch = cw * (rc.CARD_H / rc.CARD_W if real is None else real.shape[0] / real.shape[1])
    W = H = int(ch * 2.0)
    frame = T.surface(str(rng.choice(T.SURFACES)), (W, H), rng, "a")
    if OPTS["extra"] and rng.random() < 0.3:
        frame = np.ascontiguousarray(frame[..., rng.permutation(3)])
    if back:
        face = rc.render_back(int(rng.integers(2)))
    elif real is not None:
        face = real
    else:
        paper = tuple(int(v) for v in np.clip(rng.normal([238, 243, 246], 8), 190, 255))
        gh = int(rng.uniform(0.08, 0.12) * rc.CARD_H)
        red = tuple(int(v) for v in np.clip(rng.normal([35, 30, 200], [15, 15, 25]), 0, 255))
        black = tuple(int(v) for v in np.clip(rng.normal([30, 30, 30], 10), 0, 90))
        pip = None
        if code != "JK" and rng.random() < OPTS["warp"]:
            pip = warped_pip(code[-1], rng)
        face = rc.render_face(code, alphabet, font, four_index=four, paper=paper,
                              index=(gh, int(gh * rng.uniform(0.6, 0.85)), int(rng.uniform(7, 16)),
                                     int(rng.uniform(7, 16)), int(rng.uniform(2, 8))), colours=(red, black),
                              pip_font=pip_fonts[int(rng.integers(len(pip_fonts)))] if rng.random() < 0.6 else None,
                              pip_aspect=float(rng.uniform(0.8, 1.15)), pip=pip)
    if not back:
        face = _print_wear(face, rng)
    angle = float(rng.uniform(-180, 180))
    quad = _pose((W / 2 + rng.uniform(-0.1, 0.1) * W, H / 2 + rng.uniform(-0.1, 0.1) * H), angle, cw, ch)
    quad[:2] += (quad[:2] - quad.mean(0)) * rng.uniform(-0.08, 0.08)
    rs.paste_card(frame, face, quad, shadow=bool(rng.random() < 0.7))
    occ = np.zeros((H, W), np.uint8)
    if rng.random() < 0.35:  # another card lying over part of this one
        other = rc.render_face(DECK[int(rng.integers(52))], alphabet, font) if rng.random() < 0.7 else rc.render_back(1)
        k = int(rng.integers(4))
        c = quad[k] + (quad.mean(0) - quad[k]) * rng.uniform(-0.3, 0.9)
        oq = rs.pose_quad(tuple(c + rng.normal(0, 0.3 * cw, 2)), angle + rng.uniform(-40, 40), ch, 0.0)
        rs.paste_card(frame, other, oq)
        cv2.fillConvexPoly(occ, np.round(oq).astype(np.int32), 255)
    if rng.random() < 0.15:
        occ |= T._hand(frame, rng)
    frame = T.photometric(frame, rng, T.random_light(rng))
    out = []
    idx = (0, 1, 2, 3) if four else (0, 2)
    for k in range(4):
        cov = _covered(quad, k, occ)
        if k in idx and not back:
            if 0.08 < cov < 0.7:
                continue  # a half-covered index: neither a clean read nor clearly "none"
            label = (_glyph_class(code, alphabet), "none" if code == "JK" else code[-1]) if cov <= 0.08 else ("none", "none")
        else:
            if k not in (0, 2) and rng.random() < 0.5:
                continue
            label = ("none", "none")
        jq = quad + rng.normal(0, 0.025 * cw, (4, 2)).astype(np.float32) + rng.normal(0, 0.02 * cw, 2).astype(np.float32)
        grow = 1.4 if rng.random() < 0.2 else 1.0
        out.append((corner_patch(frame, jq, k, grow), *label))
        if rng.random() < 0.25:  # the same corner read sideways (sides swapped): no index
            out.append((corner_patch(frame, _sides_swapped(jq, k), 0, grow), "none", "none"))
    if rng.random() < 0.3:  # the table itself, where no card lies
        x, y = rng.uniform(0, W - cw * 0.4), rng.uniform(0, H - ch * 0.4)
        bq = np.float32([[x, y], [x + cw, y], [x + cw, y + ch], [x, y + ch]])
        m = np.zeros((H, W), np.uint8)
        cv2.fillConvexPoly(m, np.round(quad).astype(np.int32), 255)
        if _covered(bq, 0, m) < 0.05:
            out.append((corner_patch(frame, bq, 0), "none", "none"))
    return [(CI.prepare(p), CI.GLYPHS.index(g), CI.SUITS.index(s)) for p, g, s in out]


def make_data(seeds, procs: int):
    with Pool(procs, initializer=_init, initargs=(dict(OPTS),)) as pool:
        rows = [r for chunk in pool.imap(scene_patches, seeds, chunksize=64) for r in chunk]
    X = np.stack([r[0] for r in rows]).astype(np.float16)
    return X, np.array([r[1] for r in rows], np.int64), np.array([r[2] for r in rows], np.int64)


def build_model():
    import torch.nn as nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()

            def block(i, o):
                return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))
            self.features = nn.Sequential(block(3, 12), nn.MaxPool2d(2),                      # 36×24
                                          block(12, 24), nn.MaxPool2d(2),                     # 18×12
                                          block(24, 48), nn.MaxPool2d(2),                     # 9×6
                                          block(48, 48))
            self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(0.2),
                                    nn.Linear(48 * (CI.INPUT_H // 8) * (CI.INPUT_W // 8), 128), nn.ReLU(inplace=True))
            self.glyph = nn.Linear(128, len(CI.GLYPHS))
            self.suit = nn.Linear(128, len(CI.SUITS))

        def forward(self, x):
            h = self.fc(self.features(x))
            return self.glyph(h), self.suit(h)
    return Net()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=12000)
    ap.add_argument("--val-scenes", type=int, default=1500)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (one unless measured faster under load)")
    ap.add_argument("--data", default="/tmp/cards9-train/data.npz",
                    help="cache of the rendered patches (and DATA.ckpt: the training state after each epoch, "
                         "from which a stopped run resumes; delete both for a fresh run)")
    ap.add_argument("--out", default=str(CI.MODEL))
    ap.add_argument("--real-faces", type=float, default=0.0,
                    help="share of scenes showing a shared rectified Vosloo photo (that set is then not held out)")
    ap.add_argument("--extra-fonts", action="store_true", help="index glyphs also from the 'extra' font split")
    ap.add_argument("--pip-warp", type=float, default=0.0, help="share of faces with a shape-varied drawn pip")
    a = ap.parse_args()
    OPTS.update(real=a.real_faces, extra=a.extra_fonts, warp=a.pip_warp)
    import torch
    import torch.nn.functional as F

    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    t0 = time.time()
    data = Path(a.data)
    if data.is_file():
        d = np.load(data)
        X, yg, ys, Xv, yvg, yvs = (d[k] for k in ("X", "yg", "ys", "Xv", "yvg", "yvs"))
    else:
        base = a.seed * 10_000_000
        X, yg, ys = make_data(range(base, base + a.scenes), a.procs)
        Xv, yvg, yvs = make_data(range(base + 5_000_000, base + 5_000_000 + a.val_scenes), a.procs)
        data.parent.mkdir(parents=True, exist_ok=True)
        np.savez(data, X=X, yg=yg, ys=ys, Xv=Xv, yvg=yvg, yvs=yvs)
    print(f"data: {len(X)} train / {len(Xv)} validation patches, {time.time() - t0:.0f} s", flush=True)
    print("glyph counts", dict(zip(CI.GLYPHS, np.bincount(yg, minlength=len(CI.GLYPHS)).tolist())), flush=True)
    net = build_model()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    Xt, ygt, yst = torch.from_numpy(X.astype(np.float32)), torch.from_numpy(yg), torch.from_numpy(ys)
    Xvt = torch.from_numpy(Xv.astype(np.float32))
    steps = a.epochs * math.ceil(len(X) / 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    def export(vg, vs, accg, accs, done: int, report: bool) -> None:
        """Temperature, the acceptance table (``report``) and the ONNX export of the model after
        ``done`` epochs (every epoch: a stopped run keeps its last whole epoch)."""
        # temperature: one scalar minimising the validation NLL of both heads
        best_t, best_nll = 1.0, float("inf")
        for t in np.linspace(0.3, 3.0, 28):
            nll = float(F.cross_entropy(vg / t, torch.from_numpy(yvg)) + F.cross_entropy(vs / t, torch.from_numpy(yvs)))
            if nll < best_nll:
                best_t, best_nll = float(t), nll
        print(f"temperature {best_t:.2f} (validation NLL {best_nll:.4f})", flush=True)
        # the acceptance line: per threshold, on validation patches, the share of index patches
        # read right and the share of wrong reads among the accepted (a "none" read as a card too)
        pg, ps = F.softmax(vg / best_t, 1).numpy(), F.softmax(vs / best_t, 1).numpy()
        gi, si = pg.argmax(1), ps.argmax(1)
        none_g, none_s = CI.GLYPHS.index("none"), CI.SUITS.index("none")
        jk = CI.GLYPHS.index("JK")
        p = pg.max(1) * np.where(gi == jk, 1.0, ps.max(1))
        is_card = (gi != none_g) & ((si != none_s) | (gi == jk))
        right = (gi == yvg) & ((si == yvs) | (gi == jk))
        idx = yvg != none_g
        for th in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98) if report else ():
            acc = is_card & (p >= th)
            print(f"  p >= {th:.2f}: index patches read right {np.mean(acc[idx] & right[idx]):.4f}, "
                  f"wrong among accepted {np.sum(acc & ~right) / max(1, np.sum(acc)):.4f}", flush=True)
        out = Path(a.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        net.eval()
        dummy = torch.zeros(1, 3, CI.INPUT_H, CI.INPUT_W)
        torch.onnx.export(net, dummy, str(out), input_names=["patch"], output_names=["glyph", "suit"],
                          dynamic_axes={"patch": {0: "n"}, "glyph": {0: "n"}, "suit": {0: "n"}}, opset_version=17,
                          dynamo=False)
        meta = {"glyphs": CI.GLYPHS, "suits": CI.SUITS, "input": [CI.INPUT_W, CI.INPUT_H], "temperature": best_t,
                "trained_on": ("rendered faces (DejaVu/Liberation index fonts"
                               + (", the 'extra' fonts" if a.extra_fonts else "")
                               + (f", {a.pip_warp:.0%} shape-varied pips" if a.pip_warp else "")
                               + ", style-a procedural tables)"
                               + (f" and the shared Vosloo rectified photos ({a.real_faces:.0%} of scenes; that set is "
                                  "not held out)" if a.real_faces else "; no real photo")),
                "real_faces": a.real_faces, "extra_fonts": a.extra_fonts, "pip_warp": a.pip_warp, "seed": a.seed, "scenes": a.scenes, "val_scenes": a.val_scenes,
                "epochs": a.epochs, "epochs_done": done, "validation": {"glyph_acc": round(accg, 4), "suit_acc": round(accs, 4)},
                "torch": torch.__version__}
        out.with_suffix(".json").write_text(json.dumps(meta, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out} ({os.path.getsize(out) / 1e6:.2f} MB)", flush=True)
    g = torch.Generator().manual_seed(a.seed)
    first = 0
    ckpt = Path(str(a.data) + ".ckpt")
    if ckpt.is_file():  # a stopped run goes on from its last whole epoch
        state = torch.load(ckpt, weights_only=False)
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        g.set_state(state["gen"])
        first = state["epoch"]
        print(f"resumed after epoch {first} ({ckpt})", flush=True)
    for ep in range(first, a.epochs):
        net.train()
        perm = torch.randperm(len(X), generator=g)
        tot = 0.0
        for i in range(0, len(X), 256):
            b = perm[i:i + 256]
            xb = Xt[b]
            # light jitter on the fly: contrast and a one-pixel shift
            xb = xb * (0.85 + 0.3 * torch.rand(len(b), 1, 1, 1, generator=g))
            if torch.rand(1, generator=g).item() < 0.5:
                xb = torch.roll(xb, shifts=(int(torch.randint(-1, 2, (1,), generator=g)), int(torch.randint(-1, 2, (1,), generator=g))), dims=(2, 3))
            lg, ls = net(xb)
            loss = F.cross_entropy(lg, ygt[b], label_smoothing=0.05) + F.cross_entropy(ls, yst[b], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss.detach()) * len(b)
        net.eval()
        with torch.no_grad():
            vg, vs = zip(*[net(Xvt[i:i + 1024]) for i in range(0, len(Xv), 1024)])
        vg, vs = torch.cat(vg), torch.cat(vs)
        accg = float((vg.argmax(1).numpy() == yvg).mean())
        accs = float((vs.argmax(1).numpy() == yvs).mean())
        print(f"epoch {ep + 1}: loss {tot / len(X):.4f}, validation glyph {accg:.4f} suit {accs:.4f}, "
              f"{time.time() - t0:.0f} s", flush=True)
        export(vg, vs, accg, accs, ep + 1, ep + 1 == a.epochs)
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
                    "gen": g.get_state(), "epoch": ep + 1}, ckpt)
    return 0


if __name__ == "__main__":
    sys.exit(main())
