"""The joker game's board names the 33rd card as the seed does (seed 002: «кладет сбоку 33-ю
карту», «Банкомет вскрывает 33-ю карту»): «33-я карта», face down or «открыта» — it said «В
стороне: открыто», which told a newcomer nothing. Real headless Chromium, Russian, 390 px."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.games.simulator import get_sim_class  # noqa: E402
from companion.i18n import MP, render  # noqa: E402
from tests.browser import UI  # noqa: E402

pytestmark = UI


def test_the_33rd_card_is_named_and_said_turned_up(browser, table_server):
    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вика"])
    sim = get_sim_class("hoggenheimer")(table.referee.game, 3)
    page = browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    page.goto(srv.url + "/")
    aside = page.locator(".board-hoggenheimer .fact.aside")
    expect(aside.locator("small")).to_have_text(render(MP("hoggenheimer", "33rd card"), "ru"))
    expect(aside.locator(".pcard.down")).to_have_count(1)  # face down until the banker turns it
    for _ in range(500):
        if table.referee.game.view(None).get("aside") == "turned":
            break
        text, source = sim.next_action()
        assert table.submit(text, source).accepted, text
        sim.applied(text)
    assert table.referee.game.view(None)["aside"] == "turned"
    deadline = time.monotonic() + 8
    while (page.evaluate("() => window.__lastVersion") or -1) < table.referee.version and time.monotonic() < deadline:
        page.wait_for_timeout(30)
    expect(aside).to_have_text(render(MP("hoggenheimer", "33rd card"), "ru") + render(MP("hoggenheimer", "turned up"), "ru"))
    page.context.close()
