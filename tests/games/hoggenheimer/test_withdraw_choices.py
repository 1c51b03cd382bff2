"""The joker game's «take back a bet» offers the seat's own open bets in words — what and how
much, as the history tells them («5 на Д♥ (ставка №3)») — not a stepper over bet numbers the
player cannot see. The mechanism is general: an action field listed in its class's
a ``Choice`` field gets the game's words for each value (its presenter's ``choice_label``) in the page
model's ``labels``; the layout's list of bets shows each bet's number, as the history names it."""

from __future__ import annotations

import os

import pytest

from companion.dashboard import DashboardServer
from companion.dashboard.model import OPERATOR, label_choices, labelled_verbs, view_for
from companion.games.hoggenheimer import bet, describe_event
from companion.table import Table
from companion.i18n import both, render
from tests.browser import CHROMIUM, PHONE
from tests.wording import said

UI_OK = os.path.exists(CHROMIUM)


def bets(table):
    for text in ("1 bet 5 QH", "2 bet 3 KS", "1 bet 2 AH,KH", "1 bet 4 row:D"):
        assert table.submit(text, "dashboard").accepted, text


def test_the_seat_model_words_each_of_its_own_bets(fast_dir):
    table = Table(fast_dir, pin="246810")
    try:
        table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
        bets(table)
        epoch, version, views, legal, turn, over, result = table.views()

        info = table.game_info()
        model = view_for(1, epoch=epoch, version=version, game_info=info, views=views, legal=legal,
                         turn=turn, over=over, result=result, history=[])
        withdraw = [a for a in model["actions"] if a["verb"] == "withdraw"]
        assert [a["text"] for a in withdraw] == ["1 withdraw 1", "1 withdraw 3", "1 withdraw 4"]
        own = {b["id"]: b for b in views[1]["bets"]}  # each label is the bet's words (presenter.bet)
        assert [a["labels"]["bet_id"] for a in withdraw] == [both(bet(own[i])) for i in (1, 3, 4)]
        assert withdraw[0]["labels"]["bet_id"]["en"] == "5 on Q♥ (bet no. 1)"
        # the other seat's bet is not his to take back, and bets keep their plain form
        assert all("labels" not in a for a in model["actions"] if a["verb"] != "withdraw")
        seat2 = view_for(2, epoch=epoch, version=version, game_info=info, views=views, legal=legal,
                         turn=turn, over=over, result=result, history=[])
        theirs = {b["id"]: b for b in views[2]["bets"]}
        assert [a["labels"]["bet_id"] for a in seat2["actions"] if a["verb"] == "withdraw"] == [both(bet(theirs[2]))]
        ops = view_for(OPERATOR, epoch=epoch, version=version, game_info=info, views=views, legal=legal,
                       turn=turn, over=over, result=result, history=[])
        assert not any(a["verb"] == "withdraw" for a in ops["actions"])  # a seat's own decision
    finally:
        table.close()


def test_only_games_that_word_their_ids_get_labels():
    assert labelled_verbs("hoggenheimer") == {"withdraw": ("bet_id",)}
    assert all(labelled_verbs(g) == {} for g in ("skull", "doubt", "infinity", "lottery"))
    plain = [{"text": "1 withdraw 9", "verb": "withdraw", "args": ["9"]}]
    assert label_choices(plain, "hoggenheimer", {"bets": []}, ["Аня", "Борис"]) == plain  # no such bet: as it was


def test_the_history_says_which_bet_was_taken_back(fast_dir):
    table = Table(fast_dir, pin="246810")
    try:
        table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
        bets(table)
        out = table.submit("1 withdraw 3", "dashboard")
        assert out.accepted
        ev = next(e for e in out.events if e.kind == "bet_withdrawn")
        msg = describe_event(ev, ["Аня", "Борис", "Вера"])
        assert said(msg) == ("%(name)s takes back bet no. %(id)s%(what)s",
                             {"name": "Борис", "id": 3, "what": " (2 on two touching cards A♥ K♥)"})
    finally:
        table.close()


@pytest.mark.ui
@pytest.mark.skipif(not UI_OK, reason="no /usr/bin/chromium")
def test_the_seat_page_lists_its_bets_in_words_and_takes_the_chosen_one_back(browser, fast_dir):
    pytest.importorskip("playwright.sync_api")
    from playwright.sync_api import expect

    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    try:
        table.new_game("hoggenheimer", ["Аня", "Борис", "Вера"])
        bets(table)
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(srv.url + "/join")
        page.fill("#code", table.seat_codes()[1])
        page.click("button[type=submit]")
        choices = page.locator("#pad .choice-list.verb-withdraw button")
        expect(choices).to_have_count(3)
        own = {b["id"]: b for b in table.views()[2][1]["bets"]}
        assert choices.all_inner_texts() == [render(bet(own[i]), "ru") for i in (1, 3, 4)]
        # the verb heads its list (above the choices, not beside them)
        head = page.locator("#pad .choice-list .step-label").bounding_box()
        first = choices.first.bounding_box()
        assert head["y"] + head["height"] <= first["y"] + 1 and first["width"] > 0.8 * page.locator("#pad").bounding_box()["width"]
        # no stepper over bet numbers: the only stepper is the bet's stake
        assert page.locator("#pad .stepper").count() == 1
        assert page.locator("#pad .stepper .step-label").inner_text() != page.locator(
            "#pad .choice-list .step-label").inner_text()
        # the layout's list numbers every bet, as the choices and the history do
        expect(page.locator("ul.bets li .bet-no")).to_have_count(4)
        assert page.locator("ul.bets li .bet-no").all_inner_texts() == ["№1", "№2", "№3", "№4"]
        page.locator("#pad .choice-list button", has_text="ставка №3").click()
        expect(page.locator("#toast")).to_contain_text("Принято")
        assert table.referee.log.records()[-1].action == "1 withdraw 3"
        expect(page.locator("#toast")).to_contain_text("2 на две соседние Т♥ К♥")
        expect(choices).to_have_count(2)
        page.context.close()
    finally:
        srv.stop()
        table.close()
