"""Fixtures for the skull tests: readable serials and a game factory.

Serials: seat ``s``'s roses are ``S{s}R0002``, ``S{s}R0004``, ``S{s}R0006`` … (even last digit)
and its skulls ``S{s}K0001``, ``S{s}K0003`` … (odd last digit), so a test can read a note's owner
and role from its serial.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from skull_helpers import Table  # noqa: E402


@pytest.fixture
def table():
    """The :class:`skull_helpers.Table` factory: ``table(3, dealer=0, **options)``."""
    return Table
