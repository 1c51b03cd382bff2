"""The seats' phones (issue #23 item 2): the operator sees which phones hold each seat and signs
one out (its login ends at once, its stream closes, its page is told); a second phone on a seat is
announced to the first; a wrong guess that starts a lockout says how long; the operator's own
logged-in browser is never locked out of joining."""

from __future__ import annotations

import json

import pytest

from companion.dashboard import DashboardServer, create_app
from companion.dashboard.security import Limiter
from companion.sessions import device_label
from companion.table import Table
from tests.dashboard.helpers import csrf_of, operator_client
from tests.dashboard.test_stream import SSE
from companion.i18n import M, render
from markupsafe import escape
from companion.dashboard.security import countdown_words

ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/126.0.0.0 Mobile Safari/537.36")
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
          "Version/17.5 Mobile/15E148 Safari/604.1")


@pytest.fixture
def env(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True, limiter=Limiter())
    yield table, app
    app.extensions["companion"]["hub"].close()
    table.close()


def _join(app, table, seat, ua, addr="10.0.0.5"):
    c = app.test_client()
    token = csrf_of(c, "/join")
    r = c.post("/join", data={"code": table.seat_codes()[seat], "csrf_token": token},
               headers={"User-Agent": ua}, environ_base={"REMOTE_ADDR": addr})
    assert r.status_code == 302 and r.headers["Location"].endswith("/seat"), r.data
    with c.session_transaction() as s:
        return c, token, s["seat"]


def test_device_labels():
    assert device_label(ANDROID) == "Chrome, Android"
    assert device_label(IPHONE) == "Safari, iOS"
    assert device_label("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0") == "Firefox, Linux"
    assert device_label(ANDROID.replace("Chrome/126.0.0.0 Mobile", "SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile")) \
        == "Samsung Internet, Android"
    assert device_label("") == "?" and device_label(None) == "?"


def test_the_operator_sees_each_seats_phones_never_a_token(env):
    table, app = env
    _a, _, tok_a = _join(app, table, 0, ANDROID)
    _b, _, tok_b = _join(app, table, 0, IPHONE)
    _c, _, tok_c = _join(app, table, 1, ANDROID)
    op, _ = operator_client(app, table)
    r = op.get("/api/operator/devices")
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    for tok in (tok_a, tok_b, tok_c):
        assert tok not in body
    seats = r.get_json()["seats"]
    assert [s["name"] for s in seats] == ["Аня", "Борис"]
    assert [d["label"] for d in seats[0]["devices"]] == ["Chrome, Android", "Safari, iOS"]
    assert [d["label"] for d in seats[1]["devices"]] == ["Chrome, Android"]
    d = seats[0]["devices"][0]
    assert len(d["id"]) == 12 and d["first"] <= d["last"] and d["online"] is False
    # only the operator
    assert _a.get("/api/operator/devices").status_code == 403
    assert app.test_client().get("/api/operator/devices").status_code == 403


def test_last_seen_follows_the_phones_requests(env):
    table, app = env
    a, _, tok = _join(app, table, 0, ANDROID)
    clock = table.sessions.clock
    table.sessions.clock = lambda: clock() + 600
    try:
        assert a.get("/api/seat/state").status_code == 200
        d = table.sessions.devices(0)[0]
        assert d["last"] - d["first"] >= 599
    finally:
        table.sessions.clock = clock


def test_revoking_a_phone_ends_its_login_at_once_and_only_its(env, fast_dir):
    table, app = env
    a, _, tok_a = _join(app, table, 0, ANDROID)
    b, _, tok_b = _join(app, table, 0, IPHONE)
    op, csrf = operator_client(app, table)
    dev = next(d for d in op.get("/api/operator/devices").get_json()["seats"][0]["devices"] if d["label"] == "Safari, iOS")
    # a POST needs the operator and the CSRF token
    assert a.post(f"/api/operator/devices/{dev['id']}/revoke", headers={"X-CSRF-Token": csrf}).status_code in (400, 403)
    assert op.post(f"/api/operator/devices/{dev['id']}/revoke").status_code == 400
    r = op.post(f"/api/operator/devices/{dev['id']}/revoke", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.get_json() == {"revoked": dev["id"], "seat": 0}
    assert b.get("/api/seat/state").status_code == 403
    assert a.get("/api/seat/state").status_code == 200
    # ended at the table, not only in memory: table.json no longer holds it
    state = json.loads((fast_dir / "table.json").read_text())
    assert tok_b not in state["seat_tokens"] and tok_a in state["seat_tokens"]
    # the phone's page says why it must join again (in the page's language)
    r = b.get("/seat")
    assert r.status_code == 302 and r.headers["Location"].endswith("/join")
    page = b.get("/join").get_data(as_text=True)
    signed_out = render(M("The operator signed this phone out of its seat. To play on it again, enter the seat's code."), "ru")
    assert f'role="alert">{escape(signed_out)}' in page
    assert 'role="alert">' not in b.get("/join").get_data(as_text=True)  # said once
    # gone: a second revoke is a 404 in words
    r = op.post(f"/api/operator/devices/{dev['id']}/revoke", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 404 and r.get_json()["message"]


def test_labels_survive_a_restart(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    _join(app, table, 1, IPHONE)
    app.extensions["companion"]["hub"].close()
    table.close()
    again = Table(fast_dir, pin="246810")
    try:
        assert [d["label"] for d in again.sessions.devices(1)] == ["Safari, iOS"]
    finally:
        again.close()


def test_a_second_phone_is_announced_to_the_first_and_the_operator(env):
    table, app = env
    hub = app.extensions["companion"]["hub"]
    _a, _, tok_a = _join(app, table, 0, ANDROID)
    first = hub.connect(0, tok_a)
    other_seat = hub.connect(1, None)
    from companion.dashboard.model import OPERATOR

    console = hub.connect(OPERATOR)
    for c in (first, other_seat, console):
        c.queue.get_nowait()  # the snapshot
    _b, _, tok_b = _join(app, table, 0, IPHONE)
    msg = first.queue.get_nowait()
    assert msg.startswith("event: device\n")
    data = json.loads(msg.split("data: ", 1)[1])
    assert data["event"] == "joined" and data["label"] == "Safari, iOS" and data["count"] == 2
    assert tok_b not in msg
    assert other_seat.queue.empty()  # another seat hears nothing
    assert console.queue.get_nowait().startswith("event: devices\n")
    # the same phone joining again is no new phone: nobody is told
    again = _b.post("/join", data={"code": table.seat_codes()[0], "csrf_token": csrf_of(_b, "/join")},
                    headers={"User-Agent": IPHONE})
    assert again.status_code == 302 and first.queue.empty()


def test_the_signed_out_phones_stream_is_told_and_ends(fast_dir, counting):
    """Over a real server: the phone's open stream gets ``signed_out`` and then ends; the other
    phone's stream on the same seat goes on."""
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    srv = DashboardServer(table, port=0).start()
    try:
        app = srv.app
        a, _, _ = _join(app, table, 0, ANDROID)
        b, _, _ = _join(app, table, 0, IPHONE)
        streams = {}
        for name, c in (("a", a), ("b", b)):
            cookie = f"session={c.get_cookie('session').value}"
            streams[name] = SSE(srv.port, "/stream?view=seat", cookie)
            assert streams[name].next()[0] == "snapshot"
        op, csrf = operator_client(app, table)
        dev = next(d for d in op.get("/api/operator/devices").get_json()["seats"][0]["devices"]
                   if d["label"] == "Safari, iOS")
        assert dev["online"] is True
        assert op.post(f"/api/operator/devices/{dev['id']}/revoke", headers={"X-CSRF-Token": csrf}).status_code == 200
        assert streams["b"].next() == ("signed_out", {"reason": "operator"})
        assert streams["b"].next()[0] == "eof"
        assert table.submit("0 add 1", "dashboard").accepted
        assert streams["a"].next()[0] == "delta"
        for s in streams.values():
            s.close()
    finally:
        srv.stop()
        table.close()


def test_a_wrong_guess_that_starts_a_lockout_says_how_long(env):
    table, app = env
    c = app.test_client()
    token = csrf_of(c, "/operator")
    pages = [c.post("/operator/login", data={"pin": f"{700000 + i}", "csrf_token": token}) for i in range(5)]
    assert [p.status_code for p in pages] == [403] * 5
    wait = render(M("Too many wrong attempts: wait %(wait)s, then the login form returns.", wait="§"), "ru").split("§")[0]
    assert wait not in pages[3].get_data(as_text=True)
    locked = render(M("Too many wrong attempts: wait %(wait)s, then the login form returns.", wait=countdown_words(30)), "ru")
    assert render(M("Wrong PIN."), "ru") in pages[4].get_data(as_text=True) and locked in pages[4].get_data(as_text=True)
    r = c.post("/operator/login", data={"pin": table.pin, "csrf_token": token})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) == 30
    # the join page likewise, in English when the page is English
    j = app.test_client()
    j.set_cookie("lang", "en")
    jt = csrf_of(j, "/join")
    codes = set(table.seat_codes().values())
    wrong = [str(x) for x in range(100000, 100020) if str(x) not in codes][:5]
    last = [j.post("/join", data={"code": w, "csrf_token": jt}) for w in wrong][-1]
    assert last.status_code == 403 and "wait 30 s" in last.get_data(as_text=True)


def test_the_operators_logged_in_browser_is_never_locked_out(env):
    table, app = env
    op, csrf = operator_client(app, table)
    guesser = app.test_client()
    gt = csrf_of(guesser, "/join")
    codes = set(table.seat_codes().values())
    wrong = [str(x) for x in range(100000, 100100) if str(x) not in codes][:40]
    for w in wrong:  # the same address as the operator's browser (one hotspot), and the whole table
        guesser.post("/join", data={"code": w, "csrf_token": gt})
    assert guesser.post("/join", data={"code": table.seat_codes()[0], "csrf_token": gt}).status_code == 429
    r = op.post("/join", data={"code": table.seat_codes()[0], "csrf_token": csrf})
    assert r.status_code == 302 and r.headers["Location"].endswith("/seat")
    # a login form posted again from the logged-in browser neither counts nor is held
    assert op.post("/operator/login", data={"pin": "000000", "csrf_token": csrf}).status_code == 302
    assert op.get("/api/operator/state").status_code == 200
