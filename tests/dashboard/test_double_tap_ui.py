"""A double tap in real headless Chromium at a phone viewport: one effect, and the player is told
«Принято», not a refusal of the move just made (a first-time user double-tapped «Выложить
купюру»: the note was placed and the only toast said «Не принято»; a double-tapped «Отменить»
undid two players' moves)."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI  # noqa: E402

pytestmark = UI

A = "АК2444842,АК2444844,АК2444846,АК2444841"
B = "ВЕ1000002,ВЕ1000004,ВЕ1000006,ВЕ1000001"


@pytest.fixture
def server(fast_dir):
    table = Table(fast_dir, pin="314159")
    table.new_game("skull", ["Аня", "Борис"])
    for line in (f"table register 0 {A} ?", f"table register 1 {B} ?", "table dealer 0"):
        assert table.submit(line, "manual").accepted, line
    srv = DashboardServer(table, port=0).start()
    yield table, srv
    srv.stop()
    table.close()


def _log(table):
    return [r.action for r in table.referee.log.records()]


def test_double_taps_take_effect_once(browser, server):
    table, srv = server
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(srv.url + "/join")
    phone.fill("#code", table.seat_codes()[0])
    phone.click("button[type=submit]")
    expect(phone).to_have_url(srv.url + "/seat")
    place = phone.locator('#pad [data-action="0 place"]')
    expect(place).to_be_visible()
    place.dblclick()
    expect(phone.locator("#toast")).to_contain_text("Принято")
    expect(phone.locator("#toast")).not_to_contain_text("Не принято")
    assert _log(table).count("0 place") == 1
    assert table.submit("1 place", "dashboard").accepted

    console = browser.new_context(viewport=PHONE).new_page()
    console.goto(srv.url + "/operator")
    console.fill("input[name=pin]", table.pin)
    console.locator("input[name=pin]").press("Enter")
    undo = console.locator('[data-op="undo"]')
    expect(undo).to_be_visible()
    console.on("dialog", lambda d: d.accept())
    expect(console.locator("#live")).to_contain_text("В эфире")
    undo.dblclick()
    expect(console.locator("#toast")).to_contain_text("Отменено")  # an undo is told as undone
    # the answer names what was taken back
    expect(console.locator("#toast")).to_contain_text("Борис")
    assert _log(table)[-3:] == ["0 place", "1 place", "table undo"]
    phone.context.close()
    console.context.close()
