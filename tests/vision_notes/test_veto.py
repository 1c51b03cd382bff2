"""The veto on a photo the serial recogniser decided alone (``NoteReader._vetoed``): PP-OCR's plain
reading of the same lines, with a fake engine standing in for its recognition."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import notes as N
from companion.vision.note_read import NoteRead
from companion.vision.ocr import LineRead


class _Engine:
    """Reads every line as the next text given (score 0.9)."""

    def __init__(self, *texts: str):
        self.texts = list(texts)

    def read_lines(self, imgs):
        return [LineRead(self.texts[i % len(self.texts)], 0.9) for i in range(len(imgs))]


def _veto(currency: str, decided: NoteRead, *texts: str) -> NoteRead:
    reader = N.NoteReader(currency=currency)
    reader._engine = _Engine(*texts)
    line = np.full((32, 200, 3), 255, np.uint8)
    return reader._vetoed(decided, [(line, False), (line, False)])


USD = NoteRead("C53301275C", "USD", 0.99, None, "C53301275C")
JPY = NoteRead("D030847F", "JPY", 0.99, None, "D030847F")
RUB = NoteRead("АК2144841", "RUB", 0.99, None, "АК2144841")


def test_a_dollar_serial_stands_only_when_pp_ocr_reads_it_too():
    # the recogniser never saw a real dollar serial: PP-OCR reading nothing that fits is not
    # enough (a GIF copy of a real scan was read C53301275C for C53381275C at 0.984)
    assert not _veto("USD", USD, "OS3381275C").decided
    assert _veto("USD", USD, "OS3381275C", "C53301275C").decided


def test_a_serial_pp_ocr_reads_as_another_stays_vetoed():
    assert _veto("USD", USD, "C53381275C").reason == "low_confidence"


def test_currencies_with_real_training_crops_need_no_agreement():
    assert "JPY" not in N.CONFIRM_CURRENCIES and "RUB" not in N.CONFIRM_CURRENCIES
    assert _veto("JPY", JPY, "FEDERAL RESERVE").decided
    # a rouble serial is compared by its digits (PP-OCR reads no Cyrillic)
    assert _veto("RUB", RUB, "AK 2144841").decided


def test_under_auto_a_valid_serial_of_another_currency_is_a_disagreement():
    # a real dollar scan was read as the yen serial D030847F at 0.994 under auto; PP-OCR's
    # readings fit the dollar format as another serial
    assert not _veto("auto", JPY, "D03084747F").decided
    assert _veto("auto", JPY, "D030847F").decided


@pytest.mark.parametrize("currency", ["USD", "INR"])
def test_the_confirmation_rule_covers_print_never_trained_on(currency):
    assert currency in N.CONFIRM_CURRENCIES
