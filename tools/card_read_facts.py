"""Collect the facts of every card the default reader names, right or wrong, for choosing a rule.

    nice -n 10 .venv/bin/python tools/card_read_facts.py --split calibration --scenes 900 --out F.json

Reads the scenes of one split (``calibration``: style c, the ``calib`` fonts, seeds 9 000 000+ —
the split rules are tuned on; ``validation``; ``heldout`` only to *report* a rule chosen
elsewhere) with the default reader, and writes one JSON row per named card: which reader named
it (both, classifier only, templates only), whether it is right, and what each reader saw of
that card at every corner view (the classifier's probability of its glyph, suit and card, the
templates' best read of it and of any other card). Deterministic from the scene seeds.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.vision import card_index as CI  # noqa: E402
from companion.vision import table_scenes as T  # noqa: E402

SPLITS = {"calibration": T.calibration_scene, "validation": T.validation_scene, "heldout": T.heldout_scene}
SPLIT = "calibration"
#: read without the eighth pass's template-only rule (``--without-rules``)
WITHOUT_RULES = "--without-rules" in sys.argv
#: The suit of the same colour (the classifier's suit head confuses shapes, not colours).
_TWIN = {"S": "C", "C": "S", "H": "D", "D": "H"}
_READERS: dict = {}


class _Recorder:
    """Wraps the classifier and the template reader so each frame's per-view answers are kept."""

    def __init__(self, reader) -> None:
        self.reader = reader
        self.guesses: list = []
        self.templ: list = []
        net = CI.shared()
        index = reader.index
        orig_patch = index.read_patch

        class Net:
            def classify(_self, patches):
                g = net.classify(patches)
                self.guesses = g
                return g

        def read_patch(patch):
            r = orig_patch(patch)
            self.templ.append(r)
            return r

        reader.index_net = Net()
        index.read_patch = read_patch
        orig_frame = reader.read_frame
        orig_cal = reader._calibrated

        def read_frame(image, frame, retry=True):
            self.guesses, self.templ = [], []
            return orig_frame(image, frame, retry)

        def calibrated(classic, learned, read):
            out = orig_cal(classic, learned, read)
            if read.card is not None:
                out.detail["_facts"] = self.facts(classic, learned, read, out)
            return out

        reader.read_frame = read_frame
        reader._calibrated = calibrated

    def facts(self, classic, learned, read, out) -> dict:
        code = read.card
        alphabet = self.reader.index.alphabet
        ranks = CI.GLYPH_RANKS[alphabet]
        rank = "JK" if code == "JK" else code[:-1]
        suit = None if code == "JK" else code[-1]
        gi = [CI.GLYPHS.index(g) for g, r in ranks.items() if r == rank]
        si = CI.SUITS.index(suit) if suit else None
        none_g = CI.GLYPHS.index("none")
        lg, ls, lc, lnone, ltop_same, lglyph_top = [], [], [], [], 0, 0
        for g in self.guesses:
            pg = float(sum(g.glyph_p[i] for i in gi))
            ps = float(g.suit_p[si]) if si is not None else 1.0
            lg.append(pg)
            ls.append(ps)
            lc.append(pg * ps)
            lnone.append(float(g.glyph_p[none_g]))
            c, _p = g.card(alphabet)
            ltop_same += c == code
            lglyph_top += ranks.get(g.glyph) == rank
        t_same = [r.confidence for r in self.templ if r.code == code]
        t_other = [r.confidence for r in self.templ if r.code and r.code != code]
        t_rank = [r.rank_confidence for r in self.templ if r.rank == rank]
        t_rank_other = [r.rank_confidence for r in self.templ if r.glyph and r.rank and r.rank != rank]
        t_reasons = sorted({r.reason or "ok" for r in self.templ})
        f = read.frame
        return {
            "path": ("both" if classic.card == code and learned.card == code else
                     "learned" if learned.card == code else "classic"),
            "final": out.card is not None, "reason": out.reason,
            "classic_conf": float(classic.confidence) if classic.card == code else 0.0,
            "classic_reason": classic.reason, "learned_reason": learned.reason,
            "learned_conf": float(learned.confidence) if learned.card == code else 0.0,
            "good": int(learned.detail.get("good", 0)), "views": len(self.guesses),
            "l_glyph": max(lg, default=0.0), "l_suit": max(ls, default=0.0), "l_card": max(lc, default=0.0),
            "l_card_sum": float(sum(lc)), "l_none_min": min(lnone, default=1.0),
            "l_none_mean": float(np.mean(lnone)) if lnone else 1.0,
            "l_top_same": ltop_same, "l_glyph_top": lglyph_top,
            "l_other": max((p for c, p in learned.detail.get("probs", {}).items() if c != code), default=0.0),
            "t_same": max(t_same, default=0.0), "t_same_n": len(t_same), "t_other": max(t_other, default=0.0),
            "t_rank": max(t_rank, default=0.0), "t_rank_other": max(t_rank_other, default=0.0),
            "t_n": len(self.templ), "t_reasons": t_reasons,
            "red": learned.detail.get("red"), "calib": [float(v) for v in out.detail.get("calib", [])],
            "complete": bool(f.complete), "verify": bool(f.verify), "short": float(min(f.size)),
            "glyph": classic.detail.get("glyph"), "code": code,
            # per view (in the order read_frame_learned cuts them): P(card), P(rank glyph),
            # P(suit), P(none printed), and the template's confidence for this card per read
            "v_card": [round(v, 4) for v in lc], "v_glyph": [round(v, 4) for v in lg],
            "v_suit": [round(v, 4) for v in ls], "v_none": [round(v, 4) for v in lnone],
            "v_twin": [round(float(g.suit_p[CI.SUITS.index(_TWIN[suit])]), 4) if suit else 0.0 for g in self.guesses],
            "t_confs": [round(float(r.confidence), 4) if r.code == code else -round(float(r.confidence), 4)
                        for r in self.templ],
        }


#: The shared real sets (``--split real``: read in place, for *checking* a rule, never for
#: choosing its threshold) and their alphabets, as in bench/cards.py.
REAL_SETS = {"Vosloo__playing-cards-detection": "en", "AnimaNoProject__Detecting-playing-cards": "de",
             "jrkaczmarek__CardRecognition": "en"}


@functools.lru_cache(maxsize=1)
def _real_photos() -> list[tuple[str, str, list[str]]]:
    import csv
    import os

    cards = Path(os.environ.get("COMPANION_SHARED") or ROOT.parent / "shared") / "data" / "real" / "cards"
    out = []
    for name, alphabet in REAL_SETS.items():
        with open(cards / name / "MANIFEST.tsv", encoding="utf-8") as f:
            out += [(str(cards / name / r["filename"]), alphabet, r["label"].split())
                    for r in csv.DictReader(f, delimiter="\t")]
    return out


def _real_scene(i: int):
    import cv2

    path, alphabet, labels = _real_photos()[i]
    return cv2.imread(path), labels, {"alphabet": alphabet, "surface": Path(path).parent.name, "overlap": len(labels) > 1}


def scene_rows(i: int) -> list[dict]:
    from companion.vision.cards import CardReader

    if SPLIT == "real":
        frame, labels, facts = _real_scene(i)
        codes = set(labels)
    else:
        frame, truth, facts = SPLITS[SPLIT](i)
        codes = {t.code for t in truth}
    a = facts["alphabet"]
    if a not in _READERS:
        r = CardReader("standard", a)
        if WITHOUT_RULES:  # the seventh pass's reader: the rules' effect is then computed from the facts
            r.classic_sure = 0.0
        _Recorder(r)
        _READERS[a] = r
    rows = []
    for r in _READERS[a].read(frame):
        if "_facts" not in r.detail:
            continue
        row = dict(r.detail["_facts"])
        row.update({"scene": i, "named": r.card, "right": row["code"] in codes})
        row["alphabet"], row["surface"], row["overlap"] = a, facts["surface"], bool(facts["overlap"])
        rows.append(row)
    return rows


def main() -> int:
    global SPLIT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=sorted(SPLITS) + ["real"], default="calibration")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--scenes", type=int, default=900)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--out", required=True)
    ap.add_argument("--without-rules", action="store_true",
                    help="read without the eighth pass's template-only rule (CardReader.classic_sure)")
    a = ap.parse_args()
    SPLIT = a.split
    if a.split == "real":
        a.scenes = min(a.scenes, len(_real_photos()) - a.start)
    rows = []
    with Pool(a.procs, initializer=_set_split, initargs=(a.split,)) as pool:
        for k, out in enumerate(pool.imap(scene_rows, range(a.start, a.start + a.scenes), chunksize=2)):
            rows += out
            if (k + 1) % 50 == 0:
                print(f"  {k + 1} scenes", flush=True)
                Path(a.out).write_text(json.dumps(rows), encoding="utf-8")
    Path(a.out).write_text(json.dumps(rows), encoding="utf-8")
    print(f"{len(rows)} named cards; wrote {a.out}")
    return 0


def _set_split(split: str) -> None:
    global SPLIT
    SPLIT = split


if __name__ == "__main__":
    sys.exit(main())
