"""Real headless Chromium at a phone viewport (360×740): join a seat by code, press the pad,
watch the public page update live (no reload), hide/show a page (fresh snapshot), operator console.

Screenshots go to test-artifacts/dashboard-*.png.
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from tests.browser import PHONE, UI, operator_login, unfold  # noqa: E402
from companion.games.skull import Bid  # noqa: E402
from companion.games.simulator import get_sim_class  # noqa: E402
from companion.table import Table  # noqa: E402


pytestmark = UI


@pytest.fixture
def table_server(fast_dir):
    table = Table(fast_dir, pin="314159")
    table.set_status("buttons", {"state": "absent"})
    table.set_status("camera", {"state": "sim", "detail": "rendered scenes"})
    table.set_status("ocr", {"state": "ok"})
    srv = DashboardServer(table, port=0).start()
    yield table, srv
    srv.stop()
    table.close()


def wait_version(page, version: int, timeout: float = 5.0) -> None:
    """Wait until the page's script applied ``version`` (polled from Python: the page's CSP forbids
    the string evaluation Playwright's wait_for_function uses)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (page.evaluate("() => window.__lastVersion") or 0) >= version:
            return
        time.sleep(0.02)
    raise AssertionError(f"page never reached version {version}")


def drive(table, sim, until) -> None:
    """Let the bots play until ``until(game)`` holds."""
    game = table.referee.game
    for _ in range(500):
        if until(game):
            return
        text, source = sim.next_action()
        assert table.submit(text, source).accepted
        sim.applied(text)
    raise AssertionError("the game never reached the wanted state")


def test_phone_joins_bids_and_public_page_follows(browser, table_server, artifacts_dir):
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вика", "Гоша"])
    sim = get_sim_class("skull")(table.referee.game, 11)
    code = table.seat_codes()[0]

    public = browser.new_context(viewport=PHONE, device_scale_factor=2).new_page()
    public.goto(srv.url + "/")
    expect(public.locator(".seat")).to_have_count(4)
    expect(public.locator("#live")).to_contain_text("В эфире")  # Russian by default, stream open

    phone = browser.new_context(viewport=PHONE, device_scale_factor=2).new_page()
    phone.goto(srv.url + "/join")
    phone.screenshot(path=str(artifacts_dir / "dashboard-join.png"))
    phone.fill("#code", code)
    phone.click("button[type=submit]")
    expect(phone).to_have_url(srv.url + "/seat")
    expect(phone.locator("#pad h2")).to_contain_text("Аня")

    # set-up scan and stage 1 by the bots until Аня (seat 0) may bid
    drive(table, sim, lambda g: any(isinstance(a, Bid) for a in g.legal_actions(0)))
    version = table.referee.version
    expect(phone.locator(".stepper")).to_be_visible()
    expect(public.locator("#app")).to_contain_text("Этап 2")
    start = int(phone.locator(".step-val").inner_text())
    phone.click(".stepper .step >> nth=1")  # "+"
    expect(phone.locator(".step-val")).to_have_text(str(start + 1))
    # the pending count shows on the public page while Аня is still counting
    expect(public.locator(".seat >> nth=0").locator(".badge.pending")).to_contain_text(str(start + 1))
    phone.screenshot(path=str(artifacts_dir / "dashboard-seat-pad.png"), full_page=True)
    public.screenshot(path=str(artifacts_dir / "dashboard-public-pending.png"), full_page=True)

    phone.click(".stepper .primary")  # OK: the bid goes to the referee from the phone
    expect(phone.locator("#toast")).to_contain_text("Принято")
    bid = f"0 bid {start + 1}"
    assert table.referee.log.records()[-1].action == bid
    assert table.referee.log.records()[-1].source == "dashboard"
    sim.applied(bid)
    # the public page follows without a reload
    wait_version(public, version + 1)
    expect(public.locator(".hist li").first).to_contain_text(f"Аня ставит {start + 1}")
    expect(public.locator(".seat >> nth=0").locator(".badge.pending")).to_have_count(0)
    assert public.evaluate("performance.getEntriesByType('navigation').length") == 1
    public.screenshot(path=str(artifacts_dir / "dashboard-public.png"), full_page=True)

    # a page hidden and shown again resyncs from a fresh snapshot
    public.evaluate("""() => { Object.defineProperty(document, 'hidden', {value: true, configurable: true});
                              document.dispatchEvent(new Event('visibilitychange')); }""")
    expect(public.locator("#live")).to_contain_text("Переподключение")
    drive(table, sim, lambda g: table.referee.version >= version + 4)
    target = table.referee.version
    assert public.evaluate("() => window.__lastVersion") < target  # no stream while hidden
    public.evaluate("""() => { Object.defineProperty(document, 'hidden', {value: false, configurable: true});
                              document.dispatchEvent(new Event('visibilitychange')); }""")
    wait_version(public, target)

    # the phone's private facts (its notes with their roles) are on the phone only
    # (serials themselves were shown face up at the set-up scan; the property test covers the rest)
    expect(phone.locator(".you-box")).to_be_visible()
    phone.screenshot(path=str(artifacts_dir / "dashboard-seat.png"), full_page=True)
    own = table.referee.view(0)["you"]["notes"][0]["serial"]
    expect(phone.locator(".you-box")).to_contain_text(own)
    expect(public.locator(".you-box")).to_have_count(0)

    # English on request
    phone.click("text=EN")
    expect(phone.locator("#live")).to_contain_text("Live")
    phone.context.close()
    public.context.close()


def test_operator_console_on_a_phone(browser, table_server, artifacts_dir):
    table, srv = table_server
    page = browser.new_context(viewport=PHONE, device_scale_factor=2).new_page()
    operator_login(page, srv.url, table.pin)  # the start-up link logs in by itself
    expect(page.locator("#new-game")).to_be_visible()
    page.select_option("#game-select", "skull")
    expect(page.locator("fieldset[data-game=skull]")).to_be_visible()
    expect(page.locator("fieldset[data-game=doubt]")).to_be_hidden()
    page.fill("textarea[name=seats]", "Аня\nБорис\nВика")
    page.fill("input[name=opt_skull_notes_per_player]", "5")
    page.click("#new-game button[type=submit]")
    expect(page.locator(".codes li")).to_have_count(3)
    expect(page.locator(".codes li").first).to_be_hidden()  # the join codes are folded away
    assert table.game_info()["options"]["notes_per_player"] == 5
    # the game waits for the camera's set-up scan: a manual entry form per seat
    expect(page.locator("#table-actions form").first).to_be_visible()
    unfold(page, "#fold-prompt")
    page.fill("#prompt-form input[name=text]", "Покажите купюры игрока 1")
    page.click("#prompt-form button")
    expect(page.locator("#prompts .prompt")).to_contain_text("Покажите купюры игрока 1")
    page.screenshot(path=str(artifacts_dir / "dashboard-operator.png"), full_page=True)
    # a wrong manual entry is rejected with its reason, nothing logged
    first = page.locator("#table-actions form").first
    for i in range(first.locator("input, textarea").count()):
        first.locator("input, textarea").nth(i).fill("XX")
    first.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Не принято")
    assert table.referee.log.records() == []
    page.context.close()


def test_joker_layout_with_odds(browser, table_server, artifacts_dir):
    """Hoggenheimer's 4×8 layout: face-up cards in their places, each bet with payout and chance."""
    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вика"])
    sim = get_sim_class("hoggenheimer")(table.referee.game, 3)
    view = table.referee.view
    drive(table, sim, lambda g: len(view(None)["bets"]) >= 3 and any(
        c["card"] for row in view(None)["layout"] for c in row))
    page = browser.new_context(viewport=PHONE, device_scale_factor=2).new_page()
    page.goto(srv.url + "/")
    expect(page.locator(".hog-grid td")).to_have_count(32)
    up = [c["card"] for row in view(None)["layout"] for c in row if c["card"]]
    expect(page.locator(".hog-grid td.up")).to_have_count(len(up))
    bets = view(None)["bets"]
    expect(page.locator("ul.bets li")).to_have_count(len(bets))
    first = bets[0]
    expect(page.locator("ul.bets li").first).to_contain_text(f"{first['payout']} · шанс {first['probability']}")
    page.screenshot(path=str(artifacts_dir / "dashboard-hoggenheimer.png"), full_page=True)
    page.context.close()
