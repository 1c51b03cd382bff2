"""«Начать другую игру» while a game runs: the form is checked before the operator is asked
«Текущая игра будет завершена…» — a form the server would refuse (a name too long) is said under
the form's title and nothing is asked or ended; an accepted one is asked about once, then starts."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.i18n import render  # noqa: E402
from companion.dashboard.newgame import MAX_SEAT_NAME  # noqa: E402
from companion.dashboard.reasons import name_too_long  # noqa: E402
from tests.browser import UI, operator_login, unfold  # noqa: E402

pytestmark = UI

LONG = "Аня Борис Вера Глеб Даша Женя Зоя"  # one line, no commas: one name of 33 characters


def test_a_refused_form_is_said_before_anything_is_asked(browser, table_server):
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вера"])
    epoch = table.epoch
    page = browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    asked: list[str] = []

    def on_dialog(d):
        asked.append(d.message)
        d.accept()

    page.on("dialog", on_dialog)
    operator_login(page, srv.url, table.pin)
    unfold(page, "#fold-new")
    form = page.locator("#new-game")
    form.locator("select[name=game]").select_option("skull")
    form.locator("textarea[name=seats]").fill(LONG)
    form.locator("button[type=submit]").click()
    said = form.locator("#new-game-error[role=alert]")
    expect(said).to_have_text(render(name_too_long(len(LONG), MAX_SEAT_NAME, LONG), "ru"))
    expect(said).to_contain_text("33 символа,")
    expect(said).to_have_attribute("data-reason", "bad_seats")
    assert asked == [] and table.epoch == epoch and table.game_info()["seats"] == ["Аня", "Борис", "Вера"]
    # put right: asked once, then the new game starts
    form.locator("textarea[name=seats]").fill("Галя, Дима")
    form.locator("button[type=submit]").click()
    deadline = time.monotonic() + 10
    while table.epoch == epoch and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # (the page's question is answered while Playwright runs)
    assert len(asked) == 1 and table.game_info()["seats"] == ["Галя", "Дима"], asked
    expect(page.locator("#table-actions form").first).to_be_visible(timeout=15000)
    page.wait_for_load_state("load")
    page.context.close()
