"""Serial formats, EUR check rule, format-only corrections, parity helpers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from companion.vision import serials as S
from companion.vision.render_notes import random_serial


def test_canonical_and_parity_of_rub_label():
    assert S.canonical("Ак 2444841") == "АК2444841"
    assert S.last_digit("АК2444841") == 1
    assert S.parity("АК2444841") == "odd"
    assert S.parity("C53381275C") == "odd"      # USD ends in a letter: the digit before it
    assert S.parity("EA0736204357") == "odd"
    assert S.parity("CD1518438E") == "even"
    with pytest.raises(ValueError):
        S.last_digit("ABC")


@pytest.mark.parametrize("serial", ["ZB5458244919", "M23128416391", "EA0736204357",
                                    "V23197584928", "X01671040748"])
def test_eur_check_rule_accepts_real_serials(serial):
    assert S.eur_check(serial)
    assert S.validate(serial, "EUR")


def test_eur_check_rejects_any_single_digit_change():
    serial = "ZB5458244919"
    for i in range(2, len(serial)):
        for d in "0123456789":
            if d == serial[i] or abs(int(d) - int(serial[i])) == 9:
                continue
            bad = serial[:i] + d + serial[i + 1:]
            assert not S.eur_check(bad), bad
            # only a reading that needed a format correction (B→8) may still pass the check
            assert all(m.corrections > 0 for m in S.match(bad, "EUR")), bad


@pytest.mark.parametrize("text,currency,serial", [
    ("Ак 2444841", "RUB", "АК2444841"),
    ("AK 2444841", "RUB", "АК2444841"),      # Latin look-alikes become Cyrillic
    ("C53381275C", "USD", "C53381275C"),
    ("5HA 852592", "INR", "5HA852592"),
    ("82E 827702", "INR", "82E827702"),
    ("CD1518438E", "KRW", "CD1518438E"),
    ("AW503378D", "JPY", "AW503378D"),
    ("S767493J", "JPY", "S767493J"),
])
def test_formats(text, currency, serial):
    ms = S.match(text, currency)
    assert ms and ms[0].serial == serial and ms[0].corrections == 0
    assert S.match(text, "auto")[0].serial == serial


def test_format_corrections_only_by_position():
    m = S.match("EE33114O0A", "KRW")[0]          # O in a digit position → 0
    assert m.serial == "EE3311400A" and m.corrections == 1
    m = S.match("C5338127SC", "USD")[0]          # S in the parity-digit position → 5, flagged
    assert m.serial == "C53381275C" and m.digit_corrected
    assert not S.match("C533812?5C", "USD")      # an unreadable digit is never guessed
    assert not S.match("АК244484", "RUB")        # a missing digit is not invented


def test_rub_needs_two_letters_and_seven_digits():
    assert not S.match("А 2444841", "RUB")
    assert not S.match("АКБ2444841", "RUB")
    assert not S.match("AK24448410", "RUB")


def test_unknown_currency_raises():
    with pytest.raises(ValueError):
        S.match("AB1234567", "GBP")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(S.CURRENCIES), st.integers(0, 2**32 - 1), st.sampled_from(["even", "odd"]))
def test_random_serials_validate_with_parity(currency, seed, parity):
    s = random_serial(currency, random.Random(seed), parity)
    assert S.validate(s, currency), s
    assert S.parity(s) == parity


def test_no_trim_of_a_digit_and_no_euro_shaped_text_read_as_another_currency():
    """A euro serial read under USD must not become a USD serial by dropping its last digit and
    reading a 5 as S (the parity would be the dropped digit's neighbour's); a euro-shaped text
    that fails the check fits nothing under auto (it is a misread euro serial)."""
    assert S.match("EA0736204357", "USD", allow_trim=True) == []
    assert S.match("EA0736204358", "auto", allow_trim=True) == []  # check fails
    assert [m.serial for m in S.match("EA0736204357", "auto", allow_trim=True)] == ["EA0736204357"]
    # a border mark (not a digit, or a stroke-like 1) may still be dropped, with no other change
    assert [m.serial for m in S.match("C53381275C1", "USD", allow_trim=True)] == ["C53381275C"]
    assert [m.serial for m in S.match("|C53381275C", "USD", allow_trim=True)] == ["C53381275C"]
    assert S.match("C53381275C7", "USD", allow_trim=True) == []
    assert S.match("C5338I275C1", "USD", allow_trim=True) == []  # a trim and a correction
