"""Seat-valued house-rule options (first dealer, banker…) are shown and typed 1-based on the
operator's new-game form, like every other seat number; the engine and the log keep 0-based."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.dashboard.operator import game_specs
from companion.table import Table

from tests.dashboard.helpers import operator_client


@pytest.fixture
def env(fast_dir):
    table = Table(fast_dir, pin="246810")
    app = create_app(table, testing=True)
    yield table, app
    app.extensions["companion"]["hub"].close()
    table.close()


def test_specs_mark_seat_options_with_one_based_defaults():
    specs = {s["id"]: {o["name"]: o for o in s["options"]} for s in game_specs()}
    assert specs["doubt"]["first_dealer"]["seat"] and specs["doubt"]["first_dealer"]["default"] == 1
    assert specs["hoggenheimer"]["first_banker"]["default"] == 1
    assert specs["lottery"]["banker"]["default"] == 1 and specs["lottery"]["dealer"]["default"] == 2
    assert not specs["doubt"]["max_cards"]["seat"] and specs["doubt"]["max_cards"]["default"] == 8


def test_form_takes_seats_from_one(env):
    table, app = env
    c, token = operator_client(app, table)
    page = c.get("/operator").get_data(as_text=True)
    assert "номер места с 0" not in page and "from 0" not in page
    r = c.post("/operator/new", data={"game": "doubt", "seats": "Аня\nБорис\nВера", "csrf_token": token,
                                      "opt_doubt_first_dealer": "0"})
    assert r.status_code == 400 and table.referee is None
    r = c.post("/operator/new", data={"game": "doubt", "seats": "Аня\nБорис\nВера", "csrf_token": token,
                                      "opt_doubt_first_dealer": "4"})
    assert r.status_code == 400 and table.referee is None  # seat 4 of 3: the engine's bad_option
    r = c.post("/operator/new", data={"game": "doubt", "seats": "Аня\nБорис\nВера", "csrf_token": token,
                                      "opt_doubt_first_dealer": "2"})
    assert r.status_code == 302
    assert table.game_info()["options"]["first_dealer"] == 1  # Борис, seat index 1
