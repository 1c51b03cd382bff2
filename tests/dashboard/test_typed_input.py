"""Text typed or pasted by people, as the pages take it (tester's report, session 11): a pasted
zero-width character (Unicode Cf) with a seat code or the PIN is not part of it (and not a wrong
guess), full-width digits and letters are the plain ones (NFKC) in a manual serial, an over-long
input gets a specific refusal in the page's language (its length and the most taken), a name
nobody can see is no player, and the Russian pages say «ПИН», not «PIN»."""

from __future__ import annotations

import re

import pytest

from companion.dashboard import create_app
from companion.dashboard.operator import split_names
from companion.sanitise import MAX_TEXT
from companion.table import Table
from companion.vision.serials import canonical

from tests.dashboard.helpers import csrf_of, operator_client

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
ZWSP = "\u200b"
FULL = str.maketrans("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "０１２３４５６７８９ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ")
SET0 = "АК2444840,АК2444842,АК2444844,АК2444841"


@pytest.fixture
def env(tmp_path):
    table = Table(tmp_path / "t", pin="246810")
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    app = create_app(table, testing=True)
    yield table, app
    app.extensions["companion"]["hub"].close()
    table.close()


def _client(app, lang):
    c = app.test_client()
    if lang == "en":
        c.get("/lang/en")
    return c


def _text(html: bytes) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", " ", html.decode(), flags=re.S))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_long_join_code_is_refused_in_words(env, lang):
    table, app = env
    c = _client(app, lang)
    token = csrf_of(c, "/join")
    r = c.post("/join", data={"code": "1" * 500, "csrf_token": token})
    assert r.status_code == 400
    text = _text(r.data)
    assert "bad code" not in text and "500" in text
    assert bool(CYRILLIC.search(text.split("500")[0][-80:])) == (lang == "ru")


def test_a_zero_width_space_pasted_with_a_seat_code_joins(env):
    table, app = env
    c = app.test_client()
    token = csrf_of(c, "/join")
    code = table.seat_codes()[1]
    r = c.post("/join", data={"code": code[:3] + ZWSP + code[3:] + "\u2060", "csrf_token": token})
    assert r.status_code == 302, r.data


def test_a_zero_width_space_pasted_with_the_pin_logs_in(env):
    table, app = env
    c = app.test_client()
    token = csrf_of(c, "/operator")
    r = c.post("/operator/login", data={"pin": ZWSP + table.pin + "\ufeff", "csrf_token": token})
    assert r.status_code == 302, r.data


def test_an_invisible_name_is_no_player():
    assert split_names(f"A,{ZWSP},C") == ["A", "C"]
    assert split_names(f"Аня\n{ZWSP}\u200e\nБорис") == ["Аня", "Борис"]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_name_too_long_for_any_field_says_so(env, lang):
    table, app = env
    c, token = operator_client(app, table)
    if lang == "en":
        c.get("/lang/en")
    n = MAX_TEXT + 1000
    r = c.post("/operator/new", data={"game": "skull", "seats": "Аня,Борис," + "я" * n, "csrf_token": token},
               headers={"Accept": "application/json"})
    assert r.status_code == 400
    body = r.get_data(as_text=True)
    assert str(n + len("Аня,Борис,")) in body and str(MAX_TEXT) in body
    from companion.dashboard.reasons import BAD_TEXT
    from companion.i18n import M, render

    assert render(M(BAD_TEXT), lang) not in body


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_long_seat_name_on_the_form_gives_its_length(env, lang):
    table, app = env
    c, token = operator_client(app, table)
    if lang == "en":
        c.get("/lang/en")
    r = c.post("/operator/new", data={"game": "skull", "seats": "Аня,Борис," + "Ю" * 300, "csrf_token": token})
    assert r.status_code == 400
    assert "300" in _text(r.data)


def test_full_width_serial_is_canonical():
    assert canonical("ＡＢ１２３４５６７") == "AB1234567"
    assert canonical("１２３") == "123"
    assert canonical("АК" + ZWSP + "2444840") == "АК2444840"


def test_a_manual_serial_typed_in_full_width_digits_is_taken(env):
    table, app = env
    c, token = operator_client(app, table)
    typed = SET0.translate(FULL)
    assert typed != SET0
    r = c.post("/api/operator/manual", json={"action": f"table register 0 {typed} ?"},
               headers={"X-CSRF-Token": token})
    assert r.status_code == 200, r.json
    assert table.referee.log.records()[-1].action == f"table register 0 {SET0} ?"


def test_the_russian_login_page_says_pin_in_russian(env):
    table, app = env
    text = _text(app.test_client().get("/operator").data)
    assert "PIN" not in text
    en = _text(_client(app, "en").get("/operator").data)
    assert "PIN" in en and not CYRILLIC.search(en.split("PIN")[0][-60:])
