"""The template read of one corner index (:class:`IndexReader`), with RapidOCR as an opt-in
second opinion on weak rank glyphs."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision import render_cards as rc
from companion.vision.card_segments import segment_index
from companion.vision.card_templates import DECOYS, GLYPH_RANK, NUMERALS, _classify, _similarities

#: Pip colour: the pip's median redness against the paper (red channel over the paper's red
#: minus the larger of green and blue over theirs) divided by its median ink depth (1 − the
#: darkest channel over the paper's). Above RED_SPLIT is red; the colour is sure at RED_SCALE
#: from it. On the real sets black pips reach 0.19 and red ones start at 0.41 (mis-cut pips
#: aside); RED_SPLIT is the middle of that gap (chosen on alternate manifest rows, see
#: docs/vision-cards.md).
RED_SPLIT, RED_SCALE = 0.3, 0.15
#: Letters of the Russian and German indices that English indices do not have.
_FOREIGN_GLYPHS = {"Т", "Д", "В", "D", "B"}
#: With the ``auto`` alphabet, how much better than every English letter such a letter must match.
AUTO_MARGIN = 0.2
#: Ranks in a deck of each size.
DECK_RANKS = {52: set(rc.RANKS), 36: set(rc.RANKS[:9]), 32: set(rc.RANKS[:8])}

#: Minimum template similarity for a rank / suit to count, and the minimum margin to the best
#: other class (fractions of the normalised correlation, see :meth:`IndexReader.read_patch`).
MIN_RANK_SIM, MIN_RANK_MARGIN = 0.55, 0.04
MIN_SUIT_SIM, MIN_SUIT_MARGIN = 0.55, 0.012
#: Confidence at or above which a read is reported as a card (below it: abstain).
MIN_CONFIDENCE = 0.5
#: Minimum RapidOCR recognition score to accept its reading of a rank glyph.
OCR_MIN_SCORE = 0.9


def rapid_text(crop: np.ndarray) -> tuple[str, float]:
    """Read one text-line crop (H×W×3 BGR uint8) with the project's shared RapidOCR engine
    (:func:`companion.vision.rapid_engine.shared_rapid`, models from the wheel, recogniser only):
    (text, score 0–1). An empty crop reads ``("", 0.0)``.

    Raises:
        VisionError: rapidocr or its bundled models are missing.
    """
    if crop.size == 0:
        return "", 0.0
    from companion.vision.rapid_engine import shared_rapid
    line = shared_rapid().read_lines([crop], min_width=320)[0]
    return line.text.strip(), line.score


class _RapidRank:
    """A rank glyph crop (H×W×3 BGR uint8) read by the shared RapidOCR engine: the crop is
    padded (the recogniser wants some margin around a single glyph) and the text upper-cased.
    Returns (text, score 0–1)."""

    def __call__(self, crop: np.ndarray) -> tuple[str, float]:
        if crop.size == 0:
            return "", 0.0
        h = crop.shape[0]
        crop = cv2.copyMakeBorder(crop, h // 3, h // 3, h // 3, h // 3, cv2.BORDER_REPLICATE)
        text, score = rapid_text(crop)
        return text.upper(), score


@dataclass
class IndexRead:
    """One corner's read: rank glyph → rank (``A``…``2``, or ``JK``), suit ``S H D C``."""
    rank: str | None
    suit: str | None
    confidence: float
    reason: str | None = None
    glyph: str | None = None
    rank_confidence: float = 0.0

    @property
    def code(self) -> str | None:
        if self.rank == "JK":
            return "JK"
        if self.rank and self.suit:
            return self.rank + self.suit
        return None


class IndexReader:
    """Reads the rank and suit printed in a card's corner index.

    Args:
        alphabet: ``en``, ``ru``, ``de`` or ``auto`` (all three; they never conflict: every glyph
            maps to one rank).
        deck_size: 52, 36 or 32 (restricts the ranks; RULINGS §3 uses 32, §4 the 36-card deck).
        joker: whether the deck has jokers.
        ocr: re-read weak rank glyphs with RapidOCR's recogniser (15–40 ms a glyph on 2 cores:
            for still images, not the video path).

    Raises:
        ValueError: an unknown alphabet or deck size.
    """

    def __init__(self, alphabet: str = "auto", deck_size: int = 52, joker: bool = True,
                 ocr: bool = False) -> None:
        if alphabet != "auto" and alphabet not in GLYPH_RANK:
            raise ValueError(f"unknown index alphabet {alphabet!r} (en, ru, de or auto)")
        if deck_size not in DECK_RANKS:
            raise ValueError(f"unknown deck size {deck_size} (52, 36 or 32)")
        self.alphabet, self.deck_size, self.joker = alphabet, deck_size, joker
        alphs = GLYPH_RANK.values() if alphabet == "auto" else [GLYPH_RANK[alphabet]]
        # every glyph of the alphabet is matched, so a card outside the deck (a 2 in a 32-card
        # deck) is recognised as such and refused, not forced onto the nearest allowed rank
        self.glyph_rank = {g: r for a in alphs for g, r in a.items()}
        for n in NUMERALS:
            self.glyph_rank[n] = n
        self.deck_ranks = DECK_RANKS[deck_size]
        self.rank_labels = {"g:" + g for g in self.glyph_rank} | {"g:" + d for d in DECOYS}
        self.rank_class = {"g:" + g: r for g, r in self.glyph_rank.items()} | {"g:" + d: d for d in DECOYS}
        # "1"+"0" as separate components: "0" alone is matched against "O"
        self.suit_labels = {"s:" + s for s in rc.SUITS}
        self.ocr = _RapidRank() if ocr else None

    def read_patch(self, patch: np.ndarray) -> IndexRead:
        """Read an upright index patch (PATCH_H×PATCH_W×3 BGR, from :func:`companion.vision.card_patches.corner_patch`).

        When the top ink is a lone decoy digit (a "10" whose other digit runs into a big corner
        pip and was dropped with it), the patch is segmented again with broad filled shapes
        stripped (see :func:`companion.vision.card_segments.segment_index`); that read is taken only if it is a sure card."""
        r = self._read_patch(patch, False)
        if (r.reason == "not_an_index" and r.glyph in DECOYS) or r.reason == "no_pip":
            for mode in (True, "close"):
                r2 = self._read_patch(patch, mode)
                if r2.code and r2.confidence >= MIN_CONFIDENCE:
                    return r2
        return r

    def _read_patch(self, patch: np.ndarray, strip_blobs: bool) -> IndexRead:
        sg = segment_index(patch, strip_blobs)
        if isinstance(sg, str):
            return IndexRead(None, None, 0.0, sg)
        group, gmask, pmask, red = sg.group, sg.glyph, sg.pip, sg.red
        # "10" is the only two-glyph index: the component count decides it (font independent)
        # (a "10" whose digits touch is one component: then every glyph competes)
        ten = len(group) == 2 and sg.ring
        labels = ({"g:10"} & self.rank_labels) if ten else self.rank_labels
        if not labels:
            return IndexRead(None, None, 0.0, "no_rank")
        rank_sims = _similarities(gmask, labels)
        rank_lab, rsim, rmargin = _classify(gmask, labels, self.rank_class, rank_sims)
        if self.alphabet == "auto" and rank_lab and rank_lab[2:] in _FOREIGN_GLYPHS:
            # auto alphabet: a Russian/German letter must clearly beat every English one, since
            # unusual English glyphs (the Continental Q) resemble them
            en = {"g:" + g for g in GLYPH_RANK["en"]} & labels
            _, en_sim, _ = _classify(gmask, en, self.rank_class, rank_sims)
            rmargin = min(rmargin, rsim - en_sim - AUTO_MARGIN + MIN_RANK_MARGIN)
        if rank_lab and not _holes_agree(rank_lab[2:], gmask):
            rsim, rmargin = min(rsim, MIN_RANK_SIM - 0.1), 0.0
        if ten:
            left, right = sorted(group, key=lambda c: c[1])
            if left[3] < 0.75 * right[3]:  # a narrow "1" then a round "0"
                rsim = max(rsim, MIN_RANK_SIM + 0.2)
                rmargin = max(rmargin, MIN_RANK_MARGIN + 0.1)
        if self.ocr is not None and _conf(rsim, rmargin, MIN_RANK_SIM, MIN_RANK_MARGIN) < MIN_CONFIDENCE:
            gx0, gy0, gx1, gy1 = sg.glyph_box
            pad = max(2, (gy1 - gy0) // 4)
            crop = patch[max(0, gy0 - pad):gy1 + pad, max(0, gx0 - pad):gx1 + pad]
            text, score = self.ocr(crop)
            text = {"0": "Q", "O": "Q", "1": "", "I": ""}.get(text, text)
            if ("g:" + text) in labels and score >= OCR_MIN_SCORE:
                rank_lab, rsim, rmargin = "g:" + text, max(rsim, MIN_RANK_SIM + 0.25), 0.2
        if pmask is None:
            return IndexRead(None, None, 0.0, "no_pip", rank_lab[2:] if rank_lab else None,
                             _conf(rsim, rmargin, MIN_RANK_SIM, MIN_RANK_MARGIN))
        if sg.stacked >= 2:
            if self.joker and rank_lab in ("g:J", "g:1"):
                # a column of letters headed by a J (a small J loses its hook and looks like a 1)
                conf = _conf(rsim, rmargin, MIN_RANK_SIM, MIN_RANK_MARGIN)
                return IndexRead("JK", None, conf, None, "JOKER", conf)
            return IndexRead(None, None, 0.0, "not_an_index", rank_lab)
        suit_sims = _similarities(pmask, self.suit_labels)
        suit_lab, ssim, smargin = _classify(pmask, self.suit_labels, None, suit_sims)
        is_red = red > RED_SPLIT
        colour_conf = min(1.0, abs(red - RED_SPLIT) / RED_SCALE)
        suit = suit_lab[2:] if suit_lab else None
        if suit and (suit in rc.RED_SUITS) != is_red:
            # shape and colour disagree: take the best suit of the measured colour
            allowed = {"s:H", "s:D"} if is_red else {"s:S", "s:C"}
            suit_lab, ssim, smargin = _classify(pmask, allowed, None, suit_sims)
            suit = suit_lab[2:]
            smargin = min(smargin, MIN_SUIT_MARGIN)
        else:
            allowed = {"s:H", "s:D"} if is_red else {"s:S", "s:C"}
            _, _, smargin = _classify(pmask, allowed, None, suit_sims)
        glyph = rank_lab[2:] if rank_lab else None
        rank = self.glyph_rank.get(glyph) if glyph else None
        conf_rank = _conf(rsim, rmargin, MIN_RANK_SIM, MIN_RANK_MARGIN)
        conf_suit = _conf(ssim, smargin, MIN_SUIT_SIM, MIN_SUIT_MARGIN) * colour_conf
        conf = min(conf_rank, conf_suit)
        if glyph in DECOYS:
            return IndexRead(None, None, 0.0, "not_an_index", glyph)
        if rank is not None and rank not in self.deck_ranks and conf >= MIN_CONFIDENCE:
            return IndexRead(None, None, 0.0, "not_in_deck", glyph)
        return IndexRead(rank, suit, conf, None if conf >= MIN_CONFIDENCE else "weak_index", glyph,
                         conf_rank)


#: Glyphs with two stacked bowls, and glyphs with one bowl (RULINGS alphabets and numerals).
_TWO_BOWLS = {"B", "В", "8"}
_ONE_BOWL = {"D", "Д", "Q", "A", "0", "9", "6", "4"}


def _holes_agree(glyph: str, mask: np.ndarray) -> bool:
    """Shape check of a template match: a glyph with one bowl taller than 60 % of the glyph
    cannot be B/В/8, one with two mid-size bowls (each 25–55 % tall) cannot be a one-bowl glyph,
    and a 4 needs its crossbar."""
    m = (mask > 100).astype(np.uint8)
    h = m.shape[0]
    if h < 8:
        return True
    cs, hier = cv2.findContours(m, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is None:
        return True
    holes = [cv2.boundingRect(c)[3] / h for c, hh in zip(cs, hier[0]) if hh[3] >= 0]
    if glyph in _TWO_BOWLS and any(x > 0.6 for x in holes):
        return False
    if glyph in _ONE_BOWL and sum(1 for x in holes if x >= 0.25) >= 2 and not any(x > 0.55 for x in holes):
        return False  # two mid-size bowls, B-like (a Q whose tail loops keeps its tall bowl)
    if glyph == "4":
        # a 4 has its crossbar across most of its width between 55 % and 85 % of its height
        band = m[int(h * 0.55):int(h * 0.85)]
        widths = [np.ptp(np.nonzero(r)[0]) + 1 for r in band if r.any()]
        if not widths or max(widths) < 0.7 * m.shape[1]:
            return False
    return True


def _conf(sim: float, margin: float, min_sim: float, min_margin: float) -> float:
    """Map a template similarity and margin to 0–1 (0.5 exactly at both minimums)."""
    a = 0.5 + (sim - min_sim) / (2 * (1 - min_sim))
    b = 0.5 + (margin - min_margin) / (4 * min_margin + 1e-6)
    return float(max(0.0, min(1.0, a, b)))
