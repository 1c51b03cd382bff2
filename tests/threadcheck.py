"""A diagnostic pytest plugin: the threads tests leave running (``-p tests.threadcheck``).

After each test's teardown, the threads alive that were not alive when its module's first test
started are given :data:`GRACE_S` to end. A thread still running after the last test of its
module (its module-scoped fixtures torn down too) is **left running**: the session ends with the
list of them by the test that started them (``COMPANION_THREADS_OUT``, when set, gets it as JSON
lines). A thread a module-scoped fixture keeps while the module runs (the browser's driver) is
not counted. Not a check of its own: a run with it measures, the causes are fixed in the code or
the fixtures (docs/architecture.md, "Checks").
"""

from __future__ import annotations

import json
import os
import threading
import time

import pytest

GRACE_S = 2.0
"""How long threads may take to end after a teardown."""

_LEFT: list[tuple[str, str]] = []  # (test that started it, thread)
_module_start: set = set()
_started_by: dict = {}  # thread -> test id


def _described(t: threading.Thread) -> str:
    target = getattr(t, "_target", None)
    where = getattr(target, "__qualname__", None) or type(t).__name__
    return f"{t.name} ({where}{', daemon' if t.daemon else ''})"


def _settle(known: set) -> list[threading.Thread]:
    deadline = time.monotonic() + GRACE_S
    while True:
        new = [t for t in threading.enumerate() if t not in known and t.is_alive()]
        if not new or time.monotonic() > deadline:
            return new
        time.sleep(0.05)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _module_start
    first = not _started_by and not _module_start
    if first or getattr(item, "_threadcheck_first", False):
        _module_start = set(threading.enumerate())
    before = set(threading.enumerate())
    yield
    for t in threading.enumerate():
        if t not in before and t not in _started_by:
            _started_by[t] = item.nodeid
    if nextitem is None or nextitem.module is not item.module:
        for t in _settle(_module_start):
            _LEFT.append((_started_by.get(t, item.nodeid), _described(t)))
        _started_by.clear()
        if nextitem is not None:
            nextitem._threadcheck_first = True


def pytest_terminal_summary(terminalreporter):
    terminalreporter.write_sep("=", f"threads left running after their test module: {len(_LEFT)}")
    for nodeid, name in _LEFT:
        terminalreporter.write_line(f"{nodeid}: {name}")
    out = os.environ.get("COMPANION_THREADS_OUT")
    if out:
        with open(out, "w", encoding="utf-8") as fh:
            for nodeid, name in _LEFT:
                fh.write(json.dumps({"test": nodeid, "thread": name}, ensure_ascii=False) + "\n")
