"""The note reader's decision with the project's recogniser: line images in, a
:class:`~companion.vision.notes.NoteRead` out.

Each line is recognised both ways up (:mod:`companion.vision.serialnet`, one batch), decoded
under the reader's formats (:func:`companion.vision.serialread.fit_line`), and the lines that
fit are decided together (:func:`companion.vision.serialread.joint`). Thresholds were chosen on
the ``calib`` split of the training crops and on rendered calibration scenes of other seeds than
the benchmark's (``docs/vision-notes.md``); ``reason`` codes are those of
:data:`companion.vision.notes.REASONS`.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import serialread as SR
from companion.vision import serials as S

#: The joint posterior a decision needs: a strip (one line, a sorter crop), a frame where two or
#: more lines read the serial (two printed copies), a frame where one line did.
MIN_POSTERIOR_STRIP = 0.9
MIN_POSTERIOR_COPIES = 0.9
MIN_POSTERIOR_SINGLE = 0.985
#: Never decide while serials of the other parity hold this much of the posterior.
MAX_FLIP = 0.05
#: ``auto``: never decide while serials of another currency hold this much.
MAX_OTHER_CURRENCY = 0.05
#: RUB: the two letters are confirmed when their posterior given the digits reaches this.
MIN_LETTERS = 0.9


def _currencies(reader) -> list[str]:
    return list(S.CURRENCIES) if reader.currency == "auto" else [reader.currency]


def _rescale(p: float, p0: float, min_conf: float) -> float:
    """The posterior ``p`` as the reader's confidence: ``p0`` maps to ``min_conf``."""
    if p >= p0:
        return min_conf + (1 - min_conf) * (p - p0) / max(1e-9, 1 - p0)
    return min_conf * p / max(1e-9, p0)


def net_decide(reader, lines: list[np.ndarray], strip: bool):
    """The verdict for ``lines`` (H×W×3 BGR uint8 upright line images; one for a strip)."""
    from companion.vision.notes import Evidence, NoteRead

    currencies = _currencies(reader)
    turned = [cv2.rotate(l, cv2.ROTATE_180) for l in lines]
    probs = reader.net.probs(list(lines) + turned)
    n = len(lines)
    fits: list[SR.LineFit] = []
    for i in range(n):
        best = None
        for k, pr in ((0, probs[i]), (1, probs[n + i])):
            if not strip and not SR.looks_like_text(pr):
                continue
            f = SR.fit_line(pr, currencies, line=i, turned=bool(k))
            if f.cands and (best is None or f.gap < best.gap):
                best = f
        if best is not None:
            fits.append(best)
    j = SR.joint(fits)
    if j.serial is None:
        return NoteRead(None, None, 0.0, "no_serial")
    cur = j.currency
    match = S.SerialMatch(cur, j.serial, 0, False, cur == "EUR")
    ev = [Evidence(j.serial, j.posterior, "serialnet", match, i, i) for i in j.support]
    for f in fits:
        if f.line in j.contradict and f.best:
            m = S.SerialMatch(f.currency_of[f.best], f.best, 0, False, f.currency_of[f.best] == "EUR")
            ev.append(Evidence(f.best, f.posterior()[f.best], "serialnet", m, f.line, f.line))
    p0 = MIN_POSTERIOR_STRIP if strip else (
        MIN_POSTERIOR_COPIES if len(j.support) >= 2 else MIN_POSTERIOR_SINGLE)
    conf = _rescale(j.posterior, p0, reader.min_confidence)

    def abstain(reason: str):
        return NoteRead(None, None, round(min(conf, reader.min_confidence - 0.01), 3), reason,
                        j.serial, ev)

    if j.contradict:
        return abstain("copies_disagree" if j.close else "several_notes")
    if reader.currency == "auto" and j.other_currency >= MAX_OTHER_CURRENCY:
        return abstain("ambiguous_currency")
    if j.flip >= MAX_FLIP or j.posterior < p0 or not j.support:
        return abstain("low_confidence")
    letters_ok = cur != "RUB" or j.letters >= MIN_LETTERS
    return NoteRead(j.serial, cur, round(conf, 3), None, j.serial, ev, letters_ok)
