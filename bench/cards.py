"""Card reader benchmark: the issue-17 figures.

    COMPANION_SHARED=/work/shared python bench/cards.py [--quick] [--real-only]

Prints, for the reader (multi-cue card finding + learned index classifier combined with the glyph
templates) and, in the same run, the
classic pipeline it replaces (brightness contours + glyph templates, ``CardReader(learned=False,
mask_mode="white")``):

1. each shared real set (../shared/data/real/cards, read in place): cards read, confident wrong
   among the cards reported, phantom nulls, unreported cards. No real photo trained or tuned the
   learned index classifier (renders only: tools/train_cards.py), so each real set is held out
   from it; the classic geometry and glyph templates were fitted on these photos in earlier
   passes (docs/vision-cards.md);
2. the held-out synthetic "new table" set (table_scenes.heldout_scene: surface styles and index
   fonts never used in training, new seeds): per condition — background kind, card width band,
   angle band, overlap — cards read and confident wrong;
3. rendered scenes and Hoggenheimer layouts (the older rendered checks);
4. learned decks: learn half of a deck from one photo per face, show both halves — unlearned
   faces refused, learned faces read;
5. speed at 1280×720 with 1 and 4 cards: fps (wall and process time) and the ratio to the classic
   pipeline on the same frames.

What trained or tuned what (printed first): the learned index classifier — renders only (style-a
tables, DejaVu/Liberation fonts, tools/train_cards.py); its confidence calibration and line —
the calibration scenes only (style-c tables, PT/OCR-B fonts, seeds 9 000 000+,
tools/calibrate_cards.py); the reader's constants — the validation scenes (style a, training
fonts, seeds 8 000 000+); the classic geometry and glyph templates — the shared real photos, in
earlier passes. The held-out scenes (style b, FreeFont/URW fonts, seeds 7 000 000+) trained or
tuned nothing.

Scoring: a card a person could read (an index corner in view, ≥ 85 % uncovered) counts as read
when the reader names it; every named card not in the image is a confident wrong answer.
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.vision import render_cards as R  # noqa: E402
from companion.vision import render_scenes as RS  # noqa: E402
from companion.vision import table_scenes as T  # noqa: E402
from companion.vision.cards import CardReader  # noqa: E402
from companion.vision.decks import profile_from_images  # noqa: E402
from companion.vision.layout import read_layout, slot_card  # noqa: E402

SHARED = Path(os.environ.get("COMPANION_SHARED") or ROOT.parent / "shared")
CARDS = SHARED / "data" / "real" / "cards"
REAL_SETS = {
    "Vosloo__playing-cards-detection": "en",
    "AnimaNoProject__Detecting-playing-cards": "de",
    "jrkaczmarek__CardRecognition": "en",
}
READERS = {"new": {}, "classic": {"learned": False, "mask_mode": "white"}, "calibrated": {"calibrated": True}}
#: More readers ``--readers`` can name: the default reader with each way of finding card paper
#: (card_detect.MASK_MODE), so the paper segmenter is measured against the hand-made cues in one run.
OPTIONAL = {"multi": {"mask_mode": "multi"}, "learned": {"mask_mode": "learned"},
            "union": {"mask_mode": "union"}, "nofloor": {"set": {"classic_alone_min": 0.0}},
            "seventh": {"set": {"classic_sure": 0.0}},
            "nocorners": {"corners": False}, "learnedonly": {"combine": False},
            # the previous main's reader (before the ninth pass): no corner detector, and the
            # picture test's one global paper level
            "main": {"corners": False, "module": {"card_centre.PAPER_DISC": 0}}}


class _WithModule:
    """A reader whose reads run with some constants of the card reader's modules set otherwise
    (``consts``: ``"module.NAME"`` under companion.vision → value)."""

    def __init__(self, reader: CardReader, consts: dict) -> None:
        self.reader, self.consts = reader, consts

    def read(self, image):
        import importlib
        at = {k: (importlib.import_module("companion.vision." + k.rsplit(".", 1)[0]), k.rsplit(".", 1)[1])
              for k in self.consts}
        old = {k: getattr(m, name) for k, (m, name) in at.items()}
        try:
            for k, v in self.consts.items():
                setattr(*at[k], v)
            return self.reader.read(image)
        finally:
            for k, v in old.items():
                setattr(*at[k], v)


def make_reader(alphabet: str, kw: dict):
    """A reader of the bench's table: ``kw`` are CardReader's arguments, its ``set`` attributes,
    its ``module`` constants (``"module.NAME"`` under companion.vision) during its reads."""
    kw = dict(kw)
    attrs = kw.pop("set", {})
    consts = kw.pop("module", {})
    reader = CardReader("standard", alphabet, **kw)
    for k, v in attrs.items():
        setattr(reader, k, v)
    return _WithModule(reader, consts) if consts else reader


class Score:
    def __init__(self) -> None:
        self.total = self.read = self.wrong = self.reported = 0
        self.phantom = self.phantom_photos = self.dropped = 0

    def add(self, truth: list[str], reads, readable: list[str] | None = None) -> None:
        got = [r.card for r in reads if r.card]
        nulls = sum(1 for r in reads if r.card is None)
        readable = truth if readable is None else readable
        self.total += len(readable)
        self.read += len(set(readable) & set(got))
        self.reported += len(got)
        self.wrong += sum(1 for g in got if g not in truth)
        unnamed = len(truth) - sum((Counter(truth) & Counter(got)).values())
        extra = max(0, nulls - unnamed)
        self.phantom += extra
        self.phantom_photos += extra > 0
        self.dropped += max(0, unnamed - nulls)

    def __str__(self) -> str:
        pct = 100.0 * self.read / max(1, self.total)
        wp = 100.0 * self.wrong / max(1, self.reported)
        return (f"{self.read}/{self.total} read ({pct:.1f} %), {self.wrong} confident wrong of "
                f"{self.reported} reported ({wp:.2f} %), {self.phantom} phantom nulls, {self.dropped} unreported")


def real_rows(name: str) -> list[dict]:
    with open(CARDS / name / "MANIFEST.tsv", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _trained_on_vosloo() -> list[str]:
    """The committed models that saw the shared Vosloo photos in training (``real_faces`` in
    their .json): that set is then no held-out figure for them."""
    import json

    from companion.vision import card_corners, card_index
    out = []
    for tag, path in (("index classifier", card_index.MODEL), ("second index classifier", card_index.PAIR),
                      ("corner detector", card_corners.MODEL)):
        meta = path.with_suffix(".json")
        if meta.is_file() and json.loads(meta.read_text(encoding="utf-8")).get("real_faces"):
            out.append(tag)
    return out


def bench_real() -> None:
    seen = _trained_on_vosloo()
    print("== shared real sets (felt pairs and dark cloth: held out from every learned model; "
          + (f"the Vosloo rectified deck: TRAINED ON by the {' and '.join(seen)}, not a held-out figure)"
             if seen else "the Vosloo rectified deck too: the learned models saw renders only)"))
    for name, alphabet in REAL_SETS.items():
        rows = real_rows(name)
        imgs = [(r["label"].split(), cv2.imread(str(CARDS / name / r["filename"]))) for r in rows]
        for alph in dict.fromkeys((alphabet, "auto")):
            for tag, kw in READERS.items():
                reader = make_reader(alph, kw)
                sc = Score()
                for truth, img in imgs:
                    sc.add(truth, reader.read(img))
                print(f"  {name:40s} {alph:4s} {tag:7s}: {sc}")
    name = "Vosloo__playing-cards-detection"
    rows = real_rows(name)
    train = {r["label"]: cv2.imread(str(CARDS / name / r["filename"])) for r in rows if r["filename"].endswith("_00.jpg")}
    reader = CardReader(profile_from_images("vosloo", train, kind="standard", alphabet="en"))
    sc = Score()
    for r in rows:
        if not r["filename"].endswith("_00.jpg"):
            sc.add(r["label"].split(), reader.read(cv2.imread(str(CARDS / name / r["filename"]))))
    print(f"  {name:40s} learned profile (24 photos _00 learned, 120 held out): {sc}")


_READERS: dict = {}
#: The scenes bench_heldout reads: the held-out set, or (``--validation``) the validation scenes
#: (training styles and fonts, seeds 8 000 000+) that choices such as the paper mode are made on.
SCENES = T.heldout_scene


def _heldout_one(i: int) -> list[tuple[str, str, int, int, int, int]]:
    """One held-out scene's counts: (reader tag, condition, readable, read, reported, wrong)."""
    frame, truth, facts = SCENES(i)
    codes = [t.code for t in truth]
    out = []
    for tag, kw in READERS.items():
        key = (tag, facts["alphabet"])
        if key not in _READERS:
            _READERS[key] = make_reader(facts["alphabet"], kw)
        reader = _READERS[key]
        got = [r.card for r in reader.read(frame) if r.card]
        for t in truth:
            conds = ["all", "bg " + facts["surface"], "width " + T.width_band(t.width),
                     "angle " + T.angle_band(t.angle), "overlap " + ("yes" if facts["overlap"] else "no")]
            named = t.code in got
            out += [(tag, c, int(bool(t.visible)), int(bool(t.visible) and named), int(named), 0) for c in conds]
        for g in got:
            if g not in codes:
                # a wrong card is charged to the scene's conditions (its true card is unknown)
                out += [(tag, c, 0, 0, 1, 1) for c in ["all", "bg " + facts["surface"],
                                                      "overlap " + ("yes" if facts["overlap"] else "no")]]
    return out


def bench_heldout(n: int, procs: int = 2) -> None:
    if SCENES is T.validation_scene:
        print(f"== VALIDATION scenes ({n} scenes: training styles and fonts, seeds 8000000+; for choosing, "
              "not a held-out figure)")
    elif SCENES is T.calibration_scene:
        print(f"== CALIBRATION scenes ({n} scenes: style c, calib fonts, seeds 9000000+; for choosing, "
              "not a held-out figure)")
    else:
        print(f"== held-out synthetic 'new table' set ({n} scenes, seeds 7000000..{7_000_000 + n - 1}: surface "
              f"style b and {len(T.fonts('heldout'))} fonts never used in training or tuning; 1280×720 … 378×504)")
    stats = {tag: defaultdict(lambda: [0, 0, 0, 0]) for tag in READERS}  # readable, read, reported, wrong
    from multiprocessing import Pool
    with Pool(procs) as pool:
        for rows in pool.imap(_heldout_one, range(n), chunksize=2):
            for tag, c, *v in rows:
                st = stats[tag][c]
                for j, x in enumerate(v):
                    st[j] += x
    keys = sorted(stats[next(iter(READERS))], key=lambda k: (k != "all", k.split()[0], k))
    print(f"  {'condition':18s} " + "   ".join(f"{tag + ': read':>16s} {'wrong':>12s}" for tag in READERS))
    for k in keys:
        row = []
        for tag in READERS:
            a, r, rep, w = stats[tag][k]
            row.append(f"{r:4d}/{a:<4d} {100 * r / max(1, a):5.1f} % {w:3d} ({100 * w / max(1, rep):4.1f} %)")
        print(f"  {k:18s} " + "   ".join(f"{x:>30s}" for x in row))


def bench_rendered(n_scenes: int, n_layouts: int) -> None:
    print("== rendered scenes (the older render_cards scenes: felt / cloth / wood; en/ru/de)")
    for overlap in (False, True):
        sc = Score()
        for seed in range(n_scenes):
            rnd = random.Random(seed)
            alphabet = rnd.choice(["en", "ru", "de"])
            labels = rnd.sample(R.DECKS[52] + ["JK"], rnd.randint(1, 4) if not overlap else 2 * rnd.randint(1, 2))
            img, _ = RS.scatter_scene(labels, seed=seed, alphabet=alphabet, overlap=overlap)
            sc.add(labels, CardReader("standard", alphabet).read(img))
        print(f"  {'overlapping pairs' if overlap else 'separate cards':18s}: {sc}")
    sc = Score()
    flags = flag_ok = 0
    ms = []
    for seed in range(n_layouts):
        rnd = random.Random(seed)
        slots = [(r, c) for r in range(4) for c in range(8)]
        up = {s: slot_card(*s) for s in rnd.sample(slots, rnd.randint(0, 16))}
        if seed % 3 == 1 and up:
            s = rnd.choice(list(up))
            up[s] = rnd.choice([x for x in R.DECKS[32] if x != slot_card(*s)])
        extra = "JK" if seed % 2 == 0 else None
        img, _ = RS.render_layout(up, extra, seed=seed)
        t = time.perf_counter()
        lay = read_layout(img)
        ms.append(1000 * (time.perf_counter() - t))
        if lay.reason:
            sc.total += 33
            continue
        for s in lay.slots:
            tr = up.get((s.row, s.col))
            sc.total += 1
            ok = (s.state == "face_up" and s.card == tr) or (s.state == "face_down" and tr is None)
            sc.read += ok
            if s.state == "face_up":
                sc.reported += 1
                sc.wrong += s.card != tr
            if tr:
                flags += 1
                flag_ok += s.misplaced == (tr != slot_card(s.row, s.col))
    print(f"  Hoggenheimer layouts ({n_layouts} × 32 slots): {sc.read}/{sc.total} slots right, {sc.wrong} "
          f"confident wrong of {sc.reported} face-up reported; misplaced flag right {flag_ok}/{flags}; "
          f"{np.median(ms):.0f} ms per layout")


def _refusal(name: str, photos: dict, shots: list[tuple[str, np.ndarray]], kind: str) -> str:
    labels = sorted(photos)
    learned = labels[::2]
    prof = profile_from_images(name, {k: photos[k] for k in learned}, kind=kind,
                               alphabet="en" if kind == "standard" else "auto")
    reader = CardReader(prof)
    known = known_ok = unknown = refused = wrong = 0
    for lab, img in shots:
        got = [r.card for r in reader.read(img) if r.card]
        if lab in learned:
            known += 1
            known_ok += got == [lab]
            wrong += any(g != lab for g in got)
        else:
            unknown += 1
            if kind == "standard":  # the index fallback may read it; it must not name another face
                refused += all(g == lab for g in got)
            else:
                refused += not got
            wrong += any(g != lab for g in got)
    return (f"learned {len(learned)} of {len(labels)} faces: unlearned refused {refused}/{unknown} "
            f"({100 * refused / max(1, unknown):.0f} %), learned read {known_ok}/{known} "
            f"({100 * known_ok / max(1, known):.0f} %), wrong {wrong}")


def bench_learned(n: int) -> None:
    print("== learned decks: learn half the faces (one photo each), show every face")
    kinds = ["Грибы", "Ягоды", "Шишки", "Жёлуди", "Орехи", "Цветы", "Листья", "Ракушки", "Звёзды", "Луны"]
    values = ["10", "40", "36", "100", "106", "200", "225", "333", "500", "Infinity"]
    for kind, labels in (("picture", kinds), ("numbered", values)):
        photos = {lab: RS.scatter_scene([lab], seed=1000 + i, kind=kind, card_height=(380, 440), upside_down=False)[0]
                  for i, lab in enumerate(labels)}
        shots = []
        for seed in range(n):
            lab = labels[seed % len(labels)]
            shots.append((lab, RS.scatter_scene([lab], seed=seed, kind=kind)[0]))
        print(f"  rendered {kind:8s} deck: {_refusal('bench-' + kind, photos, shots, kind)}")
    if CARDS.is_dir():
        name = "Vosloo__playing-cards-detection"
        rows = real_rows(name)
        photos = {r["label"]: cv2.imread(str(CARDS / name / r["filename"])) for r in rows if r["filename"].endswith("_00.jpg")}
        shots = [(r["label"], cv2.imread(str(CARDS / name / r["filename"]))) for r in rows if not r["filename"].endswith("_00.jpg")]
        print(f"  real 24-card deck (profile match only; other photos shown): "
              f"{_refusal_profile(photos, shots)}")


def _refusal_profile(photos, shots) -> str:
    """The real deck's profile match alone (no index fallback): learn half, show the rest."""
    from companion.vision.decks import _largest_card
    labels = sorted(photos)
    learned = labels[::2]
    prof = profile_from_images("half", {k: photos[k] for k in learned}, kind="standard", alphabet="en")
    known = known_ok = unknown = refused = 0
    for lab, img in shots:
        got, _c, _u = prof.match(_largest_card(img))
        if lab in learned:
            known += 1
            known_ok += got == lab
        else:
            unknown += 1
            refused += got is None
    return (f"learned {len(learned)} of {len(labels)}: unlearned refused {refused}/{unknown} "
            f"({100 * refused / max(1, unknown):.0f} %), learned matched {known_ok}/{known} ({100 * known_ok / max(1, known):.0f} %)")


def bench_fps(n_frames: int) -> None:
    print("== speed at 1280×720 (CardReader('standard', 'en').read; held-out style tables; "
          "wall fps / process-time fps)")
    for k in (1, 4):
        frames = []
        for i in range(n_frames):
            rng = np.random.default_rng(900 + i)
            codes = [R.DECKS[52][j] for j in rng.choice(52, k, replace=False)]
            frames.append(T.table_scene(codes, rng, (1280, 720), style="b", font_split="heldout", width=(90, 260),
                                        hands=0.0)[0])
        res = {}
        for tag, kw in READERS.items():
            if tag == "calibrated":
                continue
            reader = make_reader("en", kw)
            reader.read(frames[0])
            t, c = time.perf_counter(), time.process_time()
            reps = 0
            while time.perf_counter() - t < 3.0:
                for f in frames:
                    reader.read(f)
                    reps += 1
            res[tag] = (reps / (time.perf_counter() - t), reps / max(1e-9, time.process_time() - c))
        ref = res.get("classic")
        print(f"  {k} card{'s' if k > 1 else ' '}: " + "; ".join(
            f"{tag} {w:5.1f} fps ({c:5.1f} by CPU time)"
            + (f", /classic {w / ref[0]:.2f} (wall), {c / ref[1]:.2f} (CPU)" if ref and tag != "classic" else "")
            for tag, (w, c) in res.items()))


def _seed_ranges(meta: dict) -> str:
    """The scene seeds a model's .json implies (tools/train_cards.py and
    tools/train_card_corners.py: seed × 10 000 000 on, validation 5 000 000 further)."""
    if not isinstance(meta.get("seed"), int) or not isinstance(meta.get("scenes"), int):
        return ""
    base = meta["seed"] * 10_000_000
    val = meta.get("val_scenes")
    return (f" (scene seeds {base}..{base + meta['scenes'] - 1}, its validation "
            + (f"{base + 5_000_000}..{base + 5_000_000 + val - 1})" if isinstance(val, int) else
               f"from {base + 5_000_000})"))


def provenance() -> None:
    from companion.vision import card_calib, card_index
    print("== what trained or tuned what")
    net = card_index.shared() if card_index.available() else None
    metas = net.meta.get("pair", [net.meta]) if net is not None else [{}]
    for tag, meta in zip(("index classifier", "second index classifier (read with it as a pair)"), metas):
        print(f"  {tag}: {meta.get('trained_on', 'absent (templates alone)')}; seed {meta.get('seed')}, "
              f"{meta.get('scenes')} scenes{_seed_ranges(meta)}")
    from companion.vision import card_corners
    cm = card_corners.shared().meta if card_corners.available() else {}
    print(f"  index-corner detector: {cm.get('trained_on', 'absent (not used)')}; seed {cm.get('seed')}, "
          f"{cm.get('scenes')} scenes{_seed_ranges(cm)}")
    cal = card_calib.shared()
    print("  confidence calibration: " + (f"{cal.meta['fitted_on']}; line {cal.line:.3f} (wrong ≤ "
                                           f"{100 * cal.meta['target']:.2f} % there)" if cal else "absent"))
    print("  reader constants: validation scenes (style a, training fonts, seeds 8000000+); classic geometry and "
          "glyph templates: the shared real photos (earlier passes)")
    seen = _trained_on_vosloo()
    print("  held out from all of it: the held-out scenes (style b, FreeFont/URW, seeds 7000000+); the felt pairs "
          "and the dark cloth (real)" + (f"; the Vosloo rectified deck was TRAINED ON by the {' and '.join(seen)}"
                                         if seen else "; the Vosloo rectified deck too"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer synthetic scenes")
    ap.add_argument("--real-only", action="store_true", help="only the real photo sets")
    ap.add_argument("--heldout", type=int, default=None, help="number of held-out scenes (default 300, quick 80)")
    ap.add_argument("--readers", default=None,
                    help="comma-separated readers, the first of them the reference (default new,classic,calibrated; "
                         "also multi, learned, union: the default reader finding paper that way; nofloor: without "
                         "the template-alone floor; seventh: without the eighth pass's template-only rule; nocorners: "
                         "without the learned corner detector; learnedonly: the classifier without the templates; "
                         "main: the reader before the ninth pass (no corner detector, global paper level); "
                         "alt, altcal with --models)")
    ap.add_argument("--parts", default="real,heldout,fps,learned,rendered",
                    help="comma-separated parts to run (default all: real,heldout,fps,learned,rendered)")
    ap.add_argument("--validation", action="store_true",
                    help="read the validation scenes instead of the held-out ones (for choosing a setting)")
    ap.add_argument("--calibration", action="store_true",
                    help="read the calibration scenes (style c) instead (choosing a setting on tables of a third style)")
    ap.add_argument("--models", default=None,
                    help="a folder with a retrained card_index.onnx/.json and card_calib.json: readers 'alt' "
                         "(the default reader on them) and 'altcal' (calibrated) become nameable in --readers")
    a = ap.parse_args()
    if a.models:
        OPTIONAL.update({"alt": {"models": a.models}, "altcal": {"models": a.models, "calibrated": True}})
    global SCENES
    if a.validation:
        SCENES = T.validation_scene
    elif a.calibration:
        SCENES = T.calibration_scene
    parts = {p.strip() for p in a.parts.split(",")}
    if a.readers:
        known = {**READERS, **OPTIONAL}
        tags = [t.strip() for t in a.readers.split(",") if t.strip()]
        if not tags or any(t not in known for t in tags):
            ap.error(f"--readers: choose from {', '.join(known)}")
        READERS.clear()
        READERS.update({t: known[t] for t in tags})
    cv2.setNumThreads(2)
    provenance()
    if "real" in parts:
        if CARDS.is_dir():
            bench_real()
        else:
            print(f"== real photos: skipped ({CARDS} is absent; set COMPANION_SHARED)")
    if a.real_only:
        return 0
    if "heldout" in parts:
        bench_heldout(a.heldout or (80 if a.quick else 300))
    if "fps" in parts:
        bench_fps(4 if a.quick else 8)
    if "learned" in parts:
        bench_learned(20 if a.quick else 60)
    if "rendered" in parts:
        bench_rendered(20 if a.quick else 60, 6 if a.quick else 20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
