"""Cyrillic serial letters by glyph matching: the third opinion on a RUB serial's two letters.

The recogniser bundled with RapidOCR knows no Cyrillic (its letters are Latin look-alikes, ``B``
for both Б and В), and Tesseract ``rus`` misreads the small second letter often. This module
cuts the two letter glyphs off a serial line whose seven digits are already settled and matches
each against templates of the Bank of Russia serial letters (:data:`serials.CYRILLIC_SERIAL_LETTERS`,
capitals and lower case: the second letter is printed lower case) rendered from the system's
TrueType fonts with Cyrillic glyphs.

The templates deliberately leave out :data:`companion.vision.render_notes` 's serial font
(``DejaVuSansMono-Bold``), so that the rendered notes of the tests and of ``bench/notes.py``
measure the matcher on a font it never saw (the real Bank of Russia font is none of these).

Images are H×W×3 BGR uint8 (or H×W grey uint8); glyph boxes are ``(x0, x1, y0, y1)`` px.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision import serials as S

#: Template fonts (upright faces with Cyrillic, shipped by fonts-dejavu-core / fonts-liberation).
TEMPLATE_FONTS = (
    "dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSansCondensed.ttf",
    "dejavu/DejaVuSansCondensed-Bold.ttf", "dejavu/DejaVuSansMono.ttf", "dejavu/DejaVuSerif.ttf",
    "dejavu/DejaVuSerif-Bold.ttf", "dejavu/DejaVuSerifCondensed.ttf",
    "dejavu/DejaVuSerifCondensed-Bold.ttf", "liberation/LiberationMono-Regular.ttf",
    "liberation/LiberationMono-Bold.ttf", "liberation/LiberationSans-Regular.ttf",
    "liberation/LiberationSans-Bold.ttf", "liberation/LiberationSansNarrow-Regular.ttf",
    "liberation/LiberationSansNarrow-Bold.ttf", "liberation/LiberationSerif-Regular.ttf",
    "liberation/LiberationSerif-Bold.ttf",
)
FONT_ROOTS = ("/usr/share/fonts/truetype", "/usr/share/fonts")
#: Glyphs are compared at this size (px), aspect ignored (the vertical RUB copy's glyphs are
#: stretched to one height before they get here).
SIZE = 24
#: Glyphs shorter than this (px) are not matched: too few pixels to tell к from х (measured on
#: the one real RUB photo, whose letters are ≈ 9 px tall and matched wrongly).
MIN_GLYPH_PX = 12


@dataclass(frozen=True)
class LetterVote:
    """One letter position's match: the best ``letter`` (Cyrillic capital), its correlation
    ``score`` (−1..1) and the ``margin`` to the best *other* letter."""

    letter: str
    score: float
    margin: float


def _norm(glyph: np.ndarray) -> np.ndarray | None:
    """A binary-ish glyph (H×W uint8, 255 = ink) → SIZE×SIZE float32, zero mean, unit norm."""
    ys, xs = np.nonzero(glyph > 64)
    if ys.size < 4:
        return None
    g = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    g = cv2.resize(g, (SIZE, SIZE), interpolation=cv2.INTER_AREA).astype(np.float32)
    g = cv2.GaussianBlur(g, (3, 3), 0)
    g -= g.mean()
    n = float(np.linalg.norm(g))
    return None if n < 1e-3 else g / n


class LetterMatcher:
    """Template matcher for the Cyrillic serial letters (templates built on first use).

    Args:
        fonts: font files (relative to :data:`FONT_ROOTS` or absolute); default
            :data:`TEMPLATE_FONTS`. Missing files are skipped.
    """

    def __init__(self, fonts: tuple[str, ...] | None = None) -> None:
        self.fonts = fonts or TEMPLATE_FONTS
        self._lock = threading.Lock()
        self._templates: tuple[np.ndarray, list[str]] | None = None

    def _build(self) -> tuple[np.ndarray, list[str]]:
        from PIL import Image, ImageDraw, ImageFont

        mats, labels = [], []
        for name in self.fonts:
            path = next((Path(r) / name for r in ("",) + FONT_ROOTS if (Path(r) / name).is_file()),
                        None)
            if path is None:
                continue
            f = ImageFont.truetype(str(path), 48)
            for cap in sorted(S.CYRILLIC_SERIAL_LETTERS):
                for ch in {cap, cap.lower()}:
                    box = f.getbbox(ch)
                    im = Image.new("L", (box[2] - box[0] + 4, box[3] - box[1] + 4), 0)
                    ImageDraw.Draw(im).text((-box[0] + 2, -box[1] + 2), ch, font=f, fill=255)
                    v = _norm(np.array(im))
                    if v is not None:
                        mats.append(v.ravel())
                        labels.append(cap)
        if not mats:
            raise FileNotFoundError("no Cyrillic TrueType font for the letter templates "
                                    "(apt install fonts-dejavu-core fonts-liberation)")
        return np.stack(mats), labels

    @property
    def templates(self) -> tuple[np.ndarray, list[str]]:
        with self._lock:
            if self._templates is None:
                self._templates = self._build()
            return self._templates

    def scores(self, glyph: np.ndarray) -> dict[str, float] | None:
        """Every serial letter's best correlation with one glyph image (H×W uint8, 255 = ink)
        over its templates, or ``None`` if the glyph is empty."""
        v = _norm(glyph)
        if v is None:
            return None
        mat, labels = self.templates
        best: dict[str, float] = {}
        for s, lab in zip((mat @ v.ravel()).tolist(), labels):
            if s > best.get(lab, -2.0):
                best[lab] = s
        return best

    def match(self, glyph: np.ndarray) -> LetterVote | None:
        """Best letter for one glyph image (H×W uint8, 255 = ink), or ``None`` if it is empty."""
        best = self.scores(glyph)
        if best is None:
            return None
        ranked = sorted(best.items(), key=lambda kv: -kv[1])
        (letter, score), runner = ranked[0], ranked[1][1] if len(ranked) > 1 else -1.0
        return LetterVote(letter, score, score - runner)

    def rub_letters(self, line: np.ndarray) -> list[LetterVote] | None:
        """The two letter votes of a RUB serial line (letters then seven digits, left to
        right), or ``None`` when the line does not split into exactly nine glyphs or a letter is
        smaller than :data:`MIN_GLYPH_PX`."""
        glyphs = self._letter_glyphs(line)
        votes = [self.match(g) for g in glyphs] if glyphs else None
        return None if votes is None or None in votes else votes

    def rub_letter_scores(self, line: np.ndarray) -> list[dict[str, float]] | None:
        """:meth:`scores` of the two letter glyphs of a RUB serial line (``None`` as
        :meth:`rub_letters`)."""
        glyphs = self._letter_glyphs(line)
        out = [self.scores(g) for g in glyphs] if glyphs else None
        return None if out is None or None in out else out

    def _letter_glyphs(self, line: np.ndarray) -> list[np.ndarray] | None:
        ink = ink_mask(line)
        boxes = glyph_boxes(ink)
        if len(boxes) != 9:
            return None
        out = []
        for x0, x1, y0, y1 in boxes[:2]:
            if y1 - y0 < MIN_GLYPH_PX:
                return None
            out.append(ink[y0:y1, x0:x1])
        return out


def ink_mask(line: np.ndarray) -> np.ndarray:
    """Ink of a text line (H×W uint8, 255 = ink): Otsu on grey, dark or light print alike."""
    gray = cv2.cvtColor(line, cv2.COLOR_BGR2GRAY) if line.ndim == 3 else line
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    if ink.mean() > 127:  # light text on dark ground
        ink = 255 - ink
    return ink


def column_runs(ink: np.ndarray, min_frac: float = 0.02) -> list[tuple[int, int]]:
    """Runs ``(x0, x1)`` of columns of a line's ink mask (H×W uint8, 255 = ink) holding more
    than ``min_frac`` of the line's height in ink: one run per glyph on evenly spaced print."""
    h, w = ink.shape
    cols = ink.sum(axis=0) > min_frac * 255 * h
    runs, x = [], 0
    while x < w:
        if cols[x]:
            x0 = x
            while x < w and cols[x]:
                x += 1
            runs.append((x0, x))
        x += 1
    return runs


def run_boxes(ink: np.ndarray, runs: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Each column run's tight box ``(x0, x1, y0, y1)`` in the ink mask (runs with no ink row
    are left out)."""
    boxes = []
    for x0, x1 in runs:
        rows = np.flatnonzero(ink[:, x0:x1].sum(axis=1) > 0)
        if rows.size:
            boxes.append((x0, x1, int(rows[0]), int(rows[-1]) + 1))
    return boxes


def glyph_boxes(ink: np.ndarray, min_frac: float = 0.02) -> list[tuple[int, int, int, int]]:
    """Glyphs of a line's ink mask as column runs, each ``(x0, x1, y0, y1)`` (tight rows).
    Runs thinner than 1/8 of the line's ink height (specks) are dropped."""
    boxes = run_boxes(ink, column_runs(ink, min_frac))
    if boxes:
        tall = max(b[3] - b[2] for b in boxes)
        boxes = [b for b in boxes if b[3] - b[2] >= tall / 8 and b[1] - b[0] >= 1]
    return boxes


_SHARED: LetterMatcher | None = None
_SHARED_LOCK = threading.Lock()


def shared_matcher() -> LetterMatcher:
    """The process's one :class:`LetterMatcher` (templates rendered once, ≈ 0.1 s)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = LetterMatcher()
        return _SHARED
