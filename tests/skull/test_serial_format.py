"""The engine checks each serial against the serial format of the table's currency (seed 000:
a note is known by its serial; RULINGS §1), leniently only for a currency it does not know."""

from __future__ import annotations

import pytest

from companion.games.skull import SkullGame, reason_message, validate_note_set
from companion.errors import IllegalAction

GOOD = "АК2444852,АК2444854,АК2444856"


@pytest.mark.parametrize("serial", ["АК24448O1", "A1", "АК244485", "АКК2444851", "1К24448510"])
def test_rub_table_rejects_a_serial_off_the_rub_shape(serial):
    g = SkullGame(["Аня", "Борис"])
    with pytest.raises(IllegalAction) as err:
        g.apply(f"table register 1 {serial},{GOOD} ?")
    assert err.value.reason == "serial_format"
    assert serial in err.value.detail and "two letters and seven digits" in err.value.detail
    assert g.registered[1] is None  # state untouched
    msg = reason_message("serial_format", "ru", g.options)
    assert "две буквы и семь цифр" in msg and "заглавные" not in msg


def test_rub_table_accepts_latin_lookalike_letters_and_the_seed_shape():
    g = SkullGame(["Аня", "Борис"])
    g.apply(f"table register 1 AK2444851,{GOOD} ?")  # Latin A and K print like А and К
    assert g.registered[1][0] == "AK2444851"


def test_other_known_currency_checks_its_own_shape():
    assert [c for c, _ in validate_note_set(["C53381275C", "C53381276C", "C53381278C", "C53381270C"],
                                            {"currency": "USD"})] == []
    codes = [c for c, _ in validate_note_set(["АК2444851", "C53381276C", "C53381278C", "C53381270C"],
                                             {"currency": "USD"})]
    assert codes[0] == "serial_format"


def test_unknown_currency_keeps_the_lenient_rule():
    g = SkullGame(["Аня", "Борис"], {"currency": "XTS"})
    g.apply("table register 1 S1R0002,S1R0004,S1R0006,S1K0001 ?")
    assert g.registered[1] is not None
    with pytest.raises(IllegalAction) as err:
        g.apply("table register 0 s0r0002,S0R0004,S0R0006,S0K0001 ?")
    assert err.value.reason == "bad_serial"
