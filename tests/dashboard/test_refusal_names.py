"""A refusal says the facts the server already has: who must act now («Сейчас ходит Борис.», not
«Сейчас ходит другой игрок.»), which serial is registered already, how many notes a set had against
how many each player registers — in both languages. The engines give them in
``IllegalAction.facts``; ``companion.dashboard.reasons`` words them. The checks assert the message
id and its facts (:mod:`tests.wording`); the dashboard one keeps a rendered sentence per language."""

from __future__ import annotations


from companion.dashboard.reasons import reason_words
from companion.games import new_game
from companion.i18n import render
from tests.dashboard.helpers import operator_client, seat_client
from tests.wording import refusal, said

ANYA = "АК2444842,АК2444844,АК2444846,АК2444841"
BORIS = "ВЕ1000002,ВЕ1000004,ВЕ1000006,ВЕ1000001"


ACT_NOW = "%(player)s must act now."


def words(g, action, reason):
    """``(id, facts)`` of the refusal of ``action`` (:func:`tests.wording.said`)."""
    return said(refusal(g, action, reason))


def test_not_your_turn_names_who_must_act_in_every_game():
    g = new_game("skull", ["Аня", "Борис", "Вера"])
    g.apply(f"table register 0 {ANYA} ?")
    g.apply(f"table register 1 {BORIS} ?")
    g.apply("table register 2 ВЕ2000002,ВЕ2000004,ВЕ2000006,ВЕ2000001 ?")
    for a in ("table dealer 0", "0 place", "1 place", "2 place"):
        g.apply(a)
    assert words(g, "1 place", "not_your_turn") == (ACT_NOW, {"player": "Аня"})
    g.apply("0 bid 1")
    assert words(g, "2 pass", "not_your_turn") == (ACT_NOW, {"player": "Борис"})

    g = new_game("doubt", ["Аня", "Борис", "Вера"])
    g.apply(f"{g.dealer} deal")
    other = (g.turn + 1) % 3
    assert words(g, f"{other} place 1 owl", "not_your_turn") == (ACT_NOW, {"player": g.seats[g.turn]})

    g = new_game("infinity", ["Аня", "Борис", "Вера"])
    g.apply("table deal 0")
    assert words(g, "1 play ?", "not_your_turn") == (ACT_NOW, {"player": "Аня"})
    assert words(g, "1 void", "not_your_turn") == ("The table does this: the camera or the operator.", {})

    g = new_game("lottery", ["Аня", "Борис", "Вера", "Глеб"])
    assert words(g, "2 spread 4,3,2,1", "not_your_turn") == ("The banker, %(player)s, spreads the chips.", {"player": "Аня"})


def test_skull_registration_refusals_name_the_serial_and_the_counts():
    g = new_game("skull", ["Аня", "Борис", "Вера"])
    g.apply(f"table register 0 {ANYA} ?")
    assert words(g, "table register 1 АК2444842,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?", "serial_taken") == (
        "Note %(serial)s is already registered to another player.", {"serial": "АК2444842"})
    assert words(g, "table register 1 ВЕ1000004,ВЕ1000006,ВЕ1000001 ?", "wrong_note_count") == (
        "Wrong number of notes: the set has %(given)s; each player registers %(each)s.", {"given": 3, "each": 4})
    assert words(g, "table register 1 ВЕ1000004,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?", "duplicate_serial") == (
        "Note %(serial)s appears twice in the player's set.", {"serial": "ВЕ1000004"})
    assert words(g, "table register 1 ВЕ1000004,ВЕ1000008,ВЕ1000006,ВЕ1000002 ?", "wrong_skull_count") == (
        "Wrong number of skulls: the set has %(skulls)s; %(want)s of %(each)s notes are needed.",
        {"skulls": 0, "want": 1, "each": 4})


def test_the_dashboard_says_them(dash):
    table, app = dash("skull", ["Аня", "Борис", "Вера"])
    c, csrf = operator_client(app, table)
    h = {"X-CSRF-Token": csrf}
    assert c.post("/api/operator/manual", json={"action": f"table register 0 {ANYA} ?"}, headers=h).status_code == 200
    r = c.post("/api/operator/manual", json={"action": "table register 1 АК2444842,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?"},
               headers=h)
    assert r.status_code == 409 and r.json["reason"] == "serial_taken"
    assert r.json["message"] == render(reason_words("serial_taken", "skull", None, {"serials": ["АК2444842"]}), "ru")
    r = c.post("/api/operator/manual", json={"action": "table register 1 ВЕ1000004,ВЕ1000006,ВЕ1000001 ?"}, headers=h)
    assert r.json["reason"] == "wrong_note_count"
    assert r.json["message"] == render(reason_words("wrong_note_count", "skull", None, {"given": 3, "each": 4}), "ru")
    for line in (f"table register 1 {BORIS} ?", "table register 2 ВЕ2000002,ВЕ2000004,ВЕ2000006,ВЕ2000001 ?",
                 "table dealer 0", "0 place", "1 place", "2 place"):
        assert table.submit(line, "manual").accepted, line
    s, scsrf = seat_client(app, table, 2)
    r = s.post("/api/seat/action", json={"action": "2 place"}, headers={"X-CSRF-Token": scsrf})
    # the one rendered check per language: who must act, by name
    assert r.status_code == 409 and r.json["message"] == "Сейчас ходит Аня."
    s.get("/lang/en")
    r = s.post("/api/seat/action", json={"action": "2 place"}, headers={"X-CSRF-Token": scsrf})
    assert r.json["message"] == "Аня must act now."
