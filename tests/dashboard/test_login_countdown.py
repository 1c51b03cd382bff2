"""The login page during a PIN lockout (#23): it says how long in seconds and counts down live
(web/static/lockout.js), the form hidden meanwhile; at the end the message goes and the form
returns. The wait on the page is the limiter's, the same as the ``Retry-After`` header."""

from __future__ import annotations

import re
import time

import pytest

from companion.dashboard import DashboardServer, create_app
from companion.dashboard.security import Limiter, countdown_words
from companion.i18n import M, MP, render
from companion.table import Table
from tests.browser import PHONE, UI
from tests.dashboard.helpers import FakeClock, csrf_of

PIN = "246810"
#: the lockout's words (companion/dashboard/operator.py), the wait to the second
LOCKED = "Too many wrong attempts: wait %(wait)s, then the login form returns."


def locked(wait: str, lang: str = "ru") -> str:
    return render(M(LOCKED, wait=wait), lang)


WAIT_RE = re.compile(r'<p class="error" role="status" aria-live="polite" id="login-wait" data-wait="(\d+)"')


@pytest.fixture
def table(fast_dir):
    t = Table(fast_dir, pin=PIN)
    yield t
    t.close()


def test_countdown_words():
    m, s = (render(MP("countdown", unit), "ru") for unit in ("min", "s"))  # «мин», «с»
    assert countdown_words(47) == f"47 {s}" and countdown_words(247) == f"4 {m} 7 {s}"
    assert countdown_words(60, "en") == "1 min 0 s" and countdown_words(0, "en") == "0 s"


def test_a_locked_out_login_page_counts_down_and_gives_the_form_back(table):
    clock = FakeClock()
    app = create_app(table, testing=True, limiter=Limiter(max_failures=2, window_s=90, clock=clock))
    c = app.test_client()
    token = csrf_of(c, "/operator")
    first = c.post("/operator/login", data={"pin": "111111", "csrf_token": token})
    assert first.status_code == 403 and not WAIT_RE.search(first.get_data(as_text=True))  # not locked yet
    # the wrong PIN that starts the lockout says how long at once, with the form hidden
    r = c.post("/operator/login", data={"pin": "111112", "csrf_token": token})
    page = r.get_data(as_text=True)
    assert r.status_code == 403 and "Неверный ПИН." in page
    assert WAIT_RE.search(page).group(1) == "90", page
    assert locked(countdown_words(90)) in page
    assert re.search(r'<form [^>]*id="login-form"[^>]* hidden>', page) and "/static/lockout.js" in page
    # the script's template: the same sentence with the slot it fills each second
    assert f'data-template="{locked("{WAIT}")}"' in page
    units = " ".join(render(MP("countdown", unit), "ru") for unit in ("min", "s"))
    assert f'data-units="{units}"' in page  # the units the script counts in, the page's language
    # a try meanwhile (the right PIN too) is refused with the wait left, as the header says
    clock.t += 25
    r = c.post("/operator/login", data={"pin": PIN, "csrf_token": token})
    page = r.get_data(as_text=True)
    assert r.status_code == 429 and r.headers["Retry-After"] == "65" == WAIT_RE.search(page).group(1)
    assert locked(countdown_words(65)) in page and 'id="login-form"' in page
    # reloading the login page (or the start-up link) shows the countdown, and the link does not post
    page = c.get(f"/operator?pin={PIN}").get_data(as_text=True)
    assert WAIT_RE.search(page).group(1) == "65" and "data-auto" not in page
    # in English
    c.set_cookie("lang", "en")
    page = c.get("/operator").get_data(as_text=True)
    assert locked(countdown_words(65, "en"), "en") in page and 'data-units="min s"' in page
    # the end of the wait: the form is back, no countdown, and the right PIN logs in
    clock.t += 65
    page = c.get("/operator").get_data(as_text=True)
    assert not WAIT_RE.search(page) and "lockout.js" not in page
    assert not re.search(r'<form [^>]*id="login-form"[^>]* hidden>', page)
    assert c.post("/operator/login", data={"pin": PIN, "csrf_token": token}).status_code == 302


@UI[0]
@UI[1]
def test_the_countdown_runs_in_a_browser_and_the_form_returns(browser, table):
    from playwright.sync_api import expect

    srv = DashboardServer(table, port=0, limiter=Limiter(max_failures=1, window_s=4)).start()
    try:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{srv.url}/operator")
        page.fill("input[name=pin]", "000000")
        page.click("#login-form button[type=submit]")
        wait = page.locator("#login-wait")
        expect(wait).to_be_visible()
        expect(page.locator("#login-form")).to_be_hidden()
        first = wait.inner_text()  # the rendered Russian words, once (the page's script fills the wait)
        told = re.compile(re.escape(locked("§")).replace("§", r"(\d) " + re.escape(render(MP("countdown", "s"), "ru"))))
        assert told.fullmatch(first) and 1 <= int(told.fullmatch(first).group(1)) <= 4, first
        expect(wait).not_to_have_text(first, timeout=3000)  # a second later it says one less
        later = int(told.fullmatch(wait.inner_text()).group(1))
        assert later < int(told.fullmatch(first).group(1))
        # the end: the message goes, the form comes back focused, and the right PIN logs in
        expect(page.locator("#login-form")).to_be_visible(timeout=10000)
        expect(wait).to_have_count(0)
        time.sleep(0.3)  # the limiter's own wait ends with the count (rounded up to the second)
        page.fill("input[name=pin]", PIN)
        page.click("#login-form button[type=submit]")
        page.wait_for_url(re.compile(r"/operator$"))
        page.locator("body.page-operator").wait_for(state="attached")
    finally:
        srv.stop()
