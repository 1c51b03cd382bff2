"""The engine checks each serial against the serial format of the table's currency (seed 000:
a note is known by its serial; RULINGS §1), leniently only for a currency it does not know."""

from __future__ import annotations

import pytest

from companion.games.skull import SkullGame, reason_message, validate_note_set
from companion.errors import IllegalAction
from companion.i18n import M, render

GOOD = "АК2444852,АК2444854,АК2444856"


@pytest.mark.parametrize("serial", ["АК24448O1", "A1", "АК244485", "АКК2444851", "1К24448510"])
def test_rub_table_rejects_a_serial_off_the_rub_shape(serial):
    g = SkullGame(["Аня", "Борис"])
    with pytest.raises(IllegalAction) as err:
        g.apply(f"table register 1 {serial},{GOOD} ?")
    assert err.value.reason == "serial_format"
    assert serial in err.value.detail and "two letters and seven digits" in err.value.detail
    assert g.registered[1] is None  # state untouched
    msg = render(reason_message("serial_format", g.options), "ru")
    capitals = render(M("A serial number may hold only capital letters and digits, with no spaces."), "ru")
    assert render(M("two letters and seven digits"), "ru") in msg and capitals not in msg


def test_rub_table_accepts_latin_lookalike_letters_and_the_seed_shape():
    g = SkullGame(["Аня", "Борис"])
    g.apply(f"table register 1 AK2444851,{GOOD} ?")  # Latin A and K print like А and К
    assert g.registered[1][0] == "АК2444851"  # stored as the note reader spells it (Cyrillic)
    assert g.history[-1].serials[0] == "АК2444851"


def _two_seats_registered(first: str, second: str) -> SkullGame:
    """Seat 0 registers with ``first`` as its skull, seat 1 a plain Cyrillic set; seat 0 deals and
    both place one note; seat 0 bids 1, seat 1 passes: the dealer flips next."""
    g = SkullGame(["Аня", "Борис"])
    g.apply(f"table register 0 {first},ВЕ1000002,ВЕ1000004,ВЕ1000006 ?")
    g.apply(f"table register 1 {second},МН1000002,МН1000004,МН1000006 ?")
    g.apply("table dealer 0")
    g.apply("0 place")
    g.apply("1 place")
    g.apply("0 bid 1")
    g.apply("1 pass")
    assert g.phase == "reveal"
    return g


@pytest.mark.parametrize("typed, read", [("TX1000001", "ТХ1000001"), ("ТХ1000001", "TX1000001")])
def test_a_note_typed_in_one_alphabet_is_the_note_read_in_the_other(typed, read):
    """A note registered by hand with Latin look-alikes (or in Cyrillic) is the same note when
    the camera (or a hand) gives the other spelling: the flip finds it, it is not 'unregistered'."""
    g = _two_seats_registered(typed, "МН1000001")
    g.apply(f"table flip 0 {read}")  # the dealer's own note: his skull
    assert g.outcome == "failure"
    assert g.faceup[0] == ["ТХ1000001"]  # one spelling, the reader's, whatever was typed


def test_one_note_cannot_be_registered_twice_in_two_alphabets():
    g = SkullGame(["Аня", "Борис"])
    g.apply(f"table register 0 АК2444851,{GOOD} ?")
    with pytest.raises(IllegalAction) as err:  # the same note typed with Latin A and K
        g.apply("table register 1 AK2444851,МН1000002,МН1000004,МН1000006 ?")
    assert err.value.reason == "serial_taken" and g.registered[1] is None
    with pytest.raises(IllegalAction) as err:  # twice in one set
        g.apply("table register 1 ТХ1000001,TX1000001,МН1000004,МН1000006 ?")
    assert err.value.reason == "duplicate_serial" and g.registered[1] is None


def test_other_known_currency_checks_its_own_shape():
    assert [c for c, _ in validate_note_set(["C53381275C", "C53381276C", "C53381278C", "C53381270C"],
                                            {"currency": "USD"})] == []
    codes = [c for c, _ in validate_note_set(["АК2444851", "C53381276C", "C53381278C", "C53381270C"],
                                             {"currency": "USD"})]
    assert codes[0] == "serial_format"


def test_a_currency_without_a_known_serial_format_is_refused():
    """A typo (RUR) or a currency the reader has no format for would switch the serial check and
    the one-note-one-spelling rule off without a word (found: one note registered twice, once in
    Cyrillic and once in Latin, on a RUR table): refused, naming the currencies known."""
    for bad in ("XTS", "RUR", "GBP"):
        with pytest.raises(IllegalAction) as err:
            SkullGame(["Аня", "Борис"], {"currency": bad})
        assert err.value.reason == "bad_option" and "RUB, EUR, USD, INR, KRW, JPY" in err.value.detail


@pytest.mark.parametrize("serial, letter", [("ЁА2444851", "Ё"), ("АЁ2444851", "Ё"), ("ЙК2444851", "Й"),
                                            ("ЪК2444851", "Ъ")])
def test_a_letter_no_rouble_serial_uses_is_named(serial, letter):
    """«Ё» (or Й Ъ Ы Ь) typed in a rouble serial: the Bank of Russia never prints it; the refusal
    names the letter and the serial (facts), not only the shape."""
    from companion.dashboard.reasons import reason_words
    from tests.wording import said

    g = SkullGame(["Аня", "Борис"])
    with pytest.raises(IllegalAction) as err:
        g.apply(f"table register 1 {serial},{GOOD} ?")
    assert err.value.reason == "serial_format"
    assert err.value.facts == {"serial": serial, "letter": letter, "currency": "RUB"}
    told = reason_words("serial_format", "skull", g.options, err.value.facts)
    assert said(told) == (
        "In «%(serial)s» the letter «%(letter)s» is never used in banknote serials: type the letter the note shows "
        "(a %(currency)s serial is %(shape)s, e.g. %(example)s).",
        {"serial": serial, "letter": letter, "currency": "RUB", "shape": "two letters and seven digits",
         "example": "АК2444841"})


def test_a_flipped_serial_with_yo_names_the_letter_and_a_plain_misfit_keeps_the_shape():
    g = _two_seats_registered("ТХ1000001", "МН1000001")
    with pytest.raises(IllegalAction) as err:
        g.apply("table flip 0 ЁХ1000001")
    assert err.value.reason == "serial_format" and err.value.facts["letter"] == "Ё"
    with pytest.raises(IllegalAction) as err:
        g.apply("table flip 0 ТХ10000O1")
    assert err.value.reason == "serial_format" and err.value.facts == {}
