"""Who plays each seat on the simulated table: its bots, or the operator from the console.

:class:`ControlMixin` is the part of :class:`companion.table.Table` that keeps, per seat of the
current game, ``bot`` (the simulated table's bots play it) or ``console`` (the operator plays it
from the operator console); a seat with neither is its player's (pad and phone). The operator
changes it with an operator action — :meth:`ControlMixin.hand_seat`, or typed on the operator
console's action line, parsed here at the edge:

Seats are counted from 1 here, as on every screen («Место 1» is ``table console 1``); the
actions in the log keep the engines' own numbering (from 0).

* ``table bot N`` / ``table bot all`` — hand seat N (every seat) to the bots;
* ``table console N`` / ``table console all`` — take it back: the operator plays it;
* ``table as N <verb> …`` — the operator's move for seat N (a seat on the console), e.g.
  ``table as 2 bid 3`` (Место 2 bids 3); decided on the queue like a phone's (:class:`~companion.inputs.SeatAction`,
  logged with source ``operator``).

The choice is kept in the game's log (the table note ``control``), so a resumed game keeps it.
A game the bots play starts with every seat theirs.
"""

from __future__ import annotations

import json
import logging
import sqlite3

from companion.errors import CompanionError
from companion.games.base import seat_from_one
from companion.inputs import SeatAction
from companion.referee import Outcome
from companion.table.parts import TableParts

log = logging.getLogger(__name__)

MODES = ("bot", "console")
"""Who may play a seat besides its player: the simulated table's bots, or the operator."""

DIRECTIVES = ("bot", "console", "as")
"""The operator's seat directives (``table bot N``, ``table console N``, ``table as N …``)."""


class ControlMixin(TableParts):
    """Seat control of one :class:`~companion.table.Table` (see module docstring)."""

    #: the table has bots to hand a seat to (the simulated table's service sets it)
    bots = False

    def seat_control(self) -> dict[int, str]:
        """``{seat: "bot" | "console"}`` for the current game (a seat absent: its player's)."""
        with self._lock:
            return dict(self._control)

    def hand_seat(self, seat: int | None, mode: str | None) -> dict[int, str]:
        """Hand ``seat`` (``None``: every seat) to ``mode`` — ``bot``, ``console`` or ``None``
        (back to its player) — and tell the listeners (``("control", {seat: mode})``).

        Raises:
            NoGame: no current game.
            ValueError: a seat not at the table, an unknown mode, or ``bot`` on a table with no
                bots.
        """
        referee = self.require_referee()
        n = len(referee.log.header.seats)
        if mode not in (*MODES, None):
            raise ValueError(f"a seat is played by one of {', '.join(MODES)}, not {mode!r}")
        if mode == "bot" and not self.bots:
            raise ValueError("this table has no bots (only the simulated table has)")
        seats = range(n) if seat is None else [seat]
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat {seat!r} is not at this table")
        with self._lock:
            for s in seats:
                if mode is None:
                    self._control.pop(s, None)
                else:
                    self._control[s] = mode
            snapshot = dict(self._control)
            self._keep_control(referee, snapshot)
        self._emit("control", snapshot)
        return snapshot

    def _keep_control(self, referee, control: dict) -> None:
        """The seat control in the game's log (table note ``control``); not fatal when it fails."""
        try:
            with referee.lock:
                referee.log.set_meta("control", json.dumps({str(k): v for k, v in control.items()}))
        except (CompanionError, sqlite3.Error) as exc:
            log.warning("could not keep the seat control in %s: %s", referee.log.path, exc)

    def _restore_control(self, referee) -> None:
        """The seat control the game's log kept (empty for a game without the note)."""
        try:
            kept = json.loads(referee.log.meta("control") or "{}")
            n = len(referee.log.header.seats)
            self._control = {int(k): v for k, v in kept.items() if v in MODES and 0 <= int(k) < n}
        except (ValueError, TypeError, AttributeError, sqlite3.Error):
            self._control = {}

    def _seat_directive(self, text: str, seen: int | None) -> Outcome | None:
        """The outcome of an operator's seat directive (module docstring), or ``None`` when
        ``text`` is not one (a game action: the referee decides it)."""
        tokens = text.split()
        if len(tokens) < 3 or tokens[0] != "table" or tokens[1] not in DIRECTIVES:
            return None
        referee = self.require_referee()
        if tokens[1] in type(referee.game)._verbs():  # the game's own verb wins
            return None
        n = len(referee.log.header.seats)
        which = tokens[2]
        # seats are counted from 1 on the console, as on every screen («Место 1»): seat 1 is index 0
        number = int(which) if which.isdigit() else None
        if (number is None and not (which == "all" and tokens[1] != "as")) or (number is not None and not 1 <= number <= n):
            return Outcome(False, text, "operator", "unknown_seat",
                           f"no seat {which!r} at this table (seats 1-{n}{'' if tokens[1] == 'as' else ', or all'})",
                           (), referee.version, {"seat": which, "seats": n, "all": tokens[1] != "as"})
        seat = seat_from_one(number, n) if number is not None else None
        if tokens[1] == "as":
            assert seat is not None  # ("as" names a seat number: refused above otherwise)
            if self.seat_control().get(seat) != "console":
                return Outcome(False, text, "operator", "seat_not_on_console",
                               f"seat {number} is not played from the console: 'table console {number}' first",
                               (), referee.version, {"seat": number, "player": referee.log.header.seats[seat]})
            return self.put(SeatAction(seat, " ".join([str(seat), *tokens[3:]]), "operator", seen))
        if len(tokens) != 3:
            return Outcome(False, text, "operator", "bad_syntax", f"'table {tokens[1]} N' takes one seat",
                           (), referee.version)
        try:
            self.hand_seat(seat, tokens[1])
        except ValueError as exc:
            return Outcome(False, text, "operator", "no_bots" if "no bots" in str(exc) else "bad_syntax", str(exc),
                           (), referee.version)
        return Outcome(True, text, "operator", None, None, (), referee.version)
