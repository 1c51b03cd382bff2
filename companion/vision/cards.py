"""Playing-card reader: find every card in a frame and read its corner index (:class:`CardReader`).

Pipeline (all OpenCV, no network, no training for standard decks), one module a step:

1. **Detection** (:func:`~companion.vision.card_detect.detect_cards`): a "whiteness" map (the
   minimum of B, G, R — card paper is bright in every channel, felt, dark cloth and wood are not)
   is thresholded with Otsu at a working width of ``WORK_WIDTH`` px. Each blob that fills its
   minimum-area rectangle is a whole card. Other blobs (overlapping cards) are cut into straight
   edges (:mod:`~companion.vision.card_blobs`); every convex corner between two long, roughly
   perpendicular edges is a card corner, and a card frame is hypothesised from it with the card
   size seen elsewhere in the frame (one visible corner index is enough to read a card).
2. **Rectification** (:mod:`~companion.vision.card_patches`): each corner of a card frame is
   warped to an upright index patch (mirrored corners are flipped), so a card lying upside down
   reads the same.
3. **Index reading** (:class:`~companion.vision.card_index_read.IndexReader`): ink components in
   the patch give the rank glyph (the topmost group, "10" being two components) and the suit pip
   below it. Both are matched against templates (:mod:`~companion.vision.card_templates`)
   rendered from the system's fonts (ranks in the English, Russian and German alphabets) and
   drawn pips; the pip colour (red / black) is measured against the paper colour.
4. **Decision** (here): each card combines its corner reads; disagreeing or weak reads abstain
   with a reason instead of guessing; :mod:`~companion.vision.card_merge` keeps one answer per
   physical card.

The learned index read runs beside the template read (:mod:`~companion.vision.card_worker`).
Images are H×W×3 BGR uint8. Coordinates are px in the input image.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path

import numpy as np

from companion.i18n import MP, NC_, Message
from companion.vision.card_centre import NUMBERED_RANKS, centre_is_picture, is_back
from companion.vision.card_detect import detect_cards
from companion.vision.card_frames import CardFrame, CardRead, _any_near, _frame_quads, check_image
from companion.vision.card_index_read import MIN_CONFIDENCE, IndexReader, rapid_text
from companion.vision.card_merge import SHARED_CORNER, _explained_nulls_dropped, _merge_same_card
from companion.vision.card_patches import PARTIAL_GROW, _sides_swapped, corner_patch, rectify
from companion.vision.card_worker import _PATCH_MEMO, _beside

#: The reader and, re-exported from the modules of its steps, the names other packages use.
__all__ = [
    "CALIBRATED", "REASONS", "CardFrame", "CardRead", "CardReader", "IndexReader", "check_image",
    "corner_patch", "detect_cards", "rapid_text", "reason_message", "rectify",
]

#: Corner reads whose rank glyph may dissent: read, or weakly read with its pip (a glyph with no
#: pip under it is more often a cut-off letter or picture detail than an index).
DISSENT_REASONS = (None, "weak_index")
#: An abstained card's reason codes (``CardRead.reason``, listed in ``docs/vision-cards.md``),
#: marked for the catalogue in the context ``card reason``: the operator's console words them
#: (``companion scan-card --lang ru``; English shows the code itself); the JSON keeps the code.
REASONS = (
    NC_("card reason", "weak_index"), NC_("card reason", "no_index"), NC_("card reason", "no_pip"),
    NC_("card reason", "no_paper"), NC_("card reason", "no_rank"), NC_("card reason", "corners_disagree"),
    NC_("card reason", "not_in_deck"), NC_("card reason", "not_an_index"),
    NC_("card reason", "rank_picture_mismatch"), NC_("card reason", "alphabet_lookalike"),
    NC_("card reason", "face_down"), NC_("card reason", "no_profile_match"),
    NC_("card reason", "suit_colour_mismatch"), NC_("card reason", "no_corner_visible"),
    NC_("card reason", "unreadable"), NC_("card reason", "no_card_found"),
)


def reason_message(code: str) -> Message:
    """The words of an abstained card's reason ``code`` (English: the code itself)."""
    return MP("card reason", code)


#: Whether readers apply the confidence calibration by default (:mod:`companion.vision.card_calib`).
#: Off: fitted on rendered calibration scenes, it refuses most template reads — which on the real
#: Continental decks are right — and the real sets fall to 5–35 % read (docs/vision-cards.md).
CALIBRATED = False
#: Corners read at least this confidently that agree on one code vote it through (see
#: :meth:`CardReader.read_frame`).
VOTE_CONFIDENCE = 0.4
#: A rank glyph read this well at another corner, if it differs, makes the card doubtful.
DISSENT_CONFIDENCE = 0.4
#: Ranks whose index glyph has a look-alike in another alphabet: the English "8" and the
#: German "B" (Bube) / Russian "В" (валет). A partly hidden card read as one of these under a
#: single alphabet is cross-checked with ``auto`` (a wrongly set deck alphabet must abstain).
LOOKALIKE_RANKS = frozenset({"8", "J"})
#: Reasons of an unread card that show no sign of a card beyond its paper (see CardReader.read).
NO_SIGN_REASONS = frozenset({"no_index", "no_paper", "no_pip", "no_corner_visible", "unreadable"})


class CardReader:
    """Finds and reads every card in a frame.

    Args:
        deck: ``standard`` (52 cards + joker), ``standard36``, ``standard32``, or a
            :class:`companion.vision.decks.DeckProfile` (learned deck).
        alphabet: corner-index alphabet: ``en``, ``ru``, ``de`` or ``auto``.
        ocr: let RapidOCR re-read weak rank glyphs (slower; for still images).
        learned: read indices with the learned classifier (:mod:`companion.vision.learned_read`);
            None: when its model is there. False: the glyph templates alone.
        cross_check: with ``learned``, the templates must not read another card at the corners
            that read the card.
        mask_mode: how card paper is found (:data:`companion.vision.card_detect.MASK_MODE`).
        combine: with ``learned``, also read with the templates and combine the two answers
            (:func:`companion.vision.learned_read.combine`); False: the learned read alone.
        calibrated: report only cards whose calibrated probability reaches the calibration's
            line (:mod:`companion.vision.card_calib`); None: :data:`CALIBRATED`.
        models: a folder holding another ``card_index.onnx`` (+ ``.json``; read alone, or with
            the folder's ``card_index_pair.onnx`` as :class:`~companion.vision.card_index.IndexPair`) and
            ``card_calib.json`` (and ``card_corners.onnx``; each only if there) to use instead of
            the committed models (to measure a retrained
            model against them in one run: ``bench/cards.py --models``); None: the committed ones.
        corners: also find cards by their index corners with the learned corner detector
            (:mod:`companion.vision.card_corners`; standard decks); None: when its model is there.
    """

    def __init__(self, deck="standard", alphabet: str = "auto", ocr: bool = False,
                 learned: bool | None = None, cross_check: bool = False, mask_mode: str | None = None,
                 combine: bool = True, calibrated: bool | None = None, models: str | Path | None = None,
                 corners: bool | None = None) -> None:
        from companion.vision import card_calib, card_corners, card_index

        #: the index classifier and calibration of another model folder (``models``: its
        #: card_index.onnx/.json and card_calib.json), else the committed ones
        alt_index = Path(models) / "card_index.onnx" if models else None
        self.index_net: card_index.IndexNet | card_index.IndexPair | None = (
            card_index.IndexNet(alt_index) if alt_index is not None and alt_index.is_file() else None)
        pair = Path(models) / "card_index_pair.onnx" if models else None
        if pair is not None and pair.is_file():
            self.index_net = card_index.IndexPair(self.index_net or card_index.IndexNet(), card_index.IndexNet(pair))
        self.calibrator = card_calib.load(Path(models) / "card_calib.json") if models else None
        self.learned = (card_index.available() or self.index_net is not None) if learned is None else learned
        #: the learned index-corner detector (:mod:`companion.vision.card_corners`) as one more way
        #: of finding cards (standard decks, with the learned classifier); its model from ``models``
        #: when that folder has one
        alt = Path(models) / "card_corners.onnx" if models else None
        self.corner_net = card_corners.CornerNet(alt) if alt is not None and alt.is_file() else None
        self.corners = (self.corner_net is not None or card_corners.available()) if corners is None else corners
        self.cross_check = cross_check
        self.combine = combine
        self.mask_mode = mask_mode
        self.profile = None
        size = 52
        if isinstance(deck, str):
            sizes = {"standard": 52, "standard52": 52, "standard36": 36, "standard32": 32}
            if deck not in sizes:
                raise ValueError(f"unknown standard deck {deck!r} ({', '.join(sizes)})")
            size = sizes[deck]
        else:
            self.profile = deck
            size = getattr(deck, "deck_size", 52) or 52
            alphabet = getattr(deck, "alphabet", alphabet) or alphabet
        self.index = IndexReader(alphabet, size, joker=True, ocr=ocr)
        #: calibrated confidence and line (:mod:`companion.vision.card_calib`), and the suit-colour
        #: veto; tools/calibrate_cards.py turns both off to collect the uncalibrated reads
        self.calibrate = CALIBRATED if calibrated is None else calibrated
        self.colour_veto = True
        #: a template read vetoed only by a sure learned corner is left to the calibration
        #: (see :func:`companion.vision.learned_read.combine`)
        self.contest = True
        #: the template-alone floor (:data:`companion.vision.learned_read.CLASSIC_ALONE_MIN`)
        from companion.vision.learned_read import CLASSIC_ALONE_MIN, CLASSIC_SURE
        self.classic_alone_min = CLASSIC_ALONE_MIN
        #: the eighth pass's rule on weak template-only reads (:data:`companion.vision.learned_read.CLASSIC_SURE`)
        self.classic_sure = CLASSIC_SURE
        self.collect = False
        self._auto: IndexReader | None = None  # the cross-check of look-alike partial reads

    def read(self, image: np.ndarray) -> list[CardRead]:
        """Read every card in ``image`` (H×W×3 BGR uint8), ordered left to right.

        When no card outline is found and the image itself has a card's proportions, the image
        is read as one rectified card (a scan or crop).

        Raises:
            VisionError: unusable image.
        """
        image = check_image(image)
        _PATCH_MEMO.image, _PATCH_MEMO.patches = image, {}
        try:
            return self._read(image)
        finally:
            _PATCH_MEMO.image = _PATCH_MEMO.patches = None

    def _read(self, image: np.ndarray) -> list[CardRead]:
        paper: dict = {}
        detected = None
        if self.corners and self.learned and self.profile is None:
            from companion.vision import card_corners
            detected = _beside((self.corner_net or card_corners.shared()).detect, image)
        frames = detect_cards(image, paper, self.mask_mode)
        H, W = image.shape[:2]
        sure = [f for f in frames if not f.verify]
        if not sure or (len(sure) == 1 and sure[0].box[2] * sure[0].box[3] > 0.8 * W * H):
            asp = max(H, W) / min(H, W)
            if 1.25 <= asp <= 1.75:
                q = np.array([[0, 0], [W - 1, 0], [W - 1, H - 1], [0, H - 1]], np.float32)
                if W > H:
                    q = q[[1, 2, 3, 0]]
                frames = [CardFrame(q, True)]
        # whole cards and the best-seen hypotheses first: a hypothesis sharing an observed corner
        # with a card already read is that card's (see _explained_nulls_dropped) and is not
        # re-read harder (wider and sides-swapped patches) when its first read is unsure
        order = sorted(range(len(frames)), key=lambda i: (not frames[i].complete,
                                                          -len(frames[i].readable)))
        done: dict[int, CardRead] = {}
        named_corners: list = []
        ahead: dict = {}
        if self.learned and self.combine and self.profile is None:
            from companion.vision.learned_read import read_frame_learned
            # a whole card's learned read does not depend on the cards read before it (it is
            # read all round): all queued on the worker at once, which then never waits
            ahead = {i: _beside(read_frame_learned, self, image, frames[i], True) for i in order if frames[i].complete}
        for i in order:
            f = frames[i]
            corners = [q[k] for q, ks in _frame_quads(f) for k in ks] if not f.complete else []
            explained = _any_near(corners, named_corners, SHARED_CORNER)
            r = done[i] = self.read_frame(image, f, retry=not explained, started=ahead.get(i))
            if r.card is not None or f.complete:
                named_corners += [(q[k], min(f.size)) for q, ks in _frame_quads(f) for k in ks]
        # a frame only the extra cues found counts only when it reads as a card
        reads = _merge_same_card([done[i] for i in range(len(frames))
                                  if not (frames[i].verify and done[i].card is None)])
        if "mask" in paper:
            reads = _explained_nulls_dropped(reads, paper["mask"], paper["scale"])
            reads = [self._read_region(image, r) if r.reason == "no_corner_visible" else r
                     for r in reads]
            if paper.get("bright"):
                # a table as bright as paper: local contrast also marks pieces of the table, so
                # unread paper is reported only with some sign of a card (a card's whole
                # outline, or a corner that shows an index, read or not)
                reads = [r for r in reads if r.card or r.frame.complete or r.reason not in NO_SIGN_REASONS]
        if detected is not None:
            from companion.vision.card_corners import add_corner_reads
            reads = _merge_same_card(add_corner_reads(self, image, reads, corners=detected.result()))
        reads.sort(key=lambda r: r.frame.center[0])
        return reads

    def _read_region(self, image: np.ndarray, region: CardRead) -> CardRead:
        """A card region with no corner found (``no_corner_visible``) whose paper spans a card's
        shape — a face card whose picture broke its paper into islands, so its outline was never
        one blob — is read as a whole card from its minimum-area rectangle; kept as the region
        unless that read is sure."""
        w, h = region.frame.size
        if not 1.2 <= max(w, h) / max(1.0, min(w, h)) <= 1.8:
            return region
        q = region.frame.quad
        if w > h:  # TL→TR must be the short side
            q = q[[1, 2, 3, 0]]
        got = self.read_frame(image, CardFrame(np.asarray(q, np.float32), True))
        if got.card is None or got.confidence < MIN_CONFIDENCE:
            return region
        return got

    def read_frame(self, image: np.ndarray, frame: CardFrame, retry: bool = True,
                   started: Future | None = None) -> CardRead:
        """Read one detected card (see :meth:`read`). ``retry``: read the seen corners of a
        partly hidden card again through wider and sides-swapped patches when no first read
        is sure. ``started``: its learned read (with the same ``retry``), already started."""
        box = frame.box
        if self.profile is not None and frame.complete:
            label, conf, face_up = self.profile.match(rectify(image, frame.quad))
            if label is not None and conf >= MIN_CONFIDENCE:
                return CardRead(label, box, conf, None, frame, face_up)
            if face_up is False or (label is None and is_back(rectify(image, frame.quad, 84, 118))
                                    and "back" in self.profile.feature_labels):
                return CardRead(None, box, conf, "face_down", frame, False)
            if self.profile.kind != "standard":
                return CardRead(None, box, conf, "no_profile_match", frame, None)
        if self.learned:
            from companion.vision.learned_read import combine, read_frame_learned
            if not self.combine:
                return read_frame_learned(self, image, frame, retry)
            beside = started if started is not None else _beside(read_frame_learned, self, image, frame, retry)
            classic = self._read_frame_classic(image, frame, retry)
            learned = beside.result()
            std = self.profile is None
            return self._calibrated(classic, learned, combine(
                classic, learned, self.contest and std, self.classic_alone_min if std else 0.0,
                self.classic_sure if std else 0.0))
        return self._read_frame_classic(image, frame, retry)

    def _calibrated(self, classic: CardRead, learned: CardRead, read: CardRead) -> CardRead:
        """A named card of the combined reader with its calibrated confidence
        (:mod:`companion.vision.card_calib`): vetoed when its pip's measured colour surely
        contradicts its suit (``suit_colour_mismatch``), reported unsure (``weak_index``, with its
        box) below the calibration's line. The facts stay in ``detail["calib"]``."""
        from companion.vision import card_calib

        if read.card is None or self.profile is not None:
            return read
        x = card_calib.features(classic, learned, read)
        detail = {**read.detail, "calib": x}
        if x[card_calib.FEATURES.index("colour")] <= card_calib.COLOUR_VETO and self.colour_veto:
            return CardRead(None, read.box, 0.0, "suit_colour_mismatch", read.frame, True,
                            {**detail, "corners": [read.card]})
        cal = (self.calibrator or card_calib.shared()) if self.calibrate else None
        contested = read.detail.get("contested")
        if contested and not self.collect and (cal is None or not cal.contest):
            return CardRead(None, read.box, 0.0, "corners_disagree", read.frame, True,
                            {**detail, "classic": read.card, "learned": contested})
        if cal is None:
            return CardRead(read.card, read.box, read.confidence, None, read.frame, read.face_up, detail)
        p = cal.probability(x)
        if p < cal.line:
            return CardRead(None, read.box, p, "weak_index", read.frame, True,
                            {**detail, "corners": [read.card], "unsure": read.card})
        return CardRead(read.card, read.box, p, None, read.frame, read.face_up, detail)

    def _read_frame_classic(self, image: np.ndarray, frame: CardFrame, retry: bool = True) -> CardRead:
        """The glyph-template read of one card (the classic pipeline's decision)."""
        box = frame.box
        if frame.complete:
            # the two index corners of a standard card first; the other two (four-index decks,
            # or the card's short side taken for its long one) only when those do not settle it
            reads = [self.index.read_patch(corner_patch(image, frame.quad, k)) for k in (0, 2)]
            codes = {r.code for r in reads if r.code and r.confidence >= MIN_CONFIDENCE}
            if len(codes) != 1:
                reads += [self.index.read_patch(corner_patch(image, frame.quad, k)) for k in (1, 3)]
        else:
            reads = [self.index.read_patch(corner_patch(image, q, k))
                     for q, ks in [(frame.quad, frame.readable)] + frame.views for k in ks]
            if retry and reads and not any(r.code and r.confidence >= MIN_CONFIDENCE for r in reads):
                # a hypothesised corner can be a few px off and cut the index at the patch
                # border: read the seen corners again through a wider patch
                reads += [self.index.read_patch(corner_patch(image, q, k, PARTIAL_GROW))
                          for q, ks in [(frame.quad, frame.readable)] + frame.views for k in ks]
            if retry and reads and not any(r.code and r.confidence >= MIN_CONFIDENCE for r in reads):
                # a corner hypothesis can take the card's long side for its short one (only
                # the corner and short stubs of both sides seen): the index is then read
                # sideways; read each seen corner with the sides swapped too
                for g in (1.0, PARTIAL_GROW):
                    reads += [self.index.read_patch(corner_patch(image, _sides_swapped(q, k), 0, g))
                              for q, ks in [(frame.quad, frame.readable)] + frame.views for k in ks]
                    if any(r.code and r.confidence >= MIN_CONFIDENCE for r in reads):
                        break
            if not reads:
                # card paper seen (a card mostly hidden, or cut) but none of its corners
                return CardRead(None, box, 0.0, "no_corner_visible", frame, None)
        good = [r for r in reads if r.code and r.confidence >= MIN_CONFIDENCE]
        if not good and frame.complete:
            # corner vote: two or more different corners of one card reading the same code,
            # each nearly sure and none of them reading another code, settle it
            if len(reads) < 4 and any(r.code and r.confidence >= VOTE_CONFIDENCE for r in reads):
                reads += [self.index.read_patch(corner_patch(image, frame.quad, k)) for k in (1, 3)]
            near = [r for r in reads if r.code and r.confidence >= VOTE_CONFIDENCE]
            if len(near) >= 2 and len({r.code for r in near}) == 1:
                good = near
        if not good:
            best = max(reads, key=lambda r: r.confidence)
            if (frame.complete and all(r.reason in ("no_index", "no_paper") for r in reads)
                    and is_back(rectify(image, frame.quad, 84, 118))):
                return CardRead(None, box, 0.0, "face_down", frame, False)
            return CardRead(None, box, best.confidence, best.reason or "unreadable", frame,
                            None, {"corners": [r.code for r in reads]})
        codes = {r.code for r in good}
        # another corner showing a different rank glyph, even one too weak to report, is doubt
        ranks = {self.index.glyph_rank.get(r.glyph) for r in reads
                 if r.glyph and r.reason in DISSENT_REASONS and r.rank_confidence >= DISSENT_CONFIDENCE}
        ranks.discard(None)
        if len(codes) > 1 or len(ranks) > 1:
            return CardRead(None, box, 0.0, "corners_disagree", frame, True,
                            {"corners": sorted(codes), "ranks": sorted(ranks)})
        conf = max(r.confidence for r in good)
        # agreement of two corners raises confidence
        if len(good) > 1:
            conf = max(MIN_CONFIDENCE, min(1.0, conf + 0.1))
        rank = good[0].rank
        if frame.complete and rank in NUMBERED_RANKS and centre_is_picture(image, frame.quad):
            # a numbered rank shows pips; a picture means the index was misread (a German "B"
            # matched as "8" under the English alphabet): refuse whatever the alphabet says
            return CardRead(None, box, 0.0, "rank_picture_mismatch", frame, True,
                            {"corners": sorted(codes)})
        if not frame.complete and rank in LOOKALIKE_RANKS and self.index.alphabet != "auto":
            # only a corner seen: no centre to check. The glyph must read the same with every
            # alphabet allowed, else the deck setting alone decided it (8 vs B/В)
            if self._auto is None:
                self._auto = IndexReader("auto", self.index.deck_size, self.index.joker)
            alt = [self._auto.read_patch(corner_patch(image, q, k))
                   for q, ks in [(frame.quad, frame.readable)] + frame.views for k in ks]
            if not any(a.code == good[0].code and a.confidence >= MIN_CONFIDENCE for a in alt):
                return CardRead(None, box, 0.0, "alphabet_lookalike", frame, True,
                                {"corners": sorted(codes), "auto": sorted({a.code for a in alt if a.code})})
        return CardRead(good[0].code, box, conf, None, frame, True,
                        {"glyph": good[0].glyph, "corners": len(good)})
