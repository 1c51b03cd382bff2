"""The banknote reader: a camera frame (or a tight serial-strip crop) in, a serial and its parity
out — or an explicit abstention ("not sure, rescan").

Pipeline (``docs/vision-notes.md`` has the measured figures):

1. *Strip or frame.* A short, wide image (height ≤ 160 px, width ≥ 2.5 × height) is a tight crop of
   a serial strip and is read as one line. Anything else is a frame.
2. *Find text lines.* RapidOCR's PP-OCR detector runs on the frame scaled to ≤ 640 px; each
   quadrilateral is cut out of the *full-resolution* frame with a perspective warp, so notes at any
   rotation or perspective give upright line images. Lines that are too short or not elongated
   enough for a serial are dropped. Tall lines (the vertical RUB copy) are turned both ways, and a
   line that does not fit a format is read again turned 180° (notes lying upside down).
3. *Read and validate.* Each line is recognised (RapidOCR, primary) and matched against the
   currency formats of :mod:`companion.vision.serials`, with format-only corrections.
4. *Decide.* Readings of the same serial (two printed copies, several variants of a strip,
   Tesseract's independent second opinion) raise the confidence; readings that disagree (the two
   copies of one RUB note, or two different notes in view) make the reader abstain. Only a
   confidence ≥ :attr:`NoteReader.min_confidence` gives a serial.

:class:`NoteVoter` decides over several frames of a stream.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision import serials as S
from companion.vision.ocr import LineRead, RapidEngine, TesseractEngine

#: Reason codes of abstentions (stable; shown by ``companion scan-note``).
REASONS = {
    "no_serial": "no serial number found: show the serial side of the note, closer (rescan)",
    "low_confidence": "serial read but not sure: rescan",
    "copies_disagree": "the two printed copies of the serial read differently: rescan",
    "several_notes": "several different serials in view: scan one note at a time",
    "ambiguous_currency": "the text fits several currencies with different digits: give --currency",
    "corrected_parity_digit": "the last digit was unclear: rescan",
    "letters_unread": "the serial's digits were read but not its two letters: rescan",
}

#: Abstentions that come from conflicting evidence: a second, finer detection pass must not
#: overrule them.
CONFLICTS = frozenset({"copies_disagree", "several_notes", "ambiguous_currency"})

#: Placeholder letters of a RUB reading whose digits fit but whose letter part the primary engine
#: could not read (RapidOCR's models know no Cyrillic); never part of a decided serial.
UNREAD_LETTERS = "??"

#: Cyrillic letters Tesseract may output for a RUB serial (upper and lower case: the second letter
#: is printed in lower case, "Ак 2444841").
_CYR = "".join(sorted(S.CYRILLIC_SERIAL_LETTERS))


#: Cyrillic capitals whose Latin twin has the same shape (A B E K M H O P C T X): a RapidOCR
#: reading of one of these is a real opinion on the letter, one that may veto the other
#: sources' choice (Г and Т look alike to Tesseract and the glyph matcher both). Its other
#: letters (N→И, 3→З, R→Я, 4→Ч …) stand for several Cyrillic letters and never veto.
_LATIN_TWINS = frozenset("АВЕКМНОРСТХ")


@dataclass
class Evidence:
    """One line reading that fits a format (for logs and tests)."""

    text: str
    score: float
    engine: str
    match: S.SerialMatch
    line: int
    image: int = 0


@dataclass
class NoteRead:
    """The reader's verdict for one image.

    Attributes:
        serial: canonical serial, or ``None`` when the reader abstains.
        currency: the currency whose format the serial fits (``None`` on abstention).
        confidence: 0..1; the reader decides only at ≥ ``NoteReader.min_confidence``.
        reason: ``None`` when decided, else a code of :data:`REASONS`.
        candidate: the best serial seen even when abstaining (never to be used for a decision).
        evidence: the matching line readings.
        letters_confirmed: ``False`` when the serial's letters rest on one engine's Latin
            look-alikes (RUB without Tesseract's agreement): the digits — hence the parity — are
            validated, the two Cyrillic letters may not be (``docs/vision-notes.md``).
    """

    serial: str | None
    currency: str | None
    confidence: float
    reason: str | None
    candidate: str | None = None
    evidence: list[Evidence] = field(default_factory=list)
    letters_confirmed: bool = True

    @property
    def decided(self) -> bool:
        return self.serial is not None

    @property
    def last_digit(self) -> int | None:
        return S.last_digit(self.serial) if self.serial else None

    @property
    def parity(self) -> str | None:
        return S.parity(self.serial) if self.serial else None

    def to_json(self, image: str) -> dict:
        """The ``companion scan-note --json`` object for this read."""
        return {
            "image": image,
            "serial": self.serial,
            "last_digit": self.last_digit,
            "parity": self.parity,
            "confidence": round(float(self.confidence), 3),
            "reason": None if self.reason is None else REASONS.get(self.reason, self.reason),
        }


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as H×W×3 BGR uint8.

    Raises:
        VisionError: the file is missing, unreadable or not an image.
    """
    p = Path(path)
    if not p.is_file():
        raise VisionError(f"{p}: no such file")
    data = np.fromfile(str(p), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise VisionError(f"{p}: not a readable image (corrupt or unknown format)")
    return img


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Check and normalise an image array to H×W×3 BGR uint8 (grey is expanded).

    Raises:
        VisionError: wrong dtype or shape, or empty.
    """
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise VisionError("empty image")
    if image.dtype != np.uint8:
        raise VisionError(f"image dtype must be uint8, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise VisionError(f"image must be H×W×3 BGR, got shape {image.shape}")
    return image


def is_strip(image: np.ndarray) -> bool:
    """True for a tight crop of one serial strip (short and wide)."""
    h, w = image.shape[:2]
    return h <= 160 and w >= 2.5 * h


def warp_quad(image: np.ndarray, quad: np.ndarray, pad: float = 0.12) -> np.ndarray:
    """Cut the quadrilateral ``quad`` (4×2, clockwise from top-left, px) out of ``image`` as an
    upright rectangle, grown by ``pad`` × its height on every side."""
    q = np.asarray(quad, np.float32)
    w = max(np.linalg.norm(q[0] - q[1]), np.linalg.norm(q[2] - q[3]))
    h = max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2]))
    m = pad * min(w, h)
    W, H = int(round(w + 2 * m)), int(round(h + 2 * m))
    dst = np.float32([[m, m], [m + w, m], [m + w, m + h], [m, m + h]])
    M = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, M, (max(W, 2), max(H, 2)), flags=cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)


def _combine(probs: Iterable[float]) -> float:
    """Independent agreeing readings: 1 - Π(1 - p)."""
    rest = 1.0
    for p in probs:
        rest *= 1.0 - min(max(p, 0.0), 0.999)
    return 1.0 - rest


class NoteReader:
    """Reads banknote serials from frames or strip crops.

    Args:
        currency: ``auto`` or one of :data:`companion.vision.serials.CURRENCIES`.
        second_opinion: ask Tesseract (one process per photo) when RapidOCR alone is not sure.
        min_confidence: decide only at or above this confidence (0..1).
        engine: a :class:`RapidEngine` to share between readers (loaded lazily otherwise).

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
    #: quarter of the second; the second runs only when the first decided nothing and saw no
    #: conflicting evidence (measured in ``docs/vision-notes.md``).
    DET_SIDES = (320, 640)

    def __init__(self, currency: str = "auto", second_opinion: bool = True,
                 min_confidence: float = 0.95, engine: RapidEngine | None = None) -> None:
        if currency != "auto" and currency not in S.CURRENCIES:
            raise ValueError(f"unknown currency {currency!r}; use auto or one of "
                             f"{', '.join(S.CURRENCIES)}")
        self.currency = currency
        self.second_opinion = second_opinion
        self.min_confidence = min_confidence
        self._engine = engine
        self._tess: TesseractEngine | None = None
        self._tess_budget = 1

    # engines ---------------------------------------------------------------------------
    @property
    def engine(self) -> RapidEngine:
        if self._engine is None:
            self._engine = RapidEngine()
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
            VisionError: the array is not an image.
        """
        image = as_bgr(image)
        return self.read_strip(image) if is_strip(image) else self.read_frame(image)

    def read_path(self, path: str | Path) -> NoteRead:
        """:meth:`read` of an image file.

        Raises:
            VisionError: missing or corrupt file.
        """
        return self.read(load_image(path))

    # strips ----------------------------------------------------------------------------
    def _strip_variants(self, strip: np.ndarray) -> list[np.ndarray]:
        gray = cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape
        clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(2, 8)).apply(gray)
        big = cv2.resize(clahe, (w * 2, h * 2), interpolation=cv2.INTER_CUBIC)
        k = max(2, h // 8)
        padded = cv2.copyMakeBorder(gray, k, k, k, k, cv2.BORDER_REPLICATE)
        return [strip] + [cv2.cvtColor(v, cv2.COLOR_GRAY2BGR) for v in (big, padded)]

    #: Renderings of a strip for the format-constrained decoder: (name, widening factor). The
    #: sorter crops give the recogniser ≈ 2 time steps per glyph; widened 1.5–2 × it separates
    #: doubled digits and reads thin glyphs better (measured on the dev half of the real crops,
    #: ``docs/vision-notes.md``). ``blur`` is the grey strip smoothed 3×3 (print texture).
    CTC_RENDERINGS = (("as_is", 1.5), ("as_is", 2.0), ("blur", 1.5))
    #: A strip decides when the format-valid serials' posterior, averaged over the renderings,
    #: reaches this and at least :attr:`STRIP_AGREE` renderings read that serial first.
    STRIP_MIN_POSTERIOR = 0.5
    STRIP_AGREE = 2
    #: Below :attr:`STRIP_MIN_POSTERIOR` but at least this, Tesseract reading the very same
    #: serial (an independent engine) lets the strip decide.
    STRIP_TESS_POSTERIOR = 0.3
    #: Never decide while the serials whose last digit has the other parity hold this much of
    #: the posterior (a close runner-up that would flip rose/skull).
    STRIP_MAX_FLIP = 0.2
    #: With ``auto``, never decide while serials of another currency hold this much of the
    #: posterior.
    STRIP_MAX_OTHER_CURRENCY = 0.1

    def read_strip(self, strip: np.ndarray) -> NoteRead:
        """Read a tight crop of one serial strip (H×W×3 BGR uint8, text left to right).

        Latin-script currencies (and ``auto``) go through :meth:`read_strip_ctc`, the
        format-constrained decoder; RUB (Cyrillic letters, which the bundled recogniser does
        not know) through the greedy readings of :meth:`read_strip_greedy`.
        """
        strip = as_bgr(strip)
        if self.currency == "RUB":
            return self.read_strip_greedy(strip)
        res = self.read_strip_ctc(strip)
        if res.candidate is None and self.currency == "auto":
            # nothing Latin fits: a RUB strip?
            rub = self.read_strip_greedy(strip, rub_only=True)
            if rub.candidate is not None:
                return rub
        return res

    def _ctc_renderings(self, strip: np.ndarray) -> list[tuple[np.ndarray, float]]:
        gray = None
        out = []
        for name, stretch in self.CTC_RENDERINGS:
            if name == "as_is":
                out.append((strip, stretch))
            else:
                if gray is None:
                    gray = cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY)
                out.append((cv2.cvtColor(cv2.GaussianBlur(gray, (3, 3), 0), cv2.COLOR_GRAY2BGR),
                            stretch))
        return out

    def strip_posteriors(self, strip: np.ndarray, upside_down: bool = False
                         ) -> tuple[dict[str, float], dict[str, str], list[str | None]]:
        """The format-constrained decoding of one strip (H×W×3 BGR uint8).

        Each rendering of :attr:`CTC_RENDERINGS` is recognised (:meth:`RapidEngine.line_probs`)
        and decoded with :func:`companion.vision.ctc.constrained_beam` under every format of
        the reader's currency (``auto``: all Latin-script ones); each rendering's candidates are
        normalised to a posterior over the format-valid serials, and the posteriors are averaged.

        Returns:
            ``(posterior, currency_of, tops)``: serial → averaged posterior (0..1), serial →
            currency code, and each rendering's best serial (``None`` where nothing fits).
        """
        from companion.vision import ctc

        charset = self.engine.SERIAL_CHARSET
        currencies = [c for c in (S.CURRENCIES if self.currency == "auto" else (self.currency,))
                      if S.position_alphabets(c)]
        renders = self._ctc_renderings(strip)
        if upside_down:
            renders = [(cv2.rotate(im, cv2.ROTATE_180), k) for im, k in renders]
        posterior: dict[str, float] = defaultdict(float)
        currency_of: dict[str, str] = {}
        tops: list[str | None] = []
        by_stretch: dict[float, list[int]] = defaultdict(list)
        for i, (_, stretch) in enumerate(renders):
            by_stretch[stretch].append(i)
        all_probs: list[np.ndarray] = [None] * len(renders)  # type: ignore[list-item]
        for stretch, ids in by_stretch.items():
            for i, pr in zip(ids, self.engine.line_probs([renders[i][0] for i in ids], stretch)):
                all_probs[i] = pr
        for probs in all_probs:
            g_len = len(ctc.greedy(probs, charset))
            cands: dict[str, float] = {}
            for cur in currencies:
                rule = (lambda pre, cur=cur: S.last_characters(cur, pre)) if cur == "EUR" else None
                for alph in S.position_alphabets(cur):
                    if abs(len(alph) - g_len) > 3:
                        continue  # the recogniser saw a text of another length altogether
                    for c in ctc.constrained_beam(probs, charset, alph, rule):
                        if c.logp > cands.get(c.text, -math.inf):
                            cands[c.text] = c.logp
                            currency_of[c.text] = cur
            if not cands:
                tops.append(None)
                continue
            top = max(cands.values())
            z = sum(math.exp(v - top) for v in cands.values())
            for k, v in cands.items():
                posterior[k] += math.exp(v - top) / z / len(renders)
            tops.append(max(cands, key=cands.get))
        return dict(posterior), currency_of, tops

    def read_strip_ctc(self, strip: np.ndarray) -> NoteRead:
        """Read a strip (H×W×3 BGR uint8) with the format-constrained CTC decoder.

        Decides the serial with the highest averaged posterior (:meth:`strip_posteriors`) when
        it reaches :attr:`STRIP_MIN_POSTERIOR`, at least :attr:`STRIP_AGREE` renderings read it
        first and the other parity holds less than :attr:`STRIP_MAX_FLIP`; between
        :attr:`STRIP_TESS_POSTERIOR` and :attr:`STRIP_MIN_POSTERIOR` Tesseract must read the
        same serial; with ``auto``, serials of another currency must hold less than
        :attr:`STRIP_MAX_OTHER_CURRENCY`. ``confidence`` is the posterior rescaled so that the decision threshold is
        :attr:`min_confidence`. A strip where nothing fits is read again turned 180°.
        """
        post, currency_of, tops = self.strip_posteriors(strip)
        if not post:
            post, currency_of, tops = self.strip_posteriors(strip, upside_down=True)
            if post:
                strip = cv2.rotate(strip, cv2.ROTATE_180)
        if not post:
            return NoteRead(None, None, 0.0, "no_serial")
        best = max(post, key=post.get)
        p = post[best]
        cur = currency_of[best]
        agree = sum(t == best for t in tops)
        flip = sum(v for k, v in post.items() if S.last_digit(k) % 2 != S.last_digit(best) % 2)
        fits = S.match(best, cur)
        match = fits[0] if fits else S.SerialMatch(cur, best, 0, False, cur == "EUR")
        ev = [Evidence(best, p, "rapidocr-ctc", match, 0)]

        def verdict(decided: bool, reason: str | None, tess: bool = False) -> NoteRead:
            p_eff = p if not tess else max(p, self.STRIP_MIN_POSTERIOR)
            p0 = self.STRIP_MIN_POSTERIOR
            if p_eff >= p0:
                conf = self.min_confidence + (1 - self.min_confidence) * (p_eff - p0) / (1 - p0)
            else:
                conf = self.min_confidence * p_eff / p0
            if not decided:
                conf = min(conf, self.min_confidence - 0.01)
                return NoteRead(None, None, round(conf, 3), reason, best, ev)
            return NoteRead(best, cur, round(conf, 3), None, best, ev)

        if flip >= self.STRIP_MAX_FLIP or agree < self.STRIP_AGREE:
            return verdict(False, "low_confidence")
        other = sum(v for k, v in post.items() if currency_of[k] != cur)
        if other >= self.STRIP_MAX_OTHER_CURRENCY:
            # auto: serials of two currencies fit the evidence (an edge mark read as a letter
            # turns a JPY serial into a KRW one) — the table must say which
            return verdict(False, "ambiguous_currency")
        if p >= self.STRIP_MIN_POSTERIOR:
            return verdict(True, None)
        if p >= self.STRIP_TESS_POSTERIOR and self.tesseract is not None:
            tread = self.tesseract.read_lines([strip])[0]
            if any(m.serial == best for m in S.match(tread.text, cur, allow_trim=True)):
                ev.append(Evidence(tread.text, tread.score, "tesseract", match, 0))
                return verdict(True, None, tess=True)
        return verdict(False, "low_confidence")

    def read_strip_greedy(self, strip: np.ndarray, rub_only: bool = False) -> NoteRead:
        """Read a strip (H×W×3 BGR uint8) from the recogniser's greedy readings of three
        renderings, matched against the formats with format-only corrections (the RUB path:
        its Cyrillic letters are outside the recogniser's alphabet). ``rub_only`` keeps only
        RUB matches (``auto`` falling back to RUB).

        Several renderings of the strip are recognised; they must agree on one serial, and
        Tesseract's reading is the independent second opinion.
        """
        strip = as_bgr(strip)
        variants = self._strip_variants(strip)
        keep = (lambda ev: [e for e in ev if e.match.currency == "RUB"]) if rub_only else (lambda ev: ev)
        reads = self.engine.read_lines(variants)
        ev = keep(self._evidence(reads, "rapidocr", list(range(len(reads)))))
        if not ev:
            # a strip can be upside down too
            variants = [cv2.rotate(v, cv2.ROTATE_180) for v in variants]
            reads = self.engine.read_lines(variants)
            ev = keep(self._evidence(reads, "rapidocr", list(range(len(reads)))))
        return self._decide(ev, [strip], same_line=True)

    # frames ----------------------------------------------------------------------------
    def candidate_lines(self, frame: np.ndarray, side: int | None = None) -> list[np.ndarray]:
        """Upright line images (H×W×3 BGR uint8) of the text lines in ``frame`` that could hold a
        serial, best candidates first; tall lines come out turned 90° clockwise (one image per
        physical line: two images of one line would count as two printed copies).

        Args:
            side: detection resolution (longest side, px); default the engine's.
        """
        frame = as_bgr(frame)
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
            crop = warp_quad(frame, q)
            if h > 1.5 * w:
                # a vertical line: turned clockwise here (the angle classifier decides 0/180°);
                # the vertical RUB copy's growing glyphs are brought to one height
                crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
                if self.currency in ("RUB", "auto"):
                    crop = _even_glyph_heights(crop)
            lines.append(crop)
        return lines

    def read_frame(self, frame: np.ndarray) -> NoteRead:
        """Read the note(s) in a whole frame (H×W×3 BGR uint8), at any rotation/perspective.

        Detection runs first at :attr:`DET_SIDES` ``[0]`` px; the finer pass runs only when the
        coarse one decided nothing and saw no conflicting evidence.
        """
        frame = as_bgr(frame)
        res = NoteRead(None, None, 0.0, "no_serial")
        self._tess_budget = 1  # one Tesseract process per photo at most
        longest = max(frame.shape[:2])
        for k, side in enumerate(self.DET_SIDES):
            if k and longest <= self.DET_SIDES[k - 1]:
                break  # the frame was already detected at full resolution
            res = self._read_frame_at(frame, side)
            if res.decided or res.reason in CONFLICTS:
                return res
        return res

    def _read_frame_at(self, frame: np.ndarray, side: int) -> NoteRead:
        lines = self.candidate_lines(frame, side)
        if not lines:
            return NoteRead(None, None, 0.0, "no_serial")
        # the angle classifier turns upside-down lines round (≈ 5 ms a line) ...
        up = [cv2.rotate(l, cv2.ROTATE_180) if flip else l
              for l, (flip, _) in zip(lines, self.engine.upside_down(lines))]
        ids = list(range(len(up)))
        ev = self._evidence(self.engine.read_lines(up), "rapidocr", ids)
        res = self._decide(self._one_way_up(ev), up, same_line=False, final=False)
        if res.decided:
            # before deciding: a line the size of the serial's copies that read as nothing may
            # be another note's serial the angle classifier left upside down — read it turned
            twins = self._unread_lookalikes(ev, up)
            if twins:
                turned = [cv2.rotate(up[i], cv2.ROTATE_180) for i in twins]
                ev2 = ev + self._evidence(self.engine.read_lines(turned), "rapidocr", twins,
                                          offset=len(up))
                res = self._decide(self._one_way_up(ev2), up + turned, same_line=False,
                                   final=False)
        if res.decided or res.reason in CONFLICTS:
            return res
        # ... and only when that decided nothing is every line read the other way up too (the
        # classifier errs on short digit strings, and a misread orientation must not cost a note)
        flipped = [cv2.rotate(l, cv2.ROTATE_180) for l in up]
        ev += self._evidence(self.engine.read_lines(flipped), "rapidocr", ids, offset=len(up))
        return self._decide(self._one_way_up(ev), up + flipped, same_line=False)

    #: A line whose height and length are within this factor of the decided serial's lines
    #: is a look-alike (:meth:`_unread_lookalikes`).
    LOOKALIKE_FACTOR = 1.4

    def _unread_lookalikes(self, ev: list[Evidence], lines: list[np.ndarray]) -> list[int]:
        """Indices of ``lines`` that gave no format match but have the height and length of
        the lines that did (within :attr:`LOOKALIKE_FACTOR`): possibly a second note's serial,
        misread because it lies the other way up. Two notes in view must never be decided as
        one (the bench's hard negatives)."""
        read = {e.line for e in ev}
        if not read:
            return []
        hs = [lines[i].shape[0] for i in read]
        ws = [lines[i].shape[1] for i in read]
        h0, w0 = float(np.median(hs)), float(np.median(ws))
        k = self.LOOKALIKE_FACTOR
        return [i for i, l in enumerate(lines) if i not in read
                and h0 / k <= l.shape[0] <= h0 * k and w0 / k <= l.shape[1] <= w0 * k]

    @staticmethod
    def _one_way_up(ev: list[Evidence]) -> list[Evidence]:
        """Keep, for each physical line, only the readings of its better orientation (fewest
        corrections, then highest score): gibberish read upside down must not compete."""
        best: dict[int, tuple] = {}
        for e in ev:
            key = (e.match.corrections, -e.score)
            if e.line not in best or key < best[e.line][0]:
                best[e.line] = (key, e.image)
        return [e for e in ev if best[e.line][1] == e.image]

    # decision --------------------------------------------------------------------------
    def _evidence(self, reads: list[LineRead], engine: str, line_ids: list[int],
                  offset: int = 0) -> list[Evidence]:
        out = []
        for k, (r, i) in enumerate(zip(reads, line_ids)):
            for m in self._matches(r.text, rub_digits=engine == "rapidocr"):
                out.append(Evidence(r.text, r.score, engine, m, i, k + offset))
        return out

    def _matches(self, text: str, rub_digits: bool = False) -> list[S.SerialMatch]:
        ms = S.match(text, self.currency, allow_trim=True)
        if not ms and rub_digits and self.currency in ("RUB", "auto"):
            m = _rub_digits_only(text, allow_bare=self.currency == "RUB")
            ms = [m] if m else []
        if not ms:
            return []
        best = ms[0].corrections
        return [m for m in ms if m.corrections == best]

    def _decide(self, ev: list[Evidence], lines: list[np.ndarray], same_line: bool,
                final: bool = True) -> NoteRead:
        """The verdict from the matching readings ``ev`` of the images ``lines``.

        With ``final=False`` (a cheap first round) no Tesseract process is started for the
        digits: a decision then rests on RapidOCR alone, and anything short of it comes back
        as ``low_confidence`` for the caller to try harder. At most one Tesseract process runs
        per call (the digits' second opinion and the RUB letters share it).
        """
        if not ev:
            return NoteRead(None, None, 0.0, "no_serial")
        by_serial: dict[tuple[str, str], list[Evidence]] = defaultdict(list)
        for e in ev:
            by_serial[_group_key(e.match)].append(e)

        def support(items: list[Evidence]) -> float:
            return sum(e.score for e in items)

        ranked = sorted(by_serial.items(), key=lambda kv: -support(kv[1]))
        (cur, serial), items = ranked[0]
        key = (cur, serial)
        rapid_letters: Counter = Counter()
        if cur == "RUB":
            # RUB copies are grouped by their digits; the letters are settled below
            for e in items:
                if e.match.serial[:2] != UNREAD_LETTERS:
                    rapid_letters[e.match.serial[:2]] += e.score
            best_letters = rapid_letters.most_common(1)[0][0] if rapid_letters else UNREAD_LETTERS
            serial = best_letters + serial
        candidate = serial
        others = ranked[1:]
        # the same text fitting several currencies: fine if the digits agree, else ambiguous
        same_text_other = [k for k, v in others
                           if {e.image for e in v} & {e.image for e in items}]
        if any(S.last_digit(k[1]) != S.last_digit(serial) for k in same_text_other):
            return NoteRead(None, None, 0.0, "ambiguous_currency", candidate, ev)
        lines_other = {k: v for k, v in others if k not in same_text_other}
        if lines_other:
            if same_line:
                # variants of one strip disagree: the strip is not clear enough
                best_other = max(support(v) for v in lines_other.values())
                if best_other >= 0.5 * support(items):
                    return NoteRead(None, None, 0.0, "low_confidence", candidate, ev)
            else:
                # another line holds another valid serial: a copy misread, or a second note
                close = [k for k in lines_other if k[0] == cur and _hamming_close(k[1], key[1])]
                return NoteRead(None, None, 0.0, "copies_disagree" if close else "several_notes",
                                candidate, ev)
        match = items[0].match
        # confidence: distinct lines (or strip variants) are the printed copies / renderings
        per_line: dict[int, float] = {}
        for e in items:
            per_line[e.line] = max(per_line.get(e.line, 0.0), e.score)
        scores = sorted(per_line.values(), reverse=True)
        if same_line:
            # renderings of one strip are not independent (they share the print and its flaws)
            conf = _combine([scores[0]] + [s * self.VARIANT_WEIGHT for s in scores[1:]])
        else:
            conf = _combine(scores)
        if not same_line and len(per_line) < 2:
            # one copy seen in a whole frame: never enough alone (hard negatives look like one)
            conf = min(conf, self.SINGLE_COPY_CAP)
        best = min(items, key=lambda e: (e.match.corrections, e.match.digit_corrections))
        letter_corr = best.match.corrections - best.match.digit_corrections
        conf *= self.CORRECTION_FACTOR ** best.match.digit_corrections
        conf *= self.LETTER_CORRECTION_FACTOR ** letter_corr
        if match.checked:
            conf = 1.0 - (1.0 - conf) * 0.5  # a single wrong digit breaks the EUR check
        tess_agrees = False
        tess_matches: list[S.SerialMatch] | None = None
        need_digits = conf < self.min_confidence
        if not final and need_digits:
            return NoteRead(None, None, round(conf, 3), "low_confidence", candidate, ev)
        if ((need_digits or cur == "RUB") and self._tess_budget > 0
                and self.tesseract is not None):
            if not same_line:
                self._tess_budget -= 1
            # one process: the best image of each line holding this serial (both RUB copies)
            if same_line:
                imgs = [lines[0]]
            else:
                best_img: dict[int, Evidence] = {}
                for e in items:
                    if e.line not in best_img or e.score > best_img[e.line].score:
                        best_img[e.line] = e
                imgs = [lines[e.image] for e in list(best_img.values())[:3]]
            if cur == "RUB" and not same_line:
                # even glyph heights: measured to let Tesseract read both RUB copies far more
                # often (the horizontal copy's lower-case second letter grows to a capital)
                imgs = [_even_glyph_heights(im) for im in imgs]
            treads = self.tesseract.read_lines(imgs)
            tess_matches = [m for r in treads for m in self._matches(r.text)]
            tess_serials = {_group_key(m) for m in tess_matches}
            tess_agrees = key in tess_serials
            if need_digits:
                if tess_agrees:
                    conf = _combine([conf, 0.9])
                elif tess_serials:
                    # Tesseract read a different valid serial: no decision
                    conf = min(conf, self.min_confidence - 0.01)
        if all(e.match.digit_corrected for e in items) and not tess_agrees:
            return NoteRead(None, None, round(conf, 3), "corrected_parity_digit", candidate, ev)
        if conf < self.min_confidence:
            return NoteRead(None, None, round(conf, 3), "low_confidence", candidate, ev)
        letters_confirmed = True
        if cur == "RUB":
            glyph_votes = self._glyph_letters(items, lines, same_line)
            serial, letters_confirmed = self._rub_letters(key[1], rapid_letters, tess_matches or [],
                                                          glyph_votes)
            if serial is None:
                return NoteRead(None, None, round(conf, 3), "letters_unread", candidate, ev)
        return NoteRead(serial, cur, round(conf, 3), None, candidate, ev, letters_confirmed)

    #: A glyph-matched letter counts as a vote only with at least this correlation margin over
    #: the best other letter (:class:`companion.vision.letters.LetterVote`).
    GLYPH_MIN_MARGIN = 0.05

    def _glyph_letters(self, items: list[Evidence], lines: list[np.ndarray],
                       same_line: bool) -> list[Counter]:
        """Per letter position, the glyph matcher's votes over the lines holding the serial
        (best image of each line); only votes with :attr:`GLYPH_MIN_MARGIN`."""
        from companion.vision.letters import shared_matcher

        best_img: dict[int, Evidence] = {}
        for e in items:
            if e.line not in best_img or e.score > best_img[e.line].score:
                best_img[e.line] = e
        imgs = [lines[0]] if same_line else [lines[e.image] for e in best_img.values()]
        votes = [Counter(), Counter()]
        try:
            matcher = shared_matcher()
        except FileNotFoundError:
            return votes
        for im in imgs:
            got = matcher.rub_letters(im)
            for pos, v in enumerate(got or []):
                if v.margin >= self.GLYPH_MIN_MARGIN:
                    votes[pos][v.letter] += 1
        return votes

    @staticmethod
    def _rub_letters(digits: str, rapid: Counter, tess: list[S.SerialMatch],
                     glyphs: list[Counter] | None = None) -> tuple[str | None, bool]:
        """The two Cyrillic letters of a RUB serial whose seven ``digits`` are settled.

        Three independent sources vote per position: RapidOCR's letters (Latin look-alikes
        mapped to Cyrillic — no Cyrillic model is shipped: ``B`` may be В or Б, ``N`` И or П),
        Tesseract ``rus`` (misreads the small second letter often), and the glyph matcher
        (:mod:`companion.vision.letters`, ``glyphs[pos]``). A letter that is the first choice of
        **two sources**, with neither Cyrillic-aware source (Tesseract, the glyph matcher)
        preferring another letter, is *confirmed* (RapidOCR's letters can back a letter but
        veto one only when they are true Latin twins (:data:`_LATIN_TWINS`; its ``N`` stands
        for И, П and Л alike); the glyph matcher counts twice
        when both printed copies match the same letter); otherwise the letter first for
        most sources (then most votes, then RapidOCR's) is a best guess and the serial
        is returned with ``letters_confirmed = False``. No letter at all
        → ``None``.
        """
        t_reads = [m.serial[:2] for m in tess
                   if m.currency == "RUB" and m.serial[2:] == digits]
        r_reads = list(rapid)
        glyphs = glyphs or [Counter(), Counter()]
        if not t_reads and not r_reads and not (glyphs[0] and glyphs[1]):
            return None, False
        letters, confirmed = "", True
        for pos in (0, 1):
            r_set = Counter(x[pos] for x in r_reads)
            t_set = Counter(x[pos] for x in t_reads)
            g_set = glyphs[pos]
            top = [{c for c in src if src[c] == max(src.values())} if src else set()
                   for src in (r_set, t_set, g_set)]
            # one vote per reading of each source (RapidOCR's readings weigh by their score
            # only to break ties)
            votes = Counter({c: 1 for c in r_set}) + t_set + g_set
            if not votes:
                return None, False
            backers = {c: sum(c in t for t in top) for c in votes}
            if top[2] and g_set.most_common(1)[0][1] >= 2 and len(top[2]) == 1:
                # both printed copies matched to one letter: two independent prints
                backers[next(iter(top[2]))] += 1
            r_score = {c: max(v for k, v in rapid.items() if k[pos] == c) for c in r_set}
            best = max(votes, key=lambda c: (backers[c], votes[c], r_score.get(c, 0.0)))
            # confirmed: the first choice of two sources, and neither Cyrillic-aware source
            # (Tesseract rus, the glyph matcher) prefers another letter; RapidOCR's letter
            # vetoes only when it is a true Latin twin (its N stands for И, П and Л alike)
            vetoes = top[1:] + ([top[0]] if top[0] <= _LATIN_TWINS else [])
            if backers[best] < 2 or any(t and best not in t for t in vetoes):
                confirmed = False
            letters += best
        return letters + digits, confirmed


def _group_key(m: S.SerialMatch) -> tuple[str, str]:
    """Readings that are the same note: same serial; for RUB the same seven digits (the
    Cyrillic letters are the unsure part, see :class:`NoteRead`)."""
    return (m.currency, m.serial[2:]) if m.currency == "RUB" else (m.currency, m.serial)


def _rub_digits_only(text: str, allow_bare: bool) -> S.SerialMatch | None:
    """A RUB reading whose seven digits fit but whose letter part is unreadable to a Latin
    engine (``"43 8093208"`` for ``ЧЭ 8093208``): up to three stray glyphs, then seven digits.
    The letters become :data:`UNREAD_LETTERS` (two corrections); ``allow_bare`` also accepts the
    seven digits alone (currency RUB given)."""
    t = S.canonical(text)
    if not 7 <= len(t) <= 10:
        return None
    head, tail = t[:-7], t[-7:]
    if not head and not allow_bare:
        return None
    if any(ch.isdigit() for ch in head[-1:]) and len(head) >= 3:
        return None  # a longer number, not letters then digits
    m = S.match("АА" + tail, "RUB")
    if not m:
        return None
    m = m[0]
    return S.SerialMatch("RUB", UNREAD_LETTERS + m.serial[2:], m.corrections + 2,
                         m.digit_corrected, False, m.digit_corrections, False)


def _even_glyph_heights(line: np.ndarray) -> np.ndarray:
    """A line image (H×W×3 BGR uint8) whose glyphs are scaled to one height: the vertical RUB
    copy prints its glyphs growing in height (0.7 → 1.3 ×), which recognisers trained on even
    lines misread. Glyphs are found as column runs of ink (Otsu on grey); a line without clear
    glyph runs is returned unchanged."""
    gray = cv2.cvtColor(line, cv2.COLOR_BGR2GRAY)
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    h, w = ink.shape
    if ink.mean() > 127:  # light text on dark ground
        ink = 255 - ink
    cols = ink.sum(axis=0) > 0.02 * 255 * h
    runs, x = [], 0
    while x < w:
        if cols[x]:
            x0 = x
            while x < w and cols[x]:
                x += 1
            runs.append((x0, x))
        x += 1
    if not 6 <= len(runs) <= 14:
        return line
    boxes = []
    for x0, x1 in runs:
        rows = np.flatnonzero(ink[:, x0:x1].sum(axis=1) > 0)
        if rows.size == 0:
            continue
        boxes.append((x0, x1, rows[0], rows[-1] + 1))
    target = int(np.median([b[3] - b[2] for b in boxes]))
    if target < 6:
        return line
    pad = max(2, target // 4)
    out_h = target + 2 * pad
    pieces = [np.full((out_h, pad), 255, np.uint8)]
    norm = cv2.normalize(gray, None, 0, 255, cv2.NORM_MINMAX)
    if np.median(norm) < 128:
        norm = 255 - norm
    for j, (x0, x1, y0, y1) in enumerate(boxes):
        g = norm[y0:y1, x0:x1]
        k = target / max(1, y1 - y0)
        g = cv2.resize(g, (max(1, int(round((x1 - x0) * min(k, 1.6)))), target),
                       interpolation=cv2.INTER_CUBIC)
        # keep the gaps as printed (the space between letters and digits), scaled like the glyph
        gap = boxes[j + 1][0] - x1 if j + 1 < len(boxes) else 0
        col = np.full((out_h, g.shape[1] + max(pad // 2, int(gap * min(k, 1.6)))), 255, np.uint8)
        col[pad:pad + target, :g.shape[1]] = g
        pieces.append(col)
    pieces.append(np.full((out_h, pad), 255, np.uint8))
    return cv2.cvtColor(np.hstack(pieces), cv2.COLOR_GRAY2BGR)


def _hamming_close(a: str, b: str) -> bool:
    if len(a) != len(b):
        return abs(len(a) - len(b)) <= 1
    return sum(x != y for x, y in zip(a, b)) <= 3


class NoteVoter:
    """Decides a serial over several frames of a stream before committing it.

    Feed every frame's :class:`NoteRead`; :meth:`decision` returns a serial once it has been read
    (decided) in ``need`` of the last ``window`` frames and no *other* serial was decided in that
    window. Abstaining frames neither count for nor against.

    Args:
        need: decided frames that must agree (≥ 1).
        window: how many recent frames are considered.
    """

    def __init__(self, need: int = 3, window: int = 8) -> None:
        if need < 1 or window < need:
            raise ValueError("need ≥ 1 and window ≥ need")
        self.need = need
        self.window = window
        self._recent: list[NoteRead] = []

    def add(self, read: NoteRead) -> str | None:
        """Record one frame's read; returns the committed serial or ``None`` (keep scanning)."""
        self._recent.append(read)
        self._recent = self._recent[-self.window:]
        return self.decision()

    def decision(self) -> str | None:
        """The committed serial, or ``None`` while frames disagree or are too few."""
        decided = Counter(r.serial for r in self._recent if r.decided)
        if len(decided) != 1:
            return None
        serial, n = decided.most_common(1)[0]
        return serial if n >= self.need else None

    def reset(self) -> None:
        """Forget every frame (call after committing a serial, before the next note)."""
        self._recent.clear()
