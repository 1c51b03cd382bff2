"""Operator requests of a shape the pages never send are refused for what they are: a seat
directive naming no seat by its number (``table as -1 pass``) as the seat it names is not there, a
number that is not finite (``1e400``) or far too large as a number, and the new-game check's
``seats`` as a list as what the form sends instead (a text: names separated by commas or one a
line; ``web/static/js/operator.js`` posts the form's ``FormData`` strings).

Real code path: a real :class:`~companion.table.Table` and the operator API through Flask's test
client; the words from the message catalogue, by message id and facts.
"""

from __future__ import annotations

import json

import pytest

from companion.dashboard import create_app
from companion.dashboard.reasons import BAD_NUMBER, facts_words
from companion.i18n import M, render
from companion.table import Table
from tests.dashboard.helpers import operator_client


@pytest.fixture
def op(tmp_path):
    table = Table(tmp_path, pin="314159")
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    client, csrf = operator_client(create_app(table, testing=True), table)
    yield table, client, {"X-CSRF-Token": csrf}
    table.close()


@pytest.mark.parametrize("seat", ["-1", "0", "9", "x", "1.5"])
def test_a_seat_that_is_not_there_is_refused_as_such_whatever_is_typed(op, seat):
    table, c, h = op
    r = c.post("/api/operator/action", json={"action": f"table as {seat} pass"}, headers=h)
    body = r.get_json()
    assert r.status_code == 409 and body["reason"] == "unknown_seat", body
    words = facts_words("unknown_seat", {"seat": seat, "seats": 3})
    assert words is not None and body["message"] == render(words, "ru"), body
    assert table.referee.version == 0


@pytest.mark.parametrize("raw,field", [
    ('{"action": "table frob", "seen": 1e400}', "seen"),
    ('{"action": "table frob", "seen": -1e400}', "seen"),
    ('{"action": "table frob", "seen": 1' + "0" * 30 + '}', "seen"),
    ('{"action": "table frob", "seen": 9' + "9" * 5000 + '}', None),  # beyond Python's digit limit
])
def test_a_number_no_field_takes_is_refused_as_a_number(op, raw, field):
    _, c, h = op
    r = c.post("/api/operator/action", data=raw, headers={**h, "Content-Type": "application/json"})
    body = r.get_json()
    assert r.status_code == 400 and body["detail"].startswith("bad_number: "), body
    if field is not None:
        assert body["message"] == render(M(BAD_NUMBER, field=field), "ru"), body
    assert "символы" not in body["message"], body


def test_seats_as_a_list_are_refused_as_not_what_the_form_sends(op):
    table, c, h = op
    epoch = table.epoch
    j = c.post("/api/operator/new/check", json={"game": "skull", "seats": ["Аня", "Борис"]}, headers=h).get_json()
    assert (j["ok"], j["reason"]) == (False, "bad_seats"), j
    assert j["message"] == render(M("The players must be one text: their names separated by commas or one a line, "
                                    "not a list."), "ru"), j
    j = c.post("/api/operator/new/check", json={"game": "skull", "seats": "Аня, Борис", "opt_skull_x": 5},
               headers=h).get_json()
    assert (j["ok"], j["reason"]) == (False, "bad_syntax"), j
    assert j["message"] == render(M("«%(field)s» must be a text, as the form sends it.", field="opt_skull_x"), "ru")
    # a form-encoded post (what the docs once said the page sent) is not the API's shape
    r = c.post("/api/operator/new/check", data={"game": "skull", "seats": "Аня, Борис"}, headers=h)
    assert r.status_code == 400 and r.get_json()["detail"].startswith("bad_json"), r.get_json()
    # what the page sends is taken
    j = c.post("/api/operator/new/check", json={"game": "skull", "seats": "Аня\nБорис"}, headers=h).get_json()
    assert j == {"ok": True}, j
    assert table.epoch == epoch


def test_the_sanitiser_names_the_field_of_a_number_it_refuses():
    from companion.sanitise import BadNumber, BadText, parse_json

    for raw, field in (('{"seen": NaN}', "seen"), ('{"a": [1, 1e999]}', "a"), ("[1e400]", None)):
        with pytest.raises(BadNumber) as e:
            parse_json(raw)
        assert isinstance(e.value, BadText) and e.value.field == field
    assert parse_json(json.dumps({"seen": 2 ** 53, "x": -1.5})) == {"seen": 2 ** 53, "x": -1.5}
