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
* **Seat devices**: each seat token also keeps a short label of the phone that joined with it
  (browser and system from its User-Agent: «Chrome, Android»), as ``[seat, issued, label]``; the
  last time it was seen is kept in memory only. The operator sees them by a **device id**
  (HMAC of the token, 12 hex digits: never the token) and can end one;
  a phone so signed out is remembered (:meth:`Sessions.mark_signed_out`: bounded, in memory) so its
  page can say why it must join again.

Times are wall-clock seconds (``time.time``): tokens outlive a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from typing import Callable

from companion.i18n import M, MPN, Message

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

MAX_SIGNED_OUT = 200
"""Seat tokens the operator ended that are remembered (so the phone's page can say why)."""

MAX_LABEL = 40
"""The longest device label kept («Samsung Internet, Android» fits)."""

_BROWSERS = (("YaBrowser", "Yandex Browser"), ("SamsungBrowser", "Samsung Internet"), ("Edg", "Edge"),
             ("OPR", "Opera"), ("Opera", "Opera"), ("Firefox", "Firefox"), ("FxiOS", "Firefox"),
             ("CriOS", "Chrome"), ("HeadlessChrome", "Chrome"), ("Chromium", "Chromium"), ("Chrome", "Chrome"),
             ("Safari", "Safari"))
_SYSTEMS = (("iPhone", "iOS"), ("iPad", "iPadOS"), ("Android", "Android"), ("Windows", "Windows"),
            ("Mac OS X", "macOS"), ("Macintosh", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


def device_label(user_agent) -> str:
    """A short label of a browser from its User-Agent header: ``"Chrome, Android"``,
    ``"Safari, iOS"``; ``"?"`` parts when not recognised (never the raw header: it is long and
    says more than the operator needs). A first-match table of the common tokens, not a full
    parser: the label only tells the operator's phones apart."""
    ua = user_agent if isinstance(user_agent, str) else ""
    browser = next((name for token, name in _BROWSERS if re.search(rf"\b{token}/", ua)), "?")
    system = next((name for token, name in _SYSTEMS if token in ua), "?")
    if browser == "?" and system == "?":
        return "?"
    return f"{browser}, {system}"[:MAX_LABEL]


def pin_refusal(pin) -> Message | None:
    """Why ``pin`` cannot be the operator PIN (a message), or ``None`` when it can
    (6–12 ASCII digits). ``--pin``, the settings' ``pin`` and the PIN file are checked with it."""
    text = str(pin)
    if text.isdigit() and text.isascii() and MIN_PIN_DIGITS <= len(text) <= MAX_PIN_DIGITS:
        return None
    if text.isdigit() and text.isascii() and len(text) < MIN_PIN_DIGITS:
        return M("the operator PIN must have at least %(min)s digits (a shorter one is guessed too soon), not %(given)s",
                 min=MIN_PIN_DIGITS, given=MPN("pin digits given", "%(n)s digit", "%(n)s digits", len(text)))
    return M("the operator PIN must be %(min)s-%(max)s digits", min=MIN_PIN_DIGITS, max=MAX_PIN_DIGITS)


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
        self.seat_tokens: dict[str, list] = {}
        self.revoked: dict[str, int] = {}
        #: ``{seat token: last seen}`` (wall-clock s), in memory only (:meth:`touch`)
        self.seen: dict[str, float] = {}
        #: ``{seat token: when}`` the operator ended (:meth:`revoke_device`), bounded, in memory
        self.signed_out: dict[str, float] = {}
        #: ``{seat token: (when, why)}`` a new game (``"new_game"``), the operator's end of the game
        #: (``"ended"``) or the end of the game before a restart (``"over"``) ended, so a phone that
        #: comes back is told why (:meth:`retired_why`)
        self.retired: dict[str, tuple[float, str]] = {}
        self._next = threading.local()  # the label the next issue_seat in this thread gives its token

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
            del self.revoked[min(self.revoked, key=self.revoked.__getitem__)]
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
        :data:`SEAT_TOKENS_PER_SEAT` end) carrying the label :meth:`labelled` set in this thread.
        Returns ``(token, changed)``."""
        if current is not None and self.seat_for(current) == seat:
            return current, False
        self.prune()
        token = secrets.token_urlsafe(24)
        now = int(self.clock())
        label = getattr(self._next, "label", None)
        self.seat_tokens[token] = [seat, now] + ([label] if label else [])
        self.seen[token] = now
        mine = sorted((t for t, e in self.seat_tokens.items() if e[0] == seat), key=lambda t: self.seat_tokens[t][1])
        for old in mine[:-SEAT_TOKENS_PER_SEAT]:
            del self.seat_tokens[old]
            self.seen.pop(old, None)
        return token, True

    def labelled(self, user_agent):
        """A context in which :meth:`issue_seat` (in this thread) labels a new token with the
        device label of ``user_agent`` (:func:`device_label`): ``with sessions.labelled(ua):
        table.join(code)``. The label is part of the token's entry, so it is persisted with it."""
        sessions = self

        class _Labelled:
            def __enter__(self):
                sessions._next.label = device_label(user_agent)

            def __exit__(self, *exc):
                sessions._next.label = None

        return _Labelled()

    def revoke_seat(self, token) -> bool:
        """End a seat token («Покинуть место»). Returns True when it was live."""
        if not isinstance(token, str):
            return False
        self.seen.pop(token, None)
        return self.seat_tokens.pop(token, None) is not None

    # ------------------------------------------------------------------ seat devices
    def device_id(self, token: str) -> str:
        """The id the operator sees for a seat token: 12 hex digits of an HMAC of it (the token
        itself never leaves the phone's own session)."""
        return _mac(self.key, "seat-device", token)[:12]

    def touch(self, token) -> None:
        """Note that the phone holding seat token ``token`` was seen now (a request or a stream)."""
        if isinstance(token, str) and token in self.seat_tokens:
            self.seen[token] = self.clock()

    def devices(self, seat: int | None = None) -> list[dict]:
        """The live seat logins (of ``seat``, or every seat), oldest first: ``[{"id", "seat",
        "label", "first", "last"}]`` — ``first``/``last`` wall-clock seconds (``last``: the latest
        request or stream of this run; ``first`` until it made one), ``label`` ``"?"`` when the
        login predates labels. Never a token."""
        now = self.clock()
        out = []
        for order, (token, entry) in enumerate(list(self.seat_tokens.items())):  # a snapshot: a join may add one
            if now >= entry[1] + SEAT_TTL_S or (seat is not None and entry[0] != seat):
                continue
            label = entry[2] if len(entry) > 2 and isinstance(entry[2], str) else "?"
            out.append({"id": self.device_id(token), "seat": entry[0], "label": label, "first": entry[1],
                        "last": int(self.seen.get(token, entry[1])), "order": order})
        out.sort(key=lambda d: (d["seat"], d["first"], d.pop("order")))  # joined first, first
        return out

    def token_of_device(self, device_id) -> str | None:
        """The live seat token whose :meth:`device_id` is ``device_id``, else ``None``."""
        if not isinstance(device_id, str) or len(device_id) != 12:
            return None
        return next((t for t in list(self.seat_tokens) if hmac.compare_digest(self.device_id(t), device_id)), None)

    def mark_signed_out(self, token: str) -> None:
        """Remember that the operator ended seat token ``token`` (:meth:`was_signed_out`), at most
        :data:`MAX_SIGNED_OUT` of them (the oldest go)."""
        self.signed_out[token] = self.clock()
        while len(self.signed_out) > MAX_SIGNED_OUT:
            del self.signed_out[min(self.signed_out, key=self.signed_out.__getitem__)]

    def retire_seats(self, why: str = "new_game") -> None:
        """A new game (``why`` ``"new_game"``) or the operator's end of the game (``"ended"``):
        every seat token ends (its players join again with the new codes). The ended tokens are
        remembered (bounded, like :meth:`mark_signed_out`) so a phone that comes back to its seat
        page is told why it must join again (:meth:`retired_why`); the ``"ended"`` ones are kept in
        ``table.json`` too (:meth:`ended_tokens`), so that holds after a restart."""
        self._retire(self.seat_tokens, why)
        self.seat_tokens = {}

    def retire_finished(self, raw) -> None:
        """The seat tokens ``table.json`` kept (``{token: [seat, issued, …]}``) for a game that
        was over when the table started again: they are never live again, but a phone that comes
        back is told that its game is over (:meth:`retired_why` ``"over"``), not sent to a bare
        join page. Anything unreadable is left out."""
        try:
            tokens = [t for t in dict(raw or {}) if isinstance(t, str)]
        except (TypeError, ValueError):
            return
        self._retire(tokens, "over")

    def ended_tokens(self) -> list[str]:
        """The seat tokens of games the operator ended (:meth:`retire_seats` ``"ended"``), oldest first."""
        return sorted((t for t, (_, why) in self.retired.items() if why == "ended"), key=lambda t: self.retired[t][0])

    def load_ended(self, raw) -> None:
        """The :meth:`ended_tokens` ``table.json`` kept (a list); anything unreadable is left out."""
        if isinstance(raw, list):
            self._retire([t for t in raw[-MAX_SIGNED_OUT:] if isinstance(t, str)], "ended")

    def _retire(self, tokens, why: str) -> None:
        now = self.clock()
        for token in tokens:
            self.retired[token] = (now, why)
        while len(self.retired) > MAX_SIGNED_OUT:  # the earliest ended go first
            del self.retired[min(self.retired, key=lambda t: self.retired[t][0])]

    def retired_why(self, token) -> str | None:
        """Why seat token ``token`` ended with its game: ``"new_game"`` (a new game started in
        this run), ``"ended"`` (the operator ended its game) or ``"over"`` (its game was over when
        the table started again); ``None`` for a live token or one never seen ended so."""
        if not isinstance(token, str) or token in self.seat_tokens or token not in self.retired:
            return None
        return self.retired[token][1]

    def was_retired(self, token) -> bool:
        """True when a new game, the operator's end of its game, or the end of its game before a
        restart ended seat token ``token``."""
        return self.retired_why(token) is not None

    def was_signed_out(self, token) -> bool:
        """True when the operator ended seat token ``token`` (in this run)."""
        return isinstance(token, str) and token in self.signed_out

    def prune(self) -> bool:
        """Forget expired seat tokens and revoked nonces whose tokens expired. True if any went."""
        now = self.clock()
        seats = {t: e for t, e in self.seat_tokens.items() if now < e[1] + SEAT_TTL_S}
        revoked = {n: u for n, u in self.revoked.items() if now < u}
        changed = len(seats) != len(self.seat_tokens) or len(revoked) != len(self.revoked)
        self.seat_tokens, self.revoked = seats, revoked
        self.seen = {t: v for t, v in self.seen.items() if t in seats}
        return changed

    # ------------------------------------------------------------------ persistence
    def load_seats(self, raw, seats: int | None = None) -> None:
        """Seat tokens as ``table.json`` (or a log's ``seats`` note) keeps them: ``{token: [seat,
        issued, label?]}``; the older form ``{token: seat}`` counts as issued now.

        Raises:
            TypeError, ValueError: not such a mapping (the caller decides what that means).
        """
        out: dict[str, list] = {}  # [seat, issued] or [seat, issued, label]
        now = int(self.clock())
        for token, value in dict(raw or {}).items():
            if isinstance(value, bool):
                raise ValueError("a seat token maps to a seat")
            seat, issued = (value, now) if isinstance(value, int) else (int(value[0]), int(value[1]))
            if seats is not None and not 0 <= seat < seats:
                raise ValueError(f"seat {seat} is not at this table")
            label = value[2] if isinstance(value, (list, tuple)) and len(value) > 2 else None
            out[str(token)] = [seat, issued] + ([label[:MAX_LABEL]] if isinstance(label, str) and label else [])
        self.seat_tokens = out
        self.prune()

    def load_revoked(self, raw) -> None:
        """Revoked operator nonces as ``table.json`` keeps them (anything unreadable is dropped)."""
        try:
            self.revoked = {str(n): int(u) for n, u in dict(raw or {}).items()}
        except (TypeError, ValueError):
            self.revoked = {}
        self.prune()
