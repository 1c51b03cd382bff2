"""The lottery's real player range under its options (RULINGS §5: the banker and the dealer hold
no cards by default, so 4 seats at least): one figure, :meth:`Game.seat_range`, that every
``bad_seats`` refusal of a count states and the new-game form offers (a new user's finding:
``companion run --seats А`` said «от 2 до 20» while the form said 4–20)."""

from __future__ import annotations

import pytest

from companion.dashboard.newgame import game_specs
from companion.errors import IllegalAction
from companion.games import new_game, seat_range
from companion.games.infinity.cards import DECK_CARDS


@pytest.mark.parametrize("options, least", [
    ({}, 4), ({"officials_play": True}, 2), ({"banker": 5}, 6), ({"dealer": 7, "officials_play": True}, 8),
    ({"entry_stake": -1}, 2),  # options that do not parse: the class's range (their own refusal comes first)
])
def test_the_range_follows_the_options(options, least):
    assert seat_range("lottery", options) == (least, 20)


@pytest.mark.parametrize("seats", [["А"], ["А", "Б"], ["А", "Б", "В"]])
def test_too_few_players_are_refused_with_the_real_range(seats):
    with pytest.raises(IllegalAction) as e:
        new_game("lottery", seats)
    assert e.value.reason == "bad_seats"
    assert e.value.facts == {"min": 4, "max": 20, "given": len(seats)}


def test_with_the_officials_playing_two_seats_start():
    new_game("lottery", ["А", "Б"], {"officials_play": True})
    with pytest.raises(IllegalAction) as e:
        new_game("lottery", ["А"], {"officials_play": True})
    assert e.value.facts == {"min": 2, "max": 20, "given": 1}


def test_the_form_offers_the_same_range():
    spec = next(s for s in game_specs() if s["id"] == "lottery")
    assert (spec["min"], spec["max"]) == seat_range("lottery") == (4, 20)


def test_a_small_home_made_deck_of_6100_bounds_the_players():
    deck = {"10": 2, "20": 2, "INF": 1}
    assert seat_range("infinity", {"deck": deck, "deck_check": False}) == (2, 5)
    assert seat_range("infinity") == (2, min(8, DECK_CARDS))
    with pytest.raises(IllegalAction) as e:
        new_game("infinity", list("АБВГДЕ"), {"deck": deck, "deck_check": False})
    assert e.value.reason == "bad_seats" and e.value.facts == {"min": 2, "max": 5, "given": 6}


def test_too_many_players_are_worded_by_the_most_and_too_few_by_the_lotterys_why():
    """On a page (and wherever a refusal's facts are rendered) too many lottery players are told
    the most it takes, not the lottery's sentence about the least."""
    from companion.dashboard.reasons import reason_words
    from tests.wording import said

    with pytest.raises(IllegalAction) as e:
        new_game("lottery", [f"P{i}" for i in range(21)])
    assert e.value.facts == {"min": 4, "max": 20, "given": 21}
    assert said(reason_words("bad_seats", "lottery", None, e.value.facts)) == (
        "Too many players: %(given)s entered, this game takes at most %(max)s.", {"given": 21, "max": 20})
    with pytest.raises(IllegalAction) as e:
        new_game("lottery", ["А", "Б", "В"])
    too_few = reason_words("bad_seats", "lottery", None, e.value.facts)
    assert said(too_few) == ("This number of players does not suit the game.", {}) and too_few.context == "lottery"
