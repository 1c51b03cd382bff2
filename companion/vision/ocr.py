"""The OCR engines' common reading: a line image in, the text and a score (0..1) out
(:class:`LineRead`). The engines: :class:`~companion.vision.rapid_engine.RapidEngine` (RapidOCR)
and :class:`~companion.vision.tesseract_engine.TesseractEngine` (Tesseract)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LineRead:
    """One recognised line: ``text`` as the engine returned it and its ``score`` (0..1)."""

    text: str
    score: float
