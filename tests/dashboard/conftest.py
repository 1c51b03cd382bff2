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
