"""The operator's new-game form says what is wrong in words that fit the mistake (a first-time
tester's findings): a repeated name, a seat option naming a player the table does not have, the
banker and the dealer on one seat, names typed on one line with commas, absurd numbers. The same
engine checks refuse them from ``companion run --seats/--option`` too. The sentences are checked
by message id with their facts (:func:`ru`), rendered through the catalogue."""

from __future__ import annotations

import re

import pytest

from companion.dashboard import create_app
from companion.errors import IllegalAction
from companion.games import new_game
from companion.games.base import HOUSE_MAX
from companion.i18n import M, render
from companion.table import Table

from tests.dashboard.helpers import operator_client

FIVE = "Аня\nБорис\nВера\nГлеб\nДаша"


def ru(id: str, **facts) -> str:
    """Message ``id`` with ``facts`` in Russian (the page's language)."""
    return render(M(id, **facts), "ru")


@pytest.fixture
def op(tmp_path):
    table = Table(tmp_path, pin="246810")
    app = create_app(table, testing=True)
    c, csrf = operator_client(app, table)
    yield table, c, csrf
    table.close()


def refused(c, csrf, data, reason):
    """Post the form; return the alert's sentence (400, the given reason code)."""
    r = c.post("/operator/new", data={"game": "lottery", **data, "csrf_token": csrf})
    page = r.get_data(as_text=True)
    assert r.status_code == 400, page[:300]
    m = re.search(r'<p class="error" role="alert"([^>]*)>([^<]*)</p>', page)
    assert m, page[:500]
    assert f'data-reason="{reason}"' in m.group(1), m.group(1)
    return m.group(2).replace("&#34;", '"')


def test_a_repeated_name_is_named(op):
    table, c, csrf = op
    shown = refused(c, csrf, {"seats": "Аня\nБорис\nАня\nГлеб\nДаша"}, "bad_seats")
    assert shown == ru("The name «%(name)s» is entered twice: each player needs a name of their own.", name="Аня"), shown
    assert table.referee is None


def test_a_name_that_looks_like_another_is_refused(op):
    """«Aня» with a Latin A prints as «Аня»: the console could not tell who pays and who chooses."""
    table, c, csrf = op
    shown = refused(c, csrf, {"seats": "Аня\nБорис\nAня\nГлеб\nДаша"}, "bad_seats")
    assert shown == ru("The name «%(name)s» is entered twice: each player needs a name of their own.", name="Aня"), shown
    assert table.referee is None


def test_a_seat_option_past_the_table_says_which_players_there_are(op):
    table, c, csrf = op
    shown = refused(c, csrf, {"seats": FIVE, "opt_lottery_banker": "9"}, "bad_option")
    assert shown == ru("«%(option)s»: there is no player %(seat)d at this table (players 1–%(n)d).",
                       option=render(M("Banker (seat number)"), "ru"), seat=9, n=5), shown
    assert table.referee is None


def test_banker_and_dealer_on_one_seat_names_both_rules(op):
    table, c, csrf = op
    shown = refused(c, csrf, {"seats": FIVE, "opt_lottery_banker": "2", "opt_lottery_dealer": "2"}, "bad_option")
    both = M("%(first)s and %(second)s", first=M("«%(text)s»", text=M("Banker (seat number)")),
             second=M("«%(text)s»", text=M("Dealer (seat number)")))
    assert shown == ru("%(options)s must be two different players: choose different numbers.", options=both), shown


def test_names_on_one_line_with_commas_are_players(op):
    table, c, csrf = op
    r = c.post("/operator/new", data={"game": "lottery", "seats": "Аня, Борис, Вера, Глеб,Даша",
                                      "csrf_token": csrf})
    assert r.status_code == 302, r.get_data(as_text=True)[:300]
    assert table.game_info()["seats"] == ["Аня", "Борис", "Вера", "Глеб", "Даша"]


def test_a_long_name_says_to_put_one_name_a_line(op):
    table, c, csrf = op
    shown = refused(c, csrf, {"seats": "Аня Борис Вера Глеб Даша Женя Зоя"}, "bad_seats")
    assert "24" in shown and "строк" in shown, shown


@pytest.mark.parametrize("field,value,words", [
    ("opt_lottery_chips", "9" * 40, "от 0 до 1 000 000"),
    ("opt_lottery_chips", "-5", "от 0 до 1 000 000"),
    ("opt_lottery_playoff", "3", "от 1 до 2"),
])
def test_absurd_numbers_are_refused_with_the_range(op, field, value, words):
    table, c, csrf = op
    shown = refused(c, csrf, {"seats": FIVE, field: value}, "bad_option")
    assert shown.startswith("«") and words in shown.replace("\u202f", " "), shown
    assert table.referee is None


def test_the_engine_refuses_the_same_for_the_command_line():
    """``companion run --seats/--option`` goes through the same engine checks."""
    with pytest.raises(IllegalAction) as e:
        new_game("lottery", ["Аня", "Борис", "Аня", "Глеб"], {})
    assert e.value.reason == "bad_seats" and e.value.facts == {"repeated": "Аня"}
    with pytest.raises(IllegalAction) as e:
        new_game("lottery", ["Аня", "Борис", "Вера", "Глеб"], {"chips": 10 ** 40})
    assert e.value.reason == "bad_option" and e.value.facts["option"] == "chips"
    assert e.value.facts["max"] == HOUSE_MAX
    with pytest.raises(IllegalAction) as e:
        new_game("hoggenheimer", ["Аня", "Борис"], {"starting_chips": HOUSE_MAX + 1})
    assert e.value.facts["option"] == "starting_chips"
    new_game("hoggenheimer", ["Аня", "Борис"], {"starting_chips": HOUSE_MAX})  # the limit itself is fine
    with pytest.raises(IllegalAction) as e:
        new_game("lottery", ["Аня", "Борис", "Вера", "Глеб"], {"banker": 1, "dealer": 1})
    assert e.value.facts["options"] == ["banker", "dealer"]


def test_an_over_long_name_is_quoted_short(op):
    """A 1 000-character name is refused with its start, not echoed whole into the page."""
    table, c, csrf = op
    shown = refused(c, csrf, {"seats": "Я" * 1000 + "\nБорис\nВера\nГлеб"}, "bad_seats")
    assert "Я" * 48 + "…" in shown and "Я" * 49 not in shown, shown[:200]
    assert len(shown) < 400
    assert table.referee is None


def test_the_form_is_checked_without_ending_the_game(op):
    """``POST /api/operator/new/check``: what ``/operator/new`` would answer, nothing started or ended
    (the console asks «Текущая игра будет завершена…» only for a form that passes)."""
    table, c, csrf = op
    table.new_game("skull", ["Аня", "Борис"])
    epoch = table.epoch
    check = lambda form: c.post("/api/operator/new/check", json=form, headers={"X-CSRF-Token": csrf}).get_json()  # noqa: E731
    assert check({"game": "lottery", "seats": FIVE}) == {"ok": True}
    j = check({"game": "lottery", "seats": "Аня\nБорис\nАня\nГлеб\nДаша"})
    assert (j["ok"], j["reason"]) == (False, "bad_seats")
    assert j["message"] == ru("The name «%(name)s» is entered twice: each player needs a name of their own.", name="Аня")
    j = check({"game": "lottery", "seats": FIVE, "opt_lottery_banker": "9"})
    assert (j["ok"], j["reason"]) == (False, "bad_option")
    j = check({"game": "lottery", "seats": "Аня"})  # the engine's own check: too few players
    assert (j["ok"], j["reason"]) == (False, "bad_seats")
    assert table.epoch == epoch and table.game_info()["seats"] == ["Аня", "Борис"]


def test_too_many_players_are_told_the_most_not_the_least(op):
    """21 names for the lottery: the form said why it needs at least 4 (its banker and dealer
    hold no cards) — the limit broken is the most, 20."""
    table, c, csrf = op
    names = "\n".join(f"Игрок {i}" for i in range(1, 22))
    shown = refused(c, csrf, {"seats": names}, "bad_seats")
    assert shown == ru("Too many players: %(given)s entered, this game takes at most %(max)s.", given=21, max=20), shown
    assert table.referee is None
