"""«Покинуть место» on a player's phone is asked first, as the operator's destructive buttons
are (``data-confirm`` and the page's one ``ask``): a mis-tap mid-game must not drop the phone off
its seat (coming back needs the seat code from the operator again). One tap answered «Отмена»
leaves nothing; confirming leaves. Real headless Chromium at a phone viewport."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI  # noqa: E402

pytestmark = UI

ASKED_RU = "Покинуть место? Чтобы вернуться, снова понадобится код места от оператора."
ASKED_EN = "Leave your seat? To come back you will need your seat code from the operator again."


@pytest.fixture
def seat_page(browser, fast_dir):
    """``make(lang="ru") -> (table, page, dialogs)``: a phone joined to seat 1 of a running skull
    game; ``dialogs`` lists every question the page asked; ``page.answer`` ("accept"/"dismiss")
    says how they are answered."""
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    pages = []

    def make(lang="ru"):
        page = browser.new_context(viewport=PHONE).new_page()
        page.base = srv.url
        if lang != "ru":
            page.goto(f"{srv.url}/lang/{lang}")
        page.goto(srv.url + "/join")
        page.fill("#code", table.seat_codes()[0])
        page.click("button[type=submit]")
        expect(page).to_have_url(srv.url + "/seat")
        expect(page.locator("#live")).to_be_visible()
        dialogs = []
        page.answer = "dismiss"

        def on_dialog(d):
            dialogs.append(d.message)
            d.accept() if page.answer == "accept" else d.dismiss()

        page.on("dialog", on_dialog)
        pages.append(page)
        return table, page, dialogs

    yield make
    for page in pages:
        page.context.close()
    srv.stop()
    table.close()


def _leave_button(page):
    return page.locator("#leave-seat button")


def test_one_tap_asks_and_cancelling_keeps_the_seat(seat_page):
    table, page, dialogs = seat_page()
    button = _leave_button(page)
    expect(button).to_have_text("Покинуть место")
    button.click()
    page.wait_for_timeout(300)
    assert dialogs == [ASKED_RU]
    assert page.url == page.base + "/seat"
    page.reload()  # the session still holds the seat: the seat page, not the join form
    expect(page).to_have_url(page.base + "/seat")
    expect(page.locator("body.page-seat")).to_be_attached()
    expect(_leave_button(page)).to_be_visible()


def test_a_double_tap_cancelled_asks_once_and_stays(seat_page):
    table, page, dialogs = seat_page()
    _leave_button(page).dblclick()
    page.wait_for_timeout(500)
    assert dialogs == [ASKED_RU]
    assert page.url == page.base + "/seat"


def test_confirming_leaves_the_seat(seat_page):
    table, page, dialogs = seat_page()
    page.answer = "accept"
    _leave_button(page).click()
    expect(page).to_have_url(re.compile(r"/join$"))
    assert dialogs == [ASKED_RU]
    page.goto(page.base + "/seat")  # the phone is off its seat now
    expect(page).to_have_url(re.compile(r"/join$"))


def test_the_question_in_english(seat_page):
    table, page, dialogs = seat_page("en")
    expect(_leave_button(page)).to_have_text("Leave seat")
    _leave_button(page).click()
    page.wait_for_timeout(300)
    assert dialogs == [ASKED_EN] and page.url == page.base + "/seat"
