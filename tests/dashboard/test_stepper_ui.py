"""The seat's bid stepper starts from the lowest legal bid each time the bid is offered anew
(#22 item 4): not from the count the phone showed at its last turn (a real headless Chromium at a
phone viewport; the bots play the other seats)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.games.simulator import get_sim_class  # noqa: E402
from companion.games.skull import Bid  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI  # noqa: E402

pytestmark = UI


def _bids(game, seat: int) -> list[int]:
    return sorted(a.count for a in game.legal_actions(seat) if isinstance(a, Bid))


def _wait_version(page, version: int) -> None:
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:
        if (page.evaluate("() => window.__lastVersion") or 0) >= version:
            return
        time.sleep(0.02)
    raise AssertionError(f"page never reached version {version}")


def test_bid_stepper_starts_from_the_lowest_legal_bid_at_every_turn(browser, fast_dir):
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    try:
        table.new_game("skull", ["Аня", "Борис", "Вика"])
        sim = get_sim_class("skull")(table.referee.game, 11)
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(srv.url + "/join")
        page.fill("#code", table.seat_codes()[0])
        page.click("button[type=submit]")
        expect(page).to_have_url(srv.url + "/seat")
        game, turns = table.referee.game, 0
        for _ in range(3000):
            if game.is_over() or turns == 3:
                break
            bids = _bids(game, 0)
            if len(bids) > 1:
                _wait_version(page, table.referee.version)
                expect(page.locator(".stepper .step-val")).to_have_text(str(bids[0]))
                page.click(".stepper .step >> nth=1")  # "+": a count left over for the next turn
                expect(page.locator(".stepper .step-val")).to_have_text(str(bids[1]))
                turns += 1
            text, source = sim.next_action()
            assert table.submit(text, source).accepted, text
            sim.applied(text)
        assert turns >= 2, "Аня never had two turns to bid"
        page.context.close()
    finally:
        srv.stop()
        table.close()
