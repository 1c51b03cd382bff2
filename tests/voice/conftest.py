"""Fixtures for the voice tests: the tiny counting game of tests/core as a game id."""

from __future__ import annotations

import pytest

from tests.core.counting import register_counting


@pytest.fixture
def counting():
    unregister = register_counting()
    yield
    unregister()
