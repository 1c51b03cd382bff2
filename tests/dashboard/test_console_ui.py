"""The operator console on a phone (#22 item 3), in a real headless Chromium at 360×800: it starts
with what needs doing now (the step, the table actions the game waits for), the join codes, phones,
camera, voice and the new-game form are folded away, «Вывести игрока» is a red block of its own
with a question first (nothing like «Выйти из пульта», a plain link at the page's end), and the
new-game form comes filled in with the last game — after a reload and after the table restarts.
"""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import UI, operator_login, unfold  # noqa: E402
from tests.dashboard.pagecheck import VIEWPORTS, problems  # noqa: E402

pytestmark = UI

PIN = "271828"
FOLDS = ["#fold-prompt", "#fold-codes", "#devices-card", "#camera-card", "#voice-card", "#fold-new"]


def _console(browser, srv):
    page = browser.new_context(viewport=VIEWPORTS["phone"]).new_page()
    operator_login(page, srv.url, PIN)
    return page


def test_console_starts_with_what_needs_doing_now(browser, fast_dir, artifacts_dir):
    table = Table(fast_dir, pin=PIN)
    table.new_game("skull", ["Аня", "Борис", "Вика"])  # waits for each seat's notes to be registered
    srv = DashboardServer(table, port=0).start()
    try:
        page = _console(browser, srv)
        now = page.locator("main > :is(section, details)").first
        expect(now).to_have_id("now")
        expect(page.locator("#now-step")).to_contain_text("стол ждёт вашего ввода ниже")
        forms = page.locator("#table-actions form[data-verb=register]")
        expect(forms).to_have_count(3)
        # the first entry the game waits for is on the first screen of the phone
        assert forms.first.bounding_box()["y"] + 44 < VIEWPORTS["phone"]["height"]
        for fold in FOLDS:
            expect(page.locator(fold)).not_to_have_attribute("open", "")
        expect(page.locator(".codes img").first).to_be_hidden()  # QR codes: folded away
        expect(page.locator("#new-game")).to_be_hidden()
        page.screenshot(path=str(artifacts_dir / "console-phone-now.png"), full_page=True)
        assert problems(page, "ru") == []
        # every fold opened: what is inside passes the checks too
        for fold in FOLDS:
            unfold(page, fold)
        expect(page.locator(".codes img").first).to_be_visible()
        page.screenshot(path=str(artifacts_dir / "console-phone-open.png"), full_page=True)
        assert problems(page, "ru") == []
        page.context.close()
        # mid-game: the step and whose turn it is
        from companion.games.simulator import get_sim_class

        sim = get_sim_class("skull")(table.referee.game, 5)
        while table.referee.game.view(None).get("phase") != "auction":
            text, source = sim.next_action()
            assert table.submit(text, source).accepted
            sim.applied(text)
        turn = table.referee.game.seats[table.referee.game.current_seats()[0]]
        page = _console(browser, srv)
        expect(page.locator("#now-step")).to_contain_text("Торги")
        expect(page.locator("#now-step")).to_contain_text(f"Ход: {turn}")
        expect(page.locator("#now .hint")).to_be_hidden()  # no entry awaited: no word about it
        # the game over: what is left to do is the next game, and its form unfolds
        while not table.referee.game.is_over():
            text, source = sim.next_action()
            assert table.submit(text, source).accepted
            sim.applied(text)
        expect(page.locator("#now-step")).to_have_text("Игра окончена · начните другую игру ниже")
        expect(page.locator("#fold-new")).to_have_attribute("open", "")
        expect(page.locator("#new-game button[type=submit]")).to_be_visible()
        page.context.close()
    finally:
        srv.stop()
        table.close()


def test_taking_a_player_out_is_apart_from_logging_out(browser, fast_dir, artifacts_dir):
    table = Table(fast_dir, pin=PIN)
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    srv = DashboardServer(table, port=0).start()
    try:
        page = _console(browser, srv)
        # not among the next steps, and not the void form either (the «Аннулировать раунд» button)
        expect(page.locator("#now [data-verb=leave], #now form[data-verb=void]")).to_have_count(0)
        fold = page.locator("#fold-leave")
        expect(fold).to_be_visible()
        expect(fold.locator("> summary")).to_have_text("Вывести игрока")
        unfold(page, "#fold-leave")
        rows = fold.locator("form[data-verb=leave]")
        expect(rows).to_have_count(3)
        out = rows.nth(1).locator("button")
        expect(out).to_have_text("Вывести из игры")
        expect(rows.nth(1)).to_contain_text("2. Борис")
        logout = page.locator("form.logout-form button")
        expect(logout).to_have_text("Выйти из пульта")
        # looks nothing alike: a red button in a red block vs a plain link, far apart
        look = "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor, getComputedStyle(e).borderColor]"
        assert out.evaluate(look) != logout.evaluate(look)
        assert "danger" in out.get_attribute("class") and "link" in logout.get_attribute("class")
        assert fold.evaluate("e => getComputedStyle(e).borderColor") != page.locator("#now").evaluate(
            "e => getComputedStyle(e).borderColor")
        assert logout.count() == 1 and fold.locator("form.logout-form").count() == 0
        page.screenshot(path=str(artifacts_dir / "console-phone-leave.png"), full_page=True)
        assert problems(page, "ru") == []
        # asked first: «Отмена» leaves him in; «OK» takes him out
        asked = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        out.click()
        page.wait_for_timeout(300)
        assert asked and "Борис" in asked[0]
        assert table.referee.log.records() == []
        page.once("dialog", lambda d: d.accept())
        out.click()
        expect(page.locator("#toast")).to_be_visible()
        assert [r.action for r in table.referee.log.records()] == ["table leave 1"]
        page.context.close()
    finally:
        srv.stop()
        table.close()


def test_new_game_form_remembers_the_last_game(browser, fast_dir, artifacts_dir):
    table = Table(fast_dir, pin=PIN)
    srv = DashboardServer(table, port=0).start()
    try:
        page = _console(browser, srv)
        expect(page.locator("#fold-new")).to_have_attribute("open", "")  # no game: the form is what to do
        expect(page.locator("#new-game-last")).to_have_count(0)  # nothing played yet: nothing filled in
        page.select_option("#game-select", "doubt")
        page.fill("textarea[name=seats]", "Аня\nБорис\nВика\nГоша")
        page.fill("input[name=opt_doubt_max_cards]", "6")
        page.fill("input[name=opt_doubt_first_dealer]", "3")  # a seat, from 1
        page.click("#new-game button[type=submit]")
        page.wait_for_url(srv.url + "/operator")
        expect(page.locator("#now")).to_be_visible()
        # a reload: the game running, the form filled in with it
        page.reload()
        unfold(page, "#fold-new")
        expect(page.locator("#game-select")).to_have_value("doubt")
        expect(page.locator("textarea[name=seats]")).to_have_value("Аня\nБорис\nВика\nГоша")
        expect(page.locator("#new-game-last")).to_contain_text("Верю — не верю")
        expect(page.locator("input[name=opt_doubt_max_cards]")).to_have_value("6")
        expect(page.locator("input[name=opt_doubt_first_dealer]")).to_have_value("3")
        assert table.game_info()["options"]["first_dealer"] == 2  # stored from 0
        # the game ended and the table restarted: the newest log still fills the form in
        page.once("dialog", lambda d: d.accept())
        page.locator("[data-op=end]").click()
        expect(page.locator("#now")).to_have_count(0)
        page.context.close()
    finally:
        srv.stop()
        table.close()
    table = Table(fast_dir, pin=PIN)
    assert table.game_info() is None
    srv = DashboardServer(table, port=0).start()
    try:
        page = _console(browser, srv)
        expect(page.locator("#fold-new")).to_have_attribute("open", "")
        expect(page.locator("#game-select")).to_have_value("doubt")
        expect(page.locator("textarea[name=seats]")).to_have_value("Аня\nБорис\nВика\nГоша")
        expect(page.locator("input[name=opt_doubt_first_dealer]")).to_have_value("3")
        page.screenshot(path=str(artifacts_dir / "console-phone-remembered.png"), full_page=True)
        # a form the table refuses comes back as typed, to be corrected
        page.select_option("#game-select", "skull")
        page.fill("textarea[name=seats]", "Дима")
        page.click("#new-game button[type=submit]")
        expect(page.locator(".error")).to_be_visible()
        expect(page.locator("#game-select")).to_have_value("skull")
        expect(page.locator("textarea[name=seats]")).to_have_value("Дима")
        page.context.close()
    finally:
        srv.stop()
        table.close()
