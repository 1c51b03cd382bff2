"""The euro check rule in the recogniser's decoder (companion/vision/serialread.py): it restricts
what a serial may be, but never turns a misread into a decision — when a reading that fails the
rule (a misread or a fake) is likelier than every valid serial, the reader abstains."""

from __future__ import annotations

import numpy as np

from companion.vision import render_notes as RN
from companion.vision import serialnet as SN
from companion.vision import serialread as SR
from companion.vision import serials as S

K = len(SN.CHARSET) + 2


def _probs(text: str, alternatives: dict[int, tuple[str, float]]) -> np.ndarray:
    """CTC probabilities (T×K) reading ``text`` one character a step, a blank between;
    ``alternatives[i] = (ch, p)`` gives character ``i`` a rival ``ch`` with probability ``p``."""
    rows = []
    for i, ch in enumerate(text):
        row = np.full(K, 1e-6, np.float32)
        alt = alternatives.get(i)
        row[SN.CHARSET.index(ch) + 1] = 1.0 - (alt[1] if alt else 0.0)
        if alt:
            row[SN.CHARSET.index(alt[0]) + 1] = alt[1]
        rows.append(row)
        blank = np.full(K, 1e-6, np.float32)
        blank[0] = 1.0
        rows.append(blank)
    p = np.stack(rows)
    return p / p.sum(axis=1, keepdims=True)


def test_a_reading_that_fails_the_check_is_not_corrected_into_a_serial():
    printed = "MW8593582697"  # fails the check by one (a fake: the last digit moved by one)
    assert not S.eur_check(printed) and S.eur_check("MM8593582697")
    # the recogniser reads W, with some doubt towards M (the rendered hard negative of
    # bench/notes.py: the check-digit restriction alone made it MM… at share 1.0)
    fit = SR.fit_line(_probs(printed, {1: ("M", 0.3)}), ["EUR"])
    assert fit.fits and fit.best == "MM8593582697"  # the only valid serial near the reading
    j = SR.joint([fit])
    assert j.misread, (j.serial, j.posterior)


def test_a_clean_reading_of_a_valid_serial_still_decides():
    serial = "MM8593582697"
    fit = SR.fit_line(_probs(serial, {1: ("W", 0.02)}), ["EUR"])
    j = SR.joint([fit, SR.fit_line(_probs(serial, {}), ["EUR"], line=1)])
    assert j.serial == serial and not getattr(j, "misread", False) and j.posterior > 0.97


def test_the_rendered_fake_euro_is_not_decided(reader_for):
    """bench/notes.py's hard negative: a euro note printed MW8593582697 (check broken by one
    digit) was decided as MM8593582697."""
    note = RN.render_note(None, "EUR", seed=79_001, fake_text="MW8593582697")
    scene = RN.render_scene([note], seed=79_101)
    r = reader_for("EUR").read(scene.image)
    assert not r.decided, (r.serial, r.confidence)
    r = reader_for("auto").read(scene.image)
    assert not r.decided, (r.serial, r.confidence)
