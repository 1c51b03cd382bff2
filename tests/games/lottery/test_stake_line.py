"""The lottery's stake line says what its number counts: «Аня платит 2 фишки за 2 карты без
выигрыша», not «… за карты без выигрыша (2)» (a tester could not tell what «(1)» was); seed 004
¶9: every card that won nothing costs its holder a stake.

The lines are checked as message ids with their facts (the cards counted, the chips in the object
form the sentence asks for); their words, with the Russian plural forms, are the golden snapshot
tests/i18n/golden/lottery-stakes.<lang>.txt."""

from __future__ import annotations

import pytest

from companion.games import lottery, new_game, registry
from companion.games.base import Event
from companion.i18n import render
from tests.wording import golden, said

NAMES = ["Аня", "Борис"]
PAYS = "%(name)s pays %(chips)s for %(n)s card that won nothing"
USED_UP = "The dealer's deck is used up: %(moved)sthe box holds %(box)s"
STAKES = [(1, 1), (2, 2), (3, 6)]
TO_BOX = [(12, 40), (1, 9)]


def _said(e: Event, names=NAMES):
    msg = registry.get("lottery").presenter.event(e, list(names))
    assert lottery.describe_event(e, names) is not None
    return said(msg)


@pytest.mark.parametrize("cards, chips", STAKES)
def test_the_stake_line_counts_the_cards_in_words(cards, chips):
    e = Event("stake_paid", {"seat": 0, "cards": cards, "chips": chips})
    assert _said(e) == (PAYS, {"name": "Аня", "n": cards, "chips": f"object|{chips} chip{'s' if chips > 1 else ''}"})


def test_a_played_draw_tells_its_stakes_without_a_bare_number_in_brackets():
    g = new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    events = []
    for a in ("0 spread 4,3,2,1", "table cards 2 QH,10S,2C", "table cards 3 AD,5S,7H",
              "table prize 0 QH", "table prize 1 KD", "table prize 2 3C", "table prize 3 4S"):
        events += g.apply(a)
    told = [_said(e, g.seats) for e in events if e.kind == "stake_paid"]
    assert told == [(PAYS, {"name": "Аня", "n": 2, "chips": "object|2 chips"}),
                    (PAYS, {"name": "Борис", "n": 3, "chips": "object|3 chips"})]


@pytest.mark.parametrize("chips, box", TO_BOX)
def test_the_chips_going_to_the_box_are_counted_in_words(chips, box):
    e = Event("prizes_to_box", {"chips": chips, "box": box})
    verb = "goes" if chips == 1 else "go"
    assert _said(e) == (USED_UP, {"moved": f"{chips} chip{'s' if chips > 1 else ''} from the prizes and stakes "
                                           f"{verb} to the box; ", "box": box})


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_lines_are_the_golden_ones(lang):
    lines = [render(lottery.describe_event(Event("stake_paid", {"seat": 0, "cards": c, "chips": n}), NAMES), lang) for c, n in STAKES]
    lines += [render(lottery.describe_event(Event("prizes_to_box", {"chips": c, "box": b}), NAMES), lang) for c, b in TO_BOX]
    golden(f"lottery-stakes.{lang}.txt", "\n".join(lines) + "\n")
