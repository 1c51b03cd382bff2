"""Fixtures for the dashboard tests: the tiny counting game registered as a game id."""

from __future__ import annotations

import os

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


@pytest.fixture
def fast_dir(tmp_path):
    """A data folder on tmpfs when there is one: the table log fsyncs every action
    (synchronous=FULL), which costs up to ~0.2 s per action on this machine's disk."""
    import shutil
    import tempfile
    from pathlib import Path

    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        path = Path(tempfile.mkdtemp(dir=shm, prefix="companion-test-"))
        yield path
        shutil.rmtree(path, ignore_errors=True)
    else:
        yield tmp_path
