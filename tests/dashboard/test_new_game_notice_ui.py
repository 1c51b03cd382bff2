"""A phone on its seat page when the operator starts another game is sent to /join with the
reason said there: the operator started a new game, join again with the new code or QR (#23,
tester's item 5: it was bounced to /join with no explanation).

Real code path: the table server, a phone-size headless Chromium on the seat page, the new game
started as the operator console starts it (``Table.new_game``); the page follows its stream."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import expect  # noqa: E402

from tests.browser import PHONE, UI  # noqa: E402

pytestmark = UI

NOTICE_ID = ("The operator started a new game, so this phone left its seat. Join again with your "
             "seat's new code from the operator, or scan the new QR code.")


def _translated(lang: str) -> str:
    """The notice in ``lang`` from the dashboard's catalogue (web/translations)."""
    from pathlib import Path

    from babel.support import Translations

    if lang == "en":
        return NOTICE_ID
    root = Path(__file__).resolve().parents[2] / "web" / "translations"
    return Translations.load(str(root), ["ru"]).gettext(NOTICE_ID)


def test_a_phone_bounced_by_a_new_game_is_told_why(browser, table_server):
    table, srv = table_server
    table.new_game("doubt", ["Аня", "Борис", "Вика"])
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(srv.url + "/join")
    page.fill("#code", table.seat_codes()[1])
    page.click("button[type=submit]")
    expect(page).to_have_url(srv.url + "/seat")
    table.new_game("skull", ["Дина", "Егор"])  # the operator starts another game
    expect(page).to_have_url(srv.url + "/join", timeout=15000)
    ru = _translated("ru")
    assert ru != NOTICE_ID  # Russian first: the catalogue has it
    expect(page.locator("#join-notice")).to_have_text(ru)
    expect(page.locator(".error")).to_have_count(0)
    # said once: the phone's old login is gone, a reload is a plain join page
    page.reload()
    expect(page.locator("#join-notice")).to_have_count(0)
    # the new code works at once
    page.fill("#code", table.seat_codes()[0])
    page.click("button[type=submit]")
    expect(page).to_have_url(srv.url + "/seat")
    page.context.close()


def test_the_notice_in_english(browser, table_server):
    table, srv = table_server
    table.new_game("doubt", ["Аня", "Борис", "Вика"])
    ctx = browser.new_context(viewport=PHONE)
    ctx.add_cookies([{"name": "lang", "value": "en", "url": srv.url}])
    page = ctx.new_page()
    page.goto(srv.url + "/join")
    page.fill("#code", table.seat_codes()[2])
    page.click("button[type=submit]")
    expect(page).to_have_url(srv.url + "/seat")
    table.new_game("doubt", ["Аня", "Борис", "Вика"])
    expect(page).to_have_url(srv.url + "/join", timeout=15000)
    expect(page.locator("#join-notice")).to_have_text(NOTICE_ID)
    ctx.close()
