"""Photo calibration set for the note reader's decision rules (``companion/vision/notes.py``).

    .venv/bin/python tools/calibrate_photos.py [--notes N] [--model M.onnx ...] [--rule NAME=VALUE ...]

Rendered notes of calibration seeds only (notes 93 000+, scenes 94 000+: the benchmark reads
77 000–80 000+, the tests others, ``tools/calibrate_serials.py`` 50 000+), every currency with
USD and INR twice as often (print the recogniser has no real crops of), each as a flat scan
640 px wide (like the real dollar-processor scans) or on a table, and each of those as is and as
the converted copies of issue 20 (256-colour GIF, grey, JPEG quality 8). Read by the whole reader
(second engine on) with the table's currency and under ``auto``, once per model; prints decided,
right and wrong for each, and every wrong decision with its confidence.

``--rule NAME=VALUE`` sets a module constant of ``companion.vision.notes`` or ``notes_net``
before reading (e.g. ``--rule notes.CONFIRM_CURRENCIES=USD,INR``), so a rule can be measured
here before it is adopted.
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

from companion.vision import render_notes as RN  # noqa: E402
from companion.vision.notes import NoteReader  # noqa: E402

CURRENCIES = ("USD", "INR", "USD", "INR", "EUR", "RUB", "KRW", "JPY")


def variants(img: np.ndarray) -> dict[str, np.ndarray]:
    """``img`` (H×W×3 BGR uint8) as is and as the converted copies this set reads (GIF, grey,
    JPEG 8 of ``tools.serial_synth.converted_copies``)."""
    from tools.serial_synth import converted_copies

    copies = converted_copies(img)
    return {"as_is": img, **{k: copies[k] for k in ("gif256", "grey", "jpeg8")}}


def photos(n: int) -> list[tuple[str, str, str, np.ndarray]]:
    """``(name, currency, serial, image)`` for ``n`` calibration notes, two images each."""
    rng = random.Random(93_000)
    out = []
    for i in range(n):
        cur = CURRENCIES[i % len(CURRENCIES)]
        serial = RN.random_serial(cur, rng)
        note = RN.render_note(serial, cur, seed=93_000 + i, serial_font=i % 4)
        h, w = note.image.shape[:2]
        out.append((f"scan{i}", cur, serial, cv2.resize(note.image, (640, round(640 * h / w)),
                                                         interpolation=cv2.INTER_AREA)))
        scene = RN.render_scene([note], background=("felt", "wood", "cloth")[i % 3], seed=94_000 + i,
                                blur=rng.choice((0, 0.6, 1.0)), glare=rng.choice((0, 0, 0.25)),
                                jpeg=rng.choice((70, 85, 95)))
        out.append((f"scene{i}", cur, serial, scene.image))
    return out


def set_rule(spec: str) -> None:
    from companion.vision import note_decide, notes, notes_net

    name, value = spec.split("=", 1)
    mod_name, attr = name.split(".", 1)
    mod = {"notes": notes, "notes_net": notes_net, "note_decide": note_decide}[mod_name]
    old = getattr(mod, attr)
    if isinstance(old, (tuple, frozenset, set)):
        new = type(old)(v for v in value.split(",") if v)
    elif isinstance(old, bool):
        new = value.lower() in ("1", "true", "yes")
    else:
        new = type(old)(value)
    setattr(mod, attr, new)
    print(f"rule {name} = {new!r} (was {old!r})")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--notes", type=int, default=48)
    ap.add_argument("--model", action="append", help="recogniser model(s) (default: the committed one)")
    ap.add_argument("--rule", action="append", default=[])
    ap.add_argument("--currencies", default=",".join(sorted(set(CURRENCIES))),
                    help="only notes of these currencies (comma-separated)")
    args = ap.parse_args()
    from companion.vision.serialnet import MODEL_FILE, SerialNet

    for spec in args.rule:
        set_rule(spec)
    shots = [s for s in photos(args.notes) if s[1] in args.currencies.split(",")]
    for model in args.model or [str(MODEL_FILE)]:
        net = SerialNet(model)
        readers: dict[str, NoteReader] = {}
        print(f"== {model}")
        for mode in ("known", "auto"):
            tally: dict[str, list[int]] = {}
            for name, cur, serial, img in shots:
                key = "auto" if mode == "auto" else cur
                if key not in readers:
                    readers[key] = NoteReader(currency=key)
                    readers[key]._net = net
                for var, im in variants(img).items():
                    r = readers[key].read(im)
                    got = r.serial if r.decided and r.letters_confirmed else None
                    t = tally.setdefault(f"{cur} {var}", [0, 0, 0])
                    t[0] += 1
                    if got == serial:
                        t[1] += 1
                    elif got is not None:
                        t[2] += 1
                        print(f"  WRONG {mode} {name} {var} {cur}: truth {serial} read {got} "
                              f"({r.currency}, {r.confidence:.3f}; "
                              f"{' '.join(sorted({e.engine for e in r.evidence}))})")
            for k in sorted(tally):
                n, right, wrong = tally[k]
                print(f"  {mode:5s} {k:12s} {n:3d} photos: right {right:3d}, wrong {wrong}")
            tot = np.sum(list(tally.values()), axis=0)
            print(f"  {mode:5s} all: {tot[0]} photos, right {tot[1]}, wrong {tot[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
