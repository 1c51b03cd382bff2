"""The seats' phones in real headless Chromium (issue #23 item 2): a second phone joining a seat
shows on the first phone's page at once; the operator's console lists both and signs one out,
and that phone's page says it was signed out."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI, operator_login, unfold  # noqa: E402

pytestmark = UI


@pytest.fixture
def server(fast_dir, counting):
    table = Table(fast_dir, pin="314159")
    table.new_game("counting", ["Аня", "Борис"])
    srv = DashboardServer(table, port=0).start()
    yield table, srv
    srv.stop()
    table.close()


def _join(browser, srv, code):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(srv.url + "/join")
    page.fill("#code", code)
    page.click("button[type=submit]")
    expect(page).to_have_url(srv.url + "/seat")
    expect(page.locator("#live")).to_be_visible()  # its stream is open
    return page


def test_second_phone_is_announced_and_a_signed_out_phone_is_told(browser, server):
    table, srv = server
    code = table.seat_codes()[0]
    first = _join(browser, srv, code)
    second = _join(browser, srv, code)
    expect(first.locator("#device-notice")).to_contain_text("На ваше место вошёл ещё один телефон")
    expect(second.locator("#device-notice")).to_have_count(0)  # the newcomer is not told of itself

    console = browser.new_context(viewport=PHONE).new_page()
    operator_login(console, srv.url, table.pin)
    rows = console.locator("#devices li.dev")
    expect(rows).to_have_count(2)
    expect(console.locator("#devices")).to_contain_text("Аня")
    expect(console.locator("#devices")).to_contain_text("Телефонов на этом месте: 2")
    console.on("dialog", lambda d: d.accept())
    unfold(console, "#devices-card")  # folded on the console
    rows.nth(1).locator("[data-revoke]").click()  # the second phone joined last
    expect(second.locator("#device-notice")).to_contain_text("Оператор отключил этот телефон от места")
    expect(rows).to_have_count(1)
    # the first phone plays on
    assert first.evaluate("fetch('/api/seat/state').then(r => r.status)") == 200
    assert second.evaluate("fetch('/api/seat/state').then(r => r.status)") == 403
