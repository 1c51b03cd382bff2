"""A card typed wrong into the operator's «Карта» field is refused with how *this game's* deck
writes its cards: 6100's values (10, 36, …, INF), not the queen of hearts it has no such thing as;
the joker game's 32-card layout and the lottery's 52 cards with examples from their own decks;
doubt's kinds by name. The engines give the deck in the refusal's facts; the dashboard words them."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.dashboard.reasons import reason_message
from companion.games import new_game
from companion.games.simulator import get_sim_class
from companion.table import Table
from tests.dashboard.helpers import operator_client
from tests.gamekit import rejects

NAMES = ["Аня", "Борис", "Вика", "Гоша"]


def _at(gid, verb, n=4, seed=1):
    """A game of ``gid`` played by the bots until the table may ``verb``."""
    g = new_game(gid, NAMES[:n], None)
    sim = get_sim_class(gid)(g, seed)
    while not any(a.VERB == verb for a in g.legal_actions(None)):
        text, _ = sim.next_action()
        g.apply(text)
        sim.applied(text)
    return g


def _words(g, action, reason):
    exc = rejects(g, action, reason)
    return tuple(reason_message(exc.reason, lang, g.GAME_ID, g.options, exc.facts) for lang in ("ru", "en"))


def test_infinity_names_its_own_card_values():
    g = _at("infinity", "face")
    ru, en = _words(g, "table face ХОЙ", "bad_card")
    assert ru == "Карта записана неверно: «ХОЙ». Карты колоды: 10, 36, 40, 100, 106, 200, 225, 333, 500, INF."
    assert en == "The card is not written correctly: «ХОЙ». The deck's cards: 10, 36, 40, 100, 106, 200, 225, 333, 500, INF."
    assert "QH" not in _words(g, "table face QH", "bad_card")[0].replace("«QH»", "")
    assert _words(g, "table face 700", "unknown_card")[0] == (
        "Такой карты в этой колоде нет: «700». Карты колоды: 10, 36, 40, 100, 106, 200, 225, 333, 500, INF.")


def test_infinity_names_a_table_deck_of_its_own():
    g = new_game("infinity", NAMES, {"deck": {"100": 3, "200": 3, "300": 3, "500": 2, "INF": 1},
                                     "deck_check": False, "deals": 1, "infinity_points": 1000})
    g.apply("table deal 0")
    g.apply("0 play ?")
    assert _words(g, "table face x", "bad_card")[0].endswith("Карты колоды: 100, 200, 300, 500, INF.")


def test_the_joker_game_gives_examples_from_its_layout():
    g = _at("hoggenheimer", "turn", n=3)
    ru, en = _words(g, "table turn ХОЙ ХОЙ", "bad_card")
    assert ru == ("Карта записана неверно: «ХОЙ». Пишите достоинство (A K Q J 10 9 8 7) и масть (S, H, D, C), "
                  "например QH — Q♥, 10S — 10♠, 7C — 7♣; джокер — JK.")
    assert en.startswith("The card is not written correctly: «ХОЙ». Write a rank (A K Q J 10 9 8 7)")
    # a card of a full deck, but not of the layout's 32
    assert _words(g, "table turn 2C 2C", "bad_card")[0] == (
        "Такой карты в этой колоде нет: «2C». Достоинства колоды: A K Q J 10 9 8 7.")


def test_the_lottery_gives_examples_from_its_52_cards():
    g = _at("lottery", "cards")
    ru, _ = _words(g, f"table cards {g.players[0]} ХОЙ,QH,2C", "bad_card")
    assert ru == ("Карта записана неверно: «ХОЙ». Пишите достоинство (A K Q J 10 9 8 7 6 5 4 3 2) и масть "
                  "(S, H, D, C), например QH — Q♥, 10S — 10♠, 2C — 2♣.")


def test_doubt_names_its_kinds():
    g = _at("doubt", "reveal", n=3)
    n = g.pile[-1][1]
    ru, en = _words(g, "table reveal " + ",".join(["ХОЙ"] * n), "unknown_kind")
    assert ru == "Такой карты в этой колоде нет: «ХОЙ». Карты колоды: гриб, ягода, жёлудь, лист, ёж, белка, заяц, сова."
    assert en == ("No such card in this deck: «ХОЙ». The deck's cards: mushroom, berry, acorn, leaf, hedgehog, "
                  "squirrel, hare, owl.")


@pytest.fixture
def infinity_table(fast_dir):
    table = Table(fast_dir, pin="246810")
    table.new_game("infinity", ["Аня", "Борис", "Вика"])
    app = create_app(table, testing=True)
    yield table, app
    app.extensions["companion"]["hub"].close()
    table.close()


def test_the_operator_reads_the_decks_cards_for_a_card_typed_wrong(infinity_table):
    table, app = infinity_table
    assert table.submit("table deal 0", "manual").accepted
    assert table.submit("0 play ?", "dashboard").accepted
    c, csrf = operator_client(app, table)
    r = c.post("/api/operator/manual", json={"action": "table face ХОЙ"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 409 and r.json["reason"] == "bad_card"
    assert r.json["message"] == "Карта записана неверно: «ХОЙ». Карты колоды: 10, 36, 40, 100, 106, 200, 225, 333, 500, INF."
    assert "QH" not in r.json["message"]
