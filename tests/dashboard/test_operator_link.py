"""The operator's start-up link (``/operator?pin=…``, the QR code printed at start) logs in by
itself: the page posts its own form with its CSRF token (a GET changes nothing), through the PIN
attempt limiter, and the PIN leaves the address bar. A wrong PIN in the link is refused once, with
no loop."""

from __future__ import annotations

import re

import pytest

from companion.dashboard import DashboardServer, create_app
from companion.dashboard.security import Limiter
from companion.table import Table

from tests.browser import PHONE, UI


@pytest.fixture
def table(fast_dir):
    t = Table(fast_dir, pin="314159")
    yield t
    t.close()


def test_the_link_renders_a_self_posting_form_and_changes_nothing(table):
    app = create_app(table, testing=True)
    c = app.test_client()
    page = c.get("/operator?pin=314159").get_data(as_text=True)
    assert 'id="login-form" data-auto' in page and 'value="314159"' in page
    assert re.search(r'<script src="/static/login\.js[^"]*"></script>', page)
    assert not c.get("/api/operator/state").status_code == 200  # the GET did not log in
    plain = c.get("/operator").get_data(as_text=True)
    assert "data-auto" not in plain and "login.js" not in plain  # no link: an ordinary form
    assert "data-auto" not in c.get("/operator?pin=<x>").get_data(as_text=True)  # not a PIN: nothing filled
    # the form posts through the limiter and the CSRF check like a tap on «Войти»
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    r = c.post("/operator/login", data={"pin": "314159", "csrf_token": token})
    assert r.status_code == 302
    # logged in: the link's PIN is taken out of the address bar
    r = c.get("/operator?pin=314159")
    assert r.status_code == 302 and r.headers["Location"].endswith("/operator")


def test_a_wrong_pin_in_the_link_does_not_loop_and_counts_as_a_failure(table):
    limiter = Limiter(max_failures=2)
    app = create_app(table, testing=True, limiter=limiter)
    c = app.test_client()
    page = c.get("/operator?pin=111111").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    r = c.post("/operator/login", data={"pin": "111111", "csrf_token": token})
    assert r.status_code == 403
    assert "data-auto" not in r.get_data(as_text=True)  # the refusal page does not post again
    assert limiter.retry_after("pin", "127.0.0.1") == 0
    c.post("/operator/login", data={"pin": "111112", "csrf_token": token})
    assert limiter.retry_after("pin", "127.0.0.1") > 0
    assert c.post("/operator/login", data={"pin": "314159", "csrf_token": token}).status_code == 429


@UI[0]
@UI[1]
def test_the_link_opens_the_console_in_a_browser(browser, table):
    srv = DashboardServer(table, port=0).start()
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        posts = []
        page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
        page.goto(f"{srv.url}/operator?pin={table.pin}")
        page.wait_for_url(re.compile(r"/operator$"))
        page.locator("#new-game").wait_for(state="attached")  # the console, with no tap on «Войти»
        assert "pin=" not in page.url
        assert len(posts) == 1 and "pin=" not in (posts[0].headers.get("referer") or "")
        assert page.evaluate("history.length") >= 1 and "pin" not in page.evaluate("location.href")
        # a wrong PIN in the link: refused once, the form waits for a person
        other = browser.new_context(viewport=PHONE).new_page()
        wrong = []
        other.on("request", lambda r: wrong.append(r) if r.method == "POST" else None)
        other.goto(f"{srv.url}/operator?pin=000001")
        other.locator("p.error").wait_for()
        other.wait_for_timeout(300)
        assert len(wrong) == 1 and other.locator("#login-form").count() == 1
        page.context.close()
        other.context.close()
    finally:
        srv.stop()
