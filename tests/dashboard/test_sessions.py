"""Logins that end (issue #20 item 7): operator and seat logins expire, die at logout (on the
table, not only in the browser — a copied cookie is refused too) and at a new PIN; a join
rewrites ``table.json`` only when something changed, and the file stays small however often
codes are used; a PIN shorter than 6 digits is refused in words."""

from __future__ import annotations

import json

import pytest

from companion.dashboard import create_app
from companion.i18n import render
from companion.sessions import OPERATOR_TTL_S, SEAT_TOKENS_PER_SEAT, SEAT_TTL_S, pin_refusal
from companion.settings import Settings, SettingsError
from companion.table import STATE_FILE, Table
from tests.dashboard.helpers import csrf_of
from tests.wording import said


class WallClock:
    def __init__(self):
        self.t = 1_800_000_000.0

    def __call__(self):
        return self.t


@pytest.fixture
def env(tmp_path, counting):
    table = Table(tmp_path, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    clock = WallClock()
    table.sessions.clock = clock
    app = create_app(table, testing=True)
    yield table, app, clock, tmp_path
    app.extensions["companion"]["hub"].close()
    table.close()


def _login(app, table):
    c = app.test_client()
    token = csrf_of(c, "/operator")
    assert c.post("/operator/login", data={"pin": table.pin, "csrf_token": token}).status_code == 302
    return c, token


def _copy(app, client):
    other = app.test_client()
    other.set_cookie("session", client.get_cookie("session").value)
    return other


def test_operator_login_dies_at_logout_even_in_a_copied_cookie(env):
    table, app, clock, folder = env
    c, token = _login(app, table)
    stolen = _copy(app, c)
    assert stolen.get("/api/operator/state").status_code == 200
    assert c.post("/operator/logout", data={"csrf_token": token}).status_code == 302
    assert stolen.get("/api/operator/state").status_code == 403  # the bug: still 200
    # and after a restart of the table too (table.json keeps the ended login)
    cookie = stolen.get_cookie("session").value
    table.close()
    again = Table(folder)
    again.sessions.clock = clock
    app2 = create_app(again, testing=True)
    later = app2.test_client()
    later.set_cookie("session", cookie)
    try:
        assert later.get("/api/operator/state").status_code == 403
        # another browser's login is untouched
        c2, _ = _login(app2, again)
        assert c2.get("/api/operator/state").status_code == 200
    finally:
        app2.extensions["companion"]["hub"].close()
        again.close()


def test_operator_login_expires(env):
    table, app, clock, _ = env
    c, _ = _login(app, table)
    clock.t += OPERATOR_TTL_S - 60
    assert c.get("/api/operator/state").status_code == 200
    clock.t += 120
    assert c.get("/api/operator/state").status_code == 403
    assert b'name="pin"' in c.get("/operator").data  # the PIN is asked again


def test_a_new_pin_ends_every_operator_login(env):
    table, app, clock, folder = env
    c, _ = _login(app, table)
    cookie = c.get_cookie("session").value
    table.close()
    renewed = Table(folder, new_pin=True)
    app2 = create_app(renewed, testing=True)
    again = app2.test_client()
    again.set_cookie("session", cookie)
    try:
        assert again.get("/api/operator/state").status_code == 403
    finally:
        app2.extensions["companion"]["hub"].close()
        renewed.close()


def _join(app, table, seat, client=None):
    c = client or app.test_client()
    token = csrf_of(c, "/join")
    r = c.post("/join", data={"code": table.seat_codes()[seat], "csrf_token": token})
    assert r.status_code == 302, r.data
    return c, token


def test_seat_login_dies_when_the_seat_is_left_and_expires(env):
    table, app, clock, _ = env
    c, token = _join(app, table, 1)
    stolen = _copy(app, c)
    assert stolen.get("/api/seat/state").status_code == 200
    assert c.post("/seat/leave", data={"csrf_token": token}).status_code == 302
    assert stolen.get("/api/seat/state").status_code == 403  # the bug: still 200
    c2, _ = _join(app, table, 1)
    clock.t += SEAT_TTL_S + 1
    assert c2.get("/api/seat/state").status_code == 403


def test_a_join_rewrites_table_json_only_when_something_changed(env, monkeypatch):
    import companion.table.store as T

    table, app, clock, folder = env
    writes = []
    real = T.write_file
    monkeypatch.setattr(T, "write_file", lambda path, data, **kw: (writes.append(str(path)), real(path, data, **kw)))
    c, _ = _join(app, table, 0)
    assert sum(p.endswith(STATE_FILE) for p in writes) == 1
    for _ in range(5):  # the same browser joins its own seat again: the same login, nothing written
        _join(app, table, 0, c)
    assert sum(p.endswith(STATE_FILE) for p in writes) == 1
    assert c.get("/api/seat/state").status_code == 200


def test_table_json_stays_small_however_often_codes_are_used(env):
    """The bug: 3,000 joins grew table.json from 11.7 to 128.7 KB."""
    table, app, clock, folder = env
    first = [table.join(table.seat_codes()[0]) for _ in range(3)]
    for i in range(3000):
        table.join(table.seat_codes()[i % 2])
    state = json.loads((folder / STATE_FILE).read_text(encoding="utf-8"))
    assert len(state["seat_tokens"]) == 2 * SEAT_TOKENS_PER_SEAT
    assert (folder / STATE_FILE).stat().st_size < 2000
    assert all(table.seat_for_token(tok) is None for _seat, tok in first)  # the oldest phones went


def test_seat_logins_of_an_older_table_json_are_kept(tmp_path, counting):
    table = Table(tmp_path, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    table.close()
    state = json.loads((tmp_path / STATE_FILE).read_text(encoding="utf-8"))
    state["seat_tokens"] = {"old-phone-token": 1}  # the format before logins expired
    (tmp_path / STATE_FILE).write_text(json.dumps(state), encoding="utf-8")
    again = Table(tmp_path)
    assert again.seat_for_token("old-phone-token") == 1
    again.close()


def test_a_short_pin_is_refused_in_words(tmp_path):
    with pytest.raises(SettingsError) as err:
        Table(tmp_path, pin="2468")
    short = pin_refusal("2468")
    assert said(short)[0].startswith("the operator PIN must have at least %(min)s digits") and short.facts["min"] == 6
    assert "6" in str(err.value) and render(short, "ru") in err.value.words("ru")
    with pytest.raises(SettingsError) as err:
        Settings.load(None, pin="12345")
    assert err.value.message.facts["why"] == pin_refusal("12345")
    assert Table(tmp_path, pin="024680").pin == "024680"


def test_companion_dashboard_refuses_a_short_pin(tmp_path, capsys):
    from companion.cli import build_parser
    from companion.commands import dashboard as cmd

    args = build_parser().parse_args(["dashboard", "--data-dir", str(tmp_path), "--pin", "1234", "--port", "0"])
    assert cmd.run(args) == 2
    err = capsys.readouterr().err
    assert render(pin_refusal("1234"), "ru") in err and "Traceback" not in err


def test_a_phone_that_left_and_joined_again_stays_on_its_seat(env):
    """The newcomer's report: after «Покинуть место» and a join with the same code, a new page
    with the browser's saved cookie (and the table after a restart) must still open the seat;
    the revoked token is never reused and the cycles leave one live token, not the cap's six."""
    table, app, clock, folder = env
    c, csrf = _join(app, table, 0)
    seen = set()
    for _ in range(SEAT_TOKENS_PER_SEAT + 2):
        before = table.sessions.seat_tokens.copy()
        assert c.post("/seat/leave", data={"csrf_token": csrf}).status_code == 302
        assert not table.sessions.seat_tokens, "the left token stays live"
        c, csrf = _join(app, table, 0, c)
        assert c.get("/seat").status_code == 200
        assert _copy(app, c).get("/seat").status_code == 200  # a new page with the saved cookie
        tokens = json.loads((folder / STATE_FILE).read_text(encoding="utf-8"))["seat_tokens"]
        assert list(tokens) == list(table.sessions.seat_tokens) and len(tokens) == 1
        (token,) = tokens
        assert token not in before and token not in seen  # a revoked token is never handed out again
        seen.add(token)
    cookie = c.get_cookie("session").value
    app.extensions["companion"]["hub"].close()
    table.close()
    again = Table(folder, pin="246810")  # a server restart: the same folder, the same key
    again.sessions.clock = clock
    app2 = create_app(again, testing=True)
    try:
        phone = app2.test_client()
        phone.set_cookie("session", cookie)
        assert phone.get("/seat").status_code == 200
    finally:
        app2.extensions["companion"]["hub"].close()
        again.close()
