"""One text sanitiser at the API edge (issue #20 items 5 and 6): a lone surrogate, a control
character, an over-long string or a 5 000-deep JSON body is refused with 400 in words — never a
500 — and nothing broken reaches a page; ``/lang/…?next=`` goes only to a path on this site."""

from __future__ import annotations

import json

import pytest

from companion.sanitise import BadText, check_text, clean, json_depth, parse_json
from tests.dashboard.helpers import csrf_of
from companion.i18n import M, render


@pytest.fixture
def env(counting_env):
    return counting_env


def _operator(app, table):
    c = app.test_client()
    token = csrf_of(c, "/operator")
    assert c.post("/operator/login", data={"pin": table.pin, "csrf_token": token}).status_code == 302
    return c, {"X-CSRF-Token": token, "Content-Type": "application/json"}


def _pages_work(app, op):
    for path in ("/", "/api/state", "/join"):
        assert app.test_client().get(path).status_code == 200, path
    assert op.get("/operator").status_code == 200
    assert op.get("/api/operator/state").status_code == 200


def test_a_lone_surrogate_in_a_prompt_is_refused_and_pages_stay_up(env):
    """The bug: an operator prompt holding "\\ud800" took /, /api/state, the console and every
    stream down until it was cleared."""
    table, app = env
    op, h = _operator(app, table)
    body = json.dumps({"text": "покажите \ud800 камере"})  # JSON escapes it as \\ud800
    assert "\\ud800" in body
    r = op.post("/api/operator/prompt", data=body, headers=h)
    assert r.status_code == 400 and r.json["detail"].startswith("bad_text")
    assert r.json["message"] == render(M("The text holds characters that cannot be shown (control characters or broken "
                                         "ones): type it again."), "ru")
    assert table.prompts() == []
    _pages_work(app, op)
    # a prompt another part of the program adds is cleaned, not trusted
    table.add_prompt("игрок 2 \ud800, покажите\x07 купюры")
    assert table.prompts()[0]["text"] == "игрок 2 , покажите купюры"
    _pages_work(app, op)


@pytest.mark.parametrize("text", ["0 add \ud800", "0 add 1\x00", "0 add \x1b[31m1", "x" * 5000])
def test_broken_text_in_a_seat_action_is_400(env, text):
    table, app = env
    c = app.test_client()
    token = csrf_of(c, "/join")
    assert c.post("/join", data={"code": table.seat_codes()[0], "csrf_token": token}).status_code == 302
    r = c.post("/api/seat/action", data=json.dumps({"action": text}),
               headers={"X-CSRF-Token": token, "Content-Type": "application/json"})
    assert r.status_code == 400, r.data
    assert table.referee.version == 0


@pytest.mark.parametrize("depth", [50, 5000, 60000])
def test_deeply_nested_json_is_400(env, depth):
    table, app = env
    op, h = _operator(app, table)
    for path in ("/api/operator/prompt", "/api/operator/undo", "/api/operator/manual"):
        body = "[" * depth + "]" * depth
        r = op.post(path, data=body, headers=h)
        assert r.status_code in (400, 413), (path, r.status_code)
        body = '{"a":' * depth + "1" + "}" * depth
        assert op.post(path, data=body, headers=h).status_code in (400, 413)


def test_query_and_form_text_is_checked(env):
    table, app = env
    c = app.test_client()
    assert c.get("/lang/en?next=/%0a/x").status_code == 302  # the bug: 500
    assert c.get("/join?code=%00").status_code == 400
    op, h = _operator(app, table)
    token = h["X-CSRF-Token"]
    r = op.post("/operator/new", data={"game": "counting", "seats": "Аня\x00\nБорис", "csrf_token": token})
    assert r.status_code == 400 and table.game_info()["seats"] == ["Аня", "Борис"]
    # a name from the command line (argv undecodable bytes become lone surrogates) is refused too
    from companion.errors import IllegalAction

    with pytest.raises(IllegalAction) as err:
        table.new_game("counting", ["Аня", "Б\udcffорис"])
    assert err.value.reason == "bad_seats"


@pytest.mark.parametrize("target", ["/%09/evil.example", "/%0a/evil.example", "/%0d%0a/evil.example",
                                    "//evil.example", "/\\evil.example", "/%5cevil.example",
                                    "https://evil.example", "/%20/evil.example", "javascript:alert(1)"])
def test_lang_switch_never_redirects_off_the_site(env, target):
    """The bug: /lang/en?next=/%09/evil.example answered Location: //evil.example."""
    _, app = env
    r = app.test_client().get(f"/lang/en?next={target}")
    assert r.status_code == 302 and r.headers["Location"] == "/", (target, r.headers["Location"])


def test_lang_switch_keeps_paths_of_this_site(env):
    _, app = env
    for target in ("/join", "/seat", "/operator?x=1"):
        assert app.test_client().get(f"/lang/en?next={target}").headers["Location"] == target


def test_the_rules():
    assert check_text("Аня\tБорис\n") == "Аня\tБорис\n"
    for bad in ("\ud800", "a\x00", "\x7f", "\x85", "x" * 4001):
        with pytest.raises(BadText):
            check_text(bad)
    assert clean("a\ud800b\x00c\n") == "abc\n"
    assert json_depth('{"a": "[[[[", "b": [[1]]}') == 3
    with pytest.raises(BadText):
        parse_json("[" * 21 + "]" * 21)
    with pytest.raises(BadText):
        parse_json('{"x": NaN}')
    with pytest.raises(BadText):
        parse_json(json.dumps(list(range(3000))))
    assert parse_json('{"action": "0 add 1", "seen": 3}') == {"action": "0 add 1", "seen": 3}


@pytest.mark.parametrize("control", ["\u202e", "\u202d", "\u2067", "\u200f"])
def test_a_prompt_loses_direction_controls_as_a_name_does(env, control):
    """An operator prompt with U+202E showed backwards on every screen; names had the controls
    stripped, prompts did not: one rule for both (companion.sanitise.clean, without_bidi)."""
    table, app = env
    op, h = _operator(app, table)
    r = op.post("/api/operator/prompt", data=json.dumps({"text": f"покажите {control}купюры{control} камере"}),
                headers=h)
    assert r.status_code == 200, r.json
    assert [p["text"] for p in table.prompts()] == ["покажите купюры камере"]
    assert control not in app.test_client().get("/api/state").get_data(as_text=True)
    assert control not in op.get("/operator").get_data(as_text=True)


@pytest.mark.parametrize("typed, meant", [
    ("uhb,", "гриб"), ("Dth.", "Верю"), ("Yt dth.", "Не верю"), ("dskj;bnm 2", "выложить 2"),
    ("`;", "ёж"), ("~:", "ЁЖ"), ("<tkrf", "Белка"), ("гриб", None), ("12", None), ("uhb!", None), ("", None), ("2,", None), (". ,", None),
])
def test_text_typed_on_the_latin_layout_read_as_the_russian_keys(typed, meant):
    from companion.sanitise import other_layout

    assert other_layout(typed) == meant
