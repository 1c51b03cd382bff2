"""Logins at one table: operator tokens (from the PIN) and seat tokens (from a join code).

Every login here is issued, checked, **expires** and can be **ended**; the stores are bounded.
The rationale is in docs/dashboard.md ("Logins and guessing").

* **Operator token** ``o1.<nonce>.<issued>.<mac>``: ``mac`` = HMAC-SHA256(``secret.key``, PIN,
  nonce, issued). Nothing is stored for a valid one: it is valid on any restart of the same table
  (same key and PIN) until :data:`OPERATOR_TTL_S` after ``issued``; a new PIN ends every one at
  once. Logging out ends that one token: its nonce goes on the **revoked** list (kept in
  ``table.json`` until the token would have expired anyway, so the list is bounded).
* **Operator device mark** ``d1.<id>.<mac>``: set in a browser's session by a successful PIN
  login and kept across logout. A browser carrying a mark for the current PIN is the operator's own
  device: the global guess backoff (:mod:`companion.dashboard.security`) never locks it out.
* **Seat token**: random, mapped to ``[seat, issued]`` in ``table.json``; valid until
  :data:`SEAT_TTL_S` after it was issued, ended by «Покинуть место», by a new game or by the end of
  the game. At most :data:`SEAT_TOKENS_PER_SEAT` phones per seat (the oldest login goes), so the
  state file has a bounded size however often a code is used. A browser that joins the seat it
  already holds keeps its token and nothing is written.

Times are wall-clock seconds (``time.time``): tokens outlive a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Callable

OPERATOR_TTL_S = 12 * 3600
"""An operator login lasts 12 h from the PIN being typed (a game night), then the PIN is asked again."""

SEAT_TTL_S = 24 * 3600
"""A seat login lasts 24 h from the join (the game's seat codes still let the phone back in)."""

DEVICE_TTL_S = 90 * 86400
"""An operator device mark lasts 90 days (it only spares the device the global guess backoff)."""

SEAT_TOKENS_PER_SEAT = 6
"""Phones logged in to one seat at most; a seventh join ends the oldest of the six."""

MIN_PIN_DIGITS = 6
"""The shortest operator PIN taken: a million PINs, which with the dashboard's guess backoff is more
than a year of guessing on average (docs/dashboard.md "Logins and guessing")."""

MAX_PIN_DIGITS = 12

MAX_REVOKED = 1000
"""Revoked operator nonces kept at most (each also leaves the list when its token would expire)."""


def pin_refusal(pin) -> tuple[str, str] | None:
    """Why ``pin`` cannot be the operator PIN, ``(English, Russian)``, or ``None`` when it can
    (6–12 ASCII digits). ``--pin``, the settings' ``pin`` and the PIN file are checked with it."""
    text = str(pin)
    if text.isdigit() and text.isascii() and MIN_PIN_DIGITS <= len(text) <= MAX_PIN_DIGITS:
        return None
    if text.isdigit() and text.isascii() and len(text) < MIN_PIN_DIGITS:
        return (f"the operator PIN must have at least {MIN_PIN_DIGITS} digits (a shorter one is guessed too "
                f"soon), got {len(text)}",
                f"ПИН оператора — не меньше {MIN_PIN_DIGITS} цифр (короткий слишком легко подобрать), "
                f"а задано {len(text)}")
    return (f"the operator PIN must be {MIN_PIN_DIGITS}-{MAX_PIN_DIGITS} digits",
            f"ПИН оператора — от {MIN_PIN_DIGITS} до {MAX_PIN_DIGITS} цифр")


def _mac(key: bytes, *parts: str) -> str:
    return hmac.new(key, "\0".join(parts).encode("utf-8"), hashlib.sha256).hexdigest()


class Sessions:
    """The operator and seat logins of one table (see module docstring).

    Args:
        key: the table's ``secret.key`` (signs operator tokens and device marks).
        pin: the operator PIN of this run (tokens and marks made with another PIN are void).
        clock: wall-clock seconds (tests pass a fake one).

    Attributes:
        seat_tokens: ``{token: [seat, issued]}`` of the current game (persisted in ``table.json``).
        revoked: ``{operator nonce: until}``: logged-out operator tokens (persisted too).
    """

    def __init__(self, key: bytes, pin: str, clock: Callable[[], float] = time.time) -> None:
        self.key = key
        self.pin = pin
        self.clock = clock
        self.seat_tokens: dict[str, list[int]] = {}
        self.revoked: dict[str, int] = {}

    # ------------------------------------------------------------------ operator
    def issue_operator(self) -> str:
        """A new operator token (call it only after the PIN was checked)."""
        nonce, issued = secrets.token_hex(16), str(int(self.clock()))
        return f"o1.{nonce}.{issued}.{_mac(self.key, 'operator', self.pin, nonce, issued)}"

    def _operator_parts(self, token) -> tuple[str, int] | None:
        """``(nonce, issued)`` of a well-formed token signed for this key and PIN, else ``None``."""
        if not isinstance(token, str) or len(token) > 200 or not token.isascii():
            return None
        parts = token.split(".")
        if len(parts) != 4 or parts[0] != "o1" or not parts[1] or not parts[2].isdigit():
            return None
        _, nonce, issued, mac = parts
        if not hmac.compare_digest(mac.encode(), _mac(self.key, "operator", self.pin, nonce, issued).encode()):
            return None
        return nonce, int(issued)

    def is_operator(self, token) -> bool:
        """True for an operator token of this table and PIN that has not expired or been ended."""
        parts = self._operator_parts(token)
        if parts is None:
            return False
        nonce, issued = parts
        now = self.clock()
        return issued <= now + 60 and now < issued + OPERATOR_TTL_S and nonce not in self.revoked

    def revoke_operator(self, token) -> bool:
        """End one operator token (logout). Returns True when the revoked list changed."""
        parts = self._operator_parts(token)
        if parts is None or parts[0] in self.revoked:
            return False
        self.prune()
        self.revoked[parts[0]] = parts[1] + OPERATOR_TTL_S
        while len(self.revoked) > MAX_REVOKED:  # the earliest to expire go first
            del self.revoked[min(self.revoked, key=self.revoked.get)]
        return True

    def device_mark(self) -> str:
        """A mark for the browser that just logged in with the PIN (see module docstring)."""
        dev, issued = secrets.token_hex(8), str(int(self.clock()))
        return f"d1.{dev}.{issued}.{_mac(self.key, 'device', self.pin, dev, issued)}"

    def is_device(self, mark) -> bool:
        """True for a device mark made at this table with the current PIN, not older than
        :data:`DEVICE_TTL_S`."""
        if not isinstance(mark, str) or len(mark) > 200 or not mark.isascii():
            return False
        parts = mark.split(".")
        if len(parts) != 4 or parts[0] != "d1" or not parts[2].isdigit():
            return False
        _, dev, issued, mac = parts
        if not hmac.compare_digest(mac.encode(), _mac(self.key, "device", self.pin, dev, issued).encode()):
            return False
        return self.clock() < int(issued) + DEVICE_TTL_S

    def join_pass(self, code: str) -> str:
        """The pass the seat's QR code carries with its code (``/join?code=…&k=…``): proof that
        the link came from the operator's console, so a join through it is never held up by the
        global guess backoff. It is made from the code: a valid pass means a right code."""
        return _mac(self.key, "join", str(code))[:16]

    def is_join_pass(self, code, given) -> bool:
        """True when ``given`` is :meth:`join_pass` of ``code``."""
        if not isinstance(code, str) or not isinstance(given, str) or len(given) != 16 or not given.isascii():
            return False
        return hmac.compare_digest(given.encode(), self.join_pass(code).encode())

    # ------------------------------------------------------------------ seats
    def seat_for(self, token) -> int | None:
        """The seat a live seat token was issued for, else ``None`` (unknown, ended or expired)."""
        if not isinstance(token, str) or not token:
            return None
        entry = self.seat_tokens.get(token)
        if entry is None or self.clock() >= entry[1] + SEAT_TTL_S:
            return None
        return entry[0]

    def issue_seat(self, seat: int, current: str | None = None) -> tuple[str, bool]:
        """A seat token for ``seat``: ``current`` again when it is a live token of that seat
        (nothing changed), else a new one (the seat's oldest logins beyond
        :data:`SEAT_TOKENS_PER_SEAT` end). Returns ``(token, changed)``."""
        if current is not None and self.seat_for(current) == seat:
            return current, False
        self.prune()
        token = secrets.token_urlsafe(24)
        self.seat_tokens[token] = [seat, int(self.clock())]
        mine = sorted((t for t, (s, _) in self.seat_tokens.items() if s == seat), key=lambda t: self.seat_tokens[t][1])
        for old in mine[:-SEAT_TOKENS_PER_SEAT]:
            del self.seat_tokens[old]
        return token, True

    def revoke_seat(self, token) -> bool:
        """End a seat token («Покинуть место»). Returns True when it was live."""
        return isinstance(token, str) and self.seat_tokens.pop(token, None) is not None

    def prune(self) -> bool:
        """Forget expired seat tokens and revoked nonces whose tokens expired. True if any went."""
        now = self.clock()
        seats = {t: e for t, e in self.seat_tokens.items() if now < e[1] + SEAT_TTL_S}
        revoked = {n: u for n, u in self.revoked.items() if now < u}
        changed = len(seats) != len(self.seat_tokens) or len(revoked) != len(self.revoked)
        self.seat_tokens, self.revoked = seats, revoked
        return changed

    # ------------------------------------------------------------------ persistence
    def load_seats(self, raw, seats: int | None = None) -> None:
        """Seat tokens as ``table.json`` (or a log's ``seats`` note) keeps them: ``{token: [seat,
        issued]}``; the older form ``{token: seat}`` counts as issued now.

        Raises:
            TypeError, ValueError: not such a mapping (the caller decides what that means).
        """
        out: dict[str, list[int]] = {}
        now = int(self.clock())
        for token, value in dict(raw or {}).items():
            if isinstance(value, bool):
                raise ValueError("a seat token maps to a seat")
            seat, issued = (value, now) if isinstance(value, int) else (int(value[0]), int(value[1]))
            if seats is not None and not 0 <= seat < seats:
                raise ValueError(f"seat {seat} is not at this table")
            out[str(token)] = [seat, issued]
        self.seat_tokens = out
        self.prune()

    def load_revoked(self, raw) -> None:
        """Revoked operator nonces as ``table.json`` keeps them (anything unreadable is dropped)."""
        try:
            self.revoked = {str(n): int(u) for n, u in dict(raw or {}).items()}
        except (TypeError, ValueError):
            self.revoked = {}
        self.prune()
