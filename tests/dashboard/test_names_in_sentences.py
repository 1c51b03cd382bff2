"""Sentences with a player's name read well whatever the name is — «Игрок 2» (the default) as
well as «Аня»: a name is never declined, never stacked after «игрока» («Череп у игрока Игрок 2!»,
«Открыта купюра игрока Игрок 4»), never after a preposition that wants another case («поровну у
Аня и Борис»), and no verb agrees with it in gender («он оставляет»). The lines' words are a golden snapshot; the
checks here are the name's form and place."""

from __future__ import annotations

import re

from companion.games import doubt, hoggenheimer, infinity, lottery, skull
from companion.games.base import Event
from companion.games.simulator import play_random_game
from companion.i18n import render
from tests.wording import golden

DEFAULT = ["Игрок 1", "Игрок 2", "Игрок 3", "Игрок 4"]
BAD = re.compile(r"игрок[аеуо]м? Игрок|\bу Игрок|\bон оставляет|поровну у ")


#: lines naming default players: ``(game module, event)``; their words are the golden snapshot
#: tests/i18n/golden/default-names.<lang>.txt (one rendered check per language)
LINES = [
    (skull, Event("flip", {"seat": 3, "serial": "АК2444841", "role": "skull"})),
    (skull, Event("foreign_note", {"seat": 3, "why": "other_owner"})),
    (skull, Event("outcome", {"outcome": "failure", "skull_owner": 1, "losers": [0], "chooser": 1, "dealer": 0, "bid": 2})),
    (infinity, Event("trick_started", {"leader": 0, "token": 1})),
    (infinity, Event("cards_left", {"seat": 2, "count": 2})),
    (doubt, Event("answered", {"seat": 1, "placer": 0, "answer": "believe"})),
]


def test_lines_with_default_names_are_the_golden_ones():
    for lang in ("ru", "en"):
        told = [f"{mod.__name__.rsplit('.', 1)[1]} {ev.kind}: {render(mod.describe_event(ev, DEFAULT), lang)}" for mod, ev in LINES]
        golden(f"default-names.{lang}.txt", "\n".join(told) + "\n")


def test_a_default_name_is_never_declined_nor_stacked():
    for mod, ev in LINES:
        line = render(mod.describe_event(ev, DEFAULT), "ru")
        assert not BAD.search(line), line
        for key in ("seat", "skull_owner", "leader", "placer", "token", "chooser"):  # every seat named, as it is
            if key in ev.data:
                assert DEFAULT[ev.data[key]] in line, (key, line)


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
                        line = render(mod.describe_event(ev, DEFAULT[:n]), "ru") or ""
                        assert not BAD.search(line), (gid, line)
            words = render(mod.describe_standings(g.view(None), DEFAULT[:n]), "ru") or ""
            assert not BAD.search(words), (gid, words)
