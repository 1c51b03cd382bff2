"""The operator's manual entry (the fallback when the camera cannot read a note): fields the game
lets stay unknown may be left empty, the others get a clear message, and serials are canonicalised
as the banknote reader gives them (companion.vision.serials)."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.dashboard.operator import canonical_serial
from companion.i18n import M, render
from companion.table import Table

from tests.dashboard.helpers import operator_client

SEATS = ["Аня", "Борис"]
SET0 = "АК2444840,АК2444842,АК2444844,АК2444841"   # three roses, one skull (odd = skull)
SET1 = "ВЕ1000000,ВЕ1000002,ВЕ1000004,ВЕ1000003"


@pytest.fixture
def op(tmp_path):
    def make(options=None):
        table = Table(tmp_path / str(len(list(tmp_path.iterdir()))), pin="246810")
        table.new_game("skull", SEATS, options)
        app = create_app(table, testing=True)
        c, csrf = operator_client(app, table)
        made.append((table, app))
        return table, c, {"X-CSRF-Token": csrf}
    made = []
    yield make
    for table, app in made:
        app.extensions["companion"]["hub"].close()
        table.close()


def test_register_template_marks_face_values_optional(op):
    table, c, h = op()
    acts = c.get("/api/operator/state").json["model"]["actions"]
    reg = next(a for a in acts if a["verb"] == "register")
    assert reg["fields"] == ["owner", "serials", "denominations"]
    assert reg["optional"] == ["denominations"]
    flip_like = [a for a in acts if a["verb"] != "register"]
    assert all(a.get("optional") == [] for a in flip_like)


def test_face_values_may_stay_unknown(op):
    table, c, h = op()
    r = c.post("/api/operator/manual", json={"action": f"table register 0 {SET0} ?"}, headers=h)
    assert r.status_code == 200, r.json
    rec = table.referee.log.records()[-1]
    assert rec.action == f"table register 0 {SET0} ?" and rec.source == "manual"


def test_required_field_left_unknown_gets_a_clear_message(op):
    table, c, h = op()
    before = len(table.referee.log.records())
    r = c.post("/api/operator/manual", json={"action": "table register 0 ? ?"}, headers=h)
    assert r.status_code == 400
    j = r.json
    assert j["accepted"] is False and j["reason"] == "missing_field" and j["fields"] == ["serials"]
    assert render(M("Serials"), "ru") in j["detail"] and render(M("Face values"), "ru") in j["detail"]  # names the fields
    assert len(table.referee.log.records()) == before  # nothing logged
    c.get("/lang/en")
    j = c.post("/api/operator/manual", json={"action": "table register 0 ? ?"}, headers=h).json
    assert j["detail"].startswith("Fill in \u201cSerials\u201d. Only \u201cFace values\u201d may stay empty")  # English quotes


@pytest.mark.parametrize("typed", [
    "ак2444840,ак-2444842,АК 244 4844,ak2444841",      # lower case, dashes, spaces, Latin look-alikes
    "AK-2444840,Ak2444842,aK2444844,АК2444841",
])
def test_serials_are_canonicalised_like_the_reader(op, typed):
    table, c, h = op()
    # the page removes spaces inside an item; an API client may send them with no spaces too
    r = c.post("/api/operator/manual", json={"action": f"table register 0 {typed.replace(' ', '')} ?"}, headers=h)
    assert r.status_code == 200, r.json
    assert table.referee.log.records()[-1].action == f"table register 0 {SET0} ?"


@pytest.mark.parametrize("sep", ["-", " "], ids=["hyphen", "space"])
def test_a_flip_typed_in_latin_lower_case_finds_the_registered_note(op, sep):
    """``table flip 0 ak 2444841``: the space inside the serial is dropped, as on the page — the
    entry is not read as seat 0's own entry with owner ``ak`` (a tester's report)."""
    table, c, h = op()
    for text in (f"table register 0 {SET0} ?", f"table register 1 {SET1} ?", "table dealer 0",
                 "0 place", "1 place", "0 bid 1", "1 pass"):
        assert table.submit(text, "operator" if text.startswith("table") else "button").accepted, text
    # the dealer flips his own top note; the camera could not read it, the operator types it
    legal = [a.text() for a in table.referee.game.legal_actions(None)]
    assert "table flip 0 ?" in legal
    top = table.referee.game.snapshot()  # which note is on top is the table's business: try each
    for serial in SET0.split(","):
        latin = serial.replace("А", "a").replace("К", "k")
        r = c.post("/api/operator/manual", json={"action": f"table flip 0 {latin[:2]}{sep}{latin[2:]}"}, headers=h)
        if r.status_code == 200:
            assert table.referee.log.records()[-1].action == f"table flip 0 {serial}"
            break
        assert r.json["reason"] != "bad_serial", r.json
    else:
        pytest.fail(f"no flip accepted: {top}")


def test_a_serial_of_separators_only_is_refused(op):
    table, c, h = op()
    r = c.post("/api/operator/manual", json={"action": "table register 0 --,АК2444842,АК2444844,АК2444841 ?"},
               headers=h)
    assert r.status_code in (400, 409)
    assert r.json["accepted"] is False


def test_engine_rejection_carries_a_russian_message(op):
    table, c, h = op()
    r = c.post("/api/operator/manual", json={"action": "table register 0 АК2444841,АК2444843,АК2444845,АК2444840 ?"},
               headers=h)
    assert r.status_code == 409 and r.json["reason"] == "wrong_skull_count"
    assert r.json["message"] == render(M("Wrong number of skulls: the set has %(skulls)s; %(want)s of %(each)s notes "
                                         "are needed.", skulls=3, want=1, each=4), "ru")


def test_canonical_serial_rules():
    assert canonical_serial("ak 244-4841", "RUB") == "АК2444841"
    assert canonical_serial("Ак 2444841", "RUB") == "АК2444841"
    assert canonical_serial("ak 244-4841", "EUR") == "AK2444841"      # not a rouble table: no mapping
    assert canonical_serial("zb545-824-4919", "RUB") == "ZB5458244919"  # not a RUB serial: left Latin
    assert canonical_serial("aO2444841", "RUB") == "АО2444841"           # Latin O in a letter place: О
    assert canonical_serial("ak24448o1", "RUB") == "AK24448O1"           # a letter for a digit is never guessed
    # a lower-case Latin letter counts as Cyrillic only when the lower cases look alike too:
    # «b» is no «в» (it may be meant as «б»), so the text stays Latin and the engine refuses it
    assert canonical_serial("ab1234566", "RUB") == "AB1234566"
    assert canonical_serial("AB1234566", "RUB") == "АВ1234566"           # a capital B is a В
    assert canonical_serial("ox 1234566", "RUB") == "ОХ1234566"


def test_a_serial_off_the_rub_shape_is_rejected_with_the_expected_shape(op):
    """docs/dashboard.md: a letter typed where a digit belongs stays as typed and the engine
    rejects it, naming the currency's serial shape."""
    table, c, h = op()
    before = len(table.referee.log.records())
    r = c.post("/api/operator/manual",
               json={"action": "table register 1 АК24448O1,АК2444852,АК2444854,АК2444856 ?"}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "serial_format", r.json
    shape = render(M("two letters and seven digits"), "ru")  # the rouble serial's shape
    assert shape in r.json["message"] and "АК24448O1" in r.json["detail"]
    r = c.post("/api/operator/manual", json={"action": "table register 1 A1,B2,C3,D4 ?"}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "serial_format"
    capitals = render(M("A serial number may hold only capital letters and digits, with no spaces."), "ru")
    assert shape in r.json["message"] and capitals not in r.json["message"]
    assert len(table.referee.log.records()) == before
    # «ab…» on a rouble table: refused naming the shape, never registered as «АВ…» in silence
    r = c.post("/api/operator/manual",
               json={"action": "table register 1 ab1234567,АК2444852,АК2444854,АК2444856 ?"}, headers=h)
    assert r.status_code == 409 and r.json["reason"] == "serial_format", r.json
    assert "«b»" in r.json["message"] and "ab1234567" in r.json["message"], r.json
    assert len(table.referee.log.records()) == before


@pytest.mark.parametrize("typed, serial", [("ёк 2444851", "ЁК2444851"), ("АЁ2444851", "АЁ2444851")])
def test_a_serial_typed_with_yo_is_refused_naming_the_letter(op, typed, serial):
    """«Ё»/«ё» typed for «Е» in a rouble serial got the generic shape sentence («две буквы и семь
    цифр»), though the typed serial has two letters and seven digits: the refusal names the letter
    banknote serials never use."""
    table, c, h = op()
    before = len(table.referee.log.records())
    r = c.post("/api/operator/manual", json={"action": f"table register 1 {typed},АК2444852,АК2444854,АК2444856 ?"},
               headers=h)
    assert r.status_code == 409 and r.json["reason"] == "serial_format", r.json
    told = M("In «%(serial)s» the letter «%(letter)s» is never used in banknote serials: type the letter the note "
             "shows (a %(currency)s serial is %(shape)s, e.g. %(example)s).", serial=serial, letter="Ё",
             currency="RUB", shape=M("two letters and seven digits"), example="АК2444841")
    assert r.json["message"] == render(told, "ru"), r.json
    assert len(table.referee.log.records()) == before


def test_api_text_with_spaces_inside_a_serial_is_read_like_the_page(op):
    table, c, h = op()
    r = c.post("/api/operator/manual",
               json={"action": "table register 0 ak 244-4840,АК 2444842,АК2444844,АК2444841 ?"}, headers=h)
    assert r.status_code == 200, r.json
    assert table.referee.log.records()[-1].action == f"table register 0 {SET0} ?"


def test_manual_entry_after_the_game_ended_is_no_game(op):
    table, c, h = op()
    assert c.post("/api/operator/end", json={}, headers=h).status_code == 200
    r = c.post("/api/operator/manual", json={"action": f"table register 0 {SET0} ?"}, headers=h)
    assert r.status_code == 409 and r.json["error"] == "no_game", r.json
