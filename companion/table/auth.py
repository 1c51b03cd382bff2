"""Who may act at the table: the operator PIN and its logins, the seat join codes and seat tokens.

:class:`AuthMixin` is the part of :class:`companion.table.Table` that holds the table's secret key
(``secret.key``, signs every login), the operator PIN (``operator-pin``) and the seat codes; the
tokens themselves are :class:`companion.sessions.Sessions`'.
"""

from __future__ import annotations

import hmac
import logging
import secrets

from companion.durable import write_file
from companion.sanitise import typed
from companion.i18n import M, MN
from companion.sessions import MIN_PIN_DIGITS, pin_refusal
from companion.table.store import STATE_FILE  # noqa: F401  (table.json keeps the seat codes)
from companion.table.parts import TableParts

log = logging.getLogger(__name__)


SECRET_FILE = "secret.key"
"""The dashboard's session-signing key (32 random bytes, mode 0600), kept across restarts."""


PIN_FILE = "operator-pin"
"""The operator PIN (digits and a newline, mode 0600), made once when no PIN is given; delete it
(or start with ``--new-pin``) for a new one, or write 6–12 digits into it to choose one."""


def _code(digits: int = 6) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def _valid_pin(pin) -> bool:
    return isinstance(pin, str) and pin_refusal(pin) is None


class AuthMixin(TableParts):
    """The PIN, key and seat codes of one :class:`~companion.table.Table`."""

    def _load_secret(self) -> bytes:
        """A per-table secret (session signing for the dashboard), kept across restarts.

        Made once (32 random bytes, written durably). A file that is there but shorter than 32
        bytes (damaged) is replaced, and :attr:`notices` says that every phone and the operator
        must log in again — the old key is gone, so the sessions it signed cannot be checked.
        """
        data = self._read_state_file(SECRET_FILE)
        if data is not None and len(data) >= 32:
            return data
        fresh = secrets.token_bytes(32)
        write_file(self.data_dir / SECRET_FILE, fresh)
        if data is not None:
            facts = {"file": SECRET_FILE, "folder": str(self.data_dir), "n": len(data)}
            self._notice(M("%(file)s in %(folder)s was empty (%(n)s bytes): a new key was made, so every phone and "
                           "the operator log in again (seat codes and the PIN are unchanged)", **facts) if not data
                         else M("%(file)s in %(folder)s was damaged (%(n)s bytes): a new key was made, so every "
                                "phone and the operator log in again (seat codes and the PIN are unchanged)", **facts))
        return fresh

    def _load_pin(self, new_pin: bool) -> str:
        """The operator PIN kept in the data folder (:data:`PIN_FILE`): made once, random, 6
        digits, written durably with mode 0600; a new one when ``new_pin`` or when the file does
        not hold 6–12 digits (:attr:`notices` says so)."""
        data = self._read_state_file(PIN_FILE)
        kept = data.decode("ascii", "replace").strip() if data is not None else None
        if kept is not None and _valid_pin(kept) and not new_pin:
            return kept
        fresh = _code(6)
        while fresh == kept:
            fresh = _code(6)
        path = self.data_dir / PIN_FILE
        write_file(path, fresh + "\n")
        if new_pin:
            self._notice(M("a new operator PIN was made (--new-pin), kept in %(path)s; logins made with the old PIN "
                           "have ended", path=str(path)))
        elif kept is not None and kept.isdigit() and kept.isascii() and len(kept) < MIN_PIN_DIGITS:
            # an older version made and took 4-digit PINs: too few to resist guessing. The count
            # agrees with its number («ПИН из 1 цифры», «из 4 цифр»)
            self._notice(MN("%(path)s held a PIN of %(n)s digit, fewer than the %(least)s a PIN needs now: a new "
                            "operator PIN was made",
                            "%(path)s held a PIN of %(n)s digits, fewer than the %(least)s a PIN needs now: a new "
                            "operator PIN was made", len(kept), path=str(path), least=MIN_PIN_DIGITS))
        elif kept is not None:
            self._notice(M("%(path)s did not hold a PIN of 6-12 digits (empty): a new operator PIN was made",
                           path=str(path)) if not kept
                         else M("%(path)s did not hold a PIN of 6-12 digits (damaged): a new operator PIN was made",
                                path=str(path)))
        return fresh

    def _issue_seat_codes(self, n: int) -> None:
        """New, distinct 6-digit join codes for seats ``0..n-1`` (never the PIN)."""
        used: set[str] = set()
        self._seat_codes = {}
        for s in range(n):
            code = _code(6)
            while code in used or code == self.pin:
                code = _code(6)
            used.add(code)
            self._seat_codes[s] = code

    def check_pin(self, pin: str) -> str | None:
        """Return a new operator token if ``pin`` is the operator PIN, else ``None``.

        The token (:meth:`companion.sessions.Sessions.issue_operator`) is signed with
        ``secret.key`` and the PIN: valid across restarts of the same table, for
        :data:`~companion.sessions.OPERATOR_TTL_S`, until :meth:`logout_operator` or a new PIN.
        Rate limiting of attempts is the caller's job (the dashboard's guess limiter).
        """
        if isinstance(pin, str):  # typed as read off the console, in groups ("325 816"), perhaps
            pin = "".join(typed(pin).split())  # in full-width digits (１２３), with a zero-width space pasted
        if not isinstance(pin, str) or not hmac.compare_digest(pin.encode(), self.pin.encode()):
            return None
        return self.sessions.issue_operator()

    def is_operator(self, token: str | None) -> bool:
        """True for a live token :meth:`check_pin` issued for the current PIN at this table (same
        data folder and ``secret.key``), in this process or before a restart; not expired, not
        logged out."""
        with self._lock:
            return self.sessions.is_operator(token)

    def logout_operator(self, token: str | None) -> None:
        """End one operator login (the console's «Выйти»): the token is refused from now on, also
        after a restart (``table.json`` keeps the ended ones until they would have expired)."""
        with self._lock:
            if self.sessions.revoke_operator(token):
                self._save_state()

    def seat_codes(self) -> dict[int, str]:
        """``{seat: join code}`` for the current game (operator console only)."""
        with self._lock:
            return dict(self._seat_codes)

    def join(self, code: str, current: str | None = None) -> tuple[int, str] | None:
        """Join a seat by its code: returns ``(seat, seat token)``, or ``None`` for a wrong code.

        Several phones may join the same seat (each gets its own token, at most
        :data:`~companion.sessions.SEAT_TOKENS_PER_SEAT` a seat). A seat the simulated table's
        bots play is the phone's from then on (:mod:`companion.table.control`). ``current``: the token the
        browser holds already; when it is a live token of that seat it is returned again and
        ``table.json`` is not rewritten.
        """
        if not isinstance(code, str):
            return None
        code = typed(code).strip()  # full-width digits (a CJK keyboard) are digits; a pasted zero-width space is nothing
        joined = None
        with self._lock:
            for seat, c in self._seat_codes.items():
                if hmac.compare_digest(code.encode(), c.encode()):
                    token, changed = self.sessions.issue_seat(seat, current)
                    if changed:
                        self._save_state()
                    joined = seat, token
                    break
        if joined is not None:
            self._seat_joined(joined[0])  # a seat the bots play is the phone's now (companion.table.control)
        return joined

    def leave_seat(self, token: str | None) -> None:
        """End one seat login («Покинуть место»): that phone must join again with the code. The
        last phone leaving a seat it took over from the bots gives it back to them."""
        with self._lock:
            seat = self.sessions.seat_for(token)
            if self.sessions.revoke_seat(token):
                self._save_state()
        self._seat_left(seat)

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat a live token was issued for in the current game, else ``None``."""
        if not token:
            return None
        with self._lock:
            return self.sessions.seat_for(token)
