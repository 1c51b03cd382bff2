"""The dashboard's pages in a real headless Chromium at a phone's size: what a seat's pad says it
waits for, the operator's manual forms, the toasts — as a first-time tester read them."""

from __future__ import annotations

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import expect  # noqa: E402

from companion.games.cardnames import card_words  # noqa: E402
from tests.browser import PHONE, UI, open_details  # noqa: E402
from tests.dashboard.test_waiting_words import SKULL_SETUP  # noqa: E402

pytestmark = UI


def test_the_phone_says_what_is_awaited(browser, table_server):
    table, srv = table_server
    table.new_game("infinity", ["Аня", "Борис", "Вика"])
    assert table.submit("table deal 0", "manual").accepted
    pages = []
    for seat in (0, 1):
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(srv.url + "/join")
        page.fill("#code", table.seat_codes()[seat])
        page.click("button[type=submit]")
        pages.append(page)
    expect(pages[1].locator("#pad .wait")).to_have_text("Ждём другого игрока: Аня")
    pages[0].locator("#pad .pad-row button").first.click()  # «Сыграть»
    expect(pages[0].locator("#toast")).to_contain_text("Принято")
    expect(pages[0].locator("#pad .wait")).to_have_text("Ждём камеру или оператора: ваша карта ещё не прочитана")
    expect(pages[1].locator("#pad .wait")).to_have_text(
        "Ждём камеру или оператора: карта, которой ходит Аня, ещё не прочитана")
    assert table.submit("table face 500", "manual").accepted
    expect(pages[1].locator("#pad .wait")).not_to_contain_text("камеру")
    for page in pages:
        page.context.close()


def test_skull_phones_wait_for_the_operator_not_for_players(browser, table_server, artifacts_dir):
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис"])
    for line in SKULL_SETUP:
        assert table.submit(line, "manual").accepted
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(srv.url + "/join")
    page.fill("#code", table.seat_codes()[1])
    page.click("button[type=submit]")
    expect(page.locator("#pad .wait")).to_have_text("Ждём оператора: он выбирает первого дилера")
    page.screenshot(path=str(artifacts_dir / "pagewords-skull-setup-seat.png"), full_page=True)
    page.context.clear_cookies()
    page.context.add_cookies([{"name": "lang", "value": "en", "url": srv.url}])
    page.goto(srv.url + "/join")
    page.fill("#code", table.seat_codes()[1])
    page.click("button[type=submit]")
    expect(page.locator("#pad .wait")).to_have_text("Waiting for the operator to choose the first dealer")
    page.context.close()


def test_the_operators_card_form_names_the_player(browser, table_server, artifacts_dir):
    from tests.browser import operator_login

    table, srv = table_server
    table.new_game("infinity", ["Аня", "Борис", "Вика"])
    assert table.submit("table deal 0", "manual").accepted
    assert table.submit("0 play 10", "camera").accepted
    page = browser.new_context(viewport=PHONE).new_page()
    operator_login(page, srv.url, table.pin)
    assert table.submit("1 play ?", "dashboard").accepted  # live: the form appears with the name
    form = page.locator("#table-actions form[data-key='face ?']")
    expect(form).to_be_visible()
    expect(form.locator(".whose")).to_have_text("Борис")
    expect(form.locator(".verb")).to_have_text("Карта")
    page.screenshot(path=str(artifacts_dir / "pagewords-infinity-operator-face.png"), full_page=True)
    form.locator("input").fill("500")
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    assert table.referee.log.records()[-1].action == "table face 500"
    page.context.close()


def test_skull_notes_lie_serial_down_not_card_backs(browser, table_server):
    """A banknote has no «рубашка»: skull's seat cards say «Номером вниз», as its history does."""
    table, srv = table_server
    table.new_game("skull", ["Аня", "Борис"])
    for line in (*SKULL_SETUP, "table dealer 0", "0 place", "1 place"):
        assert table.submit(line, "manual").accepted, line
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(srv.url + "/")
    # each stack is drawn as notes lying serial down, named so for a screen reader
    chip = page.locator(".seat .backs[aria-label^='Номером вниз']")
    expect(chip.first).to_be_visible()
    assert chip.count() == 2
    text = page.inner_text("#app")
    assert "Рубашк" not in text and "рубашк" not in text
    assert "номером вниз" in page.inner_text(".history")
    page.context.close()


def _drive_until(table, sim, stop, limit=3000):
    """Play the bots' actions until ``stop(next action text)``; return that action (not played)."""
    for _ in range(limit):
        text, source = sim.next_action()
        if stop(text):
            return text
        assert table.submit(text, source).accepted, text
        sim.applied(text)
    raise AssertionError("never reached")


def _toast(page) -> str:
    toast = page.locator("#toast")
    expect(toast).to_contain_text("Принято")
    return toast.inner_text()


def test_toasts_say_nothing_twice_and_no_stray_dashes(browser, table_server, artifacts_dir):
    from companion.games.simulator import get_sim_class
    from tests.browser import operator_login

    table, srv = table_server
    # the joker game: a card turned up goes to its own place — said once, not «A♠ A♠»
    table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
    sim = get_sim_class("hoggenheimer")(table.referee.game, 3)
    turn = _drive_until(table, sim, lambda t: t.startswith("table turn") and "JK" not in t)
    card = turn.split()[2]
    page = browser.new_context(viewport=PHONE).new_page()
    operator_login(page, srv.url, table.pin)
    form = page.locator("#table-actions form[data-key='turn ? ?']")
    form.locator("[name=card]").fill(card)
    form.locator("[name=slot]").fill(card)
    form.locator("button").click()
    text = _toast(page)
    shown = card_words(card, "ru")  # «Д♥»: the Russian page's letters
    assert text.count(shown) == 1, text
    assert "Стол:" not in text and text.startswith("Принято: 33-я карта: " + shown), text
    page.context.close()

    # skull: the note that ends a round is told with the next round's heading, without its dashes
    table.new_game("skull", ["Аня", "Борис", "Вера"])
    game = table.referee.game
    sim = get_sim_class("skull")(game, 5)
    while True:
        dep = _drive_until(table, sim, lambda t: t.startswith("table deposit"))
        if len(game.owed) == 1:  # the last note owed: the next round starts with it
            break
        assert table.submit(dep, "camera").accepted
        sim.applied(dep)
    _, _, owner, serial = dep.split()
    page = browser.new_context(viewport=PHONE).new_page()
    operator_login(page, srv.url, table.pin)
    form = page.locator(f"#table-actions form[data-key='deposit {owner} ?']")
    form.locator("input").fill(serial)
    form.locator("button").click()
    text = _toast(page)
    page.screenshot(path=str(artifacts_dir / "pagewords-skull-deposit-toast.png"))
    assert "Раунд" in text, text
    assert "; —" not in text and not text.rstrip().endswith("—") and "— Раунд" not in text, text
    assert "Стол:" not in text and "Купюра в банк" not in text, text  # the game's words, not the action's too
    page.context.close()


@pytest.mark.parametrize("gid,names,said,unsaid", [
    # the lottery's dealer is the seed's «сдающий», on the badge as in the history
    ("lottery", ["Аня", "Борис", "Вика", "Гоша"], ["Сдающий"], ["Дилер"]),
    # doubt: the dealer too, and the game of the match «Партия 1 из 1» (not «Партия № 1», «Партий 1»)
    ("doubt", ["Аня", "Борис", "Вика"], ["Сдающий", "Партия\n1 из 1"], ["Дилер", "Партий", "№"]),
    # the joker game's deal is a «сдача» (seed 002), «Сдача 1 из 3» — not «Раздача» beside «Сдач»
    ("hoggenheimer", ["Аня", "Борис", "Вика"], ["Сдача\n1 из 3"], ["Раздача", "Сдач\n"]),
    # 6100's deal is a «партия», as its history says («Партия 1: по 12 карт»)
    ("infinity", ["Аня", "Борис", "Вика"], ["Партия\n1 из 3", "Очки по партиям"], ["Раздача", "Сдач", "сдачам"]),
])
def test_one_term_per_game(browser, table_server, artifacts_dir, gid, names, said, unsaid):
    from companion.games.simulator import get_sim_class

    table, srv = table_server
    table.new_game(gid, names, {"games": 1} if gid == "doubt" else None)
    sim = get_sim_class(gid)(table.referee.game, 4)
    for _ in range(6):  # a few moves in: the history has lines, the dealer's badge is up
        text, source = sim.next_action()
        assert table.submit(text, source).accepted, text
        sim.applied(text)
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(srv.url + "/")
    page.locator("section.card.game").wait_for()
    open_details(page)  # the view's other facts, folded under «Подробнее», keep the game's terms too
    shown = "\n".join(page.locator("section.card.game, .card.info").all_inner_texts())
    page.screenshot(path=str(artifacts_dir / f"pagewords-terms-{gid}.png"), full_page=True)
    for w in said:
        assert w in shown, (gid, w, shown[:1500])
    for w in unsaid:
        assert w not in shown, (gid, w, shown[:1500])
    page.context.close()
