"""Fixtures for the dashboard tests: the tiny counting game registered as a game id."""

from __future__ import annotations

import pytest

from tests.core.counting import Counting, register_counting


@pytest.fixture
def counting():
    """Make ``new_game("counting", ...)`` build the tiny counting game of tests/core."""
    unregister = register_counting()
    yield Counting
    unregister()


@pytest.fixture
def counting_env(fast_dir, counting):
    """A counting-game table (PIN 246810, Аня and Борис) and its test app: ``(table, app)``."""
    from companion.dashboard import create_app
    from companion.table import Table

    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    yield table, app
    app.extensions["companion"]["hub"].close()
    table.close()


@pytest.fixture
def console(tmp_path):
    """``make(game, seats, options) -> (table, client, headers)``: the operator's test client on
    a fresh table playing ``game``; everything is closed after the test."""
    from companion.dashboard import create_app
    from companion.table import Table
    from tests.dashboard.helpers import operator_client

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


@pytest.fixture
def dash(fast_dir):
    """``make(game, seats, options=None) -> (table, app)``: a fresh table (PIN 246810) playing
    ``game`` and its test app; everything is closed after the test."""
    from companion.dashboard import create_app
    from companion.table import Table

    made = []

    def make(game, seats, options=None):
        table = Table(fast_dir / str(len(made)), pin="246810")
        table.new_game(game, list(seats), options)
        app = create_app(table, testing=True)
        made.append((table, app))
        return table, app

    yield make
    for table, app in made:
        app.extensions["companion"]["hub"].close()
        table.close()
