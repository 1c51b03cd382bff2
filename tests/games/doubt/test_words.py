"""«Верю — не верю» tells its public events in words (the dashboard's history and the console),
in Russian and English, players by name, kinds of cards by their names — not raw fields
(«выложено: Аня, Число 3, вид гриб, Стопка 3», found by a first-time user)."""

from __future__ import annotations

import re

from companion.games import new_game
from companion.games.doubt import describe_event
from companion.games.simulator import get_sim_class
from companion.i18n import render
from tests.wording import golden, said

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
    assert said(describe_event(ev, NAMES)) == ("Check: turned up %(kinds)s — %(told)s; %(end)s",
                                               {"kinds": ["mushroom", "hare"], "told": "false",
                                                "end": "Аня takes the pile (2)"})


def test_a_placement_counts_its_cards_and_a_check_of_one_card_agrees_with_it():
    """«Аня выкладывает карт: 5, «гриб»» and «открыто гриб» (a first-time tester): the count is
    the placement's plural form (the noun after the number in the right form: «1 карту», «2
    карты», «5 карт»), a check of one card has its own context («открыта карта» for one card,
    «открыты» for several). The Russian forms are a golden snapshot (tests/i18n/golden/doubt-counts.*)."""
    lines = {"ru": [], "en": []}
    g = new_game("doubt", NAMES, {})
    g.apply("0 deal")
    placed = describe_event([e for e in g.apply("0 place 1 mushroom") if e.kind == "placed"][0], NAMES)
    assert said(placed) == ("%(name)s lays %(n)s as «%(kind)s»; pile %(pile)s",
                            {"n": 1, "name": "Аня", "kind": "mushroom", "pile": 1}) and placed.plural
    g.apply("1 doubt")
    one = describe_event([e for e in g.apply("table reveal mushroom") if e.kind == "checked"][0], NAMES)
    assert one.context == "one card" and said(one)[1]["kinds"] == ["mushroom"]
    told = [placed, one]
    for n in (2, 5, 21):
        g = new_game("doubt", NAMES, {"max_cards": 21} if n > 8 else {})
        g.apply("0 deal")
        msg = describe_event([e for e in g.apply(f"0 place {n} mushroom") if e.kind == "placed"][0], NAMES)
        assert msg.facts["n"] == n and msg.id == placed.id
        told.append(msg)
    for lang in lines:
        golden(f"doubt-counts.{lang}.txt", "".join(render(m, lang) + "\n" for m in told))
