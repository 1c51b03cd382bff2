"""The joker game's bet on the seat page is placed on a picture of the layout (RULINGS §3: rows
♠ ♥ ♦ ♣ from the top, columns A K Q J 10 9 8 7), not on one button per target (there are 117).

Tapped cards make the selection — one card, two touching cards, a 2×2 square; a suit's sign takes
its row, a rank its column — the page words it as the game does (``bet_target`` through the seat's
page view, ``targets``) with its payout, and one «Поставить» button sends the legal bet at the
stepper's stake. A selection that is no bet (a diagonal, two cards apart, three cards) is said in
words and the button stays disabled. Driven in a real headless Chromium on a running table; the
engine's bets and log are the judge."""

from __future__ import annotations

import re
import time

import pytest

from companion.games import hoggenheimer as H
from tests.browser import PHONE, UI

ROW_D = ",".join(r + "D" for r in H.RANKS)


pytestmark = UI


# ---------------------------------------------------------------------- in the browser
def seat_page(browser, srv, table, seat, lang="ru", viewport=PHONE):
    ctx = browser.new_context(viewport=viewport)
    if lang != "ru":
        ctx.add_cookies([{"name": "lang", "value": lang, "url": srv.url}])
    page = ctx.new_page()
    page.goto(srv.url + "/join")
    page.fill("#code", table.seat_codes()[seat])
    page.click("button[type=submit]")
    page.locator("#pad .bet-grid").wait_for()
    return page


def set_stake(page, stake):
    from playwright.sync_api import expect

    val = page.locator("#pad .bet-stake .step-val")
    for _ in range(40):
        now = int(val.inner_text())
        if now == stake:
            break
        page.locator("#pad .bet-stake button[aria-label='%s']" % ("+" if now < stake else "−")).click()
    expect(val).to_have_text(str(stake))


def wait_bets(table, n):
    """Wait until the engine holds ``n`` bets, read under the referee's lock: the engine applies a
    bet before its log record is written, both inside that lock, so a look without it could see
    the bet and not yet its record (the IndexError on the log under load)."""
    ref = table.referee
    deadline = time.monotonic() + 15

    def bets():
        with ref.lock:
            return len(ref.game.bets)

    while bets() < n and time.monotonic() < deadline:
        time.sleep(0.03)
    assert bets() == n


def test_card_pair_square_column_and_row_are_placed_from_the_grid(browser, table_server):
    pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect

    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])  # Аня holds the bank
    page = seat_page(browser, srv, table, 1)
    # never one button per target: 32 cards, 8 ranks, 4 suits, the stepper and the one button
    expect(page.locator("#pad .bet-card")).to_have_count(32)
    assert page.locator("#pad button").count() < 60
    assert page.locator("#pad .pad-row button").count() == 0
    say, place = page.locator("#pad .bet-say"), page.locator("#pad .bet-place")
    expect(place).to_have_text("Поставить")
    expect(place).to_be_disabled()
    expect(say).to_contain_text("Отметьте карты")

    def card(code):
        return page.locator(f"#pad .bet-card[data-card='{code}']")

    plan = [  # what is tapped, the words shown, the stake, the bet the engine gets
        (lambda: card("AS").click(), "Карта Т♠ — выплата 1:1", 3, ("card", ["AS"])),
        (lambda: (card("QH").click(), card("KH").click()), "Две соседние К♥ Д♥ — выплата 2:1", 2,
         ("pair", ["KH", "QH"])),
        (lambda: [card(c).click() for c in ("8D", "9H", "8H", "9D")], "Квадрат 9♥ 8♥ 9♦ 8♦ — выплата 4:1", 4,
         ("square", ["9H", "8H", "9D", "8D"])),
        (lambda: page.locator("#pad .bet-col", has_text=re.compile(r"^10$")).click(),
         "Колонка — все десятки — выплата 4:1", 5, ("column", ["10S", "10H", "10D", "10C"])),
        (lambda: page.locator("#pad .bet-row.s-D").click(), "Ряд — все бубны — выплата 8:1", 1,
         ("row", ROW_D.split(","))),
    ]
    for n, (tap, words, stake, (shape, cards)) in enumerate(plan, start=1):
        set_stake(page, stake)
        tap()
        expect(say).to_have_text(words.replace(" — выплата ", " — выплата\u00a0"))
        expect(place).to_be_enabled()
        expect(page.locator("#pad .bet-card.on")).to_have_count(len(cards))
        place.click()
        wait_bets(table, n)
        with table.referee.lock:
            bet = table.referee.game.bets[-1]
            last = table.referee.log.records()[-1].action
        assert (bet["seat"], bet["shape"], bet["cards"], bet["stake"]) == (1, shape, cards, stake)
        assert last == f"1 bet {stake} {','.join(cards)}"
        expect(page.locator("#toast")).to_contain_text("Принято")
        # placed: the selection is cleared for the next bet
        expect(page.locator("#pad .bet-card.on")).to_have_count(0)
        expect(place).to_be_disabled()
    assert [(b["shape"], b["stake"]) for b in table.referee.game.bets] == [
        ("card", 3), ("pair", 2), ("square", 4), ("column", 5), ("row", 1)]
    assert table.referee.game.balances[1] == 100 - 15
    # the bets to take back are still listed in words, under the grid
    choices = page.locator("#pad .choice-list.verb-withdraw button")
    expect(choices).to_have_count(5)
    grid, listed = page.locator("#pad .bet-grid").bounding_box(), choices.first.bounding_box()
    assert listed["y"] > grid["y"] + grid["height"]
    page.context.close()


def test_a_selection_that_is_no_bet_is_said_and_cannot_be_sent(browser, table_server):
    pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect

    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
    page = seat_page(browser, srv, table, 2)
    say, place = page.locator("#pad .bet-say"), page.locator("#pad .bet-place")

    def tap(*codes):
        for c in codes:
            page.locator(f"#pad .bet-card[data-card='{c}']").click()

    records = len(table.referee.log.records())
    tap("KS", "QH")  # a diagonal
    expect(say).to_contain_text("По диагонали — не ставка")
    expect(say).to_have_class(re.compile(r"\bbad\b"))
    expect(place).to_be_disabled()
    place.click(force=True)  # a tap on the disabled button sends nothing
    tap("QH")  # tapped again: unselected, one card left — a bet
    expect(page.locator("#pad .bet-card.on")).to_have_count(1)
    expect(say).to_have_text("Карта К♠ — выплата\u00a01:1")
    expect(place).to_be_enabled()
    tap("JS")  # K♠ and J♠: not touching
    expect(say).to_contain_text("Эти две карты не соседние")
    expect(place).to_be_disabled()
    tap("QS")  # three cards in a line
    expect(say).to_contain_text("Выбрано карт: 3 — такой ставки нет")
    expect(place).to_be_disabled()
    # a row's sign selects the row; tapped again, it is unselected
    row = page.locator("#pad .bet-row.s-H")
    row.click()
    expect(page.locator("#pad .bet-card.on")).to_have_count(8)
    expect(row).to_have_class(re.compile(r"\bon\b"))
    expect(say).to_contain_text("Ряд — все черви")
    tap("7H")  # seven cards of the row: no bet
    expect(say).to_contain_text("Выбрано карт: 7")
    expect(place).to_be_disabled()
    row.click()
    row.click()
    expect(page.locator("#pad .bet-card.on")).to_have_count(0)
    expect(say).to_contain_text("Отметьте карты")
    time.sleep(0.3)
    assert len(table.referee.log.records()) == records  # nothing was sent
    page.context.close()


def test_a_bet_the_bank_cannot_cover_is_said_and_disabled(browser, table_server):
    """With 5 chips in the bank a row (8:1) cannot be covered even at the minimum stake: the
    engine does not offer it, and the page says so rather than sending a bet it would refuse."""
    pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect

    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис"], {"starting_chips": 5, "max_stake": 5})
    page = seat_page(browser, srv, table, 1)
    page.locator("#pad .bet-row.s-S").click()
    say = page.locator("#pad .bet-say")
    expect(say).to_contain_text("Ряд — все пики — выплата\u00a08:1")
    expect(say).to_contain_text("Банк сейчас её не покроет")
    expect(page.locator("#pad .bet-place")).to_be_disabled()
    page.locator("#pad .bet-row.s-S").click()
    page.locator("#pad .bet-col", has_text=re.compile(r"^Т$")).click()  # a column (4:1) is covered
    expect(say).to_have_text("Колонка — все тузы — выплата\u00a04:1")
    # ... at 1 chip only (5 // 4): a stake of 2 is said and not sent, back at 1 it is
    page.locator("#pad .bet-stake button[aria-label='+']").click()
    expect(say).to_contain_text("Банк покроет здесь ставку до 1")
    expect(page.locator("#pad .bet-place")).to_be_disabled()
    page.locator("#pad .bet-stake button[aria-label='−']").click()
    expect(say).to_have_text("Колонка — все тузы — выплата\u00a04:1")
    page.locator("#pad .bet-place").click()
    wait_bets(table, 1)
    assert table.referee.game.bets[0]["cards"] == ["AS", "AH", "AD", "AC"]
    page.context.close()


def test_the_grid_fits_a_phone_and_speaks_english_on_an_english_page(browser, table_server):
    pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect

    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
    for text in ("1 bet 5 QH", "1 bet 2 AH,KH", "1 bet 4 row:D"):  # a list of bets to take back too
        assert table.submit(text, "dashboard").accepted, text
    page = seat_page(browser, srv, table, 1, lang="en")
    # 360 × 740: nothing wider than the screen; every cell 44 px high (a touch target), the
    # cards as wide as fit (38.75 px), a row's sign 22 px
    assert page.viewport_size == PHONE
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("() => document.body.scrollWidth") <= PHONE["width"]
    for b in page.locator("#pad .bet-grid button").all():
        box = b.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert box["height"] >= 44, box
    for b in page.locator("#pad .bet-card").all():
        box = b.bounding_box()
        assert box["width"] >= 38.5, box
    for b in page.locator("#pad .bet-row").all():
        box = b.bounding_box()
        assert box["width"] >= 21.5, box
    # the suits are coloured: hearts and diamonds red, spades and clubs not
    colour = page.evaluate("""() => ['AH', 'AD', 'AS', 'AC'].map(c => getComputedStyle(
        document.querySelector(`#pad .bet-card[data-card='${c}']`)).color)""")
    assert colour[0] == colour[1] and colour[2] == colour[3] and colour[0] != colour[2]
    # the ranks read as the rest of the page writes cards (argLabel: "10♥", "Q♠")
    assert page.locator("#pad .bet-card[data-card='10H']").inner_text() == "10♥"
    assert page.locator("#pad .bet-col").all_inner_texts() == list(H.RANKS)
    assert page.locator("#pad .bet-row").all_inner_texts() == ["♠", "♥", "♦", "♣"]
    # the words of the 117 targets feed the grid; the page's game box does not list them
    assert "targets" not in page.inner_text("#app").lower()
    assert "the column — all tens" not in page.inner_text("body")
    say, place = page.locator("#pad .bet-say"), page.locator("#pad .bet-place")
    expect(place).to_have_text("Place the bet")
    page.locator("#pad .bet-card[data-card='KH']").click()
    page.locator("#pad .bet-card[data-card='QH']").click()
    expect(say).to_have_text("Two touching cards K♥ Q♥ — payout\u00a02:1")
    page.locator("#pad .bet-card[data-card='JS']").click()
    expect(say).to_have_text("3 cards selected: there is no such bet")
    page.locator("#pad .bet-card[data-card='KH']").click()  # unselected: Q♥ and J♠, a diagonal
    expect(say).to_have_text("A diagonal is not a bet: touching cards share a side")
    expect(place).to_be_disabled()
    # the pad stays within half the screen and scrolls inside itself; the grid (44 px rows), the
    # words and the button are in view at the top of the pad
    pad = page.locator("#pad").bounding_box()
    assert pad["height"] <= 0.5 * PHONE["height"]
    for sel in ("#pad .bet-grid", "#pad .bet-say", "#pad .bet-place"):
        box = page.locator(sel).bounding_box()
        assert box["y"] + box["height"] <= pad["y"] + pad["height"], sel
    page.context.close()


def test_every_cell_is_a_touch_target_on_a_390_px_phone(browser, table_server, artifacts_dir):
    """390 × 844 (a common phone): every tappable cell of the grid — 32 cards, 4 suit signs, 8
    ranks — is at least 44 px high (the usual minimum touch target; they were 38 and 26) and as
    wide as the screen allows with the page never scrolling sideways: the grid spans the pad's
    whole inner width but 2 px a side, the signs' column is 22 px, and the eight card columns
    share the rest (42.5 px each). The grid, its words and «Поставить» are in view in the pad."""
    pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect

    viewport = {"width": 390, "height": 844}
    table, srv = table_server
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
    assert table.submit("1 bet 5 QH", "dashboard").accepted
    page = seat_page(browser, srv, table, 1, viewport=viewport)
    width = viewport["width"]
    assert page.evaluate("() => [document.documentElement.scrollWidth, document.body.scrollWidth]") == [width, width]
    grid = page.locator("#pad .bet-grid").bounding_box()
    pad = page.locator("#pad").bounding_box()
    inner = page.evaluate("() => { const p = document.getElementById('pad'); return [p.clientWidth, p.scrollWidth]; }")
    assert inner[1] == inner[0]  # nothing scrolls sideways inside the pad either
    assert pad["x"] >= 0 and pad["x"] + pad["width"] <= width
    assert grid["x"] >= 0 and grid["x"] + grid["width"] <= width
    assert grid["width"] >= inner[0] - 4 - 0.5, (grid, inner)  # all the pad's inner width but 2 px a side
    cells = {sel: [b.bounding_box() for b in page.locator(f"#pad {sel}").all()]
             for sel in (".bet-card", ".bet-row", ".bet-col")}
    assert [len(v) for v in cells.values()] == [32, 4, 8]
    for sel, boxes in cells.items():
        for box in boxes:
            assert box["height"] >= 44, (sel, box)
            assert box["x"] >= grid["x"] - 0.5 and box["x"] + box["width"] <= grid["x"] + grid["width"] + 0.5, (sel, box)
    card = (grid["width"] - 22 - 8 * 2) / 8  # the eight card columns share what the signs and gaps leave
    for box in cells[".bet-card"] + cells[".bet-col"]:
        assert abs(box["width"] - card) < 0.6 and box["width"] >= 42, box
    assert all(abs(box["width"] - 22) < 0.6 for box in cells[".bet-row"])
    # the cells do not overlap: a tap lands on one card only
    cards = sorted(cells[".bet-card"], key=lambda b: (round(b["y"]), b["x"]))
    for a, b in zip(cards, cards[1:]):
        if round(a["y"]) == round(b["y"]):
            assert b["x"] >= a["x"] + a["width"] + 1.5, (a, b)
    for sel in (".bet-grid", ".bet-say", ".bet-place"):
        box = page.locator(f"#pad {sel}").bounding_box()
        assert box["y"] + box["height"] <= pad["y"] + pad["height"], sel
    # a tap on a card at each edge selects it, drawn whole (its gold ring is not cut off)
    page.locator("#pad .bet-card[data-card='AS']").click()
    page.locator("#pad .bet-card[data-card='7S']").click()
    expect(page.locator("#pad .bet-say")).to_contain_text("Эти две карты не соседние")
    page.locator("#pad .bet-card[data-card='AS']").click()
    expect(page.locator("#pad .bet-say")).to_have_text("Карта 7♠ — выплата\u00a01:1")
    page.screenshot(path=str(artifacts_dir / "jokerpad-bet-grid-390.png"))
    page.context.close()
