"""Fixtures for the newcomer-findings tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest


@pytest.fixture
def fast_dir(tmp_path):
    """A data folder on tmpfs when there is one (the table log fsyncs every action)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        path = Path(tempfile.mkdtemp(dir=shm, prefix="companion-ux-"))
        yield path
        shutil.rmtree(path, ignore_errors=True)
    else:
        yield tmp_path
