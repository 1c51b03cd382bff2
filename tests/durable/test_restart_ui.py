"""Real headless Chromium: an open operator console across restarts of the table.

Restarted on the same data folder (same secret.key and kept PIN), the console reconnects by
itself and stays logged in — nothing typed in it is lost (it used to drop back to the bare PIN
form). Restarted with a new PIN, it shows the login form with a sentence saying why.

Screenshot: test-artifacts/dashboard-login-lost.png.
"""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI, operator_login, unfold  # noqa: E402
from tests.durable.kills import drop  # noqa: E402

pytestmark = UI

TYPED = "Покажите купюры игрока 2"


def test_the_console_survives_a_restart_and_says_why_a_new_pin_logs_it_out(browser, fast_dir, artifacts_dir):
    table = Table(fast_dir)
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    srv = DashboardServer(table, port=0).start()
    port = srv.port
    servers, tables = [srv], [table]
    try:
        page = browser.new_context(viewport=PHONE, device_scale_factor=2).new_page()
        operator_login(page, srv.url, table.pin)  # the start-up link logs in by itself
        expect(page.locator("#now")).to_be_visible()
        expect(page.locator("#live.on")).to_be_visible(timeout=10_000)
        unfold(page, "#fold-prompt")
        page.fill("#prompt-form input[name=text]", TYPED)  # typed, not sent yet

        # killed and started again on the same data folder (the service restarts it)
        srv.stop()
        expect(page.locator("#live.off")).to_be_visible(timeout=10_000)
        table = Table(fast_dir)
        tables.append(table)
        srv = DashboardServer(table, port=port).start()
        servers.append(srv)
        expect(page.locator("#live.on")).to_be_visible(timeout=15_000)
        # still the console, still logged in, the typed text still there
        expect(page.locator("input[name=pin]")).to_have_count(0)
        expect(page.locator("#prompt-form input[name=text]")).to_have_value(TYPED)
        page.click("#prompt-form button")
        expect(page.locator("#prompts .prompt")).to_contain_text(TYPED)
        assert [p["text"] for p in table.prompts()] == [TYPED]

        # started with a new PIN: the login has ended, and the page says why
        srv.stop()
        table = Table(fast_dir, new_pin=True)
        tables.append(table)
        srv = DashboardServer(table, port=port).start()
        servers.append(srv)
        lost = page.locator("#login-lost")
        expect(lost).to_be_visible(timeout=15_000)
        expect(lost).to_contain_text("ПИН оператора сменился")
        expect(page.locator("input[name=pin]")).to_be_visible()
        page.screenshot(path=str(artifacts_dir / "dashboard-login-lost.png"), full_page=True)
        page.fill("input[name=pin]", table.pin)
        page.click("button[type=submit]")
        expect(page.locator("#now")).to_be_visible()  # the console of the game resumed
        expect(page.locator("#login-lost")).to_have_count(0)
        page.context.close()
    finally:
        for s in servers:
            s.stop()
        for killed in tables[:-1]:
            drop(killed)  # killed and restarted: its referee thread ends with the test
        tables[-1].close()
