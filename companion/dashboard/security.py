"""Dashboard security: CSRF tokens, the failed-attempt limiter, and who the requester is.

* **CSRF**: a random token per browser session (Flask's signed session cookie, ``SameSite=Lax``,
  ``HttpOnly``). Every POST must carry it, as the form field ``csrf_token`` or the header
  ``X-CSRF-Token``; otherwise 400 ``csrf``. (Flask-WTF's ``CSRFProtect`` does the same with two more
  dependencies; this is the same double-check in a few lines.)
* **Tokens**: the operator token (from the PIN) and the seat token (from a join code) live in the
  session; :class:`~companion.table.Table` validates them on every request. Both survive a restart
  of the table (same data folder); the operator's ends when the PIN changes, and the login page
  then says why (:func:`login_lost`).
* **Guess limiter** (:class:`Limiter`): what is guessed is counted, not who guesses. Every wrong
  PIN and every wrong join code counts twice: for the client address (:data:`MAX_FAILURES` per
  :data:`WINDOW_S`) and for the whole table, across every address (:data:`GLOBAL_FREE` per
  :data:`GLOBAL_WINDOW_S`, then an exponential backoff up to :data:`BACKOFF_CAP_S` after each
  further wrong guess). A right PIN or code clears nothing. Past either, 429 with ``Retry-After``
  and the wait in words. The right people are not locked out by someone else's guessing: a browser
  that logged in with the PIN before carries a device mark (:mod:`companion.sessions`) and a seat's
  QR code carries a pass; both skip the table-wide backoff (never their own address's count).
  Rationale and the figures: docs/dashboard.md "Logins and guessing", ``bench/guessing.py``.
* **Redirects** (:func:`safe_next`): only a path on this site.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
import unicodedata
from collections import defaultdict, deque
from urllib.parse import urlsplit

from flask import abort, current_app, request, session

from companion.i18n import MP, M, Message, N_, render

MAX_FAILURES = 5
"""Failed attempts allowed per client address and kind (``pin``, ``join``) per window."""

WINDOW_S = 30.0
"""The per-address sliding window, seconds: a phone that mistyped five times waits at most this
long (the table-wide count, not this one, is what bounds a guesser with many addresses)."""

GLOBAL_FREE = 10
"""Wrong guesses of one kind the whole table may make per :data:`GLOBAL_WINDOW_S` before the
backoff starts (a few typos of every player at the start of a game night)."""

GLOBAL_WINDOW_S = 3600.0
"""The table-wide sliding window, seconds."""

BACKOFF_CAP_S = 120.0
"""The longest table-wide wait after one wrong guess: 2, 4, 8 … s, then every 2 minutes."""


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
    "pin": N_("The operator PIN has changed since this browser logged in, so its login has ended. Enter the "
              "new PIN: it is printed on the table's console (and kept in the data folder, file operator-pin)."),
    "key": N_("The table's key has changed (its data folder was replaced or secret.key was damaged), so every "
              "earlier login has ended. Enter the PIN again."),
}
"""Why a browser that was logged in as the operator sees the PIN form again (message ids)."""


def login_lost() -> Message | None:
    """Why this browser's operator login has ended — or ``None`` when it never had one. Call it
    for a request that is not the operator's. ``pin``: the session holds an operator token the
    table no longer accepts (the PIN changed); ``key``: the browser sent a session cookie the
    table's key cannot check (a new ``secret.key``), so nothing of it is left."""
    if session.get("op"):
        why = "pin"
    elif not session and request.cookies.get(current_app.config.get("SESSION_COOKIE_NAME", "session")):
        why = "key"
    else:
        return None
    return M(LOGIN_LOST[why])


class Limiter:
    """Wrong guesses of each kind (``pin``, ``join``) per client address and for the whole table.

    An attempt may go on when the address has fewer than ``max_failures`` failures in its window
    and — unless ``trusted`` — the table-wide backoff has passed: after ``free`` wrong guesses in
    ``global_window_s``, the k-th further one holds every untrusted attempt of that kind for
    ``min(cap_s, 2**k)`` s. Nothing is ever cleared by a success; failures leave the windows.

    Args:
        max_failures: failures allowed per address inside ``window_s``.
        window_s: the per-address window, seconds.
        free: table-wide failures allowed inside ``global_window_s`` before the backoff.
        global_window_s: the table-wide window, seconds.
        cap_s: the longest table-wide wait, seconds.
        clock: monotonic clock in seconds (tests pass a fake one).
    """

    def __init__(self, max_failures: int = MAX_FAILURES, window_s: float = WINDOW_S, clock=time.monotonic, *,
                 free: int = GLOBAL_FREE, global_window_s: float = GLOBAL_WINDOW_S,
                 cap_s: float = BACKOFF_CAP_S):
        self.max_failures = max_failures
        self.window_s = window_s
        self.free = free
        self.global_window_s = global_window_s
        self.cap_s = cap_s
        self.clock = clock
        self._fails: dict = defaultdict(deque)   # (kind, client) -> failure times
        self._global: dict = defaultdict(deque)  # kind -> failure times, every address
        self._lock = threading.Lock()

    @staticmethod
    def _trim(q: deque, cutoff: float) -> deque:
        while q and q[0] < cutoff:
            q.popleft()
        return q

    def backoff(self, kind: str) -> float:
        """Seconds the table-wide backoff still holds untrusted attempts of ``kind`` (0: none)."""
        with self._lock:
            return self._backoff(kind, self.clock())

    def _backoff(self, kind: str, now: float) -> float:
        q = self._trim(self._global[kind], now - self.global_window_s)
        extra = len(q) - self.free
        if extra <= 0:
            return 0.0
        return max(0.0, q[-1] + min(self.cap_s, 2.0 ** extra) - now)

    def retry_after(self, kind: str, client: str, trusted: bool = False) -> int:
        """Whole seconds until ``client`` may try ``kind`` again (0: now). ``trusted``: the
        browser is the operator's device or holds a seat's QR pass — the table-wide backoff does
        not hold it (its own address's count still does)."""
        with self._lock:
            now = self.clock()
            q = self._trim(self._fails[(kind, client)], now - self.window_s)
            wait = q[0] + self.window_s - now if len(q) >= self.max_failures else 0.0
            if not trusted:
                wait = max(wait, self._backoff(kind, now))
            if wait <= 0:
                if not q:
                    self._fails.pop((kind, client), None)  # the map holds only addresses that failed lately
                return 0
            return max(1, int(wait + 0.999))

    def fail(self, kind: str, client: str) -> None:
        """Record one wrong guess of ``kind`` from ``client`` (it counts table-wide too)."""
        with self._lock:
            now = self.clock()
            self._trim(self._fails[(kind, client)], now - self.window_s).append(now)
            self._trim(self._global[kind], now - self.global_window_s).append(now)
            if len(self._fails) > 10000:  # addresses that stopped guessing: forget the idle ones
                for key in [k for k, q in self._fails.items() if not q or q[-1] < now - self.window_s]:
                    del self._fails[key]

    def failures(self, kind: str) -> int:
        """Table-wide wrong guesses of ``kind`` in the current window (the console may say it)."""
        with self._lock:
            return len(self._trim(self._global[kind], self.clock() - self.global_window_s))


def wait_words(seconds: int, lang: str = "ru") -> str:
    """A wait in words: «40 с», «3 мин» / «40 s», «3 min» (minutes from two minutes up)."""
    if seconds >= 120:
        return render(M("%(n)s min", n=(seconds + 59) // 60), lang)
    return render(M("%(n)s s", n=seconds), lang)


def countdown_words(seconds: int, lang: str = "ru") -> str:
    """A wait to the second, for a countdown: «47 с», «4 мин 7 с» / «47 s», «4 min 7 s» (the login
    page's script, web/static/lockout.js, counts down in the same form)."""
    m, s = divmod(max(0, int(seconds)), 60)
    unit_m, unit_s = countdown_units(lang)
    return f"{m} {unit_m} {s} {unit_s}" if m else f"{s} {unit_s}"


def countdown_units(lang: str = "ru") -> tuple[str, str]:
    """The countdown's two units, minutes and seconds: («мин», «с») / ("min", "s")."""
    return render(MP("countdown", "min"), lang), render(MP("countdown", "s"), lang)


def safe_next(target, default: str = "/") -> str:
    """``target`` when it is a path on this site (``/join``, ``/seat?x=1``), else ``default``.

    Refused: anything with a scheme or host (``https://evil.example``), a path starting ``//`` or
    ``/\\``, and any text holding a control character, a space or a backslash — a browser drops
    tabs and new lines from a URL, so ``/\t/evil.example`` would become ``//evil.example``."""
    if not isinstance(target, str) or not target.startswith("/") or len(target) > 512:
        return default
    if any(ch.isspace() or ch == "\\" or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")
           for ch in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or target.startswith("//"):
        return default
    return target
