"""The operator's pages word what happened as what it is, in a real headless Chromium (Russian):
a seat taken onto the console said «Принято: место 2 (Борис) играется с пульта», not «Принято:
Стол: Console 2»; an undo «Отменено: Аня: …», not «Принято: Стол: Отменить — Аня: …»; the
console with no game tells the operator to start one below (not «Её начинает оператор»: he is the
operator); the login page does not promise the PIN as a QR code (the console's QR is the table's
page)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.i18n import M, render  # noqa: E402
from tests.browser import UI, console_seat_form, operator_login  # noqa: E402

pytestmark = UI

SEATS = ["Аня", "Борис", "Вика"]


def ru(id: str, **facts) -> str:
    return render(M(id, **facts), "ru")


def test_a_seat_on_the_console_and_an_undo_are_said_as_what_they_are(browser, table_server):
    table, srv = table_server
    table.new_game("doubt", SEATS)
    page = browser.new_context().new_page()
    form = console_seat_form(page, srv.url, table.pin, 2)
    form.locator("[data-seat-op=console]").click()
    expect(page.locator("#toast")).to_have_text(
        ru("Accepted") + ": " + ru("seat %(n)s (%(name)s) is played from the console", n=2, name="Борис"))
    seat = table.referee.game.current_seats()[0]
    move = table.views()[3][seat][0]
    assert table.submit(move, "button").accepted
    page.locator("button[data-op=undo]").click()
    toast = page.locator("#toast")
    expect(toast).to_have_text(re.compile("^" + re.escape(ru("Undone: %(action)s", action=SEATS[seat] + ": "))))
    assert ru("Accepted") not in toast.inner_text()
    page.context.close()


def test_the_console_with_no_game_and_the_login_page_say_what_is_true(browser, table_server):
    table, srv = table_server
    page = browser.new_context().new_page()
    page.goto(srv.url + "/operator")
    expect(page.locator("main, body").first).to_contain_text(
        ru("The PIN is printed on the table's console at start, with the operator's link that logs in by itself."))
    assert "QR" not in page.locator("body").inner_text()
    operator_login(page, srv.url, table.pin)
    expect(page.locator("#app .empty")).to_have_text(ru("No game yet: start one below."))
    page.context.close()
