"""A seat's typed action reads cards as the operator's entries read them (a first-time user's
findings): card codes in either language's letters (``ДH``, ``qh``, ``Д♥`` → ``QH``) and a deck's
names (doubt's «гриб» → ``mushroom``) go through the one normalisation of every typed path
(``companion.dashboard.manualentry.typed_cards``), so a refusal never lists as valid what it
refuses; the real Flask routes and the real Table, logged with source ``dashboard``."""

from __future__ import annotations

import pytest

from companion.i18n import render
from tests.dashboard.helpers import operator_client, seat_client

SEATS = ["Аня", "Борис", "Вика"]


def _post(c, csrf, action):
    r = c.post("/api/seat/action", json={"action": action}, headers={"X-CSRF-Token": csrf})
    return r.status_code, r.json


def _last(table):
    rec = table.referee.log.records()[-1]
    return rec.action, rec.source


# ---------------------------------------------------------------------- doubt: the deck's names
@pytest.mark.parametrize("typed", ["3 гриб", "3 Гриб", "3 ГРИБ", "3 mushroom", "3 Mushroom",
                                   "３ гриб", "3 гр\u200bиб"])  # full-width digit, pasted zero-width space
def test_doubt_seat_places_a_card_named_as_the_page_shows_it(dash, typed):
    table, app = dash("doubt", SEATS)
    assert table.submit("0 deal", "button").accepted
    c, csrf = seat_client(app, table, 0)
    code, body = _post(c, csrf, f"0 place {typed}")
    assert code == 200, body
    assert _last(table) == ("0 place 3 mushroom", "dashboard")


def test_doubt_seat_name_not_in_the_deck_is_refused_with_the_decks_names(dash):
    table, app = dash("doubt", SEATS)
    assert table.submit("0 deal", "button").accepted
    before = len(table.referee.log.records())
    c, csrf = seat_client(app, table, 0)
    code, body = _post(c, csrf, "0 place 3 лиса")
    assert code == 409 and body["reason"] == "unknown_kind"
    assert len(table.referee.log.records()) == before
    # every name the refusal lists is one the seat may type: each is accepted
    for kind in table.referee.game.kind_names():
        name = render(kind, "ru")
        assert name in body["message"]
        assert table.referee.game.kind_for_name(name) is not None, name


def test_the_seats_and_the_operators_paths_read_a_name_alike(dash):
    logged = []
    for path in ("seat", "console"):
        table, app = dash("doubt", SEATS)
        assert table.submit("0 deal", "button").accepted
        if path == "seat":
            c, csrf = seat_client(app, table, 0)
            assert _post(c, csrf, "0 place 3 гриб")[0] == 200
        else:  # the seat played from the operator's console
            op, csrf = operator_client(app, table)
            for action in ("table console 1", "table as 1 place 3 гриб"):
                r = op.post("/api/operator/action", json={"action": action}, headers={"X-CSRF-Token": csrf})
                assert r.status_code == 200, r.json
        logged.append(_last(table)[0])
    assert logged == ["0 place 3 mushroom"] * 2  # the console plays it as the seat's own action


# ---------------------------------------------------------------------- the joker game: card codes
@pytest.mark.parametrize("typed", ["ДH", "дh", "qh", "Д♥", "Q♥", "д♥"])
def test_hoggenheimer_seat_bets_on_a_card_written_as_the_page_shows_it(dash, typed):
    table, app = dash("hoggenheimer", SEATS)
    c, csrf = seat_client(app, table, 2)
    code, body = _post(c, csrf, f"2 bet 1 {typed}")
    assert code == 200, body
    assert _last(table) == ("2 bet 1 QH", "dashboard")


@pytest.mark.parametrize("typed", ["ТH", "КH", "ВH", "10♥"])
def test_hoggenheimer_every_rank_letter_the_refusal_names_is_read(dash, typed):
    # the refusal of a card written wrong invites the ranks Т К Д В (a Russian page): each is taken
    table, app = dash("hoggenheimer", SEATS)
    c, csrf = seat_client(app, table, 2)
    code, body = _post(c, csrf, "2 bet 1 ХОЙ")
    assert code == 409 and body["reason"] == "bad_card"
    assert typed[0] in body["message"]
    code, body = _post(c, csrf, f"2 bet 1 {typed}")
    assert code == 200, body
