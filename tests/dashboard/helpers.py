"""Helpers for the dashboard tests: logged-in clients, CSRF tokens, waiting for the hub."""

from __future__ import annotations

import json
import re
import time

from companion.dashboard.model import PUBLIC

CSRF_RE = re.compile(rb'name="csrf_token" value="([^"]+)"')
BOOT_RE = re.compile(rb'<script id="boot" type="application/json">(.*?)</script>', re.S)


def csrf_of(client, path: str = "/join") -> str:
    """Load a page and return the session's CSRF token from its form."""
    r = client.get(path)
    m = CSRF_RE.search(r.data)
    assert m, f"no csrf token on {path}"
    return m.group(1).decode()


def boot_of(html: bytes) -> dict:
    """The page's embedded boot JSON."""
    m = BOOT_RE.search(html)
    assert m, "page has no boot JSON"
    return json.loads(m.group(1).decode())


def operator_client(app, table):
    """A test client logged in as the operator; returns ``(client, csrf)``."""
    c = app.test_client()
    token = csrf_of(c, "/operator")
    r = c.post("/operator/login", data={"pin": table.pin, "csrf_token": token})
    assert r.status_code == 302, r.data
    return c, token


def seat_client(app, table, seat: int):
    """A test client joined to ``seat``; returns ``(client, csrf)``."""
    c = app.test_client()
    token = csrf_of(c, "/join")
    r = c.post("/join", data={"code": table.seat_codes()[seat], "csrf_token": token})
    assert r.status_code == 302 and r.headers["Location"].endswith("/seat"), r.data
    return c, token


def wait_version(hub, version: int, timeout: float = 5.0) -> None:
    """Wait until the hub's public model reached ``version`` (fan-out runs after submit returns)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = hub.model(PUBLIC)
        if m is not None and m["version"] >= version:
            return
        time.sleep(0.002)
    raise AssertionError(f"hub did not reach version {version}")


class FakeClock:
    """A clock the test moves by hand (``clock.t += 60``): seconds, starts at 1000."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t
