"""Real headless Chromium at a phone viewport: the operator presses «Завершить игру» on an unfinished
joker game; the reloaded console and the public page say the game was ended and show every
player's chips (before, both went straight to «Игры пока нет»).

Screenshot: test-artifacts/dashboard-ended.png.
"""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.games.simulator import get_sim_class  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI, operator_login  # noqa: E402

pytestmark = UI


def test_operator_ends_a_game_and_the_pages_show_how_it_stood(browser, fast_dir, artifacts_dir):
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    try:
        table.new_game("hoggenheimer", ["Аня", "Борис", "Вика"])
        sim = get_sim_class("hoggenheimer")(table.referee.game, 5)
        game = table.referee.game
        while not (game.deal_no >= 1 and game.phase == "betting"):
            text, source = sim.next_action()
            assert table.submit(text, source).accepted
            sim.applied(text)
        chips = dict(zip(game.seats, game.balances))

        op = browser.new_context(viewport=PHONE, device_scale_factor=2).new_page()
        operator_login(op, srv.url, table.pin)  # the start-up link logs in by itself
        public = browser.new_context(viewport=PHONE, device_scale_factor=2).new_page()
        public.goto(srv.url + "/")
        expect(public.locator(".hog-grid")).to_be_visible()

        op.on("dialog", lambda d: d.accept())  # «Завершить игру?»
        op.click("[data-op=end]")
        for page in (op, public):  # the public page follows by its stream's reset
            box = page.locator("section.ended")
            expect(box).to_be_visible()
            expect(box.locator("h2")).to_contain_text("Хоггенгеймер")
            expect(box).to_contain_text("Игра завершена оператором до конца. Фишки: ")
            for name, n in chips.items():
                expect(box).to_contain_text(f"{name} {n}")
            expect(page.locator("p.empty")).to_be_visible()  # and no game runs now
        public.screenshot(path=str(artifacts_dir / "dashboard-ended.png"), full_page=True)
        op.context.close()
        public.context.close()
    finally:
        srv.stop()
        table.close()
