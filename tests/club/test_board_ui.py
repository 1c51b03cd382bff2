"""The club board in real headless Chromium, on a real broker: a TV page with three tables (three
games), each tile's live board drawn by the tables' own page script (web/static/app.js) and
following play, the standings appearing as games end, and a phone following one table.

Screenshots go to test-artifacts/club-*.png.
"""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.club.board import Board  # noqa: E402
from companion.club.publisher import ClubPublisher  # noqa: E402
from companion.club.web import BoardServer  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import PHONE, UI  # noqa: E402
from tests.club.helpers import Bots, wait_until  # noqa: E402

pytestmark = UI
TV = {"width": 1600, "height": 900}
GAMES = {"t1": ("skull", ["Аня", "Борис", "Вика"]), "t2": ("infinity", ["Гена", "Дима", "Ева"]),
         "t3": ("hoggenheimer", ["Жора", "Зоя", "Ира", "Коля"])}


@pytest.fixture
def club(broker, fast_dir):
    board = Board(broker.url(None), fast_dir / "board").start()
    server = BoardServer(board, "2468", "127.0.0.1", 0).start()
    wait_until(lambda: board.connected, what="the board's connection")
    tables = {}
    for tid, (game, names) in GAMES.items():
        table = Table(fast_dir / tid, pin="123456")
        table.new_game(game, names)
        pub = ClubPublisher(table, broker.url(tid)).start()
        tables[tid] = (table, pub, Bots(table, game, names, 4))
    yield board, server, tables
    for table, pub, _ in tables.values():
        pub.stop(), table.close()
    server.stop(), board.stop()


def current_names(table) -> list[str]:
    ref = table.referee
    return [ref.game.seats[s] for s in ref.game.current_seats()]


def test_the_board_shows_every_table_live_and_the_standings(browser, club, artifacts_dir):
    board, server, tables = club
    for table, pub, bots in tables.values():
        bots.play(8)
    wait_until(lambda: all((board.store.table(t) or {}).get("snapshot", {}) and
                           board.store.table(t)["snapshot"]["seq"] == tables[t][0].referee.version for t in tables),
               what="every table's snapshot at the board")
    tv = browser.new_context(viewport=TV).new_page()
    tv.goto(server.url + "/")
    expect(tv.locator(".tile")).to_have_count(3)
    for tid, (game, names) in GAMES.items():
        tile = tv.locator(f".tile[data-table={tid}]")
        expect(tile.locator("h2")).to_contain_text(f"Стол {tid}")
        expect(tile.locator(".players .chip")).to_have_count(len(names))
        # the live board is the table's own public page, drawn by app.js inside the tile with the
        # game's own board (its package's script, /games/<id>/board.js), not the generic one
        frame = tv.frame_locator(f".tile[data-table={tid}] iframe")
        expect(frame.locator(f".board-{game}")).to_have_count(1)
        expect(frame.locator(".seat")).to_have_count(len(names))
        for n in names:
            expect(frame.locator(".seats")).to_contain_text(n)
    tv.screenshot(path=str(artifacts_dir / "club-board.png"), full_page=True)

    # play goes on: the tile's board and its whose-turn follow without a reload
    table, pub, bots = tables["t2"]
    before = current_names(table)
    while current_names(table) == before and not bots.over:
        bots.step()
    now = current_names(table)
    frame = tv.frame_locator(".tile[data-table=t2] iframe")
    if now:
        expect(tv.locator(".tile[data-table=t2] .players .turn")).to_have_text(now[0], timeout=15_000)
        expect(frame.locator(".seat.turn").first).to_contain_text(now[0], timeout=15_000)
    assert tv.evaluate("performance.getEntriesByType('navigation').length") == 1

    # a game ends: its players reach the standings of the night
    expect(tv.locator("#standings-table")).to_contain_text("ещё ни одна игра")
    table1, _, bots1 = tables["t1"]
    bots1.play()
    winner = table1.referee.game.result()["winner_name"]
    expect(tv.locator("#standings-table tr").nth(1)).to_contain_text(winner, timeout=15_000)
    expect(tv.locator(".tile[data-table=t1]")).to_contain_text("Игра окончена", timeout=15_000)
    tv.screenshot(path=str(artifacts_dir / "club-board-standings.png"), full_page=True)

    # a table that drops off is marked silent
    tables["t3"][1].stop()
    expect(tv.locator(".tile[data-table=t3] .state")).to_have_text("Молчит", timeout=15_000)
    tv.context.close()


def test_a_phone_follows_one_table_from_the_board(browser, club, artifacts_dir):
    board, server, tables = club
    table, pub, bots = tables["t3"]
    bots.play(5)
    wait_until(lambda: (board.store.table("t3") or {}).get("snapshot"), what="t3's snapshot")
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2).new_page()
    phone.goto(server.url + "/t/t3")
    expect(phone.locator(".seat")).to_have_count(4)
    expect(phone.locator("#live")).to_contain_text("В эфире")
    bots.play(6)
    version = table.referee.version
    wait_until(lambda: (phone.evaluate("() => window.__lastVersion") or 0) >= version, what="the phone at the table's version")
    phone.screenshot(path=str(artifacts_dir / "club-table-phone.png"), full_page=True)
    phone.click("text=EN")
    expect(phone.locator("#live")).to_contain_text("Live")
    phone.context.close()
