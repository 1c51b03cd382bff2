"""Learned corner-index classifier: a small CNN (ONNX, run by onnxruntime) that reads the rank
glyph and the suit pip of an upright index patch (:func:`companion.vision.card_patches.corner_patch`).

Trained offline by ``tools/train_cards.py`` on rendered cards only (DejaVu and Liberation index
fonts, domain-randomised composites on procedural tables; see docs/vision-cards.md); no real
photo trained or tuned it. Its outputs are temperature-calibrated probabilities.

Classes: :data:`GLYPHS` (what is printed: an English, Russian or German letter, a numeral, the
joker's column, or ``none`` — no index there) and :data:`SUITS` (``S H D C`` or ``none``).
The deck's alphabet maps a glyph to a rank (:data:`GLYPH_RANKS`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision.onnxmodel import open_model

MODEL_DIR = Path(__file__).resolve().parent / "models"
MODEL = MODEL_DIR / "card_index.onnx"
#: The second classifier read beside :data:`MODEL` (:class:`IndexPair`; "v4", thirteenth pass:
#: more fonts, shape-varied pips, 20 % Vosloo photos); absent: :data:`MODEL` alone.
PAIR = MODEL_DIR / "card_index_pair.onnx"
#: Network input (width, height) px of the models tools/train_cards.py makes (v4, ninth pass;
#: v1–v3 read 32×48); a model's own size is in its .json, and the patch is resized to it.
INPUT_W, INPUT_H = 48, 72
#: Printed glyphs. ``B`` stands for the German B and the Russian В (one shape), ``K`` for the
#: Latin K and the Cyrillic К; ``T`` is the Russian Т (туз), ``Д`` the Russian Д (дама).
GLYPHS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "T", "Д", "D", "B", "JK", "none"]
SUITS = ["S", "H", "D", "C", "none"]
#: Glyph → rank per deck alphabet; a glyph outside the alphabet is no rank of that deck.
GLYPH_RANKS = {
    "en": {"A": "A", "K": "K", "Q": "Q", "J": "J"},
    "ru": {"T": "A", "K": "K", "Д": "Q", "B": "J"},
    "de": {"A": "A", "K": "K", "D": "Q", "B": "J"},
}
for _a in GLYPH_RANKS.values():
    _a.update({n: n for n in ("10", "9", "8", "7", "6", "5", "4", "3", "2")})
    _a["JK"] = "JK"
GLYPH_RANKS["auto"] = {g: r for a in ("en", "ru", "de") for g, r in GLYPH_RANKS[a].items()}
#: The render-alphabet glyph → class name (what tools/train_cards.py labels a rendered index with).
RENDER_GLYPH = {"Т": "T", "К": "K", "В": "B"}


def prepare(patch: np.ndarray, size: tuple[int, int] = (INPUT_W, INPUT_H)) -> np.ndarray:
    """An index patch (h×w×3 BGR uint8, upright) as the network's input: resized to ``size``
    (width, height), each channel divided by its own paper level (the 90th percentile: white
    balance on the card's paper, so the light's colour cancels), clipped to 0–1.2, CHW float32."""
    return prepare_batch([patch], size)[0]


def prepare_batch(patches: list[np.ndarray], size: tuple[int, int] = (INPUT_W, INPUT_H)) -> np.ndarray:
    """:func:`prepare` of several patches at once (N×3×H×W float32; the same values, one
    partition and one division for the batch, on contiguous uint8 channel planes)."""
    small = np.stack([cv2.resize(p, size, interpolation=cv2.INTER_AREA) for p in patches])
    planes = np.ascontiguousarray(small.transpose(0, 3, 1, 2))
    flat = planes.reshape(len(patches), 3, -1)
    k = int(0.9 * (flat.shape[2] - 1))
    paper = np.partition(flat, k, axis=2)[:, :, k].astype(np.float32) + 8.0
    x = planes.astype(np.float32)
    x /= paper[:, :, None, None]
    return np.clip(x, 0, 1.2, out=x)


@dataclass
class IndexGuess:
    """The classifier's answer for one patch: best glyph and suit with their calibrated
    probabilities, and the full distributions (``glyph_p`` over :data:`GLYPHS`, ``suit_p``
    over :data:`SUITS`)."""
    glyph: str
    glyph_conf: float
    suit: str
    suit_conf: float
    glyph_p: np.ndarray
    suit_p: np.ndarray

    def card(self, alphabet: str) -> tuple[str | None, float]:
        """The card code under ``alphabet`` and its probability (glyph × suit; the joker has no
        suit), or (None, 0) when the glyph is no rank of that alphabet or nothing is printed."""
        ranks = GLYPH_RANKS[alphabet]
        rank = ranks.get(self.glyph)
        if rank is None:
            return None, 0.0
        if rank == "JK":
            return "JK", self.glyph_conf
        if self.suit == "none":
            return None, 0.0
        return rank + self.suit, self.glyph_conf * self.suit_conf


class IndexNet:
    """The ONNX index classifier (one session per process, :func:`shared`).

    Raises:
        VisionError: the model file is missing or unreadable.
    """

    def __init__(self, path: Path | None = None) -> None:
        path = path or MODEL
        self.session, meta = open_model(path, "card index", "tools/train_cards.py")
        size = meta.get("input")
        if meta.get("glyphs") != GLYPHS or meta.get("suits") != SUITS or not (
                isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and 8 <= v <= 256 for v in size)):
            raise VisionError(f"card index model {path} does not match this version")
        #: the model's input (width, height) px
        self.size = (int(size[0]), int(size[1]))
        self.temperature = float(meta.get("temperature", 1.0))
        self.meta = meta
        self.input = self.session.get_inputs()[0].name

    def classify(self, patches: list[np.ndarray]) -> list[IndexGuess]:
        """Classify upright index patches (each h×w×3 BGR uint8) in one batch."""
        if not patches:
            return []
        x = prepare_batch(patches, self.size)
        g, s = self.session.run(None, {self.input: x})
        gp, sp = _softmax(g / self.temperature), _softmax(s / self.temperature)
        out = []
        for a, b in zip(gp, sp):
            i, j = int(a.argmax()), int(b.argmax())
            out.append(IndexGuess(GLYPHS[i], float(a[i]), SUITS[j], float(b[j]), a, b))
        return out


class IndexPair:
    """Two index classifiers read as one: per patch the normalised geometric mean of their glyph
    and of their suit distributions (log-linear pooling), so a card both name surely stays sure
    and one they disagree on is not. Same interface as :class:`IndexNet`."""

    def __init__(self, first: IndexNet, second: IndexNet) -> None:
        self.nets = (first, second)
        self.meta = {"pair": [first.meta, second.meta]}

    def classify(self, patches: list[np.ndarray]) -> list[IndexGuess]:
        """Classify upright index patches (each h×w×3 BGR uint8) with both nets."""
        if not patches:
            return []
        a, b = (net.classify(patches) for net in self.nets)
        out = []
        for x, y in zip(a, b):
            gp = np.sqrt(x.glyph_p * y.glyph_p)
            sp = np.sqrt(x.suit_p * y.suit_p)
            gp /= gp.sum()
            sp /= sp.sum()
            i, j = int(gp.argmax()), int(sp.argmax())
            out.append(IndexGuess(GLYPHS[i], float(gp[i]), SUITS[j], float(sp[j]), gp, sp))
        return out


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@functools.lru_cache(maxsize=1)
def shared() -> IndexNet | IndexPair:
    """The process's one classifier on the committed models: :class:`IndexPair` of
    :data:`MODEL` and :data:`PAIR` when both are there, else :class:`IndexNet` on :data:`MODEL`."""
    if PAIR.is_file() and PAIR.with_suffix(".json").is_file():
        return IndexPair(IndexNet(), IndexNet(PAIR))
    return IndexNet()


def available() -> bool:
    """Whether the committed model is there (the reader falls back to templates alone if not)."""
    return MODEL.is_file() and MODEL.with_suffix(".json").is_file()
