"""A card typed wrong into the operator's «Карта» field is refused with how *this game's* deck
writes its cards: 6100's values (10, 36, …, «Бесконечность»), not the queen of hearts it has no such thing as;
the joker game's 32-card layout and the lottery's 52 cards with examples from their own decks;
doubt's kinds by name. The engines give the deck in the refusal's facts; the dashboard words them.
The engine-side checks assert the message id and its facts (:mod:`tests.wording`); the dashboard
check keeps the rendered Russian sentence."""

from __future__ import annotations


from companion.games import new_game
from companion.games.simulator import get_sim_class
from companion.i18n import render
from tests.dashboard.helpers import operator_client
from tests.wording import refusal, said

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
    """``(id, facts)`` of the refusal of ``action`` (:func:`tests.wording.said`)."""
    return said(refusal(g, action, reason))


BAD = "The card is not written correctly%(typed)s. The deck's cards: %(cards)s."
NO_SUCH = "No such card in this deck%(typed)s. The deck's cards: %(cards)s."
WRITE = "The card is not written correctly%(typed)s. Write a rank (%(ranks)s) and a suit (S, H, D, C), e.g. %(examples)s."
#: 6100's deck in the facts' English words: Infinity by its name (the Russian page's «Бесконечность»)
VALUES = ["10", "36", "40", "100", "106", "200", "225", "333", "500", "Infinity"]


def test_infinity_names_its_own_card_values():
    g = _at("infinity", "face")
    assert _words(g, "table face ХОЙ", "bad_card") == (BAD, {"typed": ": «ХОЙ»", "cards": VALUES})
    assert _words(g, "table face QH", "bad_card") == (BAD, {"typed": ": «QH»", "cards": VALUES})  # no queen of hearts
    assert _words(g, "table face 700", "unknown_card") == (NO_SUCH, {"typed": ": «700»", "cards": VALUES})


def test_infinity_names_a_table_deck_of_its_own():
    g = new_game("infinity", NAMES, {"deck": {"100": 3, "200": 3, "300": 3, "500": 2, "INF": 1},
                                     "deck_check": False, "deals": 1, "infinity_points": 1000})
    g.apply("table deal 0")
    g.apply("0 play ?")
    assert _words(g, "table face x", "bad_card") == (BAD, {"typed": ": «x»", "cards": ["100", "200", "300", "500", "Infinity"]})


def test_the_joker_game_gives_examples_from_its_layout():
    g = _at("hoggenheimer", "turn", n=3)
    assert _words(g, "table turn ХОЙ ХОЙ", "bad_card") == (
        WRITE[:-1] + "; the joker is %(joker)s.",
        {"typed": ": «ХОЙ»", "ranks": "A K Q J 10 9 8 7", "examples": "QH — Q♥, 10S — 10♠, 7C — 7♣", "joker": "JK"})
    # a card of a full deck, but not of the layout's 32
    assert _words(g, "table turn 2C 2C", "bad_card") == (
        "No such card in this deck%(typed)s. The deck's ranks: %(ranks)s.", {"typed": ": «2C»", "ranks": "A K Q J 10 9 8 7"})


def test_the_lottery_gives_examples_from_its_52_cards():
    g = _at("lottery", "cards")
    assert _words(g, f"table cards {g.players[0]} ХОЙ,QH,2C", "bad_card") == (
        WRITE, {"typed": ": «ХОЙ»", "ranks": "A K Q J 10 9 8 7 6 5 4 3 2", "examples": "QH — Q♥, 10S — 10♠, 2C — 2♣"})


def test_doubt_names_its_kinds():
    g = _at("doubt", "reveal", n=3)
    n = g.pile[-1][1]
    msg = refusal(g, "table reveal " + ",".join(["ХОЙ"] * n), "unknown_kind")
    assert said(msg) == (NO_SUCH, {"typed": ": «ХОЙ»", "cards": [
        "mushroom", "berry", "acorn", "leaf", "hedgehog", "squirrel", "hare", "owl"]})
    # the kinds by their names in the page's language, in the deck's order
    for lang in ("ru", "en"):
        assert ", ".join(render(kind, lang) for kind in msg.facts["cards"]) in render(msg, lang)


def test_the_operator_reads_the_decks_cards_for_a_card_typed_wrong(dash):
    table, app = dash("infinity", ["Аня", "Борис", "Вика"])
    assert table.submit("table deal 0", "manual").accepted
    assert table.submit("0 play ?", "dashboard").accepted
    c, csrf = operator_client(app, table)
    r = c.post("/api/operator/manual", json={"action": "table face ХОЙ"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 409 and r.json["reason"] == "bad_card"
    # the rendered words, once (the checks above assert ids and facts)
    assert r.json["message"] == ("Карта записана неверно: «ХОЙ». Карты колоды: 10, 36, 40, 100, 106, 200, 225, 333, 500, "
                                 "Бесконечность.")
    assert "QH" not in r.json["message"]
