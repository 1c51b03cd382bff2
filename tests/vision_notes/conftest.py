"""Fixtures for the banknote reader tests: one shared RapidOCR engine (model load is slow)."""

from __future__ import annotations

import pytest

from companion.vision.notes import NoteReader


@pytest.fixture(scope="session")
def reader_for():
    """``reader_for(currency)`` → a NoteReader sharing one engine across the session."""
    cache: dict[str, NoteReader] = {}

    def get(currency: str = "auto") -> NoteReader:
        if currency not in cache:
            r = NoteReader(currency=currency)
            if cache:
                r._engine = next(iter(cache.values())).engine
            cache[currency] = r
        return cache[currency]

    return get
