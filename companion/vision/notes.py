"""The banknote reader: a camera frame (or a tight serial-strip crop) in, a serial and its parity
out — or an explicit abstention ("not sure, rescan").

Pipeline (``docs/vision-notes.md`` has the measured figures):

1. *Strip or frame.* A short, wide image (height ≤ 160 px, width ≥ 2.5 × height) is a tight crop of
   a serial strip and is read as one line. Anything else is a frame.
2. *Find text lines.* RapidOCR's PP-OCR detector runs on the frame scaled to ≤ 384 px, and at
   640 px only when that decided nothing; each quadrilateral is cut out of the
   *full-resolution* frame with a perspective warp, so notes at any rotation or perspective give
   upright line images. Lines that are too short or not elongated enough for a serial are
   dropped. Tall lines (the vertical RUB copy) are turned, the angle classifier turns
   upside-down lines round, and lines that fit no format are read turned 180° too before
   anything is decided (the classifier can be sure and wrong).
3. *Read and validate.* Each line is recognised by the project's serial recogniser
   (:mod:`companion.vision.serialnet`) both ways up and decoded under the currency formats;
   the lines are decided together (:mod:`companion.vision.notes_net`). Where it is unsure,
   PP-OCR's recogniser (with Tesseract and the glyph matcher: ``recogniser="ppocr"``, the
   reader before it) reads the same lines, and its decision stands only where the recogniser
   does not hold another serial likelier.
4. *Decide.* Readings of the same serial (two printed copies, several variants of a strip,
   Tesseract's independent second opinion) raise the confidence; readings that disagree (the two
   copies of one RUB note, or two different notes in view) make the reader abstain. Only a
   confidence ≥ :attr:`NoteReader.min_confidence` gives a serial.

Modules: this one holds :class:`NoteReader` (frames, streams, the recogniser's path);
:mod:`~companion.vision.note_read` the verdict types, :mod:`~companion.vision.note_lines` the
line geometry and renderings, :mod:`~companion.vision.note_strips` and
:mod:`~companion.vision.note_decide` PP-OCR's reading (the second engine).

:class:`NoteVoter` decides over several frames of a stream; :meth:`NoteReader.read_stream` reads a
stream's frames in the serial regions of the last decided frame when the scene allows it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision import note_lines as NL
from companion.vision import serials as S
from companion.vision.images import check_min_side, load_image
from companion.vision.note_decide import PpocrDecision, is_legend
from companion.vision.note_lines import as_bgr, is_strip, warp_quad
from companion.vision.note_read import (CONFLICTS, REASONS, UNREAD_LETTERS, Evidence, NoteRead,
                                        NoteVoter, same_note)
from companion.vision.note_strips import PpocrStrips
from companion.vision.notes_net import SECOND_ENGINE_REASONS
from companion.vision.rapid_engine import RapidEngine, shared_rapid
from companion.vision.tesseract_engine import TesseractEngine

#: The reader's public names, wherever they are defined (``from companion.vision.notes import …``).
__all__ = ["CONFLICTS", "MIN_SIDE", "REASONS", "UNREAD_LETTERS", "Evidence", "NoteRead", "NoteReader",
           "NoteVoter", "as_bgr", "is_legend", "is_strip", "load_image", "warp_quad"]

MIN_SIDE = 12
#: Currencies whose print the serial recogniser never saw in a real crop: a photo it decides
#: alone stands only when PP-OCR's plain reading of the same lines agrees (:meth:`NoteReader._vetoed`).
CONFIRM_CURRENCIES: frozenset[str] = frozenset({"USD", "INR"})
#: Under ``auto``, the veto reads PP-OCR's plain readings against every currency's format (a
#: valid serial of another currency is a disagreement too), not only the decided one's.
VETO_ALL_CURRENCIES = True
"""The shortest side, px, of an image the note reader reads: a serial's glyphs under ~8 px tall
are lost (:data:`companion.camview.MIN_SIDE_PX`), and a tight strip crop holds them with a little
margin; anything smaller is refused as too small, not read as "no decision"."""

#: Cyrillic letters Tesseract may output for a RUB serial (upper and lower case: the second letter
#: is printed in lower case, "Ак 2444841").
_CYR = "".join(sorted(S.CYRILLIC_SERIAL_LETTERS))


class NoteReader(PpocrStrips, PpocrDecision):
    """Reads banknote serials from frames or strip crops.

    Args:
        currency: ``auto`` or one of :data:`companion.vision.serials.CURRENCIES`.
        second_opinion: ask Tesseract (one process per photo) when RapidOCR alone is not sure.
        min_confidence: decide only at or above this confidence (0..1).
        engine: a :class:`RapidEngine`; default the process's shared one
            (:func:`companion.vision.rapid_engine.shared_rapid`, loaded on first use).

    Raises:
        ValueError: unknown currency.
    """

    #: Lines shorter than this (px, their long side in the full frame) cannot hold a serial.
    MIN_LINE_LEN = 40
    #: Long side / short side of a serial line (≥ 7 glyphs).
    MIN_ELONGATION = 2.5
    #: At most this many candidate lines (the tallest) are recognised per frame.
    MAX_LINES = 6
    #: Confidence factor per format correction (O→0 …): a corrected read needs more support.
    CORRECTION_FACTOR = 0.95
    #: The same for a correction in a letter position or a trimmed stray mark (parity unaffected).
    LETTER_CORRECTION_FACTOR = 0.98
    #: Weight of each further rendering of one strip that agrees with the first.
    VARIANT_WEIGHT = 0.3
    #: Longer lines than this (long / short side) are sentences, not serials.
    MAX_ELONGATION = 20.0
    #: Confidence cap for a frame where only one printed copy of the serial was read; the
    #: Tesseract second opinion (or a second copy) must confirm it.
    SINGLE_COPY_CAP = 0.9
    #: Text detection passes (longest side of the frame, px). The first, coarse pass costs about a
    #: third of the second; the second runs only when the first decided nothing and saw no
    #: conflicting evidence. 384 rather than 320 px: on the real USD scans (640 px, whole note)
    #: the first pass then decides 31 of 34 instead of 13, for ≈ 15 % more detection time on the
    #: frames 320 px already read (``docs/vision-notes.md``).
    DET_SIDES = (384, 640)
    #: Streaming: each tracked serial line's box is grown by this many line heights (plus 15 % of
    #: its length) on every side: room for a hand's small movements between frames.
    TRACK_MARGIN = 1.0
    #: Streaming: a full read at least every this many tracked frames.
    TRACK_REFRESH = 5
    #: Streaming: share of the scene outside the tracked regions that may have changed since the
    #: last full read (:func:`NL.scene_change`) before the frame is read whole.
    TRACK_SCENE_CHANGE = 0.01

    #: Recognisers of serial lines: ``serialnet`` (the project's own model,
    #: :mod:`companion.vision.serialnet`) or ``ppocr`` (PP-OCR's recogniser with Tesseract and
    #: the glyph matcher: the reader before it, kept for the benchmark's comparison).
    RECOGNISERS = ("serialnet", "ppocr")

    def __init__(self, currency: str = "auto", second_opinion: bool = True,
                 min_confidence: float = 0.95, engine: RapidEngine | None = None,
                 recogniser: str = "serialnet") -> None:
        if currency != "auto" and currency not in S.CURRENCIES:
            raise ValueError(f"unknown currency {currency!r}; use auto or one of "
                             f"{', '.join(S.CURRENCIES)}")
        if recogniser not in self.RECOGNISERS:
            raise ValueError(f"unknown recogniser {recogniser!r}; use {' or '.join(self.RECOGNISERS)}")
        self.recogniser = recogniser
        self._net = None
        self.currency = currency
        self.second_opinion = second_opinion
        self.min_confidence = min_confidence
        self._engine = engine
        self._tess: TesseractEngine | None = None
        self._tess_budget = 1
        self._det_scale = 1.0
        self._last_lines: list[NL.Line] = []
        self._track: NL.Track | None = None
        #: frames :meth:`read_stream` read in the tracked region / whole
        self.stream_stats: Counter = Counter()

    # engines ---------------------------------------------------------------------------
    @property
    def engine(self) -> RapidEngine:
        if self._engine is None:
            self._engine = shared_rapid()
        return self._engine

    @property
    def tesseract(self) -> TesseractEngine | None:
        if self._tess is None and self.second_opinion:
            try:
                if self.currency == "RUB":
                    # Cyrillic only: Latin twins would let Tesseract dodge the letters
                    lang, wl = "rus", _CYR + _CYR.lower() + "0123456789"
                elif self.currency == "auto":
                    lang = "eng+rus"
                    wl = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*" + _CYR + _CYR.lower()
                else:
                    lang, wl = "eng", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*"
                self._tess = TesseractEngine(lang=lang, whitelist=wl)
            except VisionError:
                self.second_opinion = False
        return self._tess

    # public ----------------------------------------------------------------------------
    def read(self, image: np.ndarray) -> NoteRead:
        """Read one image (H×W×3 BGR uint8): a strip crop or a whole frame.

        Raises:
            VisionError: the array is not an image, or too small to hold a serial (a short side
                under :data:`MIN_SIDE` px: :func:`companion.vision.images.check_min_side`, the
                refusal ``scan-card`` gives too).
        """
        image = as_bgr(image)
        check_min_side(image, MIN_SIDE)
        return self.read_strip(image) if is_strip(image) else self.read_frame(image)

    def read_path(self, path: str | Path) -> NoteRead:
        """:meth:`read` of an image file.

        Raises:
            VisionError: missing or corrupt file.
        """
        return self.read(load_image(path))

    @property
    def net(self):
        """The serial recogniser (:func:`companion.vision.serialnet.shared_serialnet`)."""
        if self._net is None:
            from companion.vision.serialnet import shared_serialnet

            self._net = shared_serialnet()
        return self._net

    # strips ----------------------------------------------------------------------------
    def read_strip_net(self, strip: np.ndarray) -> NoteRead:
        """Read a strip (H×W×3 BGR uint8) with the project's recogniser under the formats
        (:func:`companion.vision.notes_net.net_decide`)."""
        from companion.vision.notes_net import net_decide

        strip = as_bgr(strip)
        res = net_decide(self, [strip], strip=True)
        # a strip the recogniser decides is not checked against PP-OCR's plain reading (the veto
        # of photos, :meth:`_vetoed`): on 400 crops of the calib split it changed no decision,
        # and it cost ≈ 48 ms CPU a decided strip, three times the recogniser's own reading
        if res.decided or res.reason not in SECOND_ENGINE_REASONS or not self.second_opinion:
            return res
        # not sure: PP-OCR's reading of the same strip, an independent engine, decides when the
        # recogniser gives its serial a real share or has no opinion (second_engine_counts)
        from companion.vision.notes_net import second_engine_counts

        other = self.read_strip_greedy(strip) if self.currency == "RUB" else self.read_strip_ctc(strip)
        # on a strip only the recogniser's own best serial (measured on the calib split: PP-OCR's
        # other serials there were 31 right and 2 wrong; docs/vision-notes.md, twelfth session)
        if second_engine_counts(res, other) and other.serial == res.candidate:
            ev = res.evidence + other.evidence
            return NoteRead(other.serial, other.currency, max(res.confidence, other.confidence),
                            None, other.serial, ev, other.letters_confirmed)
        return res

    def read_strip(self, strip: np.ndarray) -> NoteRead:
        """Read a tight crop of one serial strip (H×W×3 BGR uint8, text left to right).

        Latin-script currencies (and ``auto``) go through :meth:`read_strip_ctc`, the
        format-constrained decoder; RUB (Cyrillic letters, which the bundled recogniser does
        not know) through the greedy readings of :meth:`read_strip_greedy`.
        """
        strip = as_bgr(strip)
        if self.recogniser == "serialnet":
            return self.read_strip_net(strip)
        if self.currency == "RUB":
            return self.read_strip_greedy(strip)
        res = self.read_strip_ctc(strip)
        if res.candidate is None and self.currency == "auto":
            # nothing Latin fits: a RUB strip?
            rub = self.read_strip_greedy(strip, rub_only=True)
            if rub.candidate is not None:
                return rub
        return res

    # frames ----------------------------------------------------------------------------
    def candidate_lines(self, frame: np.ndarray, side: int | None = None) -> list[np.ndarray]:
        """Upright line images (H×W×3 BGR uint8) of the text lines in ``frame`` that could hold a
        serial, best candidates first; tall lines come out turned 90° clockwise (one image per
        physical line: two images of one line would count as two printed copies).

        Args:
            side: detection resolution (longest side, px); default the engine's.
        """
        return [c.image for c in self._candidates(as_bgr(frame), side)]

    def _candidates(self, frame: np.ndarray, side: int | None,
                    offset: tuple[int, int] = (0, 0)) -> list["NL.Line"]:
        """:meth:`candidate_lines` with each line's quadrilateral (in ``frame`` pixels plus
        ``offset``, the position of ``frame`` in a larger frame)."""
        quads = self.engine.detect(frame, side)
        scored = []
        for q in quads:
            w = max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[2] - q[3]))
            h = max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2]))
            long_, short = max(w, h), max(1.0, min(w, h))
            if long_ < self.MIN_LINE_LEN or long_ / short < self.MIN_ELONGATION or short < 7:
                continue
            if long_ / short > self.MAX_ELONGATION:
                continue
            # serial glyphs are printed larger than the legends around them: taller lines first
            scored.append((-short, q, w, h))
        scored.sort(key=lambda t: t[0])
        lines = []
        for _, q, w, h in scored[: self.MAX_LINES]:
            lines.append(self._cut(frame, q, h > 1.5 * w, offset))
        return lines

    def _cut(self, frame: np.ndarray, quad: np.ndarray, vertical: bool,
             offset: tuple[int, int] = (0, 0)) -> "NL.Line":
        crop = warp_quad(frame, quad)
        if vertical:
            # a vertical line: turned clockwise here (the angle classifier decides 0/180°);
            # the vertical RUB copy's growing glyphs are brought to one height
            crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
            if self.currency in ("RUB", "auto"):
                crop = NL.even_glyph_heights(crop)
        return NL.Line(crop, quad + np.float32(offset), vertical)

    def read_frame(self, frame: np.ndarray) -> NoteRead:
        """Read the note(s) in a whole frame (H×W×3 BGR uint8), at any rotation/perspective.

        Detection runs first at :attr:`DET_SIDES` ``[0]`` px; the finer pass runs when the
        coarse one decided nothing. A conflict the coarse pass found (:data:`CONFLICTS`: two
        valid serials on different lines) stands unless the finer pass decides *and* read
        again, at its resolution, every line that carried a conflicting serial
        (:func:`NL.reread`): small print read at the coarse scale fits some format by chance
        under ``auto``, and such a reading must not cost a note whose serial reads cleanly at
        the finer scale — while a second note's serial, read again, blocks the decision there.
        """
        frame = as_bgr(frame)
        res = NoteRead(None, None, 0.0, "no_serial")
        self._tess_budget = 1  # one Tesseract process per photo at most
        longest = max(frame.shape[:2])
        conflict: tuple[NoteRead, list[NL.Line]] | None = None
        unsure: tuple[NoteRead, list] | None = None  # RUB digits decided, letters not confirmed
        for k, side in enumerate(self.DET_SIDES):
            if k and longest <= self.DET_SIDES[k - 1]:
                break  # the frame was already detected at full resolution
            self._det_scale = min(1.0, side / longest)
            cands = self._candidates(frame, side)
            res = self._read_lines(cands)
            if unsure is not None:
                # the finer pass may confirm the letters of the same digits; nothing else counts
                if res.decided and res.letters_confirmed and res.serial[2:] == unsure[0].serial[2:]:
                    return res
                self._last_lines = unsure[1]
                return unsure[0]
            if conflict is not None:
                before, before_cands = conflict
                against = {e.line for e in before.evidence if not same_note(e.match, res)}
                if res.decided and all(NL.reread(before_cands[i].quad, cands) for i in against):
                    return res
                self._last_lines = []
                return before
            if res.decided:
                if (self.currency == "RUB" and not res.letters_confirmed
                        and k + 1 < len(self.DET_SIDES) and longest > side):
                    unsure = (res, self._last_lines)
                    continue
                return res
            if res.reason in CONFLICTS:
                conflict = (res, cands)
        return unsure[0] if unsure is not None else res

    # streams ---------------------------------------------------------------------------
    def read_stream(self, frame: np.ndarray) -> NoteRead:
        """Read one frame (H×W×3 BGR uint8) of a camera stream showing the same scene.

        After a frame decided a serial, the next frames are read around its serial lines only
        (each line's box grown by :attr:`TRACK_MARGIN` line heights; overlapping boxes merged, so
        one printed line is never found twice): text detection runs on those crops at the
        scale of the full read (its cost falls with their area) and the same decision rules
        apply to the lines found there. A full :meth:`read_frame` runs instead when the
        region reads nothing decided (the note moved), when the scene outside the region
        changed since the last full read (:attr:`TRACK_SCENE_CHANGE`: a second note may have
        come into view), and at least every :attr:`TRACK_REFRESH` frames. Feed the results to
        a :class:`NoteVoter` as usual; :meth:`reset_stream` forgets the region.

        Raises:
            VisionError: the array is not an image.
        """
        frame = as_bgr(frame)
        if is_strip(frame):
            return self.read_strip(frame)
        t = self._track
        thumb = NL.thumb(frame)
        if t is not None and t.age < self.TRACK_REFRESH and frame.shape == t.shape:
            if NL.scene_change(t.thumb, thumb, t.boxes, frame.shape) <= self.TRACK_SCENE_CHANGE:
                self._tess_budget = 1
                cands: list[NL.Line] = []
                for x0, y0, x1, y1 in t.boxes:
                    crop = frame[y0:y1, x0:x1]
                    side = max(32, int(round(max(crop.shape[:2]) * t.scale)))
                    cands += self._candidates(crop, side, (x0, y0))
                cands.sort(key=lambda c: -min(c.image.shape[:2]))
                res = self._read_lines(cands[: self.MAX_LINES])
                if res.decided:
                    t.age += 1
                    self.stream_stats["tracked"] += 1
                    return res
        self.stream_stats["full"] += 1
        res = self.read_frame(frame)
        self._track = None
        if res.decided and self._last_lines:
            H, W = frame.shape[:2]
            boxes = []
            for c in self._last_lines:
                q = c.quad
                short = min(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[0] - q[1]))
                long_ = max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[0] - q[1]))
                m = self.TRACK_MARGIN * short + 0.15 * long_
                (x0, y0), (x1, y1) = q.min(axis=0), q.max(axis=0)
                boxes.append((max(0, int(x0 - m)), max(0, int(y0 - m)),
                              min(W, int(x1 + m) + 1), min(H, int(y1 + m) + 1)))
            self._track = NL.Track(NL.merge_boxes(boxes), self._det_scale, thumb, frame.shape)
        return res

    def reset_stream(self) -> None:
        """Forget the tracked serial region (the next :meth:`read_stream` reads the whole frame)."""
        self._track = None

    def _read_lines(self, cands: list["NL.Line"]) -> NoteRead:
        """The verdict from candidate lines: orientation, recognition, decision."""
        self._last_lines = []
        if not cands:
            return NoteRead(None, None, 0.0, "no_serial")
        if self.recogniser == "serialnet":
            from companion.vision.notes_net import net_decide

            res = net_decide(self, [c.image for c in cands], strip=False)
            if not res.decided and res.reason in SECOND_ENGINE_REASONS and self.second_opinion:
                # not sure: PP-OCR's reading of the same lines (with its own second opinions)
                # decides when the recogniser gives its serial a real share or has no opinion
                from companion.vision.notes_net import second_engine_counts

                other = self._read_lines_ppocr(cands)
                if second_engine_counts(res, other):
                    res = NoteRead(other.serial, other.currency, other.confidence, None,
                                   other.serial, res.evidence + other.evidence,
                                   other.letters_confirmed or other.serial == res.candidate)
            elif res.decided and self.second_opinion:
                res = self._vetoed(res, [(cands[e.line].image, e.line in res.turned)
                                         for e in res.evidence if e.engine == "serialnet"])
                if res.decided and self.currency == "RUB" and not res.letters_confirmed:
                    # the digits are sure, the letters not: PP-OCR's reading with its letter
                    # sources (Tesseract rus, the glyph matcher, its Latin twins) may confirm
                    # letters for the same digits
                    other = self._read_lines_ppocr(cands)
                    if other.decided and other.letters_confirmed and other.serial[2:] == res.serial[2:]:
                        res = NoteRead(other.serial, other.currency, res.confidence, None,
                                       other.serial, res.evidence + other.evidence, True)
            self._remember(cands, res)
            return NL.boxed(res, cands)
        return NL.boxed(self._read_lines_ppocr(cands), cands)

    def _vetoed(self, res: NoteRead, lines: list[tuple[np.ndarray, bool]]) -> NoteRead:
        """``res`` (decided by the serial recogniser) unless PP-OCR's plain reading of the lines
        it rests on — ``(image, turned)``: each the way up the recogniser read it — fits the
        format as *another* serial and never as this one: two engines that disagree are not
        sure (a series-1 euro serial M8… was read RB… by the recogniser, whose real training
        crops are all two-letter euros). RUB is compared by its digits (PP-OCR reads no
        Cyrillic)."""
        if not lines:
            return res
        key = (lambda s: s[2:]) if res.currency == "RUB" else (lambda s: s)
        imgs = [cv2.rotate(l, cv2.ROTATE_180) if turned else l for l, turned in lines]
        among = "auto" if self.currency == "auto" and VETO_ALL_CURRENCIES else res.currency
        seen_same = seen_other = False
        for r in self.engine.read_lines(imgs):
            for m in S.match(r.text, among, allow_trim=True):
                if m.currency == res.currency and key(m.serial) == key(res.serial):
                    seen_same = True
                else:
                    seen_other = True
        if (seen_other and not seen_same) or (res.currency in CONFIRM_CURRENCIES and not seen_same):
            return NoteRead(None, None, round(min(res.confidence, self.min_confidence - 0.01), 3),
                            "low_confidence", res.serial, res.evidence, shares=res.shares)
        return res

    def _remember(self, cands: list["NL.Line"], res: NoteRead) -> None:
        """Keep the lines that carried a decided serial, for :meth:`read_stream`'s regions."""
        if not res.decided:
            return
        keep = {e.line for e in res.evidence
                if res.currency == e.match.currency and (
                    e.match.serial == res.serial or
                    (e.match.currency == "RUB" and e.match.serial[2:] == res.serial[2:]))}
        self._last_lines = [cands[i] for i in sorted(keep)]
