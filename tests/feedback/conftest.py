"""Fixtures for the testers' feedback items: a table with a game and a logged-in operator client."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.table import Table

from tests.dashboard.helpers import operator_client


@pytest.fixture
def console(tmp_path):
    """``make(game, seats, options) -> (table, client, headers)``: the operator's test client on
    a fresh table playing ``game``; everything is closed after the test."""
    made = []

    def make(game, seats, options=None):
        table = Table(tmp_path / str(len(made)), pin="246810")
        table.new_game(game, list(seats), options)
        app = create_app(table, testing=True)
        c, csrf = operator_client(app, table)
        made.append((table, app))
        return table, c, {"X-CSRF-Token": csrf}

    yield make
    for table, app in made:
        app.extensions["companion"]["hub"].close()
        table.close()
