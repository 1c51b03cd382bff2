"""«Верю — не верю» tells its public events in words (the dashboard's history and the console),
in Russian and English, players by name, kinds of cards by their names — not raw fields
(«выложено: Аня, Число 3, вид гриб, Стопка 3», found by a first-time user)."""

from __future__ import annotations

import re

from companion.games import new_game
from companion.games.doubt import describe_event
from companion.games.simulator import get_sim_class
from companion.i18n import render

NAMES = ["Аня", "Борис", "Вика"]


def test_every_public_event_of_whole_games_has_words():
    kinds_told: set[str] = set()
    for seed in range(3):
        g = new_game("doubt", NAMES, {"games": 2})
        sim = get_sim_class("doubt")(g, seed)
        while not g.is_over():
            text, _source = sim.next_action()
            for ev in g.apply(text):
                if ev.private_to is not None:
                    continue
                for lang in ("ru", "en"):
                    words = render(describe_event(ev, NAMES), lang)
                    assert words is not None, (ev.kind, lang)
                    if words == "":
                        continue
                    kinds_told.add(ev.kind)
                    assert "{" not in words and "None" not in words and "'" not in words, words
                    if lang == "ru":
                        assert not re.search(r"[A-Za-z]{3,}", words), words  # no English, no card ids
            sim.applied(text)
    assert {"dealt", "placed", "answered", "checked", "lead", "game_over"} <= kinds_told, kinds_told


def test_a_check_names_the_cards_and_who_takes_the_pile():
    g = new_game("doubt", NAMES, {})
    g.apply("0 deal")
    g.apply("0 place 2 mushroom")
    g.apply("1 doubt")
    ev = [e for e in g.apply("table reveal mushroom,hare") if e.kind == "checked"][0]
    assert render(describe_event(ev, NAMES), "ru") == "Проверка: открыты гриб, заяц — неправда; стопку (2) забирает Аня"


def test_a_placement_counts_its_cards_and_a_check_of_one_card_agrees_with_it():
    """«Аня выкладывает карт: 5, «гриб»» and «открыто гриб» (a first-time tester): the count
    before its noun in the right form, «открыта карта» for one card, «открыты» for several."""
    g = new_game("doubt", NAMES, {})
    g.apply("0 deal")
    placed = [e for e in g.apply("0 place 1 mushroom") if e.kind == "placed"][0]
    assert render(describe_event(placed, NAMES), "ru") == "Аня выкладывает 1 карту: «гриб»; в стопке 1"
    g.apply("1 doubt")
    ev = [e for e in g.apply("table reveal mushroom") if e.kind == "checked"][0]
    assert render(describe_event(ev, NAMES), "ru") == "Проверка: открыта карта «гриб» — правда; стопку (1) забирает Борис"
    for n, told in ((2, "2 карты"), (5, "5 карт")):
        g = new_game("doubt", NAMES, {})
        g.apply("0 deal")
        placed = [e for e in g.apply(f"0 place {n} mushroom") if e.kind == "placed"][0]
        assert render(describe_event(placed, NAMES), "ru") == f"Аня выкладывает {told}: «гриб»; в стопке {n}"
