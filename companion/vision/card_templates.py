"""Glyph templates of the classic index read: rank glyphs and suit pips rendered from the
system's fonts and drawn, and the matcher (:func:`_similarities`, :func:`_classify`)."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from companion.vision import render_cards as rc
from companion.vision.card_frames import _norm
from companion.vision.card_patches import corner_patch
from companion.vision.card_segments import segment_index

#: Glyph feature size (w, h) in px.
GLYPH_W, GLYPH_H = 20, 28
#: Gaussian blur (sigma, px at glyph size) that makes the match tolerant to stroke and font.
GLYPH_BLUR = 1.5
PIP_BLUR = 0.6
#: Pip feature size (px, square).
PIP_SIZE = 32

#: Corner glyph → rank, per alphabet (RULINGS: English A K Q J, Russian Т К Д В, German A K D B).
GLYPH_RANK = {
    "en": {"A": "A", "K": "K", "Q": "Q", "J": "J"},
    "ru": {"Т": "A", "К": "K", "Д": "Q", "В": "J"},
    "de": {"A": "A", "K": "K", "D": "Q", "B": "J"},
}
NUMERALS = ["10", "9", "8", "7", "6", "5", "4", "3", "2"]
#: Glyphs that are no rank but must compete so they are not taken for one: a lone "1" or a lone
#: "0" (a "10" whose other digit touches a picture or pip; a lone "0" otherwise reads as Q or D).
DECOYS = ["1", "0", "O"]


def _glyph_feature(mask: np.ndarray, blur: float = GLYPH_BLUR) -> np.ndarray:
    """Normalised feature of a binary glyph crop (uint8 0/255): blurred GLYPH_H×GLYPH_W,
    zero-mean, unit norm. Pips use a smaller ``blur`` (PIP_BLUR): ♠ and ♣ differ in detail."""
    size = (PIP_SIZE, PIP_SIZE) if blur == PIP_BLUR else (GLYPH_W, GLYPH_H)
    g = cv2.resize(mask, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    g = cv2.GaussianBlur(g, (0, 0), blur).ravel()
    g -= g.mean()
    n = _norm(g)
    return g / n if n > 0 else g


def _variants(mask: np.ndarray):
    yield mask
    k = np.ones((3, 3), np.uint8)
    big = cv2.resize(mask, (mask.shape[1] * 2, mask.shape[0] * 2))
    yield cv2.resize(cv2.dilate(big, k, iterations=2), mask.shape[::-1])
    yield cv2.resize(cv2.erode(big, k, iterations=2), mask.shape[::-1])


def _drawn_ones() -> list[np.ndarray]:
    """A lone "1" as index fonts draw it: a stem with a flag, with or without a foot, so that a
    "10" that lost its "0" is recognised as no rank."""
    out = []
    for w in (16, 22, 28):
        for thick in (5, 8):
            for foot in (False, True):
                m = np.zeros((52, w + 4), np.uint8)
                x = w // 2 + 2
                cv2.line(m, (x, 2), (x, 49), 255, thick)
                cv2.line(m, (x, 3), (2, 14), 255, max(3, thick - 2))
                if foot:
                    cv2.line(m, (x - w // 2 + 1, 49), (x + w // 2 - 1, 49), 255, max(3, thick - 2))
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return out


def _flat_top_threes() -> list[np.ndarray]:
    """The flat-topped "3" of many card indices (a bar, a diagonal, a round lower bowl), which
    system fonts draw round and which then looks more like a 5."""
    out = []
    for w in (28, 34):
        for thick in (4, 6):
            h = 48
            m = np.zeros((h + 4, w + 6), np.uint8)
            cv2.line(m, (3, 3), (w, 3), 255, thick)
            cv2.line(m, (w, 3), (w // 2, h // 2 - 4), 255, thick)
            cv2.ellipse(m, (w // 2 + 2, h * 2 // 3), (w // 2, h // 3 - 1), 0, -110, 150, 255, thick)
            ys, xs = np.nonzero(m)
            out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return out


def _continental_q() -> list[np.ndarray]:
    """Drawn variants of the Continental (Piatnik-style) "Q": a tall oval bowl with a diagonal
    tail that starts inside the bowl and leaves it below on the right, a form no system font
    has."""
    out = []
    for drop in (0.12, 0.2, 0.28):
        for thick in (3, 5):
            for start in (0.25, 0.4):
                h, w = 48, 30
                m = np.zeros((int(h * (1 + drop)) + 4, w + 8), np.uint8)
                cv2.ellipse(m, (w // 2 + 2, h // 2), (w // 2 - 1, h // 2 - 2), 0, 0, 360, 255, thick)
                cv2.line(m, (int(w * start) + 2, int(h * 0.68)), (int(w * 0.95) + 2, int(h * (1 + drop))),
                         255, thick)
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
                # the tail running out beyond the bowl on the right
                m = np.zeros((int(h * (1 + drop)) + 4, int(w * 1.5) + 8), np.uint8)
                cv2.ellipse(m, (w // 2 + 2, h // 2), (w // 2 - 1, h // 2 - 2), 0, 0, 360, 255, thick)
                cv2.line(m, (int(w * start) + 2, int(h * 0.72)), (int(w * 1.35) + 2, int(h * (1 + drop))),
                         255, thick)
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return out


def _barred_q() -> list[np.ndarray]:
    """More Continental "Q" forms: a tall oval crossed low down by a horizontal bar that leaves
    the bowl on the right and curls down below it (Piatnik-style four-index decks), and an oval
    with a long, flat tail crossing its bottom from the left (the serif "Q" of some index fonts).
    Both have a second, small counter under the bar or tail, which is why a plain font "Q"
    matches them poorly and an "8" competes."""
    out = []
    for thick in (3, 5):
        for wr in (0.55, 0.68):
            for bar in (0.66, 0.74):
                h = 48
                w = int(h * wr)
                m = np.zeros((int(h * 1.12) + 6, w + 14), np.uint8)
                cx = w // 2 + 3
                cv2.ellipse(m, (cx, h // 2 + 2), (w // 2, h // 2), 0, 0, 360, 255, thick)
                yb = int(h * bar) + 2
                cv2.line(m, (3, yb), (cx + w // 2, yb), 255, thick)
                # the tail: out of the bowl on the right, down and round below it
                cv2.ellipse(m, (cx + w // 2, yb + int(h * 0.12)), (int(w * 0.18) + 2, int(h * 0.12)),
                            0, -90, 90, 255, thick)
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
            for slope in (0.35, 0.55):
                h = 48
                w = int(h * wr)
                m = np.zeros((int(h * 1.15) + 6, int(w * 1.3) + 8), np.uint8)
                cx = w // 2 + 3
                cv2.ellipse(m, (cx, h // 2 + 2), (w // 2, h // 2), 0, 0, 360, 255, thick)
                x0, y0 = 3 + int(w * 0.05), int(h * 0.7)
                x1 = int(w * 1.25) + 3
                cv2.line(m, (x0, y0), (x1, min(m.shape[0] - 3, y0 + int((x1 - x0) * slope))), 255, thick + 1)
                ys, xs = np.nonzero(m)
                out.append(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    return out


def _pipeline_pips():
    """Pips cut from rendered card corners by :func:`segment_index` itself at several card
    sizes and blurs, so the templates carry the same sampling and threshold effects as a
    camera read."""
    out = []
    for suit in rc.SUITS:
        face = rc.render_face("7" + suit)
        for height in (110, 150, 200, 280):
            for blur in (0.0, 0.8):
                k = height / rc.CARD_H
                img = cv2.resize(face, (round(rc.CARD_W * k), round(rc.CARD_H * k)), interpolation=cv2.INTER_AREA)
                if blur:
                    img = cv2.GaussianBlur(img, (0, 0), blur)
                h, w = img.shape[:2]
                q = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
                sg = segment_index(corner_patch(img, q, 0))
                if not isinstance(sg, str) and sg.pip is not None:
                    out.append((suit, sg.pip))
    return out


@functools.lru_cache(maxsize=None)
def _templates():
    """(features N×D, labels, aspects) for rank glyphs and suit pips."""
    feats, labels, aspects = [], [], []
    glyphs = set(NUMERALS) | {g for a in GLYPH_RANK.values() for g in a} | {"O"} | set(DECOYS)
    nfont = max(1, len(rc.font_paths()))
    for g in sorted(glyphs):
        for f in range(nfont):
            m = rc.text_mask(g, 48, f)
            for v in _variants(m):
                for sq in (1.0, 0.8):  # narrow index fonts
                    vv = cv2.resize(v, (max(1, int(v.shape[1] * sq)), v.shape[0])) if sq != 1 else v
                    feats.append(_glyph_feature(vv))
                    labels.append("g:" + g)
                    aspects.append(vv.shape[1] / vv.shape[0])
    for m in _drawn_ones():
        for v in _variants(m):
            feats.append(_glyph_feature(v))
            labels.append("g:1")
            aspects.append(v.shape[1] / v.shape[0])
    for m in _flat_top_threes():
        for v in _variants(m):
            feats.append(_glyph_feature(v))
            labels.append("g:3")
            aspects.append(v.shape[1] / v.shape[0])
    for m in _continental_q() + _barred_q():
        for v in _variants(m):
            feats.append(_glyph_feature(v))
            labels.append("g:Q")
            aspects.append(v.shape[1] / v.shape[0])
    for s, m in _pipeline_pips():
        feats.append(_glyph_feature(m, PIP_BLUR))
        labels.append("s:" + s)
        aspects.append(m.shape[1] / m.shape[0])
    for s in rc.SUITS:
        ms = [rc.pip_mask(s, 48)]
        sym = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[s]
        for f in range(nfont):
            ms.append(rc.text_mask(sym, 48, f))
        for m in ms:
            ys, xs = np.nonzero(m > 100)
            m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
            for v in (m,):
                for sq in (1.0, 0.85, 1.15):
                    vv = cv2.resize(v, (max(1, int(v.shape[1] * sq)), v.shape[0]))
                    feats.append(_glyph_feature(vv, PIP_BLUR))
                    labels.append("s:" + s)
                    aspects.append(vv.shape[1] / vv.shape[0])
    return feats, labels, aspects


@functools.lru_cache(maxsize=None)
def _label_rows() -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Template features (N×D float32) and aspect ratios (N) per label."""
    feats, labels, aspects = _templates()
    out: dict[str, tuple[list, list]] = {}
    for f, lab, a in zip(feats, labels, aspects):
        out.setdefault(lab, ([], []))
        out[lab][0].append(f)
        out[lab][1].append(a)
    return {lab: (np.array(fs, np.float32), np.log(np.array(a, np.float32))) for lab, (fs, a) in out.items()}


@functools.lru_cache(maxsize=256)
def _label_block(want: tuple[str, ...]):
    """The templates of the labels ``want``: their matrices, their log aspects end to end, each
    label's first row there, and which labels are pips."""
    groups = _label_rows()
    mats = [groups[lab][0] for lab in want]
    tla = np.concatenate([groups[lab][1] for lab in want])
    starts = np.cumsum([0] + [len(m) for m in mats[:-1]])
    return mats, tla, starts, [lab.startswith("s:") for lab in want]


def _similarities(mask: np.ndarray, allowed) -> dict[str, float]:
    """Each allowed template label's best similarity to a glyph mask (in ``allowed``'s order):
    the correlation of the features less an aspect-ratio penalty, one matrix product per label
    (the same float32 sums as label by label), the rest for all labels at once."""
    groups = _label_rows()
    want = tuple(lab for lab in allowed if lab in groups)
    if not want:
        return {}
    mats, tla, starts, pip = _label_block(want)
    fp = _glyph_feature(mask, PIP_BLUR) if any(pip) else None
    fg = _glyph_feature(mask) if not all(pip) else None
    la = np.log(max(mask.shape[1] / mask.shape[0], 0.05))
    dots = np.concatenate([m @ (fp if p else fg) for m, p in zip(mats, pip)])
    # aspect ratio agreement (log-ratio penalty): glyph shapes are squeezed to a fixed size
    return dict(zip(want, np.maximum.reduceat(dots - 0.35 * np.abs(la - tla), starts).tolist()))


def _classify(mask: np.ndarray, allowed: set[str], classes: dict[str, str] | None = None,
              sims: dict[str, float] | None = None) -> tuple[str | None, float, float]:
    """Best allowed template label for a glyph mask: (label, similarity, margin to the best label
    of another class). ``classes`` maps labels to what they mean (Latin K and Cyrillic К are both
    the king), so look-alike glyphs of one class do not eat the margin. ``sims``: the mask's
    :func:`_similarities` for a set of labels holding ``allowed`` (not computed again). Equal
    similarities (Latin B and Cyrillic В drawn alike) go to the label first in sort order, whatever
    the order of ``allowed`` (a set's order changes with the process's hash seed)."""
    best = _similarities(mask, allowed) if sims is None else {lab: sims[lab] for lab in allowed if lab in sims}
    if not best:
        return None, 0.0, 0.0
    order = sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))  # a tie (B, В): the first label
    top, sim = order[0]
    cls = classes or {}
    others = [v for k, v in order[1:] if cls.get(k, k) != cls.get(top, top)]
    margin = sim - others[0] if others else sim
    return top, sim, margin
