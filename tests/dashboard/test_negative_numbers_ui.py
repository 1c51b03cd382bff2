"""A negative number typed in a numeric field is told as negative, by the field's name — not as
"type the amounts as numbers" (the lottery banker's spread on his phone, seed 004 ¶7)."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI  # noqa: E402

pytestmark = UI

SEATS = ["Банкир", "Сдающий", "Аня", "Борис"]


@pytest.fixture
def lottery(fast_dir):
    table = Table(fast_dir, pin="314159")
    table.new_game("lottery", SEATS)
    srv = DashboardServer(table, port=0).start()
    yield table, srv
    srv.stop()
    table.close()


def _actions(table):
    return [r.action for r in table.referee.log.records()]


def test_a_negative_spread_amount_is_told_as_negative_by_the_form_name(browser, lottery):
    table, srv = lottery
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(srv.url + "/join")
    phone.fill("#code", table.seat_codes()[0])  # the banker spreads the chips
    phone.click("button[type=submit]")
    form = phone.locator("#pad form.spread")
    expect(form).to_contain_text("Раскладка")
    form.locator("input").fill("-1, 5, 3, 3")
    form.locator("button").click()
    toast = phone.locator("#toast")
    expect(toast).to_contain_text("«Раскладка»: сумма не может быть отрицательной (−1) — введите 0 или больше.")
    expect(toast).not_to_contain_text("числами")
    form.locator("input").fill("x, 5")  # not a number at all: the old hint stays
    form.locator("button").click()
    expect(toast).to_contain_text("Введите суммы числами")
    assert _actions(table) == []
    phone.context.close()

