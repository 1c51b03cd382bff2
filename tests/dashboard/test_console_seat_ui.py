"""The operator page plays a seat taken onto the console (#23, tester's item 1: there was only
a raw ``POST /api/operator/action``): «Играть место с пульта» takes the seat (``table console N``,
counted from 1) and makes its moves (``table as N …``), logged with source ``operator``; a move for
a seat not taken says why in words.

Real code path: the table server, the operator page in headless Chromium, a real doubt game."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import expect  # noqa: E402

from tests.browser import UI, console_seat_form  # noqa: E402
from tests.waiting import wait_for  # noqa: E402

pytestmark = UI

SEATS = ["Аня", "Борис", "Вика"]


def test_the_operator_page_plays_a_seat_from_the_console(browser, table_server):
    table, srv = table_server
    table.new_game("doubt", SEATS)
    seat = table.referee.game.current_seats()[0]
    move = table.views()[3][seat][0]  # e.g. "0 place 2 mushroom": the seat's own action
    page = browser.new_context().new_page()
    form = console_seat_form(page, srv.url, table.pin, seat + 1)  # Место N, counted from 1
    # not taken yet: the refusal says which seat and how to take it, in Russian
    form.locator("input[name=move]").fill(move.split(" ", 1)[1])
    form.locator("button[type=submit]").click()
    expect(page.locator("#toast")).to_contain_text(f"table console {seat + 1}")
    expect(page.locator("#toast")).to_contain_text(SEATS[seat])
    assert len(table.referee.log.records()) == 0
    form.locator("[data-seat-op=console]").click()
    assert wait_for(lambda: table.seat_control() == {seat: "console"}, 10), table.seat_control()
    # a table with no button box: the other seats are their players' on the phone, not listed
    expect(page.locator(f"#seat-play li[data-seat='{seat}']")).to_contain_text("играет оператор с пульта")
    expect(page.locator("#seat-play li")).to_have_count(1)
    assert {s["by"] for s in table.seat_play()["seats"]} == {"console", "phone_only"}
    form.locator("input[name=move]").fill(move.split(" ", 1)[1])
    form.locator("button[type=submit]").click()
    assert wait_for(lambda: len(table.referee.log.records()) == 1, 10)
    rec = table.referee.log.records()[-1]
    assert (rec.action, rec.source) == (move, "operator")
    expect(form.locator("input[name=move]")).to_have_value("")
    page.context.close()


def test_the_operator_hands_a_seat_back_to_the_bots_by_button_or_typed(browser, table_server):
    """On the simulated table «Отдать ботам» gives the seat back (``table bot N``), and the move
    field takes what the README documents typed: ``table bot N``, ``bot``, ``console``; the list
    says who plays each seat that is not its player's."""
    table, srv = table_server
    table.new_game("doubt", SEATS)
    table.bots, table.bots_playing = True, lambda: True  # as the simulated table's service sets them
    table.tell_control()
    page = browser.new_context().new_page()
    form = console_seat_form(page, srv.url, table.pin, 2)
    form.locator("[data-seat-op=console]").click()
    assert wait_for(lambda: table.seat_control() == {1: "console"}, 10), table.seat_control()
    expect(page.locator("#seat-play li[data-seat='1']")).to_contain_text("играет оператор с пульта")
    form.locator("[data-seat-op=bot]").click()  # «Отдать ботам»
    assert wait_for(lambda: table.seat_control() == {1: "bot"}, 10), table.seat_control()
    expect(page.locator("#seat-play li[data-seat='1']")).to_contain_text("играют боты")
    for typed, want in (("console", {1: "console"}), ("bot", {1: "bot"}), ("table console 3", {1: "bot", 2: "console"}),
                        ("table bot 3", {1: "bot", 2: "bot"})):
        form.locator("input[name=move]").fill(typed)
        form.locator("button[type=submit]").click()
        assert wait_for(lambda: table.seat_control() == want, 10), (typed, table.seat_control())
        expect(form.locator("input[name=move]")).to_have_value("")
    assert len(table.referee.log.records()) == 0  # none of them is a move
    page.context.close()


def test_a_phone_that_takes_a_seat_from_the_bots_is_told_and_so_is_it_when_they_get_it_back(browser, table_server):
    table, srv = table_server
    table.new_game("doubt", SEATS)
    table.bots, table.bots_playing = True, lambda: True  # as the simulated table's service sets them
    page = browser.new_context().new_page()
    page.goto(srv.url + "/join")
    page.fill("#code", table.seat_codes()[1])
    page.click("button[type=submit]")
    expect(page.locator("#seat-play-note")).to_have_text("играет телефон игрока (место взято у ботов)")
    assert table.submit("table bot 2", "operator").accepted  # the operator hands it back
    expect(page.locator("#seat-play-note")).to_have_text("играют боты имитации")
    page.context.close()
