"""The lottery's stake line says what its number counts: «Аня платит 2 фишки за 2 карты без
выигрыша», not «… за карты без выигрыша (2)» (a tester could not tell what «(1)» was); seed 004
¶9: every card that won nothing costs its holder a stake."""

from __future__ import annotations

import pytest

from companion.games import lottery, new_game
from companion.games.base import Event

NAMES = ["Аня", "Борис"]


@pytest.mark.parametrize("cards, chips, ru, en", [
    (1, 1, "Аня платит 1 фишку за 1 карту без выигрыша", "Аня pays 1 chip for 1 card that won nothing"),
    (2, 2, "Аня платит 2 фишки за 2 карты без выигрыша", "Аня pays 2 chips for 2 cards that won nothing"),
    (3, 6, "Аня платит 6 фишек за 3 карты без выигрыша", "Аня pays 6 chips for 3 cards that won nothing"),
])
def test_the_stake_line_counts_the_cards_in_words(cards, chips, ru, en):
    e = Event("stake_paid", {"seat": 0, "cards": cards, "chips": chips})
    assert lottery.describe_event(e, NAMES) == ru
    assert lottery.describe_event(e, NAMES, "en") == en


def test_a_played_draw_tells_its_stakes_without_a_bare_number_in_brackets():
    g = new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    events = []
    for a in ("0 spread 4,3,2,1", "table cards 2 QH,10S,2C", "table cards 3 AD,5S,7H",
              "table prize 0 QH", "table prize 1 KD", "table prize 2 3C", "table prize 3 4S"):
        events += g.apply(a)
    lines = [lottery.describe_event(e, g.seats) for e in events if e.kind == "stake_paid"]
    assert lines == ["Аня платит 2 фишки за 2 карты без выигрыша", "Борис платит 3 фишки за 3 карты без выигрыша"]


def test_the_chips_going_to_the_box_are_counted_in_words():
    e = Event("prizes_to_box", {"chips": 12, "box": 40})
    assert lottery.describe_event(e, NAMES) == "Колода сдающего кончилась: 12 фишек с призов и ставок идут в кассу; в кассе 40"
    assert lottery.describe_event(e, NAMES, "en") == (
        "The dealer's deck is used up: 12 chips from the prizes and stakes go to the box; the box holds 40")
    one = Event("prizes_to_box", {"chips": 1, "box": 9})
    assert lottery.describe_event(one, NAMES) == "Колода сдающего кончилась: 1 фишка с призов и ставок идёт в кассу; в кассе 9"
