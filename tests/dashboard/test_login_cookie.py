"""A login outlasts a closed browser: the session cookie of a joined seat or a logged-in operator
carries an expiry (a phone drops session cookies when it kills the browser, and the player had to
type the seat code again), set at the login and lasting the longest login it can carry (a seat's
24 h: the operator's 12 h still end on the server); leaving the seat or logging out takes the
login out and the cookie is a browser-session one again."""

from __future__ import annotations

import time
from email.utils import parsedate_to_datetime

import pytest

from companion.dashboard import LOGIN_COOKIE_S, create_app
from companion.sessions import OPERATOR_TTL_S, SEAT_TTL_S
from companion.table import Table
from tests.dashboard.helpers import csrf_of


@pytest.fixture
def env(tmp_path, counting):
    table = Table(tmp_path, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    yield table, app
    app.extensions["companion"]["hub"].close()
    table.close()


def _session_cookie(resp) -> dict[str, str] | None:
    """The attributes of the response's ``session`` Set-Cookie (lower-case names), or ``None``."""
    for header in resp.headers.getlist("Set-Cookie"):
        name, _, _ = header.partition("=")
        if name.strip() == "session":
            attrs = {}
            for part in header.split(";")[1:]:
                key, _, value = part.strip().partition("=")
                attrs[key.lower()] = value
            return attrs
    return None


def _lasts(attrs: dict[str, str]) -> float:
    """Seconds from now the cookie lasts, from its Expires (and Max-Age, when given, agrees)."""
    assert "expires" in attrs, f"a browser-session cookie, forgotten when the browser closes: {attrs}"
    left = parsedate_to_datetime(attrs["expires"]).timestamp() - time.time()
    if "max-age" in attrs:
        assert abs(int(attrs["max-age"]) - left) < 5
    return left


def test_the_cookie_lasts_the_longest_login(env):
    assert LOGIN_COOKIE_S == max(SEAT_TTL_S, OPERATOR_TTL_S) == 24 * 3600
    _, app = env
    assert app.permanent_session_lifetime.total_seconds() == LOGIN_COOKIE_S


def test_a_seat_join_sets_a_cookie_for_24_hours_and_leaving_clears_it(env):
    table, app = env
    c = app.test_client()
    token = csrf_of(c, "/join")
    r = c.post("/join", data={"code": table.seat_codes()[0], "csrf_token": token})
    assert r.status_code == 302 and r.headers["Location"].endswith("/seat")
    attrs = _session_cookie(r)
    assert attrs is not None
    assert abs(_lasts(attrs) - SEAT_TTL_S) < 60  # the bug: no Expires, lost with a closed browser
    assert "httponly" in attrs and attrs.get("samesite") == "Lax"
    assert c.get("/seat").status_code == 200

    r = c.post("/seat/leave", data={"csrf_token": token})
    assert r.status_code == 302
    attrs = _session_cookie(r)
    assert attrs is not None and "expires" not in attrs and "max-age" not in attrs
    with c.session_transaction() as s:
        assert "seat" not in s
    assert c.get("/api/seat/state").status_code == 403


def test_the_seat_cookie_is_not_moved_on_by_each_request(env):
    # the expiry is set at the join: a later request does not rewrite the cookie
    table, app = env
    c = app.test_client()
    token = csrf_of(c, "/join")
    c.post("/join", data={"code": table.seat_codes()[1], "csrf_token": token})
    r = c.get("/api/seat/state")
    assert r.status_code == 200
    assert _session_cookie(r) is None


def test_an_operator_login_sets_a_lasting_cookie_and_logout_clears_it(env):
    table, app = env
    c = app.test_client()
    token = csrf_of(c, "/operator")
    r = c.post("/operator/login", data={"pin": table.pin, "csrf_token": token})
    assert r.status_code == 302
    attrs = _session_cookie(r)
    assert attrs is not None
    # at least the operator's 12 h, at most the longest login's 24 h (the token ends on the server)
    assert OPERATOR_TTL_S - 60 < _lasts(attrs) < LOGIN_COOKIE_S + 60
    assert c.get("/api/operator/state").status_code == 200

    r = c.post("/operator/logout", data={"csrf_token": token})
    assert r.status_code == 302
    attrs = _session_cookie(r)
    assert attrs is not None and "expires" not in attrs and "max-age" not in attrs
    with c.session_transaction() as s:
        assert "op" not in s
    assert c.get("/api/operator/state").status_code == 403


def test_an_operator_who_also_holds_a_seat_keeps_the_lasting_cookie_at_logout(env):
    table, app = env
    c = app.test_client()
    token = csrf_of(c, "/operator")
    assert c.post("/operator/login", data={"pin": table.pin, "csrf_token": token}).status_code == 302
    assert c.post("/join", data={"code": table.seat_codes()[0], "csrf_token": token}).status_code == 302
    r = c.post("/operator/logout", data={"csrf_token": token})
    attrs = _session_cookie(r)
    assert attrs is not None and abs(_lasts(attrs) - SEAT_TTL_S) < 60  # the seat login is still in it
    assert c.get("/api/seat/state").status_code == 200
