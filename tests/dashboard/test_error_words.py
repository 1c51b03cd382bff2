"""Rejections are shown in the page's language: a sentence per reason code (Russian on a Russian
page, English on an English one), never the engine's English detail or Python type names; the
detail stays in the JSON's ``detail`` (and the alert's ``data-detail``) for logs. Also the new-game
form's player counts (the lottery needs 4 with its default options)."""

from __future__ import annotations

import re

import pytest

from companion.dashboard import create_app
from companion.dashboard.reasons import REASONS
from companion.i18n import M, MP, render
from companion.table import Table

from tests.dashboard.helpers import operator_client

SET0 = "АК2444840,АК2444842,АК2444844,АК2444841"
#: Latin that is data, not words (currency codes, serials typed by the user)
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
ALLOWED = {"RUB", "EUR", "USD", "INR", "KRW", "JPY", "QH"}

#: a console command quoted as the operator types it («table console 2»): literal, not English prose
COMMAND = re.compile(r"«table [^»]*»")


def ru(msg) -> str:
    """``msg`` as a Russian page shows it (HTML-escaped as the template writes it)."""
    from markupsafe import escape

    return str(escape(render(msg, "ru")))


def english_words(text: str) -> list[str]:
    return [w for w in LATIN_WORD.findall(COMMAND.sub("", text)) if w not in ALLOWED]

@pytest.fixture
def op(tmp_path):
    made = []

    def make(game="skull", seats=("Аня", "Борис"), options=None):
        table = Table(tmp_path / str(len(made)), pin="246810")
        if game:
            table.new_game(game, list(seats), options)
        app = create_app(table, testing=True)
        c, csrf = operator_client(app, table)
        made.append((table, app))
        return table, c, csrf

    yield make
    for table, app in made:
        app.extensions["companion"]["hub"].close()
        table.close()

def test_every_reason_code_has_both_sentences_and_no_english_in_russian():
    import glob

    codes = set()
    for path in glob.glob("companion/**/*.py", recursive=True):
        codes |= set(re.findall(r'IllegalAction\(\s*f?"([a-z_]+)"', open(path, encoding="utf-8").read()))
    assert len(codes) > 60
    from companion.games import registry

    sentences = dict(REASONS)
    for spec in registry.specs():  # the codes only one game raises: its presenter's words
        assert not set(spec.presenter.refusals) & set(REASONS), spec.id
        sentences.update(spec.presenter.refusals)
    assert codes <= set(sentences), sorted(codes - set(sentences))
    for code, msgid in sentences.items():
        en, ru = render(M(msgid), "en"), render(M(msgid), "ru")
        assert en and ru and not english_words(ru), (code, ru)
        assert re.search("[\u0430-\u044f]", ru) and not re.search("[\u0410-\u044f]", en), code  # Cyrillic

def test_engine_rejections_are_russian_sentences_on_a_russian_page(op):
    table, c, csrf = op()
    h = {"X-CSRF-Token": csrf}

    def rejected(url, action=None, status=409):
        r = c.post(url, json={"action": action} if action else {}, headers=h)
        assert r.status_code == status, (action, r.json)
        j = r.json
        assert j["message"] and not english_words(j["message"]), (action, j)
        assert j["detail"] and j["detail"] != j["message"]  # the English detail stays for logs
        return j

    j = rejected("/api/operator/manual", f"table register 0 {SET0} 1000,500,x,y")
    assert j["reason"] == "bad_syntax" and "tuple" not in j["message"]
    assert rejected("/api/operator/undo")["reason"] == "nothing_to_undo"
    assert rejected("/api/operator/void")["reason"] == "nothing_to_void"
    assert rejected("/api/operator/manual", f"table register 9 {SET0} ?")["reason"] == "unknown_seat"
    j = rejected("/api/operator/manual", "table register 0 АК2444840,АК2444842,АК2444841 ?")
    assert j["reason"] == "wrong_note_count" and "4" in j["message"]
    assert c.post("/api/operator/manual", json={"action": f"table register 0 {SET0} ?"}, headers=h).status_code == 200
    assert rejected("/api/operator/manual", f"table register 0 {SET0} ?")["reason"] == "already_registered"
    # English page: the same codes in English
    c.get("/lang/en")
    j = c.post("/api/operator/void", json={}, headers=h).json
    assert j["reason"] == "nothing_to_void" and j["message"] == REASONS["nothing_to_void"]

def test_refused_new_games_are_explained_in_russian(op):
    table, c, csrf = op(game=None)

    def refused(data, reason):
        r = c.post("/operator/new", data={**data, "csrf_token": csrf})
        assert r.status_code == 400
        page = r.get_data(as_text=True)
        m = re.search(r'<p class="error" role="alert"([^>]*)>([^<]*)</p>', page)
        assert m, page[:500]
        assert f'data-reason="{reason}"' in m.group(1)
        shown = m.group(2)
        assert shown and not english_words(shown), shown
        return shown

    refused({"game": "skull", "seats": "Аня\n" + "Б" * 30}, "bad_seats")
    # «Аня» and «аня» are one player: a repeated name, whatever its case (README)
    shown = refused({"game": "skull", "seats": "Аня\nБорис\n аня "}, "bad_seats")
    assert shown == ru(M("The name «%(name)s» is entered twice: each player needs a name of their own.", name="аня"))
    refused({"game": "skull", "seats": "Аня\nБорис", "opt_skull_notes_per_player": "x"}, "bad_option")
    refused({"game": "skull", "seats": "Аня\nБорис", "opt_skull_notes_per_player": "1"}, "bad_option")
    refused({"game": "skull", "seats": "Аня\nБорис", "opt_skull_currency": "RUB",
             "opt_skull_skull_parity": "blue"}, "bad_option")
    # a forged or typed currency (the form offers a list): the option is named, with its values
    shown = refused({"game": "skull", "seats": "Аня\nБорис", "opt_skull_currency": "RUR"}, "bad_option")
    reason = ru(M("A house rule has an impossible value."))
    assert shown == " ".join([  # the option named, the reason in lower case after the colon, the values
        ru(M("«%(option)s»: %(reason)s", option=ru(M("Currency of the notes")), reason=reason[:1].lower() + reason[1:])),
        ru(M("Possible values: %(values)s.", values="RUB, EUR, USD, INR, KRW, JPY"))]), shown
    # as many skulls as notes: both options named, and the range the game computes (1 to notes − 1)
    shown = refused({"game": "skull", "seats": "Аня\nБорис", "opt_skull_notes_per_player": "4",
                     "opt_skull_skulls_per_player": "4"}, "bad_option")
    assert shown == ru(M("%(option)s must be fewer than %(other)s (%(than)s): a number from %(min)s to %(max)s.",
                         option=M("«%(text)s»", text=M("Skulls per player")),
                         other=M("«%(text)s»", text=M("Notes per player")), than=4, min=1, max=3)), shown
    shown = refused({"game": "lottery", "seats": "Аня\nБорис\nВера"}, "bad_seats")
    assert "4" in shown and "3" in shown  # names the count entered and the count needed
    assert shown.startswith(ru(MP("lottery", "This number of players does not suit the game.")))  # why: the officials hold no cards
    assert table.referee is None

def test_lottery_form_offers_the_real_minimum(op):
    table, c, csrf = op(game=None)
    page = c.get("/operator").get_data(as_text=True)
    assert re.search(r'<option value="lottery">[^<]*\(4–20\)</option>', page), page
    assert re.search(r'<option value="skull">[^<]*\(2–8\)</option>', page)
    # with the officials holding cards too, three players can play
    r = c.post("/operator/new", data={"game": "lottery", "seats": "Аня\nБорис\nВера",
                                      "opt_lottery_officials_play": "on", "csrf_token": csrf})
    assert r.status_code == 302 and table.game_id == "lottery"


def test_not_your_seat_has_a_sentence_in_both_languages():
    """A seat's phone or pad acting for another seat (Table.submit_for_seat) is told why in
    words, not with the generic "not accepted"."""
    from companion.dashboard.reasons import GENERIC, reason_message

    ru = reason_message("not_your_seat", "ru", "skull")
    en = reason_message("not_your_seat", "en", "skull")
    assert ru != render(M(GENERIC), "ru") and en != GENERIC
    assert not english_words(ru) and "own seat" in en


def test_operator_sending_a_seat_action_is_told_why_in_russian(op):
    """The operator's action box takes table actions only; a seat's action typed there is
    refused with its own reason, in the page's language (not the generic "not understood")."""
    table, c, csrf = op()
    r = c.post("/api/operator/action", json={"action": "0 place"}, headers={"X-CSRF-Token": csrf})
    j = r.get_json()
    assert r.status_code == 400 and j["reason"] == "not_a_table_action"
    assert "кнопками своих мест" in j["message"] and not english_words(j["message"]), j
