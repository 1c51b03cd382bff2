"""Real headless Chromium at 390×844: a lottery and a «Верю — не верю» game played to their end
by the bots, watched on a seat page and the public page in Russian and English. The game area
(seat cards, the information card, the game-over box, the private box — not the history, not the
pad) shows no raw codes: no card code like ``8H``, no ``_``, no «k 1», no prize counted from 0,
no English word on the Russian page and no Russian on the English page but the players' names."""

from __future__ import annotations

import re
import time

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from companion.dashboard import DashboardServer  # noqa: E402
from companion.games.simulator import get_sim_class  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import UI, open_details  # noqa: E402

pytestmark = UI

VIEWPORT = {"width": 390, "height": 844}
RAW = [re.compile(r"\b\d{1,2}[SHDC]\b"), re.compile(r"_"), re.compile(r"\bk 1\b"), re.compile(r"приз 0", re.I)]
AREA = "section.card.game, .card.info, section.card.you-box"


def _area(page) -> str:
    open_details(page)  # «Подробнее» is read too
    return "\n".join(page.locator(AREA).all_inner_texts())


def _wait_version(page, version: int, timeout: float = 30.0) -> None:  # generous under load
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (page.evaluate("() => window.__lastVersion") or 0) >= version:
            return
        time.sleep(0.03)
    raise AssertionError(f"page never reached version {version}")


def _check(text: str, lang: str, names, where: str) -> None:
    for rx in RAW:
        assert not rx.search(text), f"{where}: {rx.pattern!r} in {text!r}"
    if lang == "ru":
        # no Latin letter at all: a card's rank too is Russian («Д♥», not «Q♥»)
        words = re.findall(r"[A-Za-z]+", text)
        assert not words, f"{where}: English words on the Russian page: {words}"
    else:
        rest = text
        for n in names:
            rest = rest.replace(n, "")
        assert not re.search(r"[А-Яа-яЁё]", rest), f"{where}: Russian on the English page: {rest!r}"


@pytest.mark.parametrize("gid,names,options,stop", [
    ("lottery", ["Аня", "Борис", "Вика", "Гоша", "Дима"], None, 12),
    ("doubt", ["Аня", "Борис", "Вика"], {"games": 2}, 14),
])
def test_game_pages_in_words_to_the_end(browser, fast_dir, artifacts_dir, gid, names, options, stop):
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    try:
        table.new_game(gid, names, options)
        sim = get_sim_class(gid)(table.referee.game, 7)
        pages = []
        for lang in ("ru", "en"):
            for kind in ("public", "seat"):
                ctx = browser.new_context(viewport=VIEWPORT)
                ctx.add_cookies([{"name": "lang", "value": lang, "url": srv.url}])
                page = ctx.new_page()
                if kind == "public":
                    page.goto(srv.url + "/")
                else:
                    page.goto(srv.url + "/join")
                    page.fill("#code", table.seat_codes()[1])
                    page.click("button[type=submit]")
                pages.append((lang, kind, page))
        game = table.referee.game
        n = 0
        for target in (stop, 10**6):  # mid-game, then the end
            while n < target and not game.is_over():
                text, source = sim.next_action()
                assert table.submit(text, source).accepted, text
                sim.applied(text)
                n += 1
            for lang, kind, page in pages:
                _wait_version(page, table.referee.version)
                _check(_area(page), lang, names, f"{gid} {lang} {kind} after {n}")
        assert game.is_over()
        for lang, kind, page in pages:
            box = page.locator(".over .result-text")
            assert box.count() == 1, f"{gid} {lang} {kind}: no worded game-over box"
            assert any(nm in box.inner_text() for nm in names)
            assert page.locator(".over dl").count() == 0  # no field dump
            page.screenshot(path=str(artifacts_dir / f"views-{gid}-{lang}-{kind}.png"), full_page=True)
        if gid == "lottery":
            # chips on every seat card
            assert pages[0][2].locator(".seat").count() == 5
            for i in range(5):
                assert pages[0][2].locator(".seat").nth(i).locator(".chip").first.inner_text().startswith("Фишки")
        for _lang, _kind, page in pages:
            page.context.close()
    finally:
        srv.stop()
        table.close()
