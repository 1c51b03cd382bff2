"""The project's own serial-strip recogniser: a small CRNN (convolutions + BiLSTM) trained with
CTC on real serial crops and synthetic strips (``tools/train_serials.py``), shipped as an ONNX
file (``companion/vision/models/serialnet.onnx``) and run through onnxruntime.

One line image in (H×W×3 BGR or H×W grey uint8, text left to right), per-time-step CTC
probabilities out, in the column layout :mod:`companion.vision.ctc` decodes: column 0 the CTC
blank, columns 1..len(:data:`CHARSET`) the characters, a last "junk" column (always 0 here: the
model has no class outside its charset). One time step covers 4 px of the line scaled to
:data:`HEIGHT` px high and widened :data:`STRETCH` ×.

Charset: digits, Latin capitals, ``*`` (USD star notes) and the Cyrillic serial letters that have
no Latin twin. A Cyrillic letter that prints like a Latin one (А В Е К М Н О Р С Т Х) *is* that
Latin column: the model reads shapes, the format says the script (:func:`rub_alphabets`).
Lower-case letters (the RUB second letter) were trained as their capitals.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision import serials as S

#: Latin twins of Cyrillic serial letters (same printed shape): one column serves both.
CYRILLIC_TWINS = {"А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O",
                  "Р": "P", "С": "C", "Т": "T", "Х": "X"}
#: Cyrillic serial letters with a shape of their own.
CYRILLIC_OWN = "".join(c for c in sorted(S.CYRILLIC_SERIAL_LETTERS) if c not in CYRILLIC_TWINS)
#: The model's characters (columns 1..len after the blank).
CHARSET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ*" + CYRILLIC_OWN
#: Input height (px) and horizontal widening of a line before the model.
HEIGHT = 32
STRETCH = 1.25
#: Input width bounds (px, after scaling): a line is never wider than this (a 1×20000 strip is
#: squeezed, never scaled to thousands of columns) nor narrower than the minimum.
MAX_WIDTH = 480
MIN_WIDTH = 32
#: Time steps per input pixel column.
DOWNSAMPLE = 4

MODEL_FILE = Path(__file__).resolve().parent / "models" / "serialnet.onnx"


def to_model_char(ch: str) -> str:
    """A serial character as the model's column: Cyrillic twins → their Latin letter."""
    return CYRILLIC_TWINS.get(ch, ch)


def label_text(serial: str) -> str:
    """A canonical serial as the model's label (twins folded onto Latin, upper case)."""
    return "".join(to_model_char(c) for c in serial.upper() if not c.isspace())


def from_model_rub(text: str) -> str:
    """A RUB serial decoded in model characters → canonical Cyrillic (first two are letters)."""
    back = {v: k for k, v in CYRILLIC_TWINS.items()}
    return "".join(back.get(c, c) for c in text[:2]) + text[2:]


def rub_alphabets() -> list[tuple[str, ...]]:
    """The RUB format per position in model characters: two letters, seven digits."""
    letters = "".join(sorted(set(CYRILLIC_TWINS.values()))) + CYRILLIC_OWN
    return [tuple([letters, letters] + [S.DIGITS] * 7)]


def prepare(line: np.ndarray) -> np.ndarray:
    """One line image → the model's input, 1×HEIGHT×W float32 in −1..1 (grey, contrast
    stretched between the 1st and 99th percentile, W = width at HEIGHT px × STRETCH, clamped to
    MIN_WIDTH..MAX_WIDTH, a multiple of DOWNSAMPLE).

    Raises:
        VisionError: an empty image.
    """
    if line is None or line.size == 0 or min(line.shape[:2]) == 0:
        raise VisionError("empty line image")
    g = cv2.cvtColor(line, cv2.COLOR_BGR2GRAY) if line.ndim == 3 else line
    h, w = g.shape
    W = int(round(HEIGHT * w / h * STRETCH))
    W = max(MIN_WIDTH, min(MAX_WIDTH, W))
    W -= W % DOWNSAMPLE
    x = cv2.resize(g, (W, HEIGHT), interpolation=cv2.INTER_AREA if W < w else cv2.INTER_LINEAR)
    x = x.astype(np.float32)
    lo, hi = np.percentile(x, (1, 99))
    if hi - lo < 8:
        hi = lo + 8
    x = np.clip((x - lo) / (hi - lo), 0, 1)
    return ((x - 0.5) / 0.5).astype(np.float32)[None]


class SerialNet:
    """The serial recogniser on onnxruntime (one session, shared under a lock).

    Raises:
        VisionError: the model file is missing or does not load.
    """

    def __init__(self, path: str | Path | None = None, threads: int | None = None) -> None:
        from companion.vision.ocr_models import _session, _threads

        path = Path(path or MODEL_FILE)
        if not path.is_file():
            raise VisionError(f"serial recogniser model missing: {path}")
        try:
            self._sess = _session(str(path), threads or _threads())
        except Exception as exc:  # onnxruntime's own errors: a damaged file
            raise VisionError(f"serial recogniser model does not load: {exc}") from exc
        self._input = self._sess.get_inputs()[0].name
        self._lock = threading.Lock()

    def probs(self, lines: list[np.ndarray]) -> list[np.ndarray]:
        """Per-time-step probabilities for each line (module doc's layout): T×(len(CHARSET)+2)
        float32 each, T = input width / DOWNSAMPLE. Lines of one input width share a batch."""
        xs = [prepare(l) for l in lines]
        out: list[np.ndarray | None] = [None] * len(xs)
        by_w: dict[int, list[int]] = {}
        for i, x in enumerate(xs):
            by_w.setdefault(x.shape[2], []).append(i)
        for ids in by_w.values():
            batch = np.stack([xs[i] for i in ids]).astype(np.float32)
            with self._lock:
                logits = self._sess.run(None, {self._input: batch})[0]  # N×T×K
            z = logits - logits.max(axis=2, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=2, keepdims=True)
            for i, pi in zip(ids, p):
                out[i] = np.concatenate([pi, np.zeros((pi.shape[0], 1), np.float32)], axis=1)
        return out  # type: ignore[return-value]


def check_model(path: str | Path | None = None) -> tuple[str, dict]:
    """Whether the recogniser's model file is usable (for ``companion doctor``): a code and
    facts. Codes: ``ok`` (facts: ``path``, ``mb``, ``input``, ``classes``), ``missing``,
    ``unloadable`` (``error``), ``wrong_shape`` (``input``, ``output``: the shapes found; the
    reader needs input N×1×HEIGHT×W and output N×T×(len(CHARSET)+1)). Never raises."""
    path = Path(path or MODEL_FILE)
    facts: dict = {"path": str(path)}
    if not path.is_file():
        return "missing", facts
    facts["mb"] = round(path.stat().st_size / 1e6, 2)
    try:
        from companion.vision.ocr_models import _session

        sess = _session(str(path), 1)
        ins, outs = sess.get_inputs(), sess.get_outputs()
    except Exception as exc:  # onnxruntime's own errors: a damaged or foreign file
        facts["error"] = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        return "unloadable", facts
    shape_in = list(ins[0].shape) if ins else []
    shape_out = list(outs[0].shape) if outs else []
    facts.update(input=shape_in, output=shape_out)
    classes = len(CHARSET) + 1
    if (len(ins) != 1 or len(shape_in) != 4 or shape_in[1:3] != [1, HEIGHT]
            or len(shape_out) != 3 or shape_out[2] != classes):
        return "wrong_shape", facts
    try:
        out = sess.run(None, {ins[0].name: np.zeros((1, 1, HEIGHT, 64), np.float32)})[0]
    except Exception as exc:
        facts["error"] = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        return "unloadable", facts
    if out.shape != (1, 64 // DOWNSAMPLE, classes):
        facts["output"] = list(out.shape)
        return "wrong_shape", facts
    facts["classes"] = classes
    return "ok", facts


_SHARED: SerialNet | None = None
_SHARED_LOCK = threading.Lock()


def shared_serialnet() -> SerialNet:
    """The process's one :class:`SerialNet` (loaded on first use).

    Raises:
        VisionError: the model file is missing or does not load.
    """
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = SerialNet()
        return _SHARED
