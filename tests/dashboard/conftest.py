"""Fixtures for the dashboard tests: the tiny counting game registered as a game id."""

from __future__ import annotations

import pytest

import companion.games as games

from tests.core.counting import Counting


@pytest.fixture
def counting(monkeypatch):
    """Make ``new_game("counting", ...)`` build the tiny counting game of tests/core."""
    real = games.get_game_class
    monkeypatch.setattr(games, "GAME_IDS", games.GAME_IDS + ("counting",))
    monkeypatch.setattr(games, "get_game_class", lambda gid: Counting if gid == "counting" else real(gid))
    return Counting
