"""A refusal says the facts the server already has: who must act now («Сейчас ходит Борис.», not
«Сейчас ходит другой игрок.»), which serial is registered already, how many notes a set had against
how many each player registers — in both languages. The engines give them in
``IllegalAction.facts``; ``companion.dashboard.reasons`` words them."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.dashboard.reasons import reason_message
from companion.games import new_game
from companion.table import Table
from tests.dashboard.helpers import operator_client, seat_client
from tests.gamekit import rejects

ANYA = "АК2444842,АК2444844,АК2444846,АК2444841"
BORIS = "ВЕ1000002,ВЕ1000004,ВЕ1000006,ВЕ1000001"


def words(g, action, reason):
    exc = rejects(g, action, reason)
    return tuple(reason_message(exc.reason, lang, g.GAME_ID, g.options, exc.facts) for lang in ("ru", "en"))


def test_not_your_turn_names_who_must_act_in_every_game():
    g = new_game("skull", ["Аня", "Борис", "Вера"])
    g.apply(f"table register 0 {ANYA} ?")
    g.apply(f"table register 1 {BORIS} ?")
    g.apply("table register 2 ВЕ2000002,ВЕ2000004,ВЕ2000006,ВЕ2000001 ?")
    for a in ("table dealer 0", "0 place", "1 place", "2 place"):
        g.apply(a)
    assert words(g, "1 place", "not_your_turn") == ("Сейчас ходит Аня.", "Аня must act now.")
    g.apply("0 bid 1")
    assert words(g, "2 pass", "not_your_turn")[0] == "Сейчас ходит Борис."

    g = new_game("doubt", ["Аня", "Борис", "Вера"])
    g.apply(f"{g.dealer} deal")
    other = (g.turn + 1) % 3
    assert words(g, f"{other} place 1 owl", "not_your_turn")[0] == f"Сейчас ходит {g.seats[g.turn]}."

    g = new_game("infinity", ["Аня", "Борис", "Вера"])
    g.apply("table deal 0")
    assert words(g, "1 play ?", "not_your_turn") == ("Сейчас ходит Аня.", "Аня must act now.")
    assert words(g, "1 void", "not_your_turn")[0] == "Это делает стол: камера или оператор."

    g = new_game("lottery", ["Аня", "Борис", "Вера", "Глеб"])
    assert words(g, "2 spread 4,3,2,1", "not_your_turn") == (
        "Фишки раскладывает банкир — Аня.", "The banker, Аня, spreads the chips.")


def test_skull_registration_refusals_name_the_serial_and_the_counts():
    g = new_game("skull", ["Аня", "Борис", "Вера"])
    g.apply(f"table register 0 {ANYA} ?")
    assert words(g, "table register 1 АК2444842,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?", "serial_taken") == (
        "Купюра АК2444842 уже зарегистрирована за другим игроком.",
        "Note АК2444842 is already registered to another player.")
    assert words(g, "table register 1 ВЕ1000004,ВЕ1000006,ВЕ1000001 ?", "wrong_note_count") == (
        "Неверное число купюр: в наборе 3, а каждый регистрирует 4.",
        "Wrong number of notes: the set has 3; each player registers 4.")
    assert words(g, "table register 1 ВЕ1000004,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?", "duplicate_serial")[0] == (
        "Купюра ВЕ1000004 дважды в наборе игрока.")
    assert words(g, "table register 1 ВЕ1000004,ВЕ1000008,ВЕ1000006,ВЕ1000002 ?", "wrong_skull_count")[0] == (
        "Неверное число «черепов»: в наборе 0, а нужно 1 из 4 купюр.")


@pytest.fixture
def skull_app(fast_dir):
    table = Table(fast_dir, pin="246810")
    table.new_game("skull", ["Аня", "Борис", "Вера"])
    app = create_app(table, testing=True)
    yield table, app
    app.extensions["companion"]["hub"].close()
    table.close()


def test_the_dashboard_says_them(skull_app):
    table, app = skull_app
    c, csrf = operator_client(app, table)
    h = {"X-CSRF-Token": csrf}
    assert c.post("/api/operator/manual", json={"action": f"table register 0 {ANYA} ?"}, headers=h).status_code == 200
    r = c.post("/api/operator/manual", json={"action": "table register 1 АК2444842,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?"},
               headers=h)
    assert r.status_code == 409 and r.json["message"] == "Купюра АК2444842 уже зарегистрирована за другим игроком."
    r = c.post("/api/operator/manual", json={"action": "table register 1 ВЕ1000004,ВЕ1000006,ВЕ1000001 ?"}, headers=h)
    assert r.json["message"] == "Неверное число купюр: в наборе 3, а каждый регистрирует 4."
    for line in (f"table register 1 {BORIS} ?", "table register 2 ВЕ2000002,ВЕ2000004,ВЕ2000006,ВЕ2000001 ?",
                 "table dealer 0", "0 place", "1 place", "2 place"):
        assert table.submit(line, "manual").accepted, line
    s, scsrf = seat_client(app, table, 2)
    r = s.post("/api/seat/action", json={"action": "2 place"}, headers={"X-CSRF-Token": scsrf})
    assert r.status_code == 409 and r.json["message"] == "Сейчас ходит Аня."
    s.get("/lang/en")
    r = s.post("/api/seat/action", json={"action": "2 place"}, headers={"X-CSRF-Token": scsrf})
    assert r.json["message"] == "Аня must act now."
