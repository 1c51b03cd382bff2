"""Where the RUB letter rule's thresholds come from (``companion/vision/notes_net.letter_rule``).

    .venv/bin/python tools/calibrate_letters.py read --part fit --scenes 240 [--model M.onnx]
    .venv/bin/python tools/calibrate_letters.py read --part check --scenes 160 [--model M.onnx]
    .venv/bin/python tools/calibrate_letters.py fit [--model M.onnx]

``read`` renders rouble scenes like ``bench/notes.py``'s (the renderer's serial fonts, which no
model or template was made from; felt, wood and cloth; blur, glare, JPEG) but of **calibration
seeds only** (50 000–76 999: the benchmark renders 77 000 and up) and reads each with the
reader (the recogniser first, PP-OCR after its abstentions), recording for every scene the
recogniser's letter evidence when it decided the digits: the letters' posterior given the
digits and the glyph matcher's margins (``notes_net.glyph_margins``). Two disjoint seed ranges:
``fit`` (notes 50 000+, scenes 60 000+) to choose the thresholds on, ``check`` (notes 55 000+,
scenes 65 000+) to measure them once. Records go to ``.cache/letters-<model>-<part>.jsonl``.

``fit`` replays :func:`~companion.vision.notes_net.letter_rule` over a grid of thresholds on
the ``fit`` records, keeps the rules that confirm no wrong letter there, picks the one that
confirms the most right letters (ties: the strictest), and prints its figures on both parts
next to the committed rule's.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.vision import notes_net as NN  # noqa: E402
from companion.vision import render_notes as RN  # noqa: E402

#: (first note seed, first scene seed) of each part; both below the benchmark's 77 000.
PARTS = {"fit": (50_000, 60_000), "check": (55_000, 65_000)}
PARAMS = ("GLYPH_WEIGHT", "LETTER_LEAD", "LETTER_FLOOR", "MIN_LETTERS")



def scene(part: str, i: int):
    """Scene ``i`` of ``part``: (image, serial)."""
    note_seed, scene_seed = PARTS[part]
    assert note_seed + i < 77_000 and scene_seed + i < 77_000, "calibration seeds only"
    rng = random.Random(note_seed + i)
    serial = RN.random_serial("RUB", rng)
    note = RN.render_note(serial, "RUB", seed=note_seed + i, serial_font=(0, 2, 3)[i % 3])
    sc = RN.render_scene([note], background=("felt", "wood", "cloth")[i % 3], seed=scene_seed + i,
                         blur=rng.choice((0, 0.6, 1.0, 1.3)), glare=rng.choice((0, 0, 0.25)),
                         jpeg=rng.choice((60, 80, 95)))
    return sc.image, serial


def cache_path(model: str | None, part: str) -> Path:
    name = Path(model).stem if model else "committed"
    return ROOT / ".cache" / f"letters-{name}-{part}.jsonl"


def read(args) -> int:
    from companion.vision.notes import NoteReader
    from companion.vision.serialnet import MODEL_FILE, SerialNet

    reader = NoteReader(currency="RUB")
    reader._net = SerialNet(args.model or MODEL_FILE)
    calls: list[dict] = []
    choose = NN.letter_choice
    scores_of = NN.glyph_scores
    last_scores: list = [None]

    def recording_scores(lines):
        last_scores[0] = scores_of(lines)
        return last_scores[0]

    def recording_choice(serial, shares, scores):
        out = choose(serial, shares, scores)
        pairs = {k[:2]: round(v, 6) for k, v in shares.items() if k[2:] == serial[2:] and v >= 1e-6}
        calls.append({"serial": serial, "pairs": pairs, "scores": scores, "chosen": out[0],
                      "confirmed": out[1]})
        return out

    NN.glyph_scores = recording_scores
    NN.letter_choice = recording_choice
    verdicts: list[str] = []
    decide = NN.net_decide

    def net_decide(reader_, lines, strip):
        res = decide(reader_, lines, strip)
        verdicts.append(res.serial or f"{res.reason}:{res.candidate}")
        return res

    NN.net_decide = net_decide
    out = cache_path(args.model, args.part)
    out.parent.mkdir(exist_ok=True)
    done = set()
    if out.exists():
        done = {json.loads(x)["i"] for x in out.read_text(encoding="utf-8").splitlines() if x}
    with out.open("a", encoding="utf-8") as fh:
        for i in range(args.scenes):
            if i in done:
                continue
            img, truth = scene(args.part, i)
            calls.clear()
            verdicts.clear()
            t0 = time.process_time()
            r = reader.read(img)
            rec = {"i": i, "truth": truth, "serial": r.serial, "reason": r.reason,
                   "letters_confirmed": r.letters_confirmed, "choices": list(calls),
                   "net_verdicts": list(verdicts),
                   "cpu_ms": round(1000 * (time.process_time() - t0))}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
            fh.flush()
            print(f"{i:4d} {truth} {r.serial or r.reason} confirmed={r.letters_confirmed} "
                  f"net={verdicts} " + " ".join(f"{c['chosen']}{'+' if c['confirmed'] else '?'}"
                                                for c in calls), flush=True)
    return 0


def load(model: str | None, part: str) -> list[dict]:
    p = cache_path(model, part)
    return [json.loads(x) for x in p.read_text(encoding="utf-8").splitlines() if x] if p.exists() else []


def letter_cases(recs: list[dict]) -> list[dict]:
    """Every letter choice the recogniser made on scenes whose digits it read right."""
    return [dict(c, truth=r["truth"]) for r in recs for c in r["choices"]
            if c["serial"][2:] == r["truth"][2:]]


def tally(cases: list[dict], params: dict) -> dict:
    saved = {k: getattr(NN, k) for k in params}
    t = {"n": len(cases), "right": 0, "wrong": 0, "unconfirmed": 0, "worst_wrong_lead": None}
    try:
        for k, v in params.items():
            setattr(NN, k, v)
        for c in cases:
            scores = c["scores"]
            chosen, ok = NN.letter_choice(c["serial"], {p + c["serial"][2:]: v for p, v in c["pairs"].items()},
                                          scores)
            if not ok:
                t["unconfirmed"] += 1
            elif chosen == c["truth"]:
                t["right"] += 1
            else:
                t["wrong"] += 1
    finally:
        for k, v in saved.items():
            setattr(NN, k, v)
    return t


def outcome(recs: list[dict]) -> str:
    """What the table logs, end to end, as read (the committed rule at reading time)."""
    right = sum(r["serial"] == r["truth"] and r["letters_confirmed"] for r in recs)
    wrong = sum(r["serial"] not in (None, r["truth"]) and r["letters_confirmed"] for r in recs)
    unconf = sum(r["serial"] is not None and not r["letters_confirmed"] for r in recs)
    digits = sum(r["serial"] is not None and r["serial"][2:] != r["truth"][2:] for r in recs)
    ms = sorted(r["cpu_ms"] for r in recs)
    return (f"{right}/{len(recs)} decided right ({100 * right / max(1, len(recs)):.1f} %), "
            f"{wrong} wrong letters confirmed, {unconf} letters unconfirmed (a rescan), "
            f"{len(recs) - right - wrong - unconf} abstained, {digits} wrong digits; "
            f"CPU median {ms[len(ms) // 2] if ms else 0} ms")


def fmt(t: dict) -> str:
    return f"{t['right']}/{t['n']} right, {t['wrong']} wrong, {t['unconfirmed']} unconfirmed"


def fit(args) -> int:
    fit_recs, check = load(args.model, "fit"), load(args.model, "check")
    if not fit_recs:
        print("no fit records: run `read --part fit` first", file=sys.stderr)
        return 2
    cases = letter_cases(fit_recs)
    print(f"fit: {len(fit_recs)} scenes, {len(cases)} letter choices on right digits; "
          f"end to end: {outcome(fit_recs)}")
    if check:
        print(f"check: {len(check)} scenes; end to end: {outcome(check)}")
    committed = {k: getattr(NN, k) for k in PARAMS}
    grid = {
        "GLYPH_WEIGHT": (0.0, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 60.0),
        "LETTER_LEAD": (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0),
        "LETTER_FLOOR": (1e-4, 1e-3, 1e-2, 0.05),
        "MIN_LETTERS": (0.98, 0.99, 0.999, 1.01),
    }
    results = []
    for vals in itertools.product(*grid.values()):
        v = dict(zip(grid, vals))
        t = tally(cases, v)
        results.append((t, v))
    safe = [(t, v) for t, v in results if t["wrong"] == 0]
    print("committed:", committed, "fit", fmt(tally(cases, committed)))
    # the most right letters with none wrong; among those the largest lead (the safest)
    best = max(safe, key=lambda tv: (tv[0]["right"], tv[1]["LETTER_LEAD"], -tv[1]["MIN_LETTERS"] * -1))
    print("fitted:", best[1], "fit", fmt(best[0]))
    for w in grid["GLYPH_WEIGHT"]:
        row = [max((tv for tv in safe if tv[1]["GLYPH_WEIGHT"] == w), key=lambda tv: tv[0]["right"],
                   default=None)]
        if row[0]:
            print(f"  weight {w:5.1f}: best safe {fmt(row[0][0])} at {row[0][1]}")
    if check:
        cc = letter_cases(check)
        print(f"check ({len(cc)} letter choices): committed {fmt(tally(cc, committed))}; "
              f"fitted {fmt(tally(cc, best[1]))}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("read")
    r.add_argument("--part", choices=tuple(PARTS), required=True)
    r.add_argument("--scenes", type=int, default=200)
    r.add_argument("--model")
    f = sub.add_parser("fit")
    f.add_argument("--model")
    args = ap.parse_args()
    return read(args) if args.cmd == "read" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
