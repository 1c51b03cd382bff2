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
}


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
                lang = "eng+rus" if self.currency in ("auto", "RUB") else "eng"
                wl = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*"
                if "rus" in lang:
                    wl += "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯабвгдежзиклмнопрстуфхцчшщэюя"
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

    def read_strip(self, strip: np.ndarray) -> NoteRead:
        """Read a tight crop of one serial strip (H×W×3 BGR uint8, text left to right).

        Several renderings of the strip are recognised; they must agree on one serial, and
        Tesseract's reading is the independent second opinion.
        """
        strip = as_bgr(strip)
        variants = self._strip_variants(strip)
        reads = self.engine.read_lines(variants)
        ev = self._evidence(reads, "rapidocr", list(range(len(reads))))
        if not ev:
            # a strip can be upside down too
            variants = [cv2.rotate(v, cv2.ROTATE_180) for v in variants]
            reads = self.engine.read_lines(variants)
            ev = self._evidence(reads, "rapidocr", list(range(len(reads))))
        return self._decide(ev, [strip], same_line=True)

    # frames ----------------------------------------------------------------------------
    def candidate_lines(self, frame: np.ndarray) -> list[np.ndarray]:
        """Upright line images (H×W×3 BGR uint8) of the text lines in ``frame`` that could hold a
        serial, best candidates first; tall lines come out turned 90° clockwise (one image per
        physical line: two images of one line would count as two printed copies)."""
        frame = as_bgr(frame)
        quads = self.engine.detect(frame)
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
                # a vertical line: turned clockwise here, read_frame also reads it turned 180°
                crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
            lines.append(crop)
        return lines

    def read_frame(self, frame: np.ndarray) -> NoteRead:
        """Read the note(s) in a whole frame (H×W×3 BGR uint8), at any rotation/perspective."""
        frame = as_bgr(frame)
        lines = self.candidate_lines(frame)
        if not lines:
            return NoteRead(None, None, 0.0, "no_serial")
        # every line is read both ways up: a note lies at any angle on the table
        both = lines + [cv2.rotate(l, cv2.ROTATE_180) for l in lines]
        ids = list(range(len(lines))) * 2
        ev = self._evidence(self.engine.read_lines(both), "rapidocr", ids)
        return self._decide(self._one_way_up(ev), both, same_line=False)

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
    def _evidence(self, reads: list[LineRead], engine: str, line_ids: list[int]) -> list[Evidence]:
        out = []
        for k, (r, i) in enumerate(zip(reads, line_ids)):
            for m in self._matches(r.text):
                out.append(Evidence(r.text, r.score, engine, m, i, k))
        return out

    def _matches(self, text: str) -> list[S.SerialMatch]:
        ms = S.match(text, self.currency, allow_trim=True)
        if not ms:
            return []
        best = ms[0].corrections
        return [m for m in ms if m.corrections == best]

    def _decide(self, ev: list[Evidence], lines: list[np.ndarray], same_line: bool) -> NoteRead:
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
        rub_letters_agree = True
        if cur == "RUB":
            # RUB copies are grouped by their digits; the letters are the best-supported reading
            letters: Counter = Counter()
            for e in items:
                letters[e.match.serial[:2]] += e.score
            serial = letters.most_common(1)[0][0] + serial
            rub_letters_agree = len(letters) == 1
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
        tess_agrees = tess_letters = False
        if conf < self.min_confidence and self.tesseract is not None:
            if same_line:
                imgs = [lines[0]]
            else:
                best_img: dict[int, Evidence] = {}
                for e in items:
                    if e.line not in best_img or e.score > best_img[e.line].score:
                        best_img[e.line] = e
                imgs = [lines[e.image] for e in list(best_img.values())[:3]]
            treads = self.tesseract.read_lines(imgs)
            tess_matches = [m for r in treads for m in self._matches(r.text)]
            tess_serials = {m.serial for m in tess_matches}
            tess_agrees = any(_group_key(m) == key for m in tess_matches)
            tess_letters = serial in tess_serials
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
            # RapidOCR's models know no Cyrillic: its letters are Latin look-alikes mapped to
            # Cyrillic. Tesseract (rus) confirms them when it can; the digits are sure either way.
            letters_confirmed = rub_letters_agree and (
                (tess_agrees and tess_letters) or self._tess_confirms(serial, items, lines))
        return NoteRead(serial, cur, round(conf, 3), None, candidate, ev, letters_confirmed)

    def _tess_confirms(self, serial: str, items: list[Evidence], lines: list[np.ndarray]) -> bool:
        if self.tesseract is None:
            return False
        best = max(items, key=lambda e: e.score)
        reads = self.tesseract.read_lines([lines[best.image]])
        return any(m.serial == serial for r in reads for m in self._matches(r.text))


def _group_key(m: S.SerialMatch) -> tuple[str, str]:
    """Readings that are the same note: same serial; for RUB the same seven digits (the
    Cyrillic letters are the unsure part, see :class:`NoteRead`)."""
    return (m.currency, m.serial[2:]) if m.currency == "RUB" else (m.currency, m.serial)


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
