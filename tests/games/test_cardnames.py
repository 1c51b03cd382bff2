"""A playing card as a person reads and types it (companion.games.cardnames): Russian pages write
the picture ranks with the Russian decks' index letters Т К Д В, English ones A K Q J; either is
read back as the same card code."""

from __future__ import annotations

import pytest

from companion.dashboard.manualentry import normalise_cards
from companion.games.cardnames import card_code, card_label, card_words, cards_label
from companion.games.lottery.cards import FULL_DECK
from companion.i18n import M, render


@pytest.mark.parametrize("code, ru, en", [
    ("AS", "Т♠", "A♠"), ("KH", "К♥", "K♥"), ("QH", "Д♥", "Q♥"), ("JD", "В♦", "J♦"),
    ("10C", "10♣", "10♣"), ("7S", "7♠", "7♠"), ("2D", "2♦", "2♦"),
])
def test_a_card_is_written_with_each_language_s_rank_letters(code, ru, en):
    assert card_label(code) == {"ru": ru, "en": en}
    assert (card_words(code, "ru"), card_words(code, "en")) == (ru, en)


def test_what_is_not_a_rank_and_suit_code_stays_as_it_is():
    """The joker (its words are the catalogue's), a picture deck's kind, a value of 6100."""
    for text in ("JK", "mushroom", "500", "INF", "Q", "11H"):
        assert card_label(text) == text
        assert card_words(text, "ru") == text


def test_a_card_fact_is_rendered_in_the_message_s_language():
    msg = M("%(name)s takes %(card)s", name="Аня", card=card_label("QH"))
    assert render(msg, "ru") == "Аня берёт Д♥"
    assert render(msg, "en") == "Аня takes Q♥"
    hand = M("%(name)s is dealt %(cards)s", name="Аня", cards=cards_label(["AS", "10H", "JC"]))
    assert "Т♠, 10♥, В♣" in render(hand, "ru")
    assert "A♠, 10♥, J♣" in render(hand, "en")


def test_cards_label_in_both_languages():
    assert cards_label(["QH", "7S"]) == {"ru": "Д♥, 7♠", "en": "Q♥, 7♠"}
    assert cards_label(["KH", "QH"], " ") == {"ru": "К♥ Д♥", "en": "K♥ Q♥"}
    assert cards_label([]) == {"ru": "", "en": ""}


@pytest.mark.parametrize("typed, code", [
    ("QH", "QH"), ("qh", "QH"), ("Q♥", "QH"), ("Д♥", "QH"), ("д♥", "QH"), ("ДH", "QH"), ("дh", "QH"),
    ("Т♠", "AS"), ("тs", "AS"), ("К♦", "KD"), ("В♣", "JC"), ("10♣", "10C"), ("10c", "10C"), (" 7♠ ", "7S"),
])
def test_a_typed_card_in_either_language_is_its_code(typed, code):
    assert card_code(typed) == code


@pytest.mark.parametrize("typed", ["JK", "joker", "гриб", "сова", "д", "Д", "1000", "INF", "АК2444841", "11H",
                                   "Q", "ДЧ", "QX", "", "ХОЙ", "TH", "T♥", "ts"])
def test_what_is_not_a_card_is_not_read_as_one(typed):
    assert card_code(typed) is None


def test_a_latin_t_is_no_rank_anywhere_a_cyrillic_t_is_the_ace():
    """English shorthand writes the ten "T"; a Russian deck's ace «Т» looks the same. Neither the
    typed path nor the lottery's engine guesses: "TH" is refused, «ТH» is the ace, "10H" the ten."""
    from companion.games.lottery.cards import canonical, parse_card

    assert parse_card("TH") is None and parse_card("th") is None
    assert canonical("10H") == "10H" and canonical(normalise_cards("ТH")) == "AH"
    assert normalise_cards("TH") == "TH"  # left for the engine to refuse with its reason


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_card_read_back_from_its_words(lang):
    assert all(card_code(card_words(c, lang)) == c for c in FULL_DECK)


def test_the_operator_s_entry_reads_russian_letters_and_leaves_other_words():
    assert normalise_cards("table cards 2 Д♥, д♦ ,Т♠ 10♣") == "table cards 2 QH,QD,AS 10C"
    assert normalise_cards("table turn ДH ?") == "table turn QH ?"
    assert normalise_cards("table turn джокер ?") == "table turn JK ?"
    # doubt's picture cards (a 36-card deck named by its ranks, too) are the deck's names, as typed
    assert normalise_cards("table reveal 1 гриб,сова") == "table reveal 1 гриб,сова"
    assert normalise_cards("table reveal 1 дама,валет,туз") == "table reveal 1 дама,валет,туз"
