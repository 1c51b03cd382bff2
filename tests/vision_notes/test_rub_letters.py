"""A rouble serial's letters with the project's recogniser (companion/vision/notes_net.py,
serialread.py): the digits decide (the parity), the letters are settled apart from the
recogniser's posterior and the glyph matcher together (letter_choice), and a wrong letter the
matcher opposes is never confirmed however sure the recogniser is."""

from __future__ import annotations

import math

from companion.vision import notes_net as NN
from companion.vision import serialread as SR
from companion.vision import serials as S

LETTERS = sorted(S.CYRILLIC_SERIAL_LETTERS)


def _scores(prefer: str, margin: float) -> dict[str, float]:
    """Glyph correlations with ``prefer`` ahead of every other letter by ``margin``."""
    return {c: (0.8 if c == prefer else 0.8 - margin) for c in LETTERS}


def test_a_wrong_letter_the_glyph_matcher_opposes_is_never_confirmed():
    # a calibration scene read ЕВ… for ЕА… at 0.999; the matcher preferred А by ≈ 0.4
    shares = {"ЕВ6379621": 0.999, "ЕА6379621": 0.001}
    serial, ok = NN.letter_choice("ЕВ6379621", shares, [_scores("Е", 0.3), _scores("А", 0.4)])
    assert not (ok and serial == "ЕВ6379621")


def test_right_letters_at_a_low_posterior_are_confirmed_when_the_matcher_backs_them():
    shares = {"ТЛ7026992": 0.6, "ТП7026992": 0.3, "ГЛ7026992": 0.1}
    serial, ok = NN.letter_choice("ТЛ7026992", shares, [_scores("Т", 0.3), _scores("Л", 0.3)])
    assert (serial, ok) == ("ТЛ7026992", True)


def test_letters_split_between_the_recogniser_and_the_matcher_are_not_confirmed():
    # the recogniser is fairly sure of Н, the matcher of М by a small margin: no one decides
    shares = {"НС4608340": 0.9, "МС4608340": 0.1}
    _, ok = NN.letter_choice("НС4608340", shares, [_scores("М", 0.02), _scores("С", 0.3)])
    assert not ok


def test_without_a_glyph_opinion_the_recogniser_alone_never_confirms_letters():
    # wrong letters were read at 0.988 and 0.999 on calibration scenes: the table rescans (or
    # PP-OCR's letter sources confirm them, notes.py)
    shares = {"АК2444841": 0.999, "АХ2444841": 0.001}
    assert NN.letter_choice("АК2444841", shares, [None, None]) == ("АК2444841", False)
    assert NN.letter_choice("АК2444841", shares, [_scores("А", 0.3), None])[1] is False


def _fit(line: int, cands: dict[str, float]) -> SR.LineFit:
    return SR.LineFit(probs=[], cands=cands, currency_of={s: "RUB" for s in cands},
                      free=max(cands.values()), gap=0.0, line=line)


def test_two_copies_that_agree_on_the_digits_both_support_a_rouble_serial():
    # each copy is unsure of the first letter (Н or М), in opposite directions: the digits are
    # read alike on both, so both copies support them and the letters are settled apart
    a, b = "НС4608340", "МС4608340"
    fits = [_fit(0, {a: math.log(0.92), b: math.log(0.08)}),
            _fit(1, {a: math.log(0.2), b: math.log(0.8)})]
    j = SR.joint(fits, rub_by_digits=True)
    assert j.serial in (a, b)
    assert sorted(j.support) == [0, 1] and not j.contradict
    assert j.digits > 0.999 and j.letters < 0.9


def test_copies_with_other_digits_still_contradict():
    a, b = "НС4608340", "НС4608341"
    fits = [_fit(0, {a: math.log(1 - 1e-6), b: math.log(1e-6)}),
            _fit(1, {a: math.log(1e-5), b: math.log(1 - 1e-5)})]
    j = SR.joint(fits, rub_by_digits=True)
    assert j.contradict and j.close  # copies_disagree


def test_under_auto_a_rouble_reading_is_not_summed_over_its_letters():
    # another note's line forced into the rouble format spreads its letters over many pairs:
    # under auto the letters are not summed out (the real USD scans were decided as roubles)
    a, b = "НС4608340", "МС4608340"
    fits = [_fit(0, {a: math.log(0.92), b: math.log(0.08)}),
            _fit(1, {a: math.log(0.2), b: math.log(0.8)})]
    j = SR.joint(fits)
    assert j.support == [0] and j.posterior < 0.9


def test_glyph_correlations_too_low_to_be_glyphs_are_no_opinion():
    # a held-out scene: the retrained model read НО… for МО… at 0.994, "backed" by a best
    # correlation of 0.43 (a glyph cut wrongly); that is no opinion, and no confirmation
    low = {c: 0.3 for c in LETTERS} | {"Н": 0.43, "М": 0.40}
    shares = {"НО9447834": 0.994, "МО9447834": 0.0004}
    assert NN.letter_choice("НО9447834", shares, [low, _scores("О", 0.2)])[1] is False


# PP-OCR's letter sources (note_decide.PpocrDecision._rub_letters): RapidOCR reads Latin
# look-alikes, so its letter backs (or vetoes) a Cyrillic one only when it is a true Latin twin.

def _ppocr_letters(rapid: dict[str, float], tess: list[str], glyphs: list[dict[str, int]]):
    from collections import Counter

    from companion.vision.note_decide import PpocrDecision

    t = [m for s in tess for m in S.match(s, "RUB")]
    return PpocrDecision._rub_letters("2048877", Counter(rapid), t, [Counter(g) for g in glyphs])


def test_rapidocr_n_read_for_a_printed_p_does_not_back_i():
    # RapidOCR's "n" (mapped И; it stands for И, П and Л alike) and one glyph vote for И on a
    # printed МП: only one real source, so the guess is not confirmed (a JPEG-8 rendered note
    # was confirmed МИ this way)
    serial, confirmed = _ppocr_letters({"МИ": 0.95}, [], [{"М": 2}, {"И": 1}])
    assert serial == "МИ2048877"
    assert not confirmed


def test_a_latin_twin_read_by_rapidocr_still_backs_its_letter():
    serial, confirmed = _ppocr_letters({"МН": 0.95}, [], [{"М": 2}, {"Н": 1}])
    assert (serial, confirmed) == ("МН2048877", True)


def test_two_cyrillic_aware_sources_confirm_a_letter_rapidocr_cannot_back():
    serial, confirmed = _ppocr_letters({"МИ": 0.95}, ["МП2048877"], [{"М": 2}, {"П": 1}])
    assert (serial, confirmed) == ("МП2048877", True)
