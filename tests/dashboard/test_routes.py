"""Every dashboard route through Flask's test client, including bad input (4xx, never 500). The
words a page or an answer says are checked by their message ids (:func:`ru`), rendered through
the catalogue."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.dashboard.reasons import RETRY_WAIT, STALE_PAGE
from companion.dashboard.security import Limiter
from companion.i18n import M, both, render
from companion.table import Table

from tests.dashboard.helpers import FakeClock, boot_of, csrf_of, operator_client, seat_client, wait_version


def ru(id: str, **facts) -> str:
    """Message ``id`` with ``facts`` in Russian (the pages' default language)."""
    return render(M(id, **facts), "ru")


@pytest.fixture
def env(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    clock = FakeClock()
    app = create_app(table, testing=True, limiter=Limiter(max_failures=3, window_s=60, clock=clock))
    yield table, app, clock
    app.extensions["companion"]["hub"].close()
    table.close()


def test_public_pages_without_game(env):
    table, app, _ = env
    c = app.test_client()
    r = c.get("/")
    assert r.status_code == 200 and r.headers["Content-Security-Policy"].startswith("default-src 'self'")
    boot = boot_of(r.data)
    assert boot["kind"] == "public" and boot["snapshot"]["model"]["game"] is None
    assert ru("No game yet. The operator starts one.") in boot["words"]["no_game"]  # Russian by default
    assert c.get("/api/state").json["model"]["view"] == {}
    assert c.get("/healthz").json == {"ok": True, "game": None, "streams": 0}
    assert c.get("/static/app.js").status_code == 200
    assert c.get("/static/app.css").status_code == 200
    assert c.get("/nope").status_code == 404
    assert c.get("/api/nope").json["error"] == "not_found"



def test_table_display_is_the_public_view(env):
    """/tv embeds the public snapshot and follows the public stream: nothing a public page does
    not show (the no-leak property test reads it too)."""
    table, app, _ = env
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    c = app.test_client()
    r = c.get("/tv")
    assert r.status_code == 200 and r.headers["Content-Security-Policy"].startswith("default-src 'self'")
    boot = boot_of(r.data)
    assert boot["kind"] == "tv" and boot["stream"] == "/stream?view=public"
    assert boot["snapshot"]["model"]["viewer"] == boot_of(c.get("/").data)["snapshot"]["model"]["viewer"]
    assert boot["snapshot"]["model"]["view"] == c.get("/api/state").json["model"]["view"]
    assert "you" not in boot["snapshot"]["model"]["view"]
    assert b'type="module"' in r.data and c.get("/static/js/tv.js").status_code == 200


def test_each_game_board_script_comes_from_its_package(env):
    """``/games/<id>/board.js`` is the file the game's spec declares (its package's
    ``static/board.js``), as JavaScript; a module beside it is served too (the joker game's bet
    grid); anything else is a 404, so the page draws the generic board."""
    from companion.games import registry

    _, app, _ = env
    c = app.test_client()
    for gid in registry.BUILTIN:
        spec = registry.get(gid)
        assert spec.board_script is not None and spec.board_script.parts[-2:] == ("static", "board.js")
        r = c.get(f"/games/{gid}/board.js")
        assert r.status_code == 200 and r.mimetype == "text/javascript"
        assert r.data == spec.board_script.read_bytes()
        assert b"export function draw(" in r.data
    grid = c.get("/games/hoggenheimer/betgrid.js")
    assert grid.status_code == 200 and b"export function renderBetGrid(" in grid.data
    assert c.get("/static/boards/skull.js").status_code == 404  # no board left in web/static
    for bad in ("/games/counting/board.js",  # a registered game with no board of its own
                "/games/nope/board.js", "/games/skull/__init__.py", "/games/skull/rules.py",
                "/games/skull/..%2Frules.py", "/games/skull/nope.js", "/games/skull/Board.js"):
        assert c.get(bad).status_code == 404, bad

def test_language_switch(env):
    _, app, _ = env
    c = app.test_client()
    assert ru("Join a seat") in c.get("/join").get_data(as_text=True)
    r = c.get("/lang/en?next=/join")
    assert r.status_code == 302 and r.headers["Location"] == "/join"
    page = c.get("/join").get_data(as_text=True)
    assert "Join a seat" in page and '<html lang="en">' in page
    assert c.get("/lang/de").status_code == 404
    assert c.get("/lang/en?next=//evil.example/").headers["Location"] == "/"  # no open redirect
    c.get("/lang/ru")
    assert ru("Join a seat") in c.get("/join").get_data(as_text=True)


def test_operator_login_rate_limit_and_logout(env):
    table, app, clock = env
    c = app.test_client()
    assert b'name="pin"' in c.get("/operator").data
    assert b'value="123"' in c.get("/operator?pin=123").data  # the start-up QR pre-fills the PIN
    token = csrf_of(c, "/operator")
    assert c.post("/operator/login", data={"pin": table.pin}).status_code == 400  # no CSRF token
    assert c.post("/operator/login", data={"pin": table.pin, "csrf_token": "forged"}).status_code == 400
    # a page loaded before the box restarted carries an old token: the page says to reload it,
    # in the page's language, not "Bad Request · csrf"
    page = c.post("/operator/login", data={"pin": table.pin, "csrf_token": "old"}).get_data(as_text=True)
    assert ru(STALE_PAGE) in page and "Bad Request" not in page and "csrf" not in page
    for _ in range(3):
        r = c.post("/operator/login", data={"pin": "000000", "csrf_token": token})
        assert r.status_code == 403 and "Неверный ПИН" in r.get_data(as_text=True)
    r = c.post("/operator/login", data={"pin": table.pin, "csrf_token": token})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0  # even the right PIN waits
    page = r.get_data(as_text=True)
    assert ru(RETRY_WAIT, wait="§").split("§")[0] in page and "too many" not in page  # one language
    clock.t += 61
    grouped = table.pin[:3] + " " + table.pin[3:]  # typed in groups, as read off the console
    r = c.post("/operator/login", data={"pin": grouped, "csrf_token": token})
    assert r.status_code == 302
    assert b"new-game" in c.get("/operator").data
    assert c.post("/operator/logout", data={"csrf_token": token}).status_code == 302
    assert b'name="pin"' in c.get("/operator").data
    r = c.post("/operator/login", data={"pin": "1" * 40, "csrf_token": token})
    assert r.status_code == 403


def test_operator_api_needs_login_and_csrf(env):
    table, app, _ = env
    c = app.test_client()
    token = csrf_of(c, "/operator")
    for path in ("/api/operator/undo", "/api/operator/void", "/api/operator/end", "/api/operator/action",
                 "/api/operator/manual", "/api/operator/prompt", "/api/operator/prompt/x/clear"):
        r = c.post(path, json={})  # CSRF first
        assert r.status_code == 400 and r.json["reason"] == "stale_page", path
        assert r.json["message"] == ru(STALE_PAGE), path
        r = c.post(path, json={}, headers={"X-CSRF-Token": token})
        assert r.status_code == 403 and r.json["error"] == "forbidden", path
    assert c.get("/api/operator/state").status_code == 403
    assert c.get("/operator/qr/0.svg").status_code == 403
    assert c.post("/operator/new", data={"game": "counting", "seats": "A\nB", "csrf_token": token}).status_code == 403
    assert c.get("/stream?view=operator").status_code == 403


def test_operator_new_game_and_console_actions(env):
    table, app, _ = env
    c, token = operator_client(app, table)
    h = {"X-CSRF-Token": token}
    hub = app.extensions["companion"]["hub"]
    assert c.post("/api/operator/undo", headers=h).json["error"] == "no_game"
    # bad forms: unknown game, bad seats, bad option type, bad option value, long name
    assert c.post("/operator/new", data={"game": "chess", "seats": "A\nB", "csrf_token": token}).status_code == 400
    r = c.post("/operator/new", data={"game": "counting", "seats": "A", "csrf_token": token})
    assert r.status_code == 400 and "bad_seats" in r.get_data(as_text=True)
    r = c.post("/operator/new", data={"game": "counting", "seats": "A\nB", "opt_counting_limit": "x",
                                      "csrf_token": token})
    assert r.status_code == 400
    r = c.post("/operator/new", data={"game": "counting", "seats": "A\nB", "opt_counting_limit": "0",
                                      "csrf_token": token})
    assert r.status_code == 400 and "bad_option" in r.get_data(as_text=True)
    r = c.post("/operator/new", data={"game": "counting", "seats": "A\n" + "B" * 30, "csrf_token": token})
    assert r.status_code == 400
    assert table.referee is None
    r = c.post("/operator/new", data={"game": "counting", "seats": "Аня\nБорис\n", "opt_counting_limit": "6",
                                      "csrf_token": token})
    assert r.status_code == 302 and table.game_info()["options"] == {"limit": 6}
    page = c.get("/operator").get_data(as_text=True)
    for code in table.seat_codes().values():
        assert code in page
    svg = c.get("/operator/qr/1.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert c.get("/operator/qr/5.svg").status_code == 404
    assert c.get("/api/operator/state").json["model"]["viewer"]["kind"] == "operator"
    # operator actions are table actions only
    r = c.post("/api/operator/action", json={"action": "0 add 1"}, headers=h)
    assert r.status_code == 400
    r = c.post("/api/operator/action", json={"action": "table add 1"}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "not_your_turn"
    for bad in ({}, {"action": ""}, {"action": 5}, {"action": "x" * 500}):
        assert c.post("/api/operator/manual", json=bad, headers=h).status_code == 400
    assert c.post("/api/operator/manual", json={"action": "table scan ?"}, headers=h).status_code == 400
    assert c.post("/api/operator/manual", json={"action": "0 add 2", "prompt": 3}, headers=h).status_code == 400
    assert c.post("/api/operator/manual", data="not json", headers=h).status_code == 400
    # prompts
    assert c.post("/api/operator/prompt", json={"text": ""}, headers=h).status_code == 400
    assert c.post("/api/operator/prompt", json={"text": "x", "kind": "bogus"}, headers=h).status_code == 400
    assert c.post("/api/operator/prompt", json={"text": "x", "seat": "1"}, headers=h).status_code == 400
    pid = c.post("/api/operator/prompt", json={"text": "Покажите купюры игрока 2", "seat": 1}, headers=h).json["id"]
    assert table.prompts()[0]["text"] == "Покажите купюры игрока 2"
    assert c.get("/api/state").json["prompts"][0]["id"] == pid
    # a seat's own decision is not the operator's to make (docs/dashboard.md "One tap, one effect")
    r = c.post("/api/operator/manual", json={"action": "0 add 2", "prompt": pid}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "seat_decision" and table.prompts()
    # a manual entry (an observation: Tag's "maybe") is logged as manual and clears its prompt
    r = c.post("/api/operator/manual", json={"action": "0 tag a 2", "prompt": pid}, headers=h)
    assert r.status_code == 200 and r.json["accepted"]
    assert table.referee.log.records()[-1].source == "manual" and table.prompts() == []
    assert c.post(f"/api/operator/prompt/{pid}/clear", headers=h).status_code == 404
    # undo, then void (counting has no 'void': a clear 409), end
    r = c.post("/api/operator/undo", headers=h)
    assert r.status_code == 200 and r.json["action"] == "table undo"
    assert c.post("/api/operator/undo", headers=h).json["reason"] == "nothing_to_undo"
    r = c.post("/api/operator/void", headers=h)
    assert r.status_code == 409 and r.json["reason"] == "unknown_action"
    wait_version(hub, 2)
    # the answer also says how the game stood (counting has no standings of its own: just that it ended)
    assert c.post("/api/operator/end", headers=h).json == {
        "ended": True, "text": both(M("The operator ended the game before its end"))}
    assert table.referee is None
    assert c.post("/api/operator/end", headers=h).status_code == 409


def test_seat_join_actions_pending(env):
    table, app, clock = env
    c = app.test_client()
    token = csrf_of(c, "/join")
    # no game: every code is wrong
    assert c.post("/join", data={"code": "123456", "csrf_token": token}).status_code == 403
    table.new_game("counting", ["Аня", "Борис"], {"limit": 6})
    assert c.get("/seat").status_code == 302  # not joined yet
    assert c.get("/join?code=" + "9" * 40).status_code == 400
    assert c.post("/join", data={"code": "abc", "csrf_token": token}).status_code == 403
    # a blank code is a prompt to type it, not a wrong guess (it counts nothing)
    assert c.post("/join", data={"code": "", "csrf_token": token}).status_code == 400
    assert c.post("/join", data={"code": "12ab", "csrf_token": token}).status_code == 403
    r = c.post("/join", data={"code": table.seat_codes()[1], "csrf_token": token})
    assert r.status_code == 429  # three failures in this window (the limiter allows 3 here)
    clock.t += 61
    # a code typed in groups, as read off the console, is the code
    spaced = " " + table.seat_codes()[1][:3] + " " + table.seat_codes()[1][3:] + " "
    assert c.post("/join", data={"code": spaced, "csrf_token": token}).status_code == 302
    s0, t0 = seat_client(app, table, 0)
    s1, t1 = seat_client(app, table, 1)
    page = s0.get("/seat")
    assert page.status_code == 200
    boot = boot_of(page.data)
    assert boot["seat"] == 0 and boot["snapshot"]["model"]["viewer"] == {"kind": "seat", "seat": 0}
    assert [a["text"] for a in boot["snapshot"]["model"]["actions"]][:2] == ["0 add 1", "0 add 2"]
    h0, h1 = {"X-CSRF-Token": t0}, {"X-CSRF-Token": t1}
    # a seat acts only for itself
    r = s0.post("/api/seat/action", json={"action": "1 add 1"}, headers=h0)
    assert r.status_code == 409 and r.json["reason"] == "not_your_seat"
    r = s1.post("/api/seat/action", json={"action": "1 add 1"}, headers=h1)
    assert r.status_code == 409 and r.json["reason"] == "not_your_turn"
    for bad in (None, [], {"action": None}, {"action": ""}, {"act": "0 add 1"}):
        assert s0.post("/api/seat/action", json=bad, headers=h0).status_code == 400
    assert s0.post("/api/seat/action", json={"action": "0 add 1"}).status_code == 400  # no CSRF header
    assert s0.post("/api/seat/action", json={"action": "0 add 1"}, headers=h1).status_code == 400  # other's
    r = s0.post("/api/seat/action", json={"action": "0 add 9"}, headers=h0)
    assert r.status_code == 409 and r.json["reason"] == "bad_count"
    r = s0.post("/api/seat/action", json={"action": "0 frobnicate"}, headers=h0)
    assert r.status_code == 409 and r.json["reason"] == "unknown_action"
    # pending count from the phone's stepper
    for bad in ({"count": -1}, {"count": "3"}, {"count": True}, {"count": 10**6}, []):
        assert s1.post("/api/seat/pending", json=bad, headers=h1).status_code == 400
    # only the seat that may count now, and only a number it may send (seat 1 waits for seat 0)
    assert s1.post("/api/seat/pending", json={"count": 3}, headers=h1).json["reason"] == "bad_pending"
    assert s0.post("/api/seat/pending", json={"count": 3}, headers=h0).json == {"seat": 0, "count": 3}
    assert c.get("/api/state").json["pending"] == {"0": 3}
    r = s0.post("/api/seat/action", json={"action": "0 add 2"}, headers=h0)
    assert r.status_code == 200 and r.json["accepted"] and r.json["source"] == "dashboard"
    wait_version(app.extensions["companion"]["hub"], 1)
    st = s1.get("/api/seat/state").json
    assert st["model"]["version"] == 1 and st["model"]["turn"] == [1] and st["pending"] == {}
    assert st["model"]["history"][-1]["items"][0]["data"] == {"total": 2}
    # leaving the seat drops the token; a new game invalidates old seat tokens
    assert s1.post("/seat/leave", data={"csrf_token": t1}).status_code == 302
    assert s1.get("/api/seat/state").status_code == 403
    assert s1.get("/stream?view=seat").status_code == 403
    table.new_game("counting", ["X", "Y"])
    assert s0.get("/api/seat/state").status_code == 403
    assert s0.post("/api/seat/action", json={"action": "0 add 1"}, headers=h0).status_code == 403
    assert s0.get("/seat").status_code == 302


def test_stream_route_bad_view_and_snapshot(env):
    table, app, _ = env
    c = app.test_client()
    assert c.get("/stream?view=bogus").status_code == 400
    assert c.get("/stream?view=seat").status_code == 403
    r = c.get("/stream?view=public", buffered=False)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    chunks = b""
    for chunk in r.response:
        chunks += chunk if isinstance(chunk, bytes) else chunk.encode()
        if b"event: snapshot" in chunks and chunks.endswith(b"\n\n"):
            break
    assert chunks.startswith(b"retry: ") and b"event: snapshot" in chunks
    assert app.extensions["companion"]["hub"].client_count() == 1
    r.close()
    assert app.extensions["companion"]["hub"].client_count() == 0


def test_bad_requests_never_500(env):
    table, app, _ = env
    table.new_game("counting", ["A", "B"])
    c, token = operator_client(app, table)
    s, st = seat_client(app, table, 0)
    h = {"X-CSRF-Token": token}
    junk = [b"\xff\xfe", b"{", b"[]", b"null", b'{"action": {"x": 1}}', b'{"action": "\\u0000 add"}']
    for client, hdr, paths in ((c, h, ["/api/operator/action", "/api/operator/manual", "/api/operator/prompt"]),
                               (s, {"X-CSRF-Token": st}, ["/api/seat/action", "/api/seat/pending"])):
        for path in paths:
            for body in junk:
                r = client.post(path, data=body, headers={**hdr, "Content-Type": "application/json"})
                assert 400 <= r.status_code < 500, (path, body, r.status_code)
    big = c.post("/api/operator/prompt", data=b"x" * 100_000, headers={**h, "Content-Type": "application/json"})
    assert big.status_code == 413
    assert c.get("/operator/qr/abc.svg").status_code == 404
    assert c.get("/operator/qr/-1.svg").status_code == 404
    assert c.post("/operator/new", data={"csrf_token": token}).status_code == 400
    r = c.post("/api/seat/action", json={"action": "0 add 1"}, headers=h)  # operator is not a seat
    assert r.status_code == 403


def test_an_unknown_page_speaks_only_the_page_language(env):
    """A 404 page in Russian says «Не найдено» and nothing in English: werkzeug's own description of
    the code is left out («The requested URL was not found on the server…», a tester's report);
    the JSON answer keeps it in its detail, for programs."""
    _, app, _ = env
    c = app.test_client()
    page = c.get("/nonexistent").get_data(as_text=True)
    assert ru("Not found.") in page, page
    assert "The requested URL" not in page, page
    assert c.get("/api/nope").json["detail"].startswith("The requested URL")  # the API keeps it for programs
