"""Where the note reader's decision thresholds come from (``companion/vision/notes_net.py``).

    .venv/bin/python tools/calibrate_serials.py [--crops N] [--scenes N] [--model M.onnx]

Reads the ``calib`` split of the training crops (``tools/train_serials.split_of``; never the
``test`` split, never ``shared/data/real``) and rendered calibration scenes (seeds 50 000 and
up: the benchmark and the tests use others) with the reader's thresholds switched off, and
prints for right and wrong top serials the distribution of the joint posterior, the other
parity's mass and the format gap — the figures the thresholds are set from.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from companion.vision import notes_net as NN  # noqa: E402
from companion.vision import render_notes as RN  # noqa: E402
from companion.vision.notes import NoteReader  # noqa: E402
from tools.train_serials import real_crops  # noqa: E402


def _q(xs, qs=(0, 1, 5, 50)):
    if not xs:
        return "-"
    return " ".join(f"p{q}={np.percentile(xs, q):.4f}" for q in qs)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--crops", type=int, default=1200)
    ap.add_argument("--scenes", type=int, default=48)
    ap.add_argument("--model", help="a candidate recogniser model (default: the committed one)")
    args = ap.parse_args()
    from companion.vision.serialnet import MODEL_FILE, SerialNet

    net = SerialNet(args.model or MODEL_FILE)
    # thresholds off: every top serial is "decided", so right and wrong ones can be told apart
    saved = {k: getattr(NN, k) for k in ("MIN_POSTERIOR_STRIP", "MIN_POSTERIOR_COPIES",
                                         "MAX_FLIP", "MAX_OTHER_CURRENCY")}
    for k in saved:
        setattr(NN, k, 0.0 if k.startswith("MIN") else 1.01)
    readers = {}

    def reader(cur):
        if cur not in readers:
            readers[cur] = NoteReader(currency=cur, second_opinion=False)
            readers[cur]._net = net
        return readers[cur]

    for mode in ("known", "auto"):
        right, wrong, absent = [], [], 0
        rows = [r for r in real_crops() if r[3] == "calib"][: args.crops]
        for path, serial, cur, _ in rows:
            img = cv2.imread(str(path))
            r = reader(cur if mode == "known" else "auto").read(img)
            p = r.evidence[0].score if r.evidence else 0.0
            if r.serial is None:
                absent += 1
            elif r.serial == serial:
                right.append(p)
            else:
                wrong.append(p)
                print(f"  wrong ({mode}): {path.name} truth {serial} read {r.serial} p={p:.4f}")
        print(f"calib crops {mode}: right {len(right)} ({_q(right)}), wrong {len(wrong)} "
              f"({_q(wrong, (50, 95, 99, 100))}), nothing {absent}")
    rng = random.Random(50_000)
    right, wrong, absent = [], [], 0
    for i in range(args.scenes):
        cur = ("RUB", "RUB", "EUR", "USD", "INR", "KRW", "JPY", "RUB")[i % 8]
        serial = RN.random_serial(cur, rng)
        note = RN.render_note(serial, cur, seed=50_000 + i)
        scene = RN.render_scene([note], background=("felt", "wood", "cloth")[i % 3], seed=51_000 + i,
                                blur=rng.choice((0, 0.6, 1.0)), jpeg=rng.choice((70, 85, 95)))
        r = reader(cur).read(scene.image)
        p = r.evidence[0].score if r.evidence else 0.0
        if r.serial is None:
            absent += 1
            print(f"  scene {i} {cur}: nothing ({r.reason}, candidate {r.candidate})")
        elif r.serial == serial:
            right.append(p)
        else:
            wrong.append(p)
            print(f"  scene {i} {cur}: truth {serial} read {r.serial} p={p:.4f}")
    print(f"rendered scenes: right {len(right)} ({_q(right)}), wrong {len(wrong)} "
          f"({_q(wrong, (50, 95, 99, 100))}), nothing {absent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
