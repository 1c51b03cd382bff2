"""Learned card-paper mask: a tiny U-Net (ONNX, onnxruntime) that marks which pixels of a frame
are card (face or back) — on felt, wood, carpet, tiles or patterned cloth, under any light.

It replaces the brightness threshold that found cards only on dark tables: a card on light
carpet or tiles is not brighter than the table, but its smooth paper, straight edges and corners
are unlike any table. Trained offline by ``tools/train_card_seg.py`` on rendered scenes only
(style-"a" procedural tables, :mod:`companion.vision.table_scenes`); no real photo trained or
tuned it (docs/vision-cards.md).

The network sees the frame scaled so its long side is :data:`INPUT_LONG` px (both sides rounded
to a multiple of 8) and returns a probability per pixel at that size.
"""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision.onnxmodel import open_model

MODEL = Path(__file__).resolve().parent / "models" / "card_paper.onnx"
#: Long side (px) of the network's input.
INPUT_LONG = 256
#: Probability above which a pixel is card paper.
PAPER_P = 0.5


def input_size(w: int, h: int) -> tuple[int, int]:
    """The network input (width, height) for a frame of w×h px: long side INPUT_LONG, multiples of 8."""
    s = INPUT_LONG / max(w, h)
    return max(8, int(round(w * s / 8)) * 8), max(8, int(round(h * s / 8)) * 8)


def prepare(image: np.ndarray) -> np.ndarray:
    """A BGR uint8 frame as the network's input: scaled to :func:`input_size`, 0–1, CHW float32."""
    w, h = input_size(image.shape[1], image.shape[0])
    small = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(small.transpose(2, 0, 1).astype(np.float32) / 255.0)


class PaperNet:
    """The ONNX paper segmenter (one session per process: :func:`shared`).

    Raises:
        VisionError: the model file is missing or does not match this version.
    """

    def __init__(self, path: Path | None = None) -> None:
        path = path or MODEL
        self.session, self.meta = open_model(path, "card paper", "tools/train_card_seg.py", threads=2)
        if self.meta.get("input_long") != INPUT_LONG:
            raise VisionError(f"card paper model {path} does not match this version")
        self.input = self.session.get_inputs()[0].name

    def probability(self, image: np.ndarray) -> np.ndarray:
        """Card-paper probability (float32 0–1) of a BGR frame, at :func:`input_size`."""
        x = prepare(image)[None]
        (logit,) = self.session.run(None, {self.input: x})
        return (1.0 / (1.0 + np.exp(-logit[0, 0]))).astype(np.float32)

    def mask(self, image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """The card-paper mask (uint8 0/255) of ``image`` at ``size`` (width, height)."""
        p = cv2.resize(self.probability(image), size, interpolation=cv2.INTER_LINEAR)
        return (p > PAPER_P).astype(np.uint8) * 255


@functools.lru_cache(maxsize=1)
def shared() -> PaperNet:
    """The process's one :class:`PaperNet` on the committed model."""
    return PaperNet()


def available() -> bool:
    return MODEL.is_file() and MODEL.with_suffix(".json").is_file()
