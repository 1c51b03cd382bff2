"""Manual entry on the operator console for the card games (a first-time user's findings): the
operator enters what the camera could not read — infinity's played card (a seat's action), the
joker in the joker game, infinity's deal leader by the rules, doubt's turned-up cards by the names
shown on the page — through the real Flask routes and the real Table, logged with source
``manual``; the «Fill in …» message names every field in the page's language."""

from __future__ import annotations

import logging
import os

import pytest

from companion.dashboard import DashboardServer, create_app
from companion.dashboard.model import action_fields
from companion.games import get_game_class, ids
from companion.i18n import M, render
from companion.table import Table

from tests.browser import CHROMIUM, PHONE, operator_login
from tests.dashboard.helpers import operator_client, wait_version

SEATS = ["Аня", "Борис", "Вера"]


@pytest.fixture
def op(tmp_path):
    made = []

    def make(game_id, seats=SEATS, options=None):
        table = Table(tmp_path / str(len(made)), pin="246810")
        table.new_game(game_id, seats, options)
        app = create_app(table, testing=True)
        c, csrf = operator_client(app, table)
        made.append((table, app))
        return table, app, c, {"X-CSRF-Token": csrf}

    yield make
    for table, app in made:
        app.extensions["companion"]["hub"].close()
        table.close()


def _actions(table, app, c):
    wait_version(app.extensions["companion"]["hub"], table.referee.version)
    return c.get("/api/operator/state").json["model"]["actions"]


def _last(table):
    rec = table.referee.log.records()[-1]
    return rec.action, rec.source


# ---------------------------------------------------------------------- infinity: a seat's card
def test_infinity_operator_can_enter_the_card_a_seat_played(op):
    table, app, c, h = op("infinity")
    assert table.submit("table deal 0", "operator").accepted
    acts = _actions(table, app, c)
    # besides «void», the console offers the card seat 0 must play, in the table's form with the
    # seat first (the console shows it by name) and the card as an input
    play = [a for a in acts if a["verb"] == "play"]
    assert len(play) == 1, acts
    p = play[0]
    assert p["text"] == "table play 0 ?" and p["for_seat"] == 0 and p["args"] == ["0", "?"]
    assert p["fields"] == ["seat", "card"] and p["optional"] == []
    r = c.post("/api/operator/manual", json={"action": "table play 0 500"}, headers=h)
    assert r.status_code == 200, r.json
    assert _last(table) == ("0 play 500", "manual")
    # the turn passed to seat 1: the console now offers seat 1's card, not seat 0's
    acts = _actions(table, app, c)
    assert [a["text"] for a in acts if a["verb"] == "play"] == ["table play 1 ?"]


def _infinity_names():
    """The Infinity card's name as the pages show it («Бесконечность», "Infinity": the deck's key
    in «Подробнее»), in any case."""
    from companion.i18n import MP

    names = [render(MP("infinity", "Infinity"), lang) for lang in ("ru", "en")]
    return [n for name in names for n in (name, name.lower(), name.upper())]


@pytest.mark.parametrize("typed", _infinity_names())
@pytest.mark.parametrize("route", ["manual", "action"])
def test_infinity_card_typed_by_the_name_the_pages_show(op, typed, route):
    table, app, c, h = op("infinity")
    assert table.submit("table deal 0", "operator").accepted
    assert table.submit("0 play ?", "dashboard").accepted
    r = c.post(f"/api/operator/{route}", json={"action": f"table face {typed}"}, headers=h)
    assert r.status_code == 200, r.json
    assert _last(table) == ("table face INF", "manual" if route == "manual" else "operator")


def test_infinity_card_written_wrong_lists_the_deck_in_the_pages_words(op):
    table, app, c, h = op("infinity")
    assert table.submit("table deal 0", "operator").accepted
    assert table.submit("0 play ?", "dashboard").accepted
    r = c.post("/api/operator/manual", json={"action": "table face ХОЙ"}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "bad_card"
    name = _infinity_names()[0]
    assert name in r.json["message"] and "INF" not in r.json["message"]
    # the name the refusal lists is one the operator may type
    r = c.post("/api/operator/manual", json={"action": f"table face {name}"}, headers=h)
    assert r.status_code == 200, r.json


def test_infinity_card_left_unknown_names_the_field_in_words(op):
    table, app, c, h = op("infinity")
    assert table.submit("table deal 0", "operator").accepted
    before = len(table.referee.log.records())
    r = c.post("/api/operator/manual", json={"action": "table play 0 ?"}, headers=h)
    assert r.status_code == 400 and r.json["reason"] == "missing_field" and r.json["fields"] == ["card"]
    assert "«Карта»" in r.json["message"]
    assert len(table.referee.log.records()) == before


def test_infinity_entry_for_a_seat_out_of_turn_is_refused_by_the_engine(op):
    table, app, c, h = op("infinity")
    assert table.submit("table deal 0", "operator").accepted
    r = c.post("/api/operator/manual", json={"action": "table play 1 500"}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "not_your_turn"
    assert r.json["message"] == render(M("%(player)s must act now.", player="Аня"), "ru")  # who must act, by name (tests/dashboard/test_refusal_names.py)


def test_a_seats_own_decisions_are_not_offered_to_the_operator(op):
    # doubt's place/believe/doubt and skull's bids hold no observation: never on the console
    table, app, c, h = op("doubt")
    assert table.submit("0 deal", "button").accepted
    acts = _actions(table, app, c)
    assert not [a for a in acts if a.get("for_seat") is not None], acts
    r = c.post("/api/operator/action", json={"action": "table place 1 1 mushroom"}, headers=h)
    assert r.status_code in (400, 409) and r.json["accepted"] is False
    assert len(table.referee.log.records()) == 1


def test_the_seats_phone_still_gets_its_own_template(op):
    table, app, c, h = op("infinity")
    assert table.submit("table deal 0", "operator").accepted
    wait_version(app.extensions["companion"]["hub"], table.referee.version)
    seat_model = app.extensions["companion"]["hub"].snapshot(0)["model"]
    assert [a["text"] for a in seat_model["actions"]] == ["0 play ?"]
    public = app.extensions["companion"]["hub"].snapshot("public")["model"]
    assert public["actions"] == []


# ---------------------------------------------------------------------- infinity: the deal's leader
def test_infinity_deal_leader_may_stay_unknown(op):
    table, app, c, h = op("infinity")
    deal = next(a for a in _actions(table, app, c) if a["args"] == ["?"])
    assert deal["verb"] == "deal" and deal["optional"] == ["leader"]
    r = c.post("/api/operator/manual", json={"action": "table deal ?"}, headers=h)
    assert r.status_code == 200, r.json
    assert _last(table) == ("table deal ?", "manual")
    assert table.referee.game.view(None)["turn"] == 0  # the rules' first leader


# ---------------------------------------------------------------------- hoggenheimer: the joker
def _to_chain(table):
    for text in ("1 bet 1 AH", "0 close"):
        assert table.submit(text, "button").accepted, text


def test_hoggenheimer_joker_entered_by_hand_settles_the_deal(op):
    table, app, c, h = op("hoggenheimer")
    _to_chain(table)
    turn = next(a for a in _actions(table, app, c) if a["verb"] == "turn")
    assert turn["optional"] == ["slot"]
    r = c.post("/api/operator/manual", json={"action": "table turn JK ?"}, headers=h)
    assert r.status_code == 200, r.json
    assert _last(table) == ("table turn JK ?", "manual")
    assert table.referee.game.view(None)["phase"] == "betting"  # settled: the next deal's bets


def test_hoggenheimer_joker_through_the_operator_action_route(op):
    table, app, c, h = op("hoggenheimer")
    _to_chain(table)
    r = c.post("/api/operator/action", json={"action": "table turn JK ?"}, headers=h)
    assert r.status_code == 200, r.json
    assert _last(table) == ("table turn JK ?", "operator")


@pytest.mark.parametrize("route", ["action"])
def test_hoggenheimer_layout_card_without_slot_is_refused_in_words(op, route):
    table, app, c, h = op("hoggenheimer")
    _to_chain(table)
    before = len(table.referee.log.records())
    r = c.post(f"/api/operator/{route}", json={"action": "table turn 7H ?"}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "slot_missing"
    slot = M("Say on which place the card was put.")
    assert r.json["message"] == render(slot, "ru")
    c.get("/lang/en")
    r = c.post(f"/api/operator/{route}", json={"action": "table turn 7H ?"}, headers=h)
    assert r.json["message"] == render(slot, "en")
    assert len(table.referee.log.records()) == before


def test_hoggenheimer_manual_card_lies_on_its_own_place_and_is_typed_as_shown(op):
    """The manual form's «Место — leave empty if unknown» is honoured: a layout card the operator
    types lies on its own place (a second fresh user was refused «Укажите, на какое место…»);
    cards typed as the pages show them (``Q♥``, Russian ``Д♥``) and the word JOKER are read."""
    table, app, c, h = op("hoggenheimer")
    _to_chain(table)
    for typed, logged in (("table turn 7H ?", "table turn 7H 7H"), ("table turn Д♥ ?", "table turn QH QH"),
                          ("table turn 10♠ ?", "table turn 10S 10S"), ("table turn joker ?", "table turn JK ?")):
        r = c.post("/api/operator/manual", json={"action": typed}, headers=h)
        assert r.status_code == 200, (typed, r.json)
        assert _last(table) == (logged, "manual")
        if logged.endswith("?"):
            break
    assert table.referee.game.view(None)["phase"] == "betting"


def test_hoggenheimer_card_left_unknown_names_the_card_field(op):
    table, app, c, h = op("hoggenheimer")
    _to_chain(table)
    r = c.post("/api/operator/manual", json={"action": "table turn ? ?"}, headers=h)
    assert r.status_code == 400 and r.json["fields"] == ["card"]
    from companion.dashboard.i18n import field_word

    with app.test_request_context():  # the fields as the Russian page names them
        fields, optional = f"«{field_word('card')}»", f"«{field_word('slot')}»"
    assert r.json["message"] == render(M("Fill in %(fields)s. Only %(optional)s may stay empty (unknown).",
                                         fields=fields, optional=optional), "ru")


# ---------------------------------------------------------------------- doubt: names of the cards
def _to_check(table, count=2):
    for text in ("0 deal", f"0 place {count} mushroom", "1 doubt"):
        assert table.submit(text, "button").accepted, text


def test_doubt_reveal_is_one_input_of_the_cards_turned_up(op):
    table, app, c, h = op("doubt")
    _to_check(table)
    rev = next(a for a in _actions(table, app, c) if a["verb"] == "reveal")
    assert rev["args"] == ["?"] and rev["fields"] == ["kinds"] and rev["lists"] == ["kinds"]
    assert rev["items"] == {"kinds": 2}


@pytest.mark.parametrize("typed", ["гриб,ёж", "Гриб,ЕЖ", "mushroom,Hedgehog", "ГРИБ,hedgehog"])
def test_doubt_reveal_takes_the_names_shown_on_the_page(op, typed):
    table, app, c, h = op("doubt")
    _to_check(table)
    r = c.post("/api/operator/manual", json={"action": f"table reveal {typed}"}, headers=h)
    assert r.status_code == 200, r.json
    assert _last(table) == ("table reveal mushroom,hedgehog", "manual")


def test_doubt_unknown_name_is_refused_with_the_decks_names(op):
    table, app, c, h = op("doubt")
    _to_check(table)
    before = len(table.referee.log.records())
    r = c.post("/api/operator/manual", json={"action": "table reveal гриб,лиса"}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "unknown_kind"
    kinds = table.referee.game.kind_names()  # the deck's own names, in the page's language
    assert r.json["message"] == render(M("No such card in this deck: %(typed)s. The deck's cards: %(names)s.",
                                         typed="«лиса»", names=kinds), "ru")
    c.get("/lang/en")
    r = c.post("/api/operator/manual", json={"action": "table reveal гриб,fox"}, headers=h)
    assert r.json["message"] == ("No such card in this deck: \u201cfox\u201d. The deck's cards: mushroom, berry, acorn, "
                                 "leaf, hedgehog, squirrel, hare, owl.")
    assert len(table.referee.log.records()) == before


def test_doubt_page_words_are_the_decks_names(op):
    # one source of names: the page's words for the default deck's kinds are the deck's names,
    # so what the players see is what the operator may type
    from companion.dashboard import i18n
    from companion.games.doubt import DEFAULT_DECK

    table, app, c, h = op("doubt")
    with app.test_request_context("/", headers={"Cookie": "lang=ru"}):
        words = i18n.js_words()
    for kind in DEFAULT_DECK["kinds"]:
        assert words["t_" + kind["id"]] == kind["name"], kind


# ---------------------------------------------------------------------- field words
def test_every_action_field_of_the_five_games_has_a_russian_word(op):
    from companion.dashboard import i18n

    table, app, c, h = op("infinity")
    with app.test_request_context("/", headers={"Cookie": "lang=ru"}):
        untranslated = set()
        for gid in ids():
            for cls in get_game_class(gid).ACTIONS:
                for name in action_fields(cls)[0]:
                    w = i18n.field_word(name)
                    if not any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in w):
                        untranslated.add(f"{gid}.{cls.VERB}.{name}={w}")
    assert not untranslated


# ---------------------------------------------------------------------- the console in Chromium
@pytest.fixture
def console(browser, fast_dir):
    """A started game's operator console at 360 px over a real server: ``make(game_id, *actions)``
    returns ``(table, page)``."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no {CHROMIUM}")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    pages = []

    def make(game_id, *actions):
        table.new_game(game_id, SEATS)
        for text in actions:
            assert table.submit(text, "operator" if text.startswith("table") else "button").accepted, text
        page = browser.new_context(viewport=PHONE).new_page()
        operator_login(page, srv.url, table.pin)  # the start-up link logs in by itself
        pages.append(page)
        return table, page

    yield make
    for page in pages:
        page.context.close()
    srv.stop()
    table.close()


@pytest.mark.ui
def test_console_enters_an_infinity_card_for_the_seat_by_name(console):
    from playwright.sync_api import expect

    table, page = console("infinity", "table deal 0")
    form = page.locator("#table-actions form[data-verb=play]")
    expect(form).to_be_visible()
    expect(form).to_contain_text("Аня")  # the seat by name, not "0"
    form.locator("[name=card]").fill("500")
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    rec = table.referee.log.records()[-1]
    assert (rec.action, rec.source) == ("0 play 500", "manual")
    expect(page.locator("#table-actions form[data-verb=play]")).to_contain_text("Борис")


@pytest.mark.ui
def test_console_reveals_doubt_cards_by_their_names(console):
    from playwright.sync_api import expect

    table, page = console("doubt", "0 deal", "0 place 2 mushroom", "1 doubt")
    form = page.locator("#table-actions form[data-verb=reveal]")
    assert "ровно 2" in form.locator("textarea[name=kinds]").get_attribute("placeholder")  # how many
    form.locator("textarea[name=kinds]").fill("Гриб, ёж")
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    rec = table.referee.log.records()[-1]
    assert (rec.action, rec.source) == ("table reveal mushroom,hedgehog", "manual")


@pytest.mark.ui
def test_console_takes_doubt_names_separated_by_spaces_and_says_so(console):
    """«сова сова» typed with a space was one name «совасова», refused; the placeholder said only
    «Виды — ровно 2». Spaces separate a picture deck's names as commas do, and the box says it."""
    from playwright.sync_api import expect

    from companion.i18n import M, render

    table, page = console("doubt", "0 deal", "0 place 2 mushroom", "1 doubt")
    box = page.locator("#table-actions form[data-verb=reveal] textarea[name=kinds]")
    expect(box).to_be_visible()
    hint = box.get_attribute("placeholder")
    assert hint.endswith(" — " + render(M("%(n)s of them", n=2), "ru") + ", "
                         + render(M("separated by spaces or commas"), "ru")), hint
    box.fill("сова  Сова")
    page.locator("#table-actions form[data-verb=reveal] button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    rec = table.referee.log.records()[-1]
    assert (rec.action, rec.source) == ("table reveal owl,owl", "manual")


@pytest.mark.ui
def test_console_enters_the_joker_with_no_slot(console):
    from playwright.sync_api import expect

    table, page = console("hoggenheimer", "1 bet 1 AH", "0 close")
    form = page.locator("#table-actions form[data-verb=turn]")
    assert form.locator("[name=slot]").get_attribute("required") is None
    form.locator("[name=card]").fill("JK")
    form.locator("button").click()
    expect(page.locator("#toast")).to_contain_text("Принято")
    rec = table.referee.log.records()[-1]
    assert (rec.action, rec.source) == ("table turn JK ?", "manual")
