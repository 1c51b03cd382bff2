"""Waiting in tests for what another thread or process does."""

from __future__ import annotations

import time
from typing import Callable


def wait_for(cond: Callable[[], object], timeout: float, step: float = 0.05) -> bool:
    """Poll ``cond`` every ``step`` s until it is true or ``timeout`` s have passed; its last
    value decides."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(step)
    return bool(cond())
