"""The operator's manual form for a card names the player whose card it is when the action itself
names no seat: 6100's «Карта» after a player declared his card, doubt's turned-up cards of the last
move — as skull's forms name him («Купюра в банк Борис»)."""

from __future__ import annotations

from companion.dashboard import model as M
from companion.dashboard.hub import Hub
from companion.games import new_game
from companion.games.simulator import get_sim_class
from companion.table import Table


def operator_actions(table):
    hub = Hub(table)
    try:
        return hub.model(M.OPERATOR)["actions"]
    finally:
        hub.close()


def test_infinity_face_form_names_the_player_who_played(fast_dir):
    table = Table(fast_dir, pin="314159")
    try:
        table.new_game("infinity", ["Аня", "Борис", "Вика"])
        assert table.submit("table deal 0", "manual").accepted
        assert table.submit("0 play 10", "camera").accepted
        assert table.submit("1 play ?", "dashboard").accepted
        face = next(a for a in operator_actions(table) if a["verb"] == "face")
        assert face["whose"] == 1 and face["args"] == ["?"]
        # the public and seat pages get no operator forms
        hub = Hub(table)
        try:
            assert hub.model(M.PUBLIC)["actions"] == [] and hub.model(2)["actions"] == []
        finally:
            hub.close()
    finally:
        table.close()


def test_doubt_reveal_form_names_the_last_placer():
    g = new_game("doubt", ["Аня", "Борис", "Вика"], None)
    sim = get_sim_class("doubt")(g, 1)
    while not any(a.VERB == "reveal" for a in g.legal_actions(None)):
        text, _ = sim.next_action()
        g.apply(text)
        sim.applied(text)
    placer = g.view(None)["pile"]["placements"][-1]["seat"]
    acts = M.whose([M.describe_action(a.text(), "doubt") for a in g.legal_actions(None)], "doubt",
                   g.view(None), g.seats)
    reveal = next(a for a in acts if a["verb"] == "reveal")
    assert reveal["whose"] == placer
    assert all("whose" not in a for a in acts if a["verb"] != "reveal")
