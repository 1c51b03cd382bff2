"""The joker game's pages call its banker «банкомет», the seed's word (seed 002: «Выбор первого
банкомета», «банкомет вскрывает 33-ю карту»), in every label — the key «Банкомет», «Риск
банкомета», «Фишки банкомета», the new-game form's «Первый банкомет» — not only on the seat card;
the lottery keeps its «банкир» (seed 004). Real headless Chromium at a phone viewport."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.dashboard.reasons import reason_message  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI, operator_login, unfold  # noqa: E402

pytestmark = UI


@pytest.fixture
def server(fast_dir):
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    yield table, srv
    srv.stop()
    table.close()


def _text(page) -> str:
    page.locator("#app .seat").first.wait_for()
    return page.locator("body").inner_text()


def test_the_joker_game_says_bankomet_and_the_lottery_bankir(browser, server):
    table, srv = server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вика"])
    for text in ("1 bet 2 QH", "2 bet 1 AS,AH", "0 close"):
        assert table.submit(text, "button").accepted, text
    assert table.submit("table turn 7S 7S", "camera").accepted
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(srv.url + "/")
    text = _text(page)
    assert not re.search("банкир", text, re.I), [ln for ln in text.splitlines() if re.search("банкир", ln, re.I)]
    lines = text.splitlines()
    for label in ("Банкомет", "Риск банкомета", "Фишки банкомета"):
        assert label in lines, label
    page.context.add_cookies([{"name": "lang", "value": "en", "url": srv.url}])
    page.reload()
    assert "Banker" in _text(page).splitlines()

    table.end_game()
    table.new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    page.context.clear_cookies()
    page.reload()
    expect(page.locator("#app")).to_contain_text("Карточная лотерея")
    text = _text(page)
    assert "Банкир" in text.splitlines() and "банкомет" not in text.lower()
    page.context.close()


def test_the_new_game_form_names_the_joker_games_first_bankomet(browser, server):
    table, srv = server
    page = browser.new_context(viewport=PHONE).new_page()
    operator_login(page, srv.url, table.pin)
    unfold(page, "#fold-new")
    page.select_option("#game-select", "hoggenheimer")
    joker = page.locator('fieldset.opts[data-game="hoggenheimer"]')
    expect(joker).to_contain_text("Первый банкомет (номер места)")
    expect(joker).to_contain_text("Джокер первым — тот же банкомет")
    expect(joker).not_to_contain_text("банкир")
    page.select_option("#game-select", "lottery")
    expect(page.locator('fieldset.opts[data-game="lottery"]')).to_contain_text("Банкир (номер места)")
    page.context.close()


def test_the_joker_games_refusals_without_facts_say_bankomet():
    assert reason_message("not_banker", "ru", "hoggenheimer") == "Ставки закрывает только банкомет."
    assert reason_message("banker_cannot_bet", "ru", "hoggenheimer") == "Банкомет не ставит против своего банка."
