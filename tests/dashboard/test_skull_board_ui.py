"""Skull's board says who is where in the right words, in a real headless Chromium at a phone's
width (390 px), Russian: a player the operator took out is drawn gone and his phone says so; the
settlement names the player who *chooses* the note for the bank (not «Открывает»); the dealer is
told to turn the others' notes once his own are face up; at the end the winner has a chip, nobody
keeps the button, «Игра окончена» is said once, and no seat shows a bare count."""

from __future__ import annotations

import re
import time

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from playwright.sync_api import expect  # noqa: E402

from companion.games.simulator import get_sim_class  # noqa: E402
from companion.i18n import M, MP, render  # noqa: E402
from tests.browser import UI  # noqa: E402

pytestmark = UI

PHONE = {"width": 390, "height": 900}
NOTES = {0: "АК244484%d", 1: "ВЕ100000%d", 2: "МН300000%d"}  # a last digit 1 is the skull (odd parity)


def ru(id: str, **facts) -> str:
    return render(M(id, **facts), "ru")


def skull_word(id: str) -> str:
    return render(MP("skull", id), "ru")


def register(table, seats: int) -> None:
    for s in range(seats):
        serials = ",".join(NOTES[s] % d for d in (2, 4, 6, 1))
        assert table.submit(f"table register {s} {serials} ?", "manual").accepted


def settle(page, table) -> None:
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline:
        if (page.evaluate("() => window.__lastVersion") or -1) >= table.referee.version:
            break
        time.sleep(0.03)
    page.wait_for_timeout(100)


def open_page(browser, srv, path="/", code=None):
    page = browser.new_context(viewport=PHONE).new_page()
    if code is None:
        page.goto(srv.url + path)
    else:
        page.goto(srv.url + "/join")
        page.fill("#code", code)
        page.click("button[type=submit]")
        page.wait_for_url(srv.url + "/seat")
    return page


def seat_card(page, n: int):
    """The board's seat ``n`` (from 1) on the page."""
    return page.locator(".board-skull .rseat").filter(has=page.locator(".seat-no", has_text=re.compile(rf"^{n}$")))


def test_a_player_taken_out_is_drawn_gone_and_his_phone_says_so(browser, table_server):
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    register(table, 3)
    code = table.seat_codes()[1]
    phone = open_page(browser, srv, code=code)
    assert table.submit("table leave 1", "manual").accepted  # «Вывести из игры»: he takes his notes home
    assert table.referee.game.view(None)["seats"][1]["status"] == "left"
    board = open_page(browser, srv)
    settle(board, table)
    boris = seat_card(board, 2)
    expect(boris).to_have_class(re.compile(r"\bgone\b"))
    expect(boris.locator(".badge")).to_contain_text(["Ушёл"])
    expect(boris).not_to_contain_text(render(M("Hand"), "ru"))  # his notes went home with him
    settle(phone, table)
    expect(phone.locator("#pad .wait")).to_have_text(ru("You have left the game."))
    for page in (board, phone):
        page.context.close()


def test_the_settlement_names_who_chooses_and_the_dealer_is_told_to_turn_the_others(browser, table_server):
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    register(table, 3)
    for line in ("table dealer 0", "0 place", "1 place", "2 place", "0 bid 2", "1 pass", "2 pass"):
        assert table.submit(line, "manual").accepted, line
    dealer = open_page(browser, srv, code=table.seat_codes()[0])
    settle(dealer, table)
    expect(dealer.locator("#pad .wait")).to_have_text(render(M(
        "Your move: turn the notes over one by one, your own first — the camera reads them (or the operator "
        "enters them)"), "ru"))
    assert table.submit("table flip 0 АК2444842", "manual").accepted  # his own rose: his stack is face up
    expect(dealer.locator("#pad .wait")).to_have_text(ru(
        "Your move: turn the other players' notes over one by one — the camera reads them (or the operator "
        "enters them)"))
    assert table.submit("table flip 2 МН3000001", "manual").accepted  # Вика's skull
    view = table.referee.game.view(None)
    assert (view["phase"], view["chooser"], view["owed"]) == ("settlement", 2, [0])
    board = open_page(browser, srv)
    settle(board, table)
    centre = board.locator(".board-skull .centre-line.chooser")
    expect(centre).to_have_text(ru("Chooses the note for the bank: %(name)s", name="Вика"))
    expect(board.locator(".board-skull")).not_to_contain_text("Открывает")  # the old, wrong role
    expect(seat_card(board, 3).locator(".badge")).to_contain_text([render(M("Chooses"), "ru")])
    expect(seat_card(board, 1).locator(".badge", has_text=ru("Pays the bank"))).to_have_count(1)
    expect(board.locator(".board-skull")).not_to_contain_text(render(M("Owe the bank"), "ru"))  # «Должны»: plural
    for page in (board, dealer):
        page.context.close()


def test_a_table_without_a_camera_tells_each_task_with_the_operator_alone(browser, table_server):
    """``companion dashboard`` reads with no camera (its camera part ``unused``): the dealer turning
    notes and the chooser are told the operator enters them, never to show a note to the camera."""
    table, srv = table_server
    table.set_status("camera", {"state": "unused", "why": "dashboard_only"})
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    register(table, 3)
    for line in ("table dealer 0", "0 place", "1 place", "2 place", "0 bid 2", "1 pass", "2 pass"):
        assert table.submit(line, "manual").accepted, line
    dealer = open_page(browser, srv, code=table.seat_codes()[0])
    settle(dealer, table)
    expect(dealer.locator("#pad .wait")).to_have_text(ru(
        "Your move: turn the notes over one by one, your own first — the operator enters them"))
    assert table.submit("table flip 0 АК2444842", "manual").accepted
    expect(dealer.locator("#pad .wait")).to_have_text(ru(
        "Your move: turn the other players' notes over one by one — the operator enters them"))
    assert table.submit("table flip 2 МН3000001", "manual").accepted  # Вика's skull: she chooses
    chooser = open_page(browser, srv, code=table.seat_codes()[2])
    settle(chooser, table)
    expect(chooser.locator("#pad .wait")).to_have_text(ru(
        "You choose which of the loser's notes goes to the bank — tell the operator"))
    expect(chooser.locator("#pad")).not_to_contain_text("камер")
    for page in (dealer, chooser):
        page.context.close()


def test_the_end_names_the_winner_once_and_nobody_keeps_the_button(browser, table_server):
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    sim = get_sim_class("skull")(table.referee.game, 3)
    for _ in range(6000):
        if table.referee.game.is_over():
            break
        text, source = sim.next_action()
        assert table.submit(text, source).accepted, text
        sim.applied(text)
    view = table.referee.game.view(None)
    assert view["over"] and view["winner"] is not None and view["dealer"] is not None
    page = open_page(browser, srv)
    settle(page, table)
    over = render(M("Game over"), "ru")
    game = page.locator("#app section.game")
    assert game.inner_text().count(over) == 1, game.inner_text()
    winner = seat_card(page, view["winner"] + 1)
    expect(winner.locator(".badge")).to_contain_text([render(M("Winner"), "ru")])
    expect(page.locator(".board-skull .badge.dealer")).to_have_count(0)  # the game is over: no button
    # the bank's money in one form, on the board and in the history («22 200 ₽», not «22200 RUB»)
    from companion.games.words import money

    written = render(money(view["bank"]["face_value"], view["bank"]["currency"]), "ru")
    expect(page.locator(".board-skull .face-value")).to_have_text(written)
    assert written in game.inner_text() and "RUB" not in page.locator("#app").inner_text()
    # every count on a seat has its caption: no bare «0» under a name
    for card in page.locator(".board-skull .rseat").all():
        stack = card.locator(".stack")
        if stack.locator(".backs").count():
            expect(stack.locator(".stack-caption")).to_have_text(skull_word("Face down"))
        else:
            expect(stack).to_have_text("")
    page.context.close()
