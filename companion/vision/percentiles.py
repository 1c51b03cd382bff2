"""Percentiles on the card reader's per-frame path (:mod:`companion.vision.cards`): the values
``np.percentile`` gives (linear interpolation), a uint8 image's counted from its histogram
rather than sorted — the paper level of every index patch, the table level of every frame."""

from __future__ import annotations

import cv2
import numpy as np


def percentile(a: np.ndarray, q: float) -> float:
    """``np.percentile(a, q)`` (linear interpolation) by partial sort: the same value, at a
    fraction of the cost on the small arrays of an index patch (it is on the per-frame path).
    A uint8 array is counted, not sorted (:func:`percentile_hist`)."""
    if a.dtype == np.uint8 and a.ndim == 2:
        return percentile_u8(a, q)
    v = np.ascontiguousarray(a).ravel()
    pos = q / 100.0 * (v.size - 1)
    lo = int(pos)
    hi = min(lo + 1, v.size - 1)
    part = np.partition(v, (lo, hi))
    return float(part[lo]) + (float(part[hi]) - float(part[lo])) * (pos - lo)


def percentile_hist(hist: np.ndarray, n: int, q: float, numpy_lerp: bool = False) -> float:
    """The ``q`` percentile (linear interpolation) of ``n`` values from their histogram over
    0–255: the same value as :func:`percentile` (or, with ``numpy_lerp``, as ``np.percentile``, which
    interpolates from the upper value when past halfway)."""
    cum = np.cumsum(hist)
    pos = q / 100.0 * (n - 1)
    lo = int(pos)
    hi = min(lo + 1, n - 1)
    a = float(np.searchsorted(cum, lo, side="right"))
    b = float(np.searchsorted(cum, hi, side="right"))
    t = pos - lo
    if numpy_lerp and t >= 0.5:
        return b - (b - a) * (1 - t)
    return a + (b - a) * t


def channel_percentiles(img: np.ndarray, q: float) -> list[float]:
    """:func:`percentile` of each channel of an H×W×3 uint8 image."""
    n = img.shape[0] * img.shape[1]
    img = np.ascontiguousarray(img)
    return [percentile_hist(cv2.calcHist([img], [k], None, [256], [0, 256]).ravel(), n, q) for k in range(3)]


def percentile_u8(a: np.ndarray, q: float, numpy_lerp: bool = False) -> float:
    """:func:`percentile_hist` of a 2-D uint8 array."""
    hist = cv2.calcHist([np.ascontiguousarray(a)], [0], None, [256], [0, 256]).ravel()
    return percentile_hist(hist, a.size, q, numpy_lerp)
