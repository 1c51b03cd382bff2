"""A double tap on an action that asks first (void the round, end the game, take a player out,
start a new game over a running one) asks once: the second tap, made while the question was open
or while the answered request is on its way, does nothing (a tester's double tap on «Аннулировать
раунд» showed the question twice). Real headless Chromium at a phone viewport; window.confirm
holds the page, so the second tap of a double tap reaches it only after the question closed."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI, operator_login, unfold  # noqa: E402
from companion.i18n import M, render

pytestmark = UI

LOTTERY = ["Банкир", "Сдающий", "Аня", "Борис"]


@pytest.fixture
def console(browser, fast_dir):
    """``make(game, seats, *actions) -> (table, page, dialogs)``: a logged-in console at 360 px;
    ``dialogs`` lists every question the page asked; ``page.answer`` ("accept"/"dismiss") says
    how they are answered."""
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    pages = []

    def make(game, seats, *actions):
        table.new_game(game, seats)
        for text in actions:
            assert table.submit(text, "operator" if text.startswith("table") else "button").accepted, text
        page = browser.new_context(viewport=PHONE).new_page()
        operator_login(page, srv.url, table.pin)
        expect(page.locator("#live")).to_contain_text("В эфире")
        dialogs = []
        page.answer = "accept"

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


def _log(table):
    return [r.action for r in table.referee.log.records()]


def test_a_double_tap_on_void_asks_once_and_voids_once(console):
    table, page, dialogs = console("lottery", LOTTERY, "0 spread 4,3,2,1", "table cards 2 QH,10S,2C")
    page.locator('[data-op="void"]').dblclick()
    expect(page.locator("#toast")).to_contain_text("Принято")
    page.wait_for_timeout(300)  # a second question would have come by now
    assert dialogs == [render(M("Void the round? Everything is returned, nothing is paid."), "ru")]
    assert _log(table).count("table void") == 1


def test_a_double_tap_answered_no_asks_once_and_does_nothing(console):
    table, page, dialogs = console("lottery", LOTTERY, "0 spread 4,3,2,1", "table cards 2 QH,10S,2C")
    before = _log(table)
    page.answer = "dismiss"
    page.locator('[data-op="void"]').dblclick()
    page.wait_for_timeout(500)
    assert len(dialogs) == 1 and _log(table) == before
    page.locator('[data-op="void"]').click()  # a later, separate tap asks again
    page.wait_for_timeout(300)
    assert len(dialogs) == 2


def test_a_tap_while_the_request_is_on_its_way_does_nothing(console):
    table, page, dialogs = console("lottery", LOTTERY, "0 spread 4,3,2,1", "table cards 2 QH,10S,2C")
    held = []
    page.route("**/api/operator/void", lambda route: held.append(route))
    button = page.locator('[data-op="void"]')
    button.click()
    page.wait_for_timeout(300)
    assert len(held) == 1 and len(dialogs) == 1  # asked, answered, sent; the answer is delayed
    button.click()
    page.wait_for_timeout(300)
    assert len(dialogs) == 1 and len(held) == 1  # neither asked again nor sent again
    held[0].continue_()
    expect(page.locator("#toast")).to_contain_text("Принято")
    assert _log(table).count("table void") == 1


def test_a_double_tap_on_end_game_asks_once(console):
    table, page, dialogs = console("skull", ["Аня", "Борис"])
    page.locator('[data-op="end"]').dblclick()
    page.wait_for_load_state()
    page.wait_for_timeout(500)
    assert dialogs == [render(M("End this game?"), "ru")]
    assert table.referee is None


def test_a_double_tap_on_taking_a_player_out_asks_once(console):
    table, page, dialogs = console("skull", ["Аня", "Борис", "Вика"])
    unfold(page, "#fold-leave")
    form = page.locator('#leave-actions form[data-verb=leave]').first
    expect(form).to_be_visible()
    form.locator("button").dblclick()
    expect(page.locator("#toast")).to_contain_text("Принято")
    page.wait_for_timeout(300)
    assert len(dialogs) == 1 and "Аня" in dialogs[0]
    assert [a for a in _log(table) if " leave " in a or a.endswith(" leave")] == ["table leave 0"]


def test_a_double_tap_on_start_game_asks_once(console):
    table, page, dialogs = console("skull", ["Аня", "Борис"])
    unfold(page, "#fold-new")
    page.select_option("#game-select", "doubt")
    page.fill("#new-game textarea[name=seats]", "Вика\nГоша\nДима")
    page.locator("#new-game button[type=submit]").dblclick()
    page.wait_for_url("**/operator")
    expect(page.locator("body.page-operator")).to_be_attached()
    page.wait_for_timeout(500)
    assert dialogs == [render(M("This ends the current game. Start a new one?"), "ru")]
    assert table.referee.game.GAME_ID == "doubt" and list(table.referee.game.seats) == ["Вика", "Гоша", "Дима"]
