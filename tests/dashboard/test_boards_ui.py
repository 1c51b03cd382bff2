"""Each game's table drawn by its board, in a real headless Chromium (#22 items 1, 2, 5): the public
page, a seat's page and the table display /tv, checked for sideways scroll, cut-off parts, tap
targets under 44 px, WCAG AA contrast and words of the other language (tests/dashboard/pagecheck).

A small matrix per run (one mid-game phase per game at 360×800, the display at 1920×1080, one game
in English at 768×1024); tools/screens.py runs every phase at every size in both languages.
Screenshots: test-artifacts/screens/.
"""

from __future__ import annotations

import time

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.dashboard import DashboardServer  # noqa: E402
from companion.i18n import M as Msg, render  # noqa: E402
from tests.browser import UI, operator_login  # noqa: E402
from tests.dashboard.pagecheck import VIEWPORTS, phase_tables, problems  # noqa: E402

pytestmark = UI

#: the phase each game is looked at in, and what its board must draw there
MID = {
    "skull": ("auction", [".board-skull .big-bid", ".board-skull .rseat .backs"]),
    "doubt": ("answer", [".board-doubt .big-claim", ".board-doubt .badge.warn"]),
    "hoggenheimer": ("chain", [".board-hoggenheimer .hog-grid .bet-dot", ".hog-side .cover-bar"]),
    "infinity": ("play", [".board-infinity .badge.token", ".board-infinity .fact"]),
    "lottery": ("draw", [".board-lottery .prize .coin", ".board-lottery .hand .pcard"]),
}


def _settle(page, version: int) -> None:
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:
        if (page.evaluate("() => window.__lastVersion") or -1) >= version:
            break
        time.sleep(0.03)
    page.wait_for_timeout(100)


def _open(browser, srv, lang, viewport, path=None, code=None):
    ctx = browser.new_context(viewport=VIEWPORTS[viewport])
    ctx.add_cookies([{"name": "lang", "value": lang, "url": srv.url}])
    page = ctx.new_page()
    if code is not None:
        page.goto(srv.url + "/join")
        page.fill("#code", code)
        page.click("button[type=submit]")
        page.wait_for_url(srv.url + "/seat")
    else:
        page.goto(srv.url + path)
    return page


@pytest.mark.parametrize("gid", sorted(MID))
def test_board_draws_the_table_and_passes_the_checks(browser, artifacts_dir, gid):
    phase, parts = MID[gid]
    shots = artifacts_dir / "screens"
    shots.mkdir(exist_ok=True)
    for table, now in phase_tables(gid, "ru"):
        if now != phase:
            continue
        srv = DashboardServer(table, port=0).start()
        try:
            for kind, page in (("public", _open(browser, srv, "ru", "phone", "/")),
                               ("seat", _open(browser, srv, "ru", "phone", code=table.seat_codes()[0])),
                               ("tv", _open(browser, srv, "ru", "wide", "/tv"))):
                _settle(page, table.referee.version)
                for sel in parts:
                    expect(page.locator(sel).first).to_be_visible()
                # what the board does not draw is folded away, not dumped
                if kind != "tv":
                    expect(page.locator("details.info")).not_to_have_attribute("open", "")
                page.screenshot(path=str(shots / f"{gid}-{phase}-{kind}-ru.png"), full_page=True)
                assert problems(page, "ru") == [], f"{gid} {phase} {kind}"
                page.context.close()
        finally:
            srv.stop()
        return
    raise AssertionError(f"{gid} never reached {phase}")


@pytest.mark.parametrize("gid, phase", [("skull", "reveal"), ("infinity", "kept")])
def test_english_pages_have_no_russian(browser, artifacts_dir, gid, phase):
    """6100's «ХОЙ!» and «фишка» were in English ids; the full matrix (tools/screens.py) found them."""
    for table, now in phase_tables(gid, "en"):
        if now != phase:
            continue
        srv = DashboardServer(table, port=0).start()
        try:
            for kind, page in (("public", _open(browser, srv, "en", "tablet", "/")),
                               ("seat", _open(browser, srv, "en", "tablet", code=table.seat_codes()[0])),
                               ("tv", _open(browser, srv, "en", "tablet", "/tv")),
                               ("operator", _open(browser, srv, "en", "tablet", "/join"))):
                if kind == "operator":  # the console with every fold opened
                    operator_login(page, srv.url, "271828")
                    shut = page.locator("details:not([open]) > summary:visible")
                    while shut.count():  # one at a time: each opened one leaves the list
                        shut.first.click()
                    expect(page.locator("#voice-card[open]")).to_be_visible()
                _settle(page, table.referee.version)
                page.screenshot(path=str(artifacts_dir / f"screens-{gid}-{phase}-{kind}-en.png"), full_page=True)
                assert problems(page, "en") == [], kind
                page.context.close()
        finally:
            srv.stop()
        return
    raise AssertionError(f"{gid} never reached {phase}")


def test_table_display_shows_turn_last_event_moments_and_the_result(browser, artifacts_dir):
    """The display keeps whose turn and the last event in view; a prize won pops up; at the end a
    result screen with an SVG chart of the chips."""
    from companion.games.simulator import get_sim_class
    from companion.table import Table
    import tempfile

    table = Table(tempfile.mkdtemp(prefix="tv-"), pin="271828")
    srv = DashboardServer(table, port=0).start()
    try:
        table.new_game("hoggenheimer", ["Аня", "Борис", "Вика"])
        page = _open(browser, srv, "ru", "wide", "/tv")
        expect(page.locator(".tv-turn b")).to_be_visible()
        expect(page.locator(".tv-last p")).to_be_visible()
        sim = get_sim_class("hoggenheimer")(table.referee.game, 3)
        game, joker = table.referee.game, False
        while not game.is_over():
            text, source = sim.next_action()
            out = table.submit(text, source)
            assert out.accepted, text
            sim.applied(text)
            if not joker and any(e.kind == "joker" for e in out.events) and not game.is_over():
                joker = True
                expect(page.locator("#moment.m-joker")).to_be_visible()  # the joker, large, then gone
                expect(page.locator("#moment")).to_have_text(render(Msg("Joker"), "ru"))  # the presenter's words
                page.screenshot(path=str(artifacts_dir / "screens-tv-joker.png"))
                expect(page.locator("#moment")).to_have_count(0, timeout=5000)
        assert joker
        _settle(page, table.referee.version)
        expect(page.locator(".tv-result svg.chart polyline")).to_have_count(3)
        expect(page.locator(".tv-result .legend li")).to_have_count(3)
        page.screenshot(path=str(artifacts_dir / "screens-tv-result.png"), full_page=True)
        assert problems(page, "ru") == []
        page.context.close()
    finally:
        srv.stop()
        table.close()


def test_boards_say_who_holds_the_bid_and_the_claim_in_words(browser):
    """Skull: under the bid, who holds it (the last bidder, who took the button); «Верю — не верю»:
    the claim as its count and kind in words, the catalogue's plural («4 ежа», not «4 × ёж»)."""
    import re

    gen = phase_tables("skull", "ru")
    for table, now in gen:
        if now != "auction":
            continue
        srv = DashboardServer(table, port=0).start()
        try:
            page = _open(browser, srv, "ru", "phone", "/")
            _settle(page, table.referee.version)
            holder = table.referee.game.seats[table.referee.game.view(None)["dealer"]]
            expect(page.locator(".board-skull .big-bid .bid-holder")).to_have_text(f"держит: {holder}")
            page.context.close()
        finally:
            srv.stop()
        gen.close()
        break
    gen = phase_tables("doubt", "ru")
    for table, now in gen:
        if now != "answer":
            continue
        srv = DashboardServer(table, port=0).start()
        try:
            page = _open(browser, srv, "ru", "phone", "/")
            _settle(page, table.referee.version)
            claim = page.locator(".board-doubt .big-claim b").inner_text()
            v = table.referee.game.view(None)
            n = v["pile"]["placements"][-1]["count"]
            from companion.games.doubt.presenter import claim_words

            assert claim == claim_words(v["pile"]["claim"], None, n)["ru"]
            assert "×" not in claim and re.match(rf"^{n} \w+$", claim), claim
            page.context.close()
        finally:
            srv.stop()
        gen.close()
        break


def test_lottery_result_screen_charts_the_chips_over_the_draws(browser, artifacts_dir):
    gen = phase_tables("lottery", "ru")
    for table, now in gen:
        if now != "over":
            continue
        srv = DashboardServer(table, port=0).start()
        try:
            page = _open(browser, srv, "ru", "wide", "/tv")
            _settle(page, table.referee.version)
            rows = table.referee.game.view(None)["balances_by_draw"]
            seats = len(table.referee.game.seats)
            expect(page.locator(".tv-result svg.chart polyline")).to_have_count(seats)
            # a point a seat for the start, each draw, and the play-off's end
            assert page.locator(".tv-result svg.chart circle").count() >= seats * len(rows)
            page.screenshot(path=str(artifacts_dir / "screens-tv-lottery-result.png"), full_page=True)
            assert problems(page, "ru") == []
            page.context.close()
        finally:
            srv.stop()
        gen.close()
        return
    raise AssertionError("the lottery never ended")


@pytest.mark.parametrize("lang, pictures", [("ru", "ТКДВ"), ("en", "AKQJ")])
def test_board_writes_card_ranks_in_the_page_language(browser, lang, pictures):
    """A card is written as the language's decks index it: «Д♥» on a Russian board, "Q♥" on an
    English one (companion.games.cardnames); the layout's column heads too (Т К Д В 10 9 8 7)."""
    import re
    import tempfile

    from companion.games.simulator import get_sim_class
    from companion.table import Table
    from tests.dashboard.pagecheck import NAMES

    table = Table(tempfile.mkdtemp(prefix="ranks-"), pin="271828")
    srv = DashboardServer(table, port=0).start()
    try:
        table.new_game("hoggenheimer", NAMES[lang])
        game = table.referee.game
        sim = get_sim_class("hoggenheimer")(game, 5)
        # bots play until a picture card (A K Q J) lies face up on the layout
        while not any(c[:-1] in ("A", "K", "Q", "J") for c in game.view(None).get("chain") or []):
            text, source = sim.next_action()
            assert table.submit(text, source).accepted, text
            sim.applied(text)
        page = _open(browser, srv, lang, "phone", "/")
        _settle(page, table.referee.version)
        heads = page.locator(".board-hoggenheimer .hog-grid tr").first.locator("th").all_inner_texts()
        assert heads[1:] == list(pictures) + ["10", "9", "8", "7"], heads
        up = page.locator(".board-hoggenheimer .hog-grid td.up").all_inner_texts()
        faces = [re.match(r"^(10|[2-9]|.)([♠♥♦♣])", t) for t in up]
        assert up and all(faces), up
        ranks = {m.group(1) for m in faces if m}
        other = set("AKQJТКДВ") - set(pictures)  # the other language's letters
        assert ranks & set(pictures) and not ranks & other, (lang, up)
        # the page reads a typed card as cardnames.py does: a Latin T is no rank, «Т» the ace
        read = page.evaluate("""async () => { const m = await import('/static/js/cards.js');
            return ['TH', 'th', 'ТH', 'т♥', '10H', 'Д♥'].map(m.cardCode); }""")
        assert read == [None, None, "AH", "AH", "10H", "QH"], read
        page.context.close()
    finally:
        srv.stop()
        table.close()


def test_a_phone_board_shows_every_seat_name_whole(browser):
    """At a phone's width the side seats are narrow: their names wrap, never cut («Игро…» could
    not tell seat 2 from seat 4 in a new user's demo)."""
    import tempfile

    from companion.table import Table

    names = ["Игрок 1", "Игрок 2", "Игрок 3", "Игрок 4"]
    table = Table(tempfile.mkdtemp(prefix="names-"), pin="271828")
    srv = DashboardServer(table, port=0).start()
    try:
        table.new_game("skull", names)
        page = _open(browser, srv, "ru", "phone", "/")
        _settle(page, table.referee.version)
        shown = page.locator(".rseat .seat-name")
        expect(shown).to_have_count(4)
        for i in range(4):
            text, fits = shown.nth(i).evaluate(
                "e => [e.innerText, e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1]")
            assert " ".join(text.split()) in names and fits, (i, text)
        page.context.close()
    finally:
        srv.stop()
        table.close()
