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

#: The joint posterior a decision needs: a strip (one line, a sorter crop), a frame (where at
#: least two lines, the two printed copies, must read the serial).
MIN_POSTERIOR_STRIP = 0.99
MIN_POSTERIOR_COPIES = 0.97
#: Never decide while serials of the other parity hold this much of the posterior.
MAX_FLIP = 0.05
#: ``auto``: never decide while serials of another currency hold this much.
MAX_OTHER_CURRENCY = 0.05
#: A second engine's decision (PP-OCR) counts when the recogniser gives its serial at least this
#: share (measured on the calib split: ``docs/vision-notes.md``).
MIN_SHARE_CONFIRMED = 0.05
#: ... or when the recogniser has no opinion: its best serial holds less than this share (or
#: no serial fits its reading at all).
NET_UNSURE = 0.3
#: The recogniser's abstentions after which the second engine reads: want of certainty and
#: serials of several currencies.
SECOND_ENGINE_REASONS = ("low_confidence", "no_serial", "ambiguous_currency")
#: ... of which these need the recogniser's own share of the second engine's serial (it holds
#: several serials: "no opinion" does not apply). After the recogniser's line conflicts
#: (``copies_disagree``, ``several_notes``) the second engine does not read: allowing it let a
#: rendered hard negative be decided in the benchmark.
SHARE_ONLY_REASONS = ("ambiguous_currency",)


def second_engine_counts(net_read, other) -> bool:
    """Whether a second engine's verdict ``other`` may stand where the recogniser's
    ``net_read`` abstained for want of certainty (never after a conflict it found)."""
    if not other.decided or net_read.reason not in SECOND_ENGINE_REASONS:
        return False
    shares = net_read.shares
    if shares.get(other.serial, 0.0) >= MIN_SHARE_CONFIRMED:
        return True
    # no opinion of its own; never under ambiguous_currency, where it holds several serials
    # (a USD note's GIF copy: PP-OCR read the KRW-shaped OS3381275C, issue 20 item 8)
    return net_read.reason not in SHARE_ONLY_REASONS and max(shares.values(), default=0.0) < NET_UNSURE


#: RUB: the two letters are confirmed when their posterior given the digits reaches this.
MIN_LETTERS = 0.98


#: Renderings of each line averaged by the decoder (test-time augmentation): ``as_is``, ``ink``
#: (the printed background flattened, :func:`companion.vision.notes._ink_on_flat_paper`),
#: ``blur`` (3×3 Gaussian).
STRIP_RENDERINGS = ("as_is", "ink")
LINE_RENDERINGS = ("as_is",)


def _render(line: np.ndarray, name: str) -> np.ndarray:
    if name == "as_is":
        return line
    from companion.vision.notes import _ink_on_flat_paper

    gray = cv2.cvtColor(line, cv2.COLOR_BGR2GRAY)
    if name == "ink":
        return _ink_on_flat_paper(gray, 0.25 * gray.shape[0])
    return cv2.GaussianBlur(gray, (3, 3), 0)


def _glyphs_object(serial: str, lines: list[np.ndarray]) -> bool:
    """Whether the glyph matcher (:mod:`companion.vision.letters`, a Cyrillic-aware source
    independent of the recogniser) prefers another letter than ``serial``'s at either position
    on any of the ``lines`` that read it (a vote with margin ≥ 0.05; no opinion objects to
    nothing). Upright lines; a line is tried as it is and turned round."""
    from companion.vision.letters import shared_matcher
    from companion.vision.notes import _even_glyph_heights

    try:
        matcher = shared_matcher()
    except FileNotFoundError:
        return False
    for line in lines:
        for way in (line, cv2.rotate(line, cv2.ROTATE_180)):
            votes = matcher.rub_letters(_even_glyph_heights(way))
            if votes is None:
                continue
            if any(v.margin >= 0.05 and v.letter != serial[k] for k, v in enumerate(votes)):
                return True
            break
    return False


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
    names = STRIP_RENDERINGS if strip else LINE_RENDERINGS
    R = len(names)
    n = len(lines)
    # a strip (a sorter crop) is read turned round only when nothing fits upright (its turned
    # renderings are then recognised); a photo's lines are recognised both ways up in one batch
    ways = (0,) if strip else (0, 1)
    images = []
    for l in lines:
        for k in ways:
            way = cv2.rotate(l, cv2.ROTATE_180) if k else l
            images += [_render(way, nm) for nm in names]
    probs = reader.net.probs(images)
    fits: list[SR.LineFit] = []
    for i in range(n):
        best = None
        for k in (0, 1):
            if strip and k:
                if best is not None:
                    break
                pr = reader.net.probs([_render(cv2.rotate(lines[i], cv2.ROTATE_180), nm) for nm in names])
            else:
                pr = probs[(len(ways) * i + k) * R:(len(ways) * i + k + 1) * R]
            if not strip and not SR.looks_like_text(pr[0]):
                continue
            f = SR.fit_line(pr, currencies, line=i, turned=bool(k))
            # the way up whose best serial is likelier: digits read turned round still fit a
            # format (0 1 2 5 6 8 9 turn into digits), with a small gap but a lower likelihood
            if f.fits and (best is None or max(f.cands.values()) > max(best.cands.values())):
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
    p0 = MIN_POSTERIOR_STRIP if strip else MIN_POSTERIOR_COPIES
    conf = _rescale(j.posterior, p0, reader.min_confidence)

    def abstain(reason: str):
        return NoteRead(None, None, round(min(conf, reader.min_confidence - 0.01), 3), reason,
                        j.serial, ev, shares=j.shares)

    if j.contradict:
        return abstain("copies_disagree" if j.close else "several_notes")
    if reader.currency == "auto" and j.other_currency >= MAX_OTHER_CURRENCY:
        return abstain("ambiguous_currency")
    if j.misread:
        # a reading that fails the check rule is likelier: a misread (or a fake), never corrected
        # (after the conflicts: a misread must not turn ambiguous_currency, where the second
        # engine needs the recogniser's share, into low_confidence, where "no opinion" counts —
        # the usd1_000 GIF of issue 20 item 8 was decided as OS3381275C that way)
        return abstain("low_confidence")
    if j.flip >= MAX_FLIP or j.posterior < p0 or not j.support:
        return abstain("low_confidence")
    if not strip and len(j.support) < 2:
        # one printed copy read in a photo: never enough for the recogniser alone (a legend or
        # a plate number on another note fits a format now and then: a USD note's GIF copy
        # read a RUB serial from one line); the second engine must agree (notes.py)
        return abstain("low_confidence")
    letters_ok = cur != "RUB" or (j.letters >= MIN_LETTERS and not _glyphs_object(
        j.serial, [lines[i] for i in j.support if i < len(lines)]))
    return NoteRead(j.serial, cur, round(conf, 3), None, j.serial, ev, letters_ok,
                    turned=frozenset(f.line for f in fits if f.turned))
