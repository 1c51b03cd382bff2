"""A conflict found at the coarse detection pass (two valid serials on different lines) is looked
at again at the finer pass: the finer pass may decide only when it read again every line that
carried a conflicting serial (`NoteReader.read_frame`, `note_lines.reread`).

The passes are stubbed here (which lines each finds, what each concludes) so that the rule itself
is what the test exercises; the real pipeline's two-note scenes are in test_notes.py and the
benchmark's hard negatives.
"""

from __future__ import annotations

import numpy as np

from companion.vision import notes as N
from companion.vision import note_lines as NL
from companion.vision import serials as S


def quad(x0, y0, x1, y1):
    return np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def line(q):
    return NL.Line(np.zeros((10, 40, 3), np.uint8), q, False)


def ev(serial, currency, line_id, score=0.6):
    return N.Evidence(serial, score, "rapidocr", S.SerialMatch(currency, serial, 0, False, False),
                      line_id)


SERIAL = "V23197584928"  # a valid EUR serial
OTHER = "B26785292B"     # what small print read at the coarse scale fits under USD


def run(monkeypatch, passes):
    """``passes``: per detection pass, (candidate lines, verdict)."""
    reader = N.NoteReader(currency="auto", second_opinion=False)
    calls = iter(passes)
    current: list = []

    def candidates(frame, side, offset=(0, 0)):
        cands, res = next(calls)
        current[:] = [res]
        return cands

    monkeypatch.setattr(reader, "_candidates", candidates)
    monkeypatch.setattr(reader, "_read_lines", lambda cands: current[0])
    frame = np.zeros((960, 1280, 3), np.uint8)
    return reader.read_frame(frame)


def coarse_conflict():
    lines = [line(quad(100, 100, 300, 130)), line(quad(600, 500, 800, 530))]
    res = N.NoteRead(None, None, 0.0, "several_notes", SERIAL,
                     [ev(SERIAL, "EUR", 0), ev(OTHER, "USD", 1)])
    return lines, res


def decided(lines_read):
    return N.NoteRead(SERIAL, "EUR", 0.99, None, SERIAL,
                      [ev(SERIAL, "EUR", 0, 0.999), ev(SERIAL, "EUR", 1, 0.999)])


def test_the_finer_pass_decides_when_it_read_the_conflicting_line_again(monkeypatch):
    fine = [line(quad(98, 98, 305, 133)), line(quad(590, 495, 810, 535))]
    res = run(monkeypatch, [coarse_conflict(), (fine, decided(fine))])
    assert res.decided and res.serial == SERIAL


def test_the_coarse_conflict_stands_when_the_finer_pass_missed_that_line(monkeypatch):
    # the finer pass decided from the first note's lines but never looked where the second
    # serial was read: the conflict is not explained away
    fine = [line(quad(98, 98, 305, 133)), line(quad(100, 200, 300, 230))]
    res = run(monkeypatch, [coarse_conflict(), (fine, decided(fine))])
    assert not res.decided and res.reason == "several_notes"


def test_a_conflict_at_both_passes_abstains(monkeypatch):
    lines, res0 = coarse_conflict()
    fine = [line(quad(98, 98, 305, 133)), line(quad(590, 495, 810, 535))]
    both = N.NoteRead(None, None, 0.0, "several_notes", SERIAL,
                      [ev(SERIAL, "EUR", 0, 0.99), ev(OTHER, "USD", 1, 0.99)])
    res = run(monkeypatch, [(lines, res0), (fine, both)])
    assert not res.decided and res.reason == "several_notes"


def test_reread_needs_half_of_the_line_covered():
    q = quad(0, 0, 100, 20)
    assert NL.reread(q, [line(quad(40, 0, 140, 20))])       # 60 % covered
    assert not NL.reread(q, [line(quad(60, 0, 160, 20))])   # 40 % covered
    assert not NL.reread(q, [])
