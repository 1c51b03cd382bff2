"""Dashboard security: CSRF tokens, the failed-attempt limiter, and who the requester is.

* **CSRF**: a random token per browser session (Flask's signed session cookie, ``SameSite=Lax``,
  ``HttpOnly``). Every POST must carry it, as the form field ``csrf_token`` or the header
  ``X-CSRF-Token``; otherwise 400 ``csrf``. (Flask-WTF's ``CSRFProtect`` does the same with two more
  dependencies; this is the same double-check in a few lines.)
* **Tokens**: the operator token (from the PIN) and the seat token (from a join code) live in the
  session; :class:`~companion.table.Table` validates them on every request. Both survive a restart
  of the table (same data folder); the operator's ends when the PIN changes, and the login page
  then says why (:func:`login_lost`).
* **Limiter**: failed PIN and join-code attempts per client address, a sliding window
  (:data:`MAX_FAILURES` per :data:`WINDOW_S`); past it, 429 with ``Retry-After``.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import defaultdict, deque

from flask import abort, current_app, request, session

MAX_FAILURES = 5
"""Failed attempts allowed per client address and kind (``pin``, ``join``) per window."""

WINDOW_S = 300.0
"""The limiter's sliding window, seconds."""


def csrf_token() -> str:
    """This session's CSRF token (created on first use)."""
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def check_csrf() -> None:
    """Abort 400 unless the request carries this session's CSRF token."""
    expected = session.get("csrf")
    given = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    if not expected or not hmac.compare_digest(str(given), str(expected)):
        abort(400, description="csrf")


LOGIN_LOST = {
    "pin": ("The operator PIN has changed since this browser logged in, so its login has ended. Enter the "
            "new PIN: it is printed on the table's console (and kept in the data folder, file operator-pin).",
            "ПИН оператора сменился после того, как этот браузер вошёл, поэтому вход закончился. Введите новый "
            "ПИН: он напечатан на консоли стола (и хранится в папке данных, файл operator-pin)."),
    "key": ("The table's key has changed (its data folder was replaced or secret.key was damaged), so every "
            "earlier login has ended. Enter the PIN again.",
            "Ключ стола сменился (папка данных заменена или файл secret.key повреждён), поэтому все прежние входы "
            "закончились. Введите ПИН снова."),
}
"""Why a browser that was logged in as the operator sees the PIN form again: ``(en, ru)``."""


def login_lost(lang: str = "ru") -> str | None:
    """Why this browser's operator login has ended, in ``lang`` (``ru``/``en``) — or ``None`` when
    it never had one. Call it for a request that is not the operator's. ``pin``: the session holds
    an operator token the table no longer accepts (the PIN changed); ``key``: the browser sent a
    session cookie the table's key cannot check (a new ``secret.key``), so nothing of it is left."""
    if session.get("op"):
        why = "pin"
    elif not session and request.cookies.get(current_app.config.get("SESSION_COOKIE_NAME", "session")):
        why = "key"
    else:
        return None
    en, ru = LOGIN_LOST[why]
    return en if lang == "en" else ru


class Limiter:
    """Sliding-window counter of failed attempts per (kind, client address).

    Args:
        max_failures: failures allowed inside the window.
        window_s: window length in seconds.
        clock: monotonic clock in seconds (tests pass a fake one).
    """

    def __init__(self, max_failures: int = MAX_FAILURES, window_s: float = WINDOW_S, clock=time.monotonic):
        self.max_failures = max_failures
        self.window_s = window_s
        self.clock = clock
        self._fails: dict = defaultdict(deque)
        self._lock = threading.Lock()

    def _trim(self, key) -> deque:
        q = self._fails[key]
        cutoff = self.clock() - self.window_s
        while q and q[0] < cutoff:
            q.popleft()
        return q

    def retry_after(self, kind: str, client: str) -> int:
        """Seconds until ``client`` may try ``kind`` again (0: now)."""
        with self._lock:
            q = self._trim((kind, client))
            if len(q) < self.max_failures:
                return 0
            return max(1, int(q[0] + self.window_s - self.clock() + 0.999))

    def fail(self, kind: str, client: str) -> None:
        """Record one failed attempt."""
        with self._lock:
            self._trim((kind, client)).append(self.clock())

    def reset(self, kind: str, client: str) -> None:
        """Forget ``client``'s failures of ``kind`` (after a success)."""
        with self._lock:
            self._fails.pop((kind, client), None)
