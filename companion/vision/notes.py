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

:class:`NoteVoter` decides over several frames of a stream; :meth:`NoteReader.read_stream` reads a
stream's frames in the serial regions of the last decided frame when the scene allows it.
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
from companion.i18n import N_
from companion.vision import serials as S
from companion.vision.images import load_image, to_bgr  # noqa: F401 (load_image: public here too)
from companion.vision.ocr import LineRead, RapidEngine, TesseractEngine, shared_rapid
from companion.vision.notes_net import SECOND_ENGINE_REASONS

#: Reason codes of abstentions (stable; shown by ``companion scan-note``), their words message ids.
REASONS = {
    "no_serial": N_("no serial number found: show the serial side of the note, closer (rescan)"),
    "low_confidence": N_("serial read but not sure: rescan"),
    "copies_disagree": N_("the two printed copies of the serial read differently: rescan"),
    "several_notes": N_("two different serials read: with one note in view rescan it, with more "
                        "scan one note at a time"),
    "ambiguous_currency": N_("the text fits several currencies with different digits: give --currency"),
    "corrected_parity_digit": N_("the last digit was unclear: rescan"),
    "letters_unread": N_("the serial's digits were read but not its two letters: rescan"),
    # given by the table (companion/parts.py), not by read(): scan-note reports such a read with
    # letters_confirmed=false instead
    "letters_unconfirmed": N_("the serial's letters are not sure (one engine only): rescan"),
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


#: Words printed on the notes of the supported currencies (the legends around the portrait and
#: the denomination, from the notes themselves). A line whose upright reading is confident
#: (:data:`LEGEND_MIN_SCORE`) and holds one of them is a legend read the right way up: it is not
#: read again turned round (an upside-down serial never reads as one of these words).
LEGEND_WORDS = (
    # USD
    "FEDERAL", "RESERVE", "DOLLAR", "WASHINGTON", "AMERICA", "UNITED", "STATES", "TREASURY",
    "TENDER", "LEGAL", "PUBLIC", "PRIVATE", "DEBTS", "TRUST", "SECRETARY",
    # EUR, INR, KRW, JPY
    "EURO", "INDIA", "RUPEES", "GUARANTEED", "GOVERNMENT", "PROMISE", "GOVERNOR", "BEARER",
    "CENTRAL", "KOREA", "NIPPON", "GINKO", "BANK",
    # RUB
    "БИЛЕТ", "БАНКА", "РОССИИ", "РУБЛЕЙ", "ПОДДЕЛКА", "ПРЕСЛЕДУЕТСЯ", "ЗАКОНУ",
)
#: The least recogniser score of a legend line (0..1) for it to be taken as read the right way up.
LEGEND_MIN_SCORE = 0.9


def is_legend(read: LineRead) -> bool:
    """Whether a recognised line is one of the notes' printed legends read the right way up
    (:data:`LEGEND_WORDS`, score at least :data:`LEGEND_MIN_SCORE`): such a line needs no
    reading turned round (the reader's orientation check, :meth:`NoteReader._read_lines`)."""
    if read.score < LEGEND_MIN_SCORE:
        return False
    letters = "".join(ch for ch in read.text.upper() if ch.isalpha())
    return any(w in letters for w in LEGEND_WORDS)


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
    #: the serial recogniser's candidates → their share of its posterior (empty for PP-OCR)
    shares: dict = field(default_factory=dict)
    #: the lines (indices) the serial recogniser read turned round
    turned: frozenset = frozenset()
    #: where the serial (or, abstaining, the best candidate) was read: ``[x, y, w, h]`` px in the
    #: frame round its line(s), as ``CardRead.box``; ``None`` when no line carried it (the camera
    #: set-up view draws it, companion/camview.py)
    box: list | None = None

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


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Check and normalise an image array to H×W×3 BGR uint8 (:func:`companion.vision.images.to_bgr`).

    Raises:
        VisionError: wrong dtype or shape, or empty.
    """
    return to_bgr(image)


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
        engine: a :class:`RapidEngine`; default the process's shared one
            (:func:`companion.vision.ocr.shared_rapid`, loaded on first use).

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
    #: last full read (:func:`_scene_change`) before the frame is read whole.
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
        self._last_lines: list[_Line] = []
        self._track: _Track | None = None
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
    #: ``docs/vision-notes.md``). ``ink`` is the strip with its printed background flattened
    #: (:func:`_ink_on_flat_paper`: guilloche and shading removed), ``ink_blur`` the same smoothed
    #: 3×3 (print texture); ``as_is`` the strip itself and ``blur`` its grey smoothed 3×3.
    CTC_RENDERINGS = (("ink", 1.5), ("ink", 2.0), ("ink_blur", 1.5))
    #: The renderings tried when nothing fits in :attr:`CTC_RENDERINGS` (a strip whose serial
    #: strokes are not its strongest departures from the background, so flattening loses them).
    CTC_FALLBACK_RENDERINGS = (("as_is", 1.5), ("as_is", 2.0), ("blur", 1.5))
    #: Background scale of the ``ink`` renderings (:func:`_ink_on_flat_paper`): Gaussian sigma
    #: as a share of the strip's height.
    INK_BACKGROUND_SIGMA = 0.25
    #: A strip decides when the format-valid serials' posterior, averaged over the renderings,
    #: reaches this and at least :attr:`STRIP_AGREE` renderings read that serial first.
    STRIP_MIN_POSTERIOR = 0.5
    STRIP_AGREE = 2
    #: Below :attr:`STRIP_MIN_POSTERIOR` but at least this, Tesseract reading the very same
    #: serial (an independent engine) lets the strip decide.
    STRIP_TESS_POSTERIOR = 0.3
    #: A rendering's best format-valid serial may be at most this many nats (natural log)
    #: less likely than the recogniser's own best reading of the strip (its best path);
    #: further below, the format is forcing characters in or out and the rendering counts as
    #: fitting nothing. Measured: right currency ≤ 0.7 on rendered strips, ≤ 9.3 on the real
    #: crops' dev half (hard JPY crops); a serial read under another currency ≥ 12.7 on
    #: rendered strips (``docs/vision-notes.md``).
    STRIP_MAX_FORMAT_GAP = 11.0
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

    def _ctc_renderings(self, strip: np.ndarray, which=None) -> list[tuple[np.ndarray, float]]:
        gray = None
        made: dict[str, np.ndarray] = {}
        out = []
        for name, stretch in which or self.CTC_RENDERINGS:
            if name == "as_is":
                out.append((strip, stretch))
                continue
            if name not in made:
                if gray is None:
                    gray = cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY)
                base = gray if not name.startswith("ink") else _ink_on_flat_paper(
                    gray, self.INK_BACKGROUND_SIGMA * gray.shape[0])
                im = cv2.GaussianBlur(base, (3, 3), 0) if name.endswith("blur") else base
                made[name] = cv2.cvtColor(im, cv2.COLOR_GRAY2BGR)
            out.append((made[name], stretch))
        return out

    def strip_posteriors(self, strip: np.ndarray, upside_down: bool = False, renderings=None
                         ) -> tuple[dict[str, float], dict[str, str], list[str | None]]:
        """The format-constrained decoding of one strip (H×W×3 BGR uint8); ``renderings``
        default :attr:`CTC_RENDERINGS`.

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
        renders = self._ctc_renderings(strip, renderings)
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
            if cands:
                # the best format-valid text must be about as likely as the recogniser's own
                # best path: far below it, the format forced characters in or out (a serial of
                # another currency read under this one) and nothing on the strip fits
                free = float(np.log(np.clip(probs.max(axis=1), 1e-30, None)).sum())
                if free - max(cands.values()) > self.STRIP_MAX_FORMAT_GAP:
                    cands = {}
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
        :attr:`min_confidence`. A strip where nothing fits is read again in
        :attr:`CTC_FALLBACK_RENDERINGS`, then both ways turned 180°.
        """
        post: dict[str, float] = {}
        for upside_down in (False, True):
            for which in (self.CTC_RENDERINGS, self.CTC_FALLBACK_RENDERINGS):
                post, currency_of, tops = self.strip_posteriors(strip, upside_down, which)
                if post:
                    break
            if post:
                if upside_down:
                    strip = cv2.rotate(strip, cv2.ROTATE_180)
                break
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
        return [c.image for c in self._candidates(as_bgr(frame), side)]

    def _candidates(self, frame: np.ndarray, side: int | None,
                    offset: tuple[int, int] = (0, 0)) -> list["_Line"]:
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
             offset: tuple[int, int] = (0, 0)) -> "_Line":
        crop = warp_quad(frame, quad)
        if vertical:
            # a vertical line: turned clockwise here (the angle classifier decides 0/180°);
            # the vertical RUB copy's growing glyphs are brought to one height
            crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
            if self.currency in ("RUB", "auto"):
                crop = _even_glyph_heights(crop)
        return _Line(crop, quad + np.float32(offset), vertical)

    def read_frame(self, frame: np.ndarray) -> NoteRead:
        """Read the note(s) in a whole frame (H×W×3 BGR uint8), at any rotation/perspective.

        Detection runs first at :attr:`DET_SIDES` ``[0]`` px; the finer pass runs when the
        coarse one decided nothing. A conflict the coarse pass found (:data:`CONFLICTS`: two
        valid serials on different lines) stands unless the finer pass decides *and* read
        again, at its resolution, every line that carried a conflicting serial
        (:func:`_reread`): small print read at the coarse scale fits some format by chance
        under ``auto``, and such a reading must not cost a note whose serial reads cleanly at
        the finer scale — while a second note's serial, read again, blocks the decision there.
        """
        frame = as_bgr(frame)
        res = NoteRead(None, None, 0.0, "no_serial")
        self._tess_budget = 1  # one Tesseract process per photo at most
        longest = max(frame.shape[:2])
        conflict: tuple[NoteRead, list[_Line]] | None = None
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
                against = {e.line for e in before.evidence if not _same_note(e.match, res)}
                if res.decided and all(_reread(before_cands[i].quad, cands) for i in against):
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
        thumb = _thumb(frame)
        if t is not None and t.age < self.TRACK_REFRESH and frame.shape == t.shape:
            if _scene_change(t.thumb, thumb, t.boxes, frame.shape) <= self.TRACK_SCENE_CHANGE:
                self._tess_budget = 1
                cands: list[_Line] = []
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
            self._track = _Track(_merge_boxes(boxes), self._det_scale, thumb, frame.shape)
        return res

    def reset_stream(self) -> None:
        """Forget the tracked serial region (the next :meth:`read_stream` reads the whole frame)."""
        self._track = None

    def _read_lines(self, cands: list["_Line"]) -> NoteRead:
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
            return _boxed(res, cands)
        return _boxed(self._read_lines_ppocr(cands), cands)

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
        seen_same = seen_other = False
        for r in self.engine.read_lines(imgs):
            for m in S.match(r.text, res.currency, allow_trim=True):
                if key(m.serial) == key(res.serial):
                    seen_same = True
                else:
                    seen_other = True
        if seen_other and not seen_same:
            return NoteRead(None, None, round(min(res.confidence, self.min_confidence - 0.01), 3),
                            "low_confidence", res.serial, res.evidence, shares=res.shares)
        return res

    def _read_lines_ppocr(self, cands: list["_Line"]) -> NoteRead:
        """The verdict from candidate lines with PP-OCR's recogniser (the earlier reader)."""
        lines = [c.image for c in cands]
        # the angle classifier turns upside-down lines round (≈ 5 ms a line) ...
        turned = [flip for flip, _ in self.engine.upside_down(lines)]
        up = [cv2.rotate(l, cv2.ROTATE_180) if flip else l for l, flip in zip(lines, turned)]
        ids = list(range(len(up)))
        reads = self.engine.read_lines(up)
        ev = self._evidence(reads, "rapidocr", ids)
        # a printed legend read confidently the right way up is not read turned round
        done: set[int] = {i for i in ids if is_legend(reads[i])}
        if ev:
            # ... but the classifier is sometimes sure and wrong (short digit strings): a line it
            # turned the wrong way reads as gibberish and would hide a disagreeing copy or a
            # second note. Before anything is decided, the lines that fit no format are read
            # the other way up too (measured: two-note hard negatives decided otherwise).
            matched = {e.line for e in ev}
            rest = [i for i in ids if i not in matched and i not in done]
            if rest:
                imgs = [cv2.rotate(up[i], cv2.ROTATE_180) for i in rest]
                ev += self._evidence(self.engine.read_lines(imgs), "rapidocr", rest,
                                     offset=len(up))
                up = up + imgs
                done |= set(rest)
            res = self._decide(self._one_way_up(ev), up, same_line=False, final=False)
            if res.decided or (res.reason in CONFLICTS and not rest):
                self._remember(cands, res)
                return res
        # ... and only when that decided nothing (or found a conflict that may rest on a line
        # read the wrong way up) is every other line read the other way up too (the classifier
        # errs on short digit strings; a misread orientation must not cost a note)
        again = [i for i in ids if i not in done]
        base = len(up)
        flipped = [cv2.rotate(up[i], cv2.ROTATE_180) for i in again]
        ev += self._evidence(self.engine.read_lines(flipped), "rapidocr", again, offset=base)
        res = self._decide(self._one_way_up(ev), up + flipped, same_line=False)
        self._remember(cands, res)
        return res

    def _remember(self, cands: list["_Line"], res: NoteRead) -> None:
        """Keep the lines that carried a decided serial, for :meth:`read_stream`'s regions."""
        if not res.decided:
            return
        keep = {e.line for e in res.evidence
                if res.currency == e.match.currency and (
                    e.match.serial == res.serial or
                    (e.match.currency == "RUB" and e.match.serial[2:] == res.serial[2:]))}
        self._last_lines = [cands[i] for i in sorted(keep)]

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
        # a Tesseract process only where it can change the verdict: its agreement must be able
        # to lift the digits to the threshold (else the read abstains whatever it says)
        hopeless = need_digits and _combine([conf, 0.9]) < self.min_confidence
        if (not hopeless and (need_digits or cur == "RUB") and self._tess_budget > 0
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


@dataclass
class _Line:
    """A candidate serial line: its upright image (H×W×3 BGR uint8), its quadrilateral in the
    frame (4×2 px) and whether it was turned from vertical."""

    image: np.ndarray
    quad: np.ndarray
    vertical: bool


@dataclass
class _Track:
    """The serial regions a stream reuses: ``boxes`` (x0, y0, x1, y1 px, disjoint), the
    detection scale of the full read that found them, that frame's thumbnail and shape, and
    the tracked frames since."""

    boxes: list[tuple[int, int, int, int]]
    scale: float
    thumb: np.ndarray
    shape: tuple
    age: int = 0


_THUMB_W = 96


def _thumb(frame: np.ndarray) -> np.ndarray:
    """A small grey copy of ``frame`` (96 px wide, float32) for scene-change checks."""
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (_THUMB_W, max(1, round(h * _THUMB_W / w))), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _boxed(res: NoteRead, cands: list[_Line]) -> NoteRead:
    """``res`` with its :attr:`NoteRead.box`: round the best-scored line whose reading gave its
    serial (or its candidate when abstaining), else the best-scored line of its evidence; left
    ``None`` when no evidence names a line of ``cands``."""
    want = res.serial or res.candidate
    ev = [e for e in res.evidence if 0 <= e.line < len(cands)]
    best = max((e for e in ev if want and e.match.serial == want), key=lambda e: e.score, default=None) \
        or max(ev, key=lambda e: e.score, default=None)
    if best is not None:
        q = np.asarray(cands[best.line].quad, np.float32).reshape(-1, 2)
        (x0, y0), (x1, y1) = q.min(axis=0), q.max(axis=0)
        res.box = [int(x0), int(y0), int(round(x1 - x0)), int(round(y1 - y0))]
    return res


def _merge_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) with every overlapping pair replaced by their union."""
    boxes = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    boxes[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return boxes


def _scene_change(before: np.ndarray, now: np.ndarray, boxes: list[tuple[int, int, int, int]],
                  shape: tuple) -> float:
    """Share of thumbnail pixels outside ``boxes`` (frame px) that changed: darker than the
    darkest or lighter than the lightest of the 3×3 pixels around them before, by more than 24
    grey levels — a shift by up to one thumbnail pixel (≈ 13 px of a 1280 px frame: a held
    note moving a little) is no change; something new in view is."""
    k = before.shape[1] / shape[1]
    kernel = np.ones((3, 3), np.uint8)
    low, high = cv2.erode(before, kernel), cv2.dilate(before, kernel)
    changed = (now < low - 24) | (now > high + 24)
    outside = np.ones(changed.shape, bool)
    for box in boxes:
        x0, y0, x1, y1 = (int(v * k) for v in box)
        outside[max(0, y0 - 1):y1 + 2, max(0, x0 - 1):x1 + 2] = False
    n = int(outside.sum())
    return float((changed & outside).sum()) / n if n else 0.0


def _same_note(m: S.SerialMatch, res: NoteRead) -> bool:
    """Whether a reading (``m``) is of the serial a decided ``res`` names (a RUB reading by its
    seven digits: its letters may be unread); ``False`` when ``res`` decided nothing."""
    if not res.decided or m.currency != res.currency:
        return False
    return m.serial == res.serial or (m.currency == "RUB" and m.serial[2:] == res.serial[2:])


#: How much of a line's quadrilateral (its area, px²) another pass's line must cover for the
#: line to count as read again there (:func:`_reread`).
REREAD_COVER = 0.5


def _reread(quad: np.ndarray, cands: list["_Line"]) -> bool:
    """Whether one of ``cands`` (the lines another detection pass read, quadrilaterals in the
    same frame's pixels) covers at least :data:`REREAD_COVER` of ``quad`` (4×2 px)."""
    q = np.asarray(quad, np.float32)
    area = abs(cv2.contourArea(q))
    if area <= 0:
        return False
    for c in cands:
        inter, _ = cv2.intersectConvexConvex(q, np.asarray(c.quad, np.float32))
        if inter >= REREAD_COVER * area:
            return True
    return False


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


def _ink_on_flat_paper(gray: np.ndarray, sigma: float) -> np.ndarray:
    """A grey strip (H×W uint8) with its printed background flattened: the background is the
    strip blurred with a Gaussian of ``sigma`` px (wider than a glyph's strokes), the ink is how
    far each pixel departs from it on the print's side (darker for dark print on light paper,
    lighter for light print on dark paper: the side whose strongest departures — the 0.5 %
    extremes — are the stronger), stretched to the full range and returned dark on white
    (H×W uint8). Guilloche and the paper's shading vary little at that scale next to the
    serial's strokes. An inverted strip gives the same image."""
    g = gray.astype(np.float32)
    d = cv2.GaussianBlur(g, (0, 0), sigma) - g
    # the print's side: a serial's strokes are the strip's strongest departures from its
    # background (the guilloche's are weaker), darker for dark print, lighter for light print
    if np.percentile(d, 99.5) < -np.percentile(d, 0.5):
        d = -d
    ink = np.clip(d, 0, None)
    top = float(ink.max())
    if top <= 0:
        return np.full_like(gray, 255)
    return (255 - ink * (255.0 / top)).astype(np.uint8)


def _even_glyph_heights(line: np.ndarray) -> np.ndarray:
    """A line image (H×W×3 BGR uint8) whose glyphs are scaled to one height: the vertical RUB
    copy prints its glyphs growing in height (0.7 → 1.3 ×), which recognisers trained on even
    lines misread. Glyphs are found as column runs of ink (Otsu on grey); a line without clear
    glyph runs is returned unchanged."""
    from companion.vision import letters as L

    gray = cv2.cvtColor(line, cv2.COLOR_BGR2GRAY)
    ink = L.ink_mask(gray)
    runs = L.column_runs(ink)
    if not 6 <= len(runs) <= 14:
        return line
    boxes = L.run_boxes(ink, runs)
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
