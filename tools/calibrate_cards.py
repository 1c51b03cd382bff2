"""Fit the card reader's confidence calibration (companion/vision/models/card_calib.json).

    nice -n 10 .venv/bin/python tools/calibrate_cards.py [--scenes 900] [--target 0.0025]

Reads the calibration scenes (:func:`companion.vision.table_scenes.calibration_scene`: surface
style ``c`` and the ``calib`` fonts — PT Sans/Serif and OCR-B, ``fonts-paratype`` and
``fonts-ocr-b`` — seeds 9 000 000+: neither the classifier's training renders, nor the
validation scenes, nor the held-out scenes of bench/cards.py, nor any real photo) with the
combined reader uncalibrated, and collects each named card's facts
(:data:`companion.vision.card_calib.FEATURES`) and whether it is right. Then fits a logistic
model (standardised features, L2, Newton steps) and sets the line: the lowest probability at
which the wrong cards among those reported on these scenes are at most ``--target`` (half the
issue's 0.5 % goal, leaving room for new tables). Also prints what the suit-colour veto
(:data:`companion.vision.card_calib.COLOUR_VETO`) removes there, right and wrong.
Deterministic from the scene seeds; a few minutes on two busy cores.
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.vision import card_calib as K  # noqa: E402
from companion.vision import table_scenes as T  # noqa: E402

_READERS: dict = {}
#: collect the template reads that only a sure learned corner vetoes too (``--contest``)
CONTEST = "--contest" in sys.argv
#: read with the classifier of another model folder (``--models DIR``; the fit goes to DIR too)
MODELS = sys.argv[sys.argv.index("--models") + 1] if "--models" in sys.argv else None


def scene_facts(i: int):
    """[(features, right)] for the named cards of calibration scene ``i``."""
    from companion.vision.cards import CardReader

    frame, truth, facts = T.calibration_scene(i)
    a = facts["alphabet"]
    if a not in _READERS:
        r = _READERS[a] = CardReader("standard", a, models=MODELS)
        r.calibrate = r.colour_veto = False
        r.collect = True
        r.contest = CONTEST
    codes = {t.code for t in truth}
    readable = sum(1 for t in truth if t.visible)
    out = [(r.detail["calib"], r.card in codes) for r in _READERS[a].read(frame) if r.card and "calib" in r.detail]
    return out, readable


def fit(X: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 30):
    """Logistic regression by Newton steps on standardised ``X``: (mean, scale, weights, bias)."""
    mean, scale = X.mean(0), X.std(0) + 1e-6
    Z = np.hstack([(X - mean) / scale, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    reg = np.full(Z.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(Z @ w, -50, 50)))
        g = Z.T @ (p - y) + reg * w
        H = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(reg) + 1e-9 * np.eye(len(w))
        w -= np.linalg.solve(H, g)
    return mean, scale, w[:-1], float(w[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=900)
    ap.add_argument("--target", type=float, default=0.0025, help="wrong among reported at the line")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--contest", action="store_true", help="the model also decides contested template reads")
    ap.add_argument("--drop-contested", action="store_true",
                    help="fit on --contest data without the contested reads (the plain model)")
    ap.add_argument("--cache", default="/tmp/cards9-calib/facts.npz")
    ap.add_argument("--out", default=None, help="default: the committed model, or card_calib.json in --models")
    ap.add_argument("--models", default=None,
                    help="a folder with a retrained card_index.onnx/.json: read with it and write its card_calib.json")
    a = ap.parse_args()
    if a.out is None:
        a.out = str(Path(a.models) / "card_calib.json") if a.models else str(K.MODEL)
    cache = Path(a.cache)
    rows, readable, done = [], 0, 0
    if cache.is_file():  # the scenes read so far (the cache is saved as it goes)
        d = np.load(cache)
        rows = list(zip(d["X"].tolist(), d["y"].tolist()))
        readable, done = int(d["readable"]), int(d["done"])
    if done < a.scenes:
        cache.parent.mkdir(parents=True, exist_ok=True)
        with Pool(a.procs) as pool:
            for out, n in pool.imap(scene_facts, range(done, a.scenes), chunksize=2):
                rows += out
                readable += n
                done += 1
                if done % 20 == 0 or done == a.scenes:
                    np.savez(cache, X=np.array([r[0] for r in rows], np.float64).reshape(-1, len(K.FEATURES)),
                             y=np.array([r[1] for r in rows], np.float64), readable=readable, done=done)
                    print(f"  {done} scenes read", flush=True)
    a.scenes = done
    X = np.array([r[0] for r in rows], np.float64).reshape(-1, len(K.FEATURES))
    y = np.array([r[1] for r in rows], np.float64)
    if a.drop_contested:  # the plain model: contested template reads stay abstentions (corners_disagree)
        from companion.vision.learned_read import VETO_P
        contested = (X[:, K.FEATURES.index("classic_only")] == 1) & (X[:, K.FEATURES.index("other_logit")] >= K._logit(VETO_P) - 1e-9)
        print(f"dropping {int(contested.sum())} contested template reads ({int(y[contested].sum())} right)")
        X, y = X[~contested], y[~contested]
    ci = K.FEATURES.index("colour")
    veto = X[:, ci] <= K.COLOUR_VETO
    print(f"{len(X)} named cards on {a.scenes} scenes ({readable} readable cards), {int((1 - y).sum())} wrong "
          f"({100 * (1 - y).mean():.1f} %); colour veto removes {int((veto & (y == 1)).sum())} right, "
          f"{int((veto & (y == 0)).sum())} wrong", flush=True)
    Xk, yk = X[~veto], y[~veto]
    mean, scale, w, b = fit(Xk, yk)
    p = 1 / (1 + np.exp(-np.clip(((Xk - mean) / scale) @ w + b, -50, 50)))
    for f, wi in zip(K.FEATURES, w):
        print(f"  {f:16s} {wi:+.3f}")
    line = 1.0
    for th in np.unique(np.round(p, 4))[::-1]:  # down from the top, until the wrong share exceeds the target
        kept = p >= th
        if kept.sum() < 100:
            continue
        if (1 - yk[kept]).sum() / kept.sum() > a.target:
            break
        line = float(th)
    for th in (0.5, 0.8, 0.9, 0.95, 0.98, 0.99, line):
        kept = p >= th
        print(f"  line {th:.4f}: {int(yk[kept].sum())} right reported ({100 * yk[kept].sum() / max(1, readable):.1f} % "
              f"of readable), {int((1 - yk[kept]).sum())} wrong ({100 * (1 - yk[kept]).sum() / max(1, kept.sum()):.2f} %)")
    meta = {"features": list(K.FEATURES), "mean": mean.tolist(), "scale": scale.tolist(), "weights": w.tolist(),
            "bias": b, "line": line, "target": a.target, "contest": bool(a.contest and not a.drop_contested),
            "fitted_on": f"calibration_scene 0..{a.scenes - 1} (style c surfaces, calib fonts, seeds 9000000+); "
                         "no training, validation, held-out scene or real photo",
            "named": int(len(X)), "wrong": int((1 - y).sum())}
    Path(a.out).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"line {line:.4f}; wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
