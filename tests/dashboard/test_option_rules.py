"""A new-game form whose options break a rule binding two of them names both fields, by their
form labels, and says the rule — in the page's language (a new user's findings: the lottery's
entry stake blamed on «Касса в начале», the joker game's minimum above its maximum told as «у
одного из правил недопустимое значение» with no field named). The sentences are checked by
message id and facts (:mod:`companion.games.optionwords`) and rendered through the catalogue."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.errors import IllegalAction
from companion.games import new_game
from companion.games.optionwords import option_name, rule_words
from companion.i18n import M, render
from companion.table import Table

from tests.dashboard.helpers import operator_client
from tests.wording import said


@pytest.fixture
def check(tmp_path):
    table = Table(tmp_path, pin="246810")
    app = create_app(table, testing=True)
    c, csrf = operator_client(app, table)

    def post(form: dict, lang: str = "ru") -> dict:
        c.set_cookie("lang", lang)
        return c.post("/api/operator/new/check", json=form, headers={"X-CSRF-Token": csrf}).get_json()

    yield post
    table.close()


def _refusal(game: str, seats: list[str], options: dict) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        new_game(game, seats, options)
    assert e.value.reason == "bad_option"
    return e.value


def test_a_lottery_entry_stake_too_small_for_the_prizes_names_the_stake_and_the_box(check):
    exc = _refusal("lottery", ["А", "Б", "В", "Г"], {"entry_stake": 1})
    assert exc.facts == {"options": ["entry_stake", "box"], "rule": "prize_pool", "entry_stake": 1, "box": 0,
                         "players": 2, "pool": 2, "need": 10}
    told = rule_words(exc.facts, "lottery")
    assert told is not None
    msg_id, facts = said(told)
    assert msg_id.startswith("%(entry)s (%(stake)s) from %(n)s card-holding player and %(box)s (%(in_box)s) make")
    assert facts["entry"] == "“Entry stake”" and facts["box"] == "“Box at the start”"
    assert (facts["stake"], facts["in_box"], facts["n"], facts["pool"], facts["need"]) == (1, 0, 2, "2 chips", "10 chips")
    j = check({"game": "lottery", "seats": "А,Б,В,Г", "opt_lottery_entry_stake": "1"})
    assert (j["ok"], j["reason"]) == (False, "bad_option")
    assert j["message"] == render(told, "ru"), j["message"]
    # the changed field first, the rule in words: not «Касса в начале: у одного из правил …»
    assert j["message"].startswith("«Входная ставка» (1)") and "«Касса в начале» (0)" in j["message"]
    assert "10 фишек" in j["message"] and "недопустимое" not in j["message"]


def test_a_minimum_stake_above_the_maximum_names_both(check):
    exc = _refusal("hoggenheimer", ["Аня", "Борис"], {"min_stake": 10, "max_stake": 5})
    assert exc.facts == {"options": ["min_stake", "max_stake"], "rule": "not_above", "low": 10, "high": 5}
    told = rule_words(exc.facts, "hoggenheimer")
    assert said(told) == ("%(low)s (%(low_value)s) may not be larger than %(high)s (%(high_value)s).",
                          {"low": "“Minimum stake”", "low_value": 10, "high": "“Maximum stake”", "high_value": 5})
    form = {"game": "hoggenheimer", "seats": "Аня,Борис", "opt_hoggenheimer_min_stake": "10",
            "opt_hoggenheimer_max_stake": "5"}
    j = check(form)
    assert (j["ok"], j["reason"]) == (False, "bad_option")
    assert j["message"] == render(told, "ru") == "«Мин. ставка» (10) не может быть больше, чем «Макс. ставка» (5).", \
        j["message"]
    assert check(form, "en")["message"] == render(told, "en")  # the page's language
    form["opt_hoggenheimer_max_stake"] = "10"
    assert check(form) == {"ok": True}


def test_as_many_skulls_as_notes_names_the_notes_too(check):
    exc = _refusal("skull", ["Аня", "Борис"], {"notes_per_player": 4, "skulls_per_player": 4})
    assert exc.facts["options"] == ["skulls_per_player", "notes_per_player"] and exc.facts["rule"] == "fewer_than"
    told = rule_words(exc.facts, "skull")
    assert said(told) == ("%(option)s must be fewer than %(other)s (%(than)s): a number from %(min)s to %(max)s.",
                          {"option": "“Skulls per player”", "other": "“Notes per player”", "than": 4, "min": 1, "max": 3})
    j = check({"game": "skull", "seats": "Аня,Борис", "opt_skull_notes_per_player": "4",
               "opt_skull_skulls_per_player": "4"})
    assert j["message"] == render(told, "ru"), j["message"]


def test_the_banker_and_the_dealer_on_one_seat_keep_their_sentence(check):
    exc = _refusal("lottery", ["А", "Б", "В", "Г"], {"banker": 1, "dealer": 1})
    told = rule_words(exc.facts, "lottery")
    assert said(told) == ("%(options)s must be two different players: choose different numbers.",
                          {"options": "“Banker (seat number)” and “Dealer (seat number)”"})
    j = check({"game": "lottery", "seats": "А,Б,В,Г", "opt_lottery_banker": "2", "opt_lottery_dealer": "2"})
    assert j["message"] == render(told, "ru")


def test_an_option_no_game_labels_is_named_by_its_id():
    assert render(option_name("deck", "infinity"), "ru") == "«deck»"
    assert render(option_name("box", "lottery"), "ru") == render(M("«%(text)s»", text=M("Box at the start")), "ru")
    assert rule_words({"rule": "nonesuch", "options": ["box"]}, "lottery") is None
    assert rule_words({"rule": "not_above", "options": ["min_stake", "max_stake"]}, "hoggenheimer") is None  # no values
