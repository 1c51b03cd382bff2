"""Train the serial-strip recogniser (``companion/vision/serialnet.py``) and export it to ONNX.

    .venv/bin/pip install -e ".[train]"        # torch (CPU), onnx
    nice -n 10 .venv/bin/python tools/train_serials.py --seed 8 --steps 9000 \\
        --out companion/vision/models/serialnet.onnx

Data (read in place, never copied): the real crops of ``shared/data/train/serials`` (EUR, KRW,
JPY; their MANIFEST.tsv labels) split **by serial** with :func:`split_of` — ``train`` (≈ 80 %),
``calib`` (≈ 10 %: the reader's decision thresholds are measured there) and ``test`` (≈ 10 %:
only ``bench/notes.py`` reads it, for the held-out figure) — plus synthetic strips
(``tools/serial_synth.py``: RUB with Cyrillic fonts and both copies, USD, INR, and every other
format) for what the real crops lack. Nothing in ``shared/data/real`` is read. Every strip is
augmented (``serial_synth.augment``). Reproducible from ``--seed`` (the same torch build and
thread count give the same weights).

Writes the ONNX model and, beside it, ``serialnet.json`` (seed, steps, data counts, split rule,
training-time figures on the calib split).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.vision import serialnet as SN  # noqa: E402

SHARED = Path(os.environ.get("COMPANION_SHARED") or ROOT.parent / "shared")
TRAIN_DIR = SHARED / "data" / "train" / "serials"
SETS = ("EUR", "KRW", "JPY_1K_5K", "JPY_2K_10K")


def split_of(serial: str) -> str:
    """``train``, ``calib`` or ``test`` for a serial (a hash of the serial itself, so every crop
    of one note lands in the same part)."""
    h = int(hashlib.sha256(("serials-split:" + serial).encode()).hexdigest()[:8], 16) % 10
    return "test" if h == 0 else "calib" if h == 1 else "train"


def real_crops(root: Path = TRAIN_DIR) -> list[tuple[Path, str, str, str]]:
    """Every labelled crop: ``(path, serial, currency, split)``."""
    out = []
    for s in SETS:
        folder = root / s
        lines = (folder / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]
        for line in lines:
            parts = line.split("\t")
            if len(parts) < 3:
                continue
            serial = parts[1].strip().upper()
            out.append((folder / parts[0], serial, parts[2].strip(), split_of(serial)))
    return out


FIXES_FILE = ROOT / "tools" / "serial_label_fixes.tsv"


def label_fixes(path: Path = FIXES_FILE) -> dict[str, str]:
    """By-eye corrections of *test*-split labels, for scoring only (never read by training):
    ``"SET/file.png"`` → the serial the crop prints (``tools/serial_label_fixes.tsv``)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if line.startswith("#") or len(parts) < 3 or parts[0] == "file":
            continue
        out[parts[0]] = parts[2].strip().upper()
    return out


def build_model(n_classes: int):
    import torch.nn as nn

    class CRNN(nn.Module):
        """32×W grey → T=W/4 steps × n_classes logits (blank = class 0)."""

        def __init__(self):
            super().__init__()

            def block(i, o, k=3, p=1):
                return [nn.Conv2d(i, o, k, padding=p, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

            self.cnn = nn.Sequential(
                *block(1, 16), nn.MaxPool2d(2, 2),            # 16 × W/2
                *block(16, 32), nn.MaxPool2d(2, 2),           # 8 × W/4
                *block(32, 64), nn.MaxPool2d((2, 1), (2, 1)),  # 4 × W/4
                *block(64, 96), nn.MaxPool2d((2, 1), (2, 1)),  # 2 × W/4
                *block(96, 128, k=(2, 3), p=(0, 1)),          # 1 × W/4
            )
            self.rnn = nn.LSTM(128, 64, num_layers=1, bidirectional=True, batch_first=True)
            self.drop = nn.Dropout(0.1)
            self.fc = nn.Linear(128, n_classes)

        def forward(self, x):
            f = self.cnn(x).squeeze(2).permute(0, 2, 1)  # N × T × C
            f, _ = self.rnn(f)
            return self.fc(self.drop(f))

    return CRNN()


def load_onnx_weights(model, path: Path) -> None:
    """Start ``model`` (:func:`build_model`) from an exported ONNX model of the same shape (a
    fine-tune of the committed recogniser). The export folded each batch norm into its
    convolution: the convolution takes the folded weights and its batch norm becomes the
    identity plus the folded bias (mean 0, variance 1 − eps), kept frozen while training
    (:func:`freeze_norms`). ONNX LSTM gates (i, o, f, c) are reordered to torch's (i, f, g, o).

    Raises:
        ValueError: the file's weights do not match the model's shapes.
    """
    import onnx
    import torch
    from onnx import numpy_helper

    g = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in g.initializer}
    convs = [n for n in g.node if n.op_type == "Conv"]
    lstm = next(n for n in g.node if n.op_type == "LSTM")
    matmul = next(n for n in g.node if n.op_type == "MatMul")
    mods = list(model.cnn)
    pairs = [(m, mods[k + 1]) for k, m in enumerate(mods) if isinstance(m, torch.nn.Conv2d)]
    if len(pairs) != len(convs):
        raise ValueError(f"{path}: {len(convs)} convolutions, the model has {len(pairs)}")
    with torch.no_grad():
        for (conv, bn), node in zip(pairs, convs):
            w, b = init[node.input[1]], init[node.input[2]]
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError(f"{path}: convolution {w.shape}, the model has {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w.copy()))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b.copy()))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
        W, R, B = (init[lstm.input[k]] for k in (1, 2, 3))
        h = W.shape[1] // 4
        order = np.concatenate([np.arange(h) + h * k for k in (0, 2, 3, 1)])
        rnn = model.rnn
        for d, suffix in ((0, ""), (1, "_reverse")):
            getattr(rnn, "weight_ih_l0" + suffix).copy_(torch.from_numpy(W[d][order]))
            getattr(rnn, "weight_hh_l0" + suffix).copy_(torch.from_numpy(R[d][order]))
            getattr(rnn, "bias_ih_l0" + suffix).copy_(torch.from_numpy(B[d][:4 * h][order]))
            getattr(rnn, "bias_hh_l0" + suffix).copy_(torch.from_numpy(B[d][4 * h:][order]))
        model.fc.weight.copy_(torch.from_numpy(init[matmul.input[1]].T.copy()))
        model.fc.bias.copy_(torch.from_numpy(init["fc.bias"]))


def freeze_norms(model) -> None:
    """Batch norms in inference mode (their statistics kept; their affine part still trains)."""
    import torch

    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


def encode(serial: str) -> list[int]:
    return [SN.CHARSET.index(c) + 1 for c in SN.label_text(serial)]


def greedy_text(logits: np.ndarray) -> str:
    idx = logits.argmax(-1)
    out, prev = [], -1
    for i in idx:
        if i != prev and i > 0:
            out.append(SN.CHARSET[i - 1])
        prev = i
    return "".join(out)


def synthetic_pool(n: int, seed: int, cache: Path | None = None) -> list[tuple[np.ndarray, str]]:
    """``n`` synthetic strips ``(grey image, serial)`` drawn with their own random stream (seeded
    from ``seed``), so the training's sampling stream is the same whether the pool was drawn now
    or read from ``cache``."""
    import pickle

    from tools import serial_synth as SY

    fonts = SY.training_fonts()
    src = Path(SY.__file__).read_bytes()
    key = hashlib.sha256(f"{n}:{seed}:{fonts}:".encode() + src).hexdigest()[:16]
    f = cache / f"pool-{key}.pkl" if cache else None
    if f is not None and f.is_file():
        return pickle.loads(f.read_bytes())
    rng = random.Random(f"synthetic-pool:{seed}")
    pool = []
    for _ in range(n):
        im, s, _c = SY.synth_strip(rng)
        pool.append((im, s))
    if f is not None:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(pickle.dumps(pool, protocol=pickle.HIGHEST_PROTOCOL))
    return pool


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--steps", type=int, default=9000)
    ap.add_argument("--batch", type=int, default=48)
    ap.add_argument("--synthetic", type=int, default=24000, help="synthetic base strips")
    ap.add_argument("--real-share", type=float, default=0.55)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=str(SN.MODEL_FILE))
    ap.add_argument("--init", help="start from this exported model (a fine-tune; its batch norms "
                    "stay frozen) instead of random weights")
    ap.add_argument("--bf16", action="store_true",
                    help="bfloat16 autocast for the network (about 2x faster a step on a CPU with "
                         "AVX-512 BF16; the loss, the weights and the export stay float32)")
    ap.add_argument("--pool-cache", help="a folder where the synthetic pool is kept between runs "
                    "(keyed by its size, seed, fonts and serial_synth.py's source)")
    ap.add_argument("--export-every", type=int, default=1000,
                    help="also write OUT.stepN.onnx every this many steps")
    args = ap.parse_args()

    import cv2
    import torch
    import torch.nn.functional as F

    from tools import serial_synth as SY

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    t0 = time.time()
    crops = real_crops()
    train = [(cv2.imread(str(p), cv2.IMREAD_GRAYSCALE), s) for p, s, c, sp in crops if sp == "train"]
    calib = [(cv2.imread(str(p), cv2.IMREAD_GRAYSCALE), s) for p, s, c, sp in crops if sp == "calib"]
    train = [(im, s) for im, s in train if im is not None]
    print(f"real crops: train {len(train)}, calib {len(calib)} "
          f"({len({s for _, s in train})} / {len({s for _, s in calib})} serials)", flush=True)
    synth = synthetic_pool(args.synthetic, args.seed, Path(args.pool_cache) if args.pool_cache else None)
    print(f"synthetic strips: {len(synth)} ({time.time() - t0:.0f} s)", flush=True)

    model = build_model(len(SN.CHARSET) + 1)
    if args.init:
        load_onnx_weights(model, Path(args.init))
        print(f"started from {args.init}", flush=True)
    # channels-last tensors: one thread's step 28 % faster (max pooling and the convolutions'
    # backward pass in NCHW dominated it; docs/vision-notes.md)
    model = model.to(memory_format=torch.channels_last)
    n_par = sum(p.numel() for p in model.parameters())
    print(f"model: {n_par} parameters", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps,
                                                pct_start=0.08)
    ctc = torch.nn.CTCLoss(blank=0, zero_infinity=True)

    def sample():
        if rng.random() < args.real_share:
            im, s = rng.choice(train)
            im = SY.augment(im, rng, strength=0.8)
        else:
            im, s = rng.choice(synth)
            im = SY.augment(im, rng, strength=1.0)
        return SN.prepare(im), s

    def batch_of(items):
        W = max(x.shape[2] for x, _ in items)
        xs = np.zeros((len(items), 1, SN.HEIGHT, W), np.float32)
        lens, targets, tlens = [], [], []
        for i, (x, s) in enumerate(items):
            w = x.shape[2]
            xs[i, :, :, :w] = x
            if w < W:  # pad with the strip's own right edge
                xs[i, :, :, w:] = x[:, :, -1:]
            lens.append(w // SN.DOWNSAMPLE)
            t = encode(s)
            targets += t
            tlens.append(len(t))
        return (torch.from_numpy(xs).contiguous(memory_format=torch.channels_last), torch.tensor(lens),
                torch.tensor(targets), torch.tensor(tlens))

    def evaluate(items) -> float:
        model.eval()
        ok = 0
        with torch.no_grad():
            for i in range(0, len(items), 64):
                chunk = items[i:i + 64]
                for im, s in chunk:
                    x = torch.from_numpy(SN.prepare(im)[None])
                    ok += greedy_text(model(x)[0].numpy()) == SN.label_text(s)
        train_mode()
        return ok / max(1, len(items))

    def export(path: Path) -> None:
        model.eval()
        model.to(memory_format=torch.contiguous_format)
        path.parent.mkdir(parents=True, exist_ok=True)
        dummy = torch.zeros(1, 1, SN.HEIGHT, 160)
        torch.onnx.export(model, dummy, str(path), input_names=["x"], output_names=["logits"],
                          dynamic_axes={"x": {0: "n", 3: "w"}, "logits": {0: "n", 1: "t"}},
                          opset_version=17, dynamo=False)
        model.to(memory_format=torch.channels_last)
        train_mode()

    def train_mode() -> None:
        model.train()
        if args.init:
            freeze_norms(model)

    train_mode()
    t1 = time.time()
    queue: list = []
    for step in range(1, args.steps + 1):
        if not queue:  # four batches at a time, of similar widths (less padding)
            pool = sorted((sample() for _ in range(4 * args.batch)), key=lambda it: it[0].shape[2])
            queue = [pool[i:i + args.batch] for i in range(0, len(pool), args.batch)]
            rng.shuffle(queue)
        x, lens, tg, tl = batch_of(queue.pop())
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.bf16):
            logits = model(x)  # N T K
        logp = F.log_softmax(logits.float(), dim=2).permute(1, 0, 2)
        loss = ctc(logp, tg, lens, tl)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
        sched.step()
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.3f} lr {sched.get_last_lr()[0]:.2e} "
                  f"({(time.time() - t1) / step:.2f} s/step)", flush=True)
        if step % args.export_every == 0 and step < args.steps:
            acc = evaluate(calib[::4])
            print(f"  calib (every 4th crop) greedy exact {acc:.4f}", flush=True)
            export(Path(args.out).with_suffix(f".step{step}.onnx"))
    acc = evaluate(calib)
    print(f"calib greedy exact {acc:.4f}", flush=True)
    out = Path(args.out)
    export(out)
    torch.save(model.state_dict(), out.with_suffix(".pt"))  # for a later fine-tune (not shipped)
    meta = {
        "seed": args.seed, "steps": args.steps, "init": args.init and Path(args.init).name, "batch": args.batch, "lr": args.lr,
        "synthetic": args.synthetic, "bf16": args.bf16, "real_share": args.real_share, "parameters": n_par,
        "real_train_crops": len(train), "real_calib_crops": len(calib),
        "split": "sha256('serials-split:' + serial) first 8 hex digits mod 10: 0 test, 1 calib, else train",
        "calib_greedy_exact": round(acc, 4), "torch": torch.__version__,
        "fonts": [Path(p).name for p in SY.training_fonts()["latin"]],
        "train_seconds": round(time.time() - t0),
        "command": "tools/train_serials.py " + " ".join(sys.argv[1:]),
    }
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
