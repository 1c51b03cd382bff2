"""Shared fixtures. Real data lives read-only in ../shared/data/real (never copied here)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the table's voice stays quiet in the tests (a test machine may have a speaker): companion/voice.py
os.environ.setdefault("COMPANION_VOICE", "off")
SHARED = Path(os.environ.get("COMPANION_SHARED") or ROOT.parent / "shared")
REAL = SHARED / "data" / "real"
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture(autouse=True)
def _cli_language():
    """Each test starts with the command line in Russian: ``companion.cli.main`` run in-process
    with ``--lang en`` sets the run's language (and ``LANGUAGE``) for the rest of the process."""
    from companion.i18n import cli

    saved, env = cli.current(), os.environ.get("LANGUAGE")
    yield
    cli._current = saved
    if env is None:
        os.environ.pop("LANGUAGE", None)
    else:
        os.environ["LANGUAGE"] = env


@pytest.fixture(scope="session")
def real_data() -> Path:
    """Path to ../shared/data/real; skips the test (saying why) when it is absent."""
    if not REAL.is_dir():
        pytest.skip(f"real photos not available: {REAL} is absent")
    return REAL


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Folder for test artifacts (screenshots, rendered frames); kept after the run."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def fast_dir(tmp_path):
    """A data folder on tmpfs when there is one: the table log fsyncs every action
    (synchronous=FULL), which costs up to ~0.2 s per action on a slow disk."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        path = Path(tempfile.mkdtemp(dir=shm, prefix="companion-test-"))
        yield path
        shutil.rmtree(path, ignore_errors=True)
    else:
        yield tmp_path


@pytest.fixture
def table_server(fast_dir):
    """``(table, server)``: a :class:`companion.table.Table` on a fast data folder (operator PIN
    314159) with its dashboard served on a free port; stopped and closed afterwards."""
    import logging

    from companion.dashboard import DashboardServer
    from companion.table import Table

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    table = Table(fast_dir, pin="314159")
    srv = DashboardServer(table, port=0).start()
    yield table, srv
    srv.stop()
    table.close()


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (tests/browser.py) for one UI test module; skips without Playwright."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    from tests.browser import launch

    with sync_api.sync_playwright() as p:
        b = launch(p)
        yield b
        b.close()
