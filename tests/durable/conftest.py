"""Fixtures for the durability tests."""

from __future__ import annotations

import pytest

from tests.durable.kills import stop_dropped


@pytest.fixture(autouse=True)
def _stop_dropped_tables():
    """The referee threads of the tables a test killed (tests/durable/kills.py) end with it."""
    yield
    stop_dropped()
