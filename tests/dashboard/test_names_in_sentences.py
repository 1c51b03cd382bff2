"""Sentences with a player's name read well whatever the name is — «Игрок 2» (the default) as
well as «Аня»: a name is never declined, never stacked after «игрока» («Череп у игрока Игрок 2!»,
«Открыта купюра игрока Игрок 4»), never after a preposition that wants another case («поровну у
Аня и Борис»), and no verb agrees with it in gender («он оставляет»)."""

from __future__ import annotations

import re

from companion.games import doubt, hoggenheimer, infinity, lottery, skull
from companion.games.base import Event
from companion.games.simulator import play_random_game

DEFAULT = ["Игрок 1", "Игрок 2", "Игрок 3", "Игрок 4"]
BAD = re.compile(r"игрок[аеуо]м? Игрок|\bу Игрок|\bон оставляет|поровну у ")


def test_skull_lines_with_default_names():
    told = [skull.describe_event(Event("flip", {"seat": 3, "serial": "АК2444841", "role": "skull"}), DEFAULT),
            skull.describe_event(Event("foreign_note", {"seat": 3, "why": "other_owner"}), DEFAULT),
            skull.describe_event(Event("outcome", {"outcome": "failure", "skull_owner": 1, "losers": [0],
                                                   "chooser": 1, "dealer": 0, "bid": 2}), DEFAULT)]
    assert told[0] == "Игрок 4: открыта купюра АК2444841 — череп"
    assert told[1].startswith("Игрок 4: в стопке чужая купюра — ")
    assert told[2] == "Череп: Игрок 2! В банк платят: Игрок 1; выбирает Игрок 2"


def test_infinity_and_doubt_lines_with_default_names():
    assert infinity.describe_event(Event("trick_started", {"leader": 0, "token": 1}), DEFAULT) == (
        "Раунд: ходит Игрок 1; фишка: Игрок 2")
    assert infinity.describe_event(Event("cards_left", {"seat": 2, "count": 2}), DEFAULT) == (
        "Карты на руках остались только у одного игрока — Игрок 3 (2): их оставляют себе")
    assert doubt.describe_event(Event("answered", {"seat": 1, "placer": 0, "answer": "believe"}), DEFAULT) == (
        "Игрок 2 отвечает «Верю» (заявка: Игрок 1)")


def test_whole_games_with_default_names_never_stack_igroka():
    from companion.games import new_game

    for gid, mod, n in (("skull", skull, 4), ("doubt", doubt, 3), ("infinity", infinity, 4),
                        ("hoggenheimer", hoggenheimer, 3), ("lottery", lottery, 4)):
        for seed in (1, 2):
            g, actions = play_random_game(gid, DEFAULT[:n], None, seed=seed)
            replay = new_game(gid, DEFAULT[:n], None)  # every public event's words, in order
            for text, _src in actions:
                for ev in replay.apply(text):
                    if ev.private_to is None:
                        line = mod.describe_event(ev, DEFAULT[:n], "ru") or ""
                        assert not BAD.search(line), (gid, line)
            words = mod.describe_standings(g.view(None), DEFAULT[:n], "ru") or ""
            assert not BAD.search(words), (gid, words)
