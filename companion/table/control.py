"""Who plays each seat: its player (pad and phone), the simulated table's bots, the operator
from the console, or a phone that took the seat over from the bots.

:class:`ControlMixin` is the part of :class:`companion.table.Table` that keeps, per seat of the
current game, ``bot`` (the simulated table's bots play it), ``console`` (the operator plays it
from the operator console) or ``phone`` (a phone joined the seat while the bots played it: the
bots leave it to the phone until its last phone leaves); a seat with none is its player's, and on
the bots' own game the bots'. The operator changes it with an operator action —
:meth:`ControlMixin.hand_seat`, typed on the operator console's move field
(:meth:`ControlMixin.console_move`) or sent as an action, parsed here at the edge:

Seats are counted from 1 here, as on every screen («Место 1» is ``table console 1``); the
actions in the log keep the engines' own numbering (from 0).

* ``table bot N`` / ``table bot all`` — hand seat N (every seat) to the bots;
* ``table console N`` / ``table console all`` — take it back: the operator plays it;
* ``table as N <verb> …`` — the operator's move for seat N (a seat on the console), e.g.
  ``table as 2 bid 3`` (Место 2 bids 3); decided on the queue like a phone's (:class:`~companion.inputs.SeatAction`,
  logged with source ``operator``).

The choice is kept in the game's log (the table note ``control``), so a resumed game keeps it.
A game the bots play starts with every seat theirs. :meth:`ControlMixin.seat_play` says who plays
each seat, in words, for the pages and the console (a seat beyond the button box's pads, or any
seat while the box is missing or faulty, plays on its phone or the console).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Callable

from companion.errors import CompanionError
from companion.games.base import seat_from_one
from companion.i18n import M, both
from companion.inputs import SeatAction
from companion.referee import Outcome
from companion.table.parts import TableParts

log = logging.getLogger(__name__)

MODES = ("bot", "console")
"""Who may play a seat besides its player: the simulated table's bots, or the operator."""

DIRECTIVES = ("bot", "console", "as")
"""The operator's seat directives (``table bot N``, ``table console N``, ``table as N …``)."""

PHONE = "phone"
"""A seat a phone took over from the bots (kept like the operator's modes, never typed)."""

#: who plays a seat (:meth:`ControlMixin.seat_play`'s ``by``) in words
PLAYED_BY = {
    "bots": M("the simulated table's bots play it"),
    "console": M("the operator plays it from the console"),
    "phone": M("its phone plays it (taken over from the bots)"),
    "pad": M("its player: pad and phone"),
    "phone_only": M("its player, on the phone (the table has no button box)"),
    "no_pad": M("its player, on the phone (no pad on the button box for this seat)"),
    "no_box": M("its player, on the phone (the button box is not connected or not working)"),
}

#: the button box's states (its status) in which no pad plays: not found or unplugged, or silent
BOX_DOWN = ("error", "warn")

#: the bots on a seat the button box has no pad for: they act through its seat view
BOTS_NO_PAD = M("the simulated table's bots play it through its seat view (no pad on the button box for this seat)")


class ControlMixin(TableParts):
    """Seat control of one :class:`~companion.table.Table` (see module docstring)."""

    #: the table has bots to hand a seat to (the simulated table's service sets it)
    bots = False
    #: the seat pads of the table's button box (``None``: no box); the seats from this one on
    #: play on their phones or the console (the service sets it)
    pads: int | None = None
    #: ``() -> bool``: the simulated table's bots play the current game (the service sets it;
    #: ``None``: no bots)
    bots_playing: Callable[[], bool] | None = None

    def seat_control(self) -> dict[int, str]:
        """``{seat: "bot" | "console" | "phone"}`` for the current game (a seat absent: its
        player's, on the bots' own game the bots')."""
        with self._lock:
            return dict(self._control)

    def _bots_play_game(self) -> bool:
        """True when the simulated table's bots play the current game."""
        playing = self.bots_playing
        try:
            return bool(self.bots and playing is not None and playing())
        except Exception:  # a look from a page: never an error
            log.exception("could not tell whether the bots play the game")
            return False

    def played_by(self, seat: int) -> str:
        """Who plays ``seat`` now: ``bots``, ``console``, ``phone`` (a phone took it over from
        the bots), ``pad`` (its player, pad and phone), ``no_box`` (its player, on the phone: the
        table has a button box but its status is ``error`` or ``warn`` — not found, unplugged,
        silent), ``no_pad`` (its player, on the phone: the button box has no pad for it) or
        ``phone_only`` (its player, on the phone: the table runs without a button box)."""
        mode = self.seat_control().get(seat)
        if mode == "console":
            return "console"
        if mode == PHONE:
            return "phone"
        if self._bots_play_game() and mode in (None, "bot"):
            return "bots"
        with self._lock:
            box = self._status.get("buttons", {}).get("state")
        if self.pads is None:
            return "phone_only"
        if box in BOX_DOWN:
            return "no_box"
        return "no_pad" if seat >= self.pads else "pad"

    def seat_play(self) -> dict:
        """Who plays each seat of the current game, for the pages: ``{"pads": n or None, "bots":
        bool, "seats": [{"seat", "by", "pad", "words": {"ru", "en"}}]}`` (``by``:
        :meth:`played_by`; ``pad``: the button box has a pad for it, ``None`` without a box;
        ``bots``: the bots play this game); no seats without a game."""
        referee = self.referee
        n = len(referee.log.header.seats) if referee is not None else 0
        pads = self.pads
        seats = []
        for s in range(n):
            by = self.played_by(s)
            pad = None if pads is None else s < pads
            words = BOTS_NO_PAD if by == "bots" and pad is False else PLAYED_BY[by]
            seats.append({"seat": s, "by": by, "pad": pad, "words": both(words)})
        return {"pads": pads, "bots": self._bots_play_game(), "seats": seats}

    def _seat_joined(self, seat: int) -> None:
        """A phone joined ``seat``: a seat the bots play is the phone's now (the bots stop
        playing it, as for ``table console N``), and the listeners are told."""
        referee = self.referee
        if referee is None or self.played_by(seat) != "bots":
            return
        with self._lock:
            self._control[seat] = PHONE
            snapshot = dict(self._control)
            self._keep_control(referee, snapshot)
        log.info("a phone took seat %d over from the bots", seat)
        self._emit("control", snapshot)

    def _seat_left(self, seat: int | None) -> None:
        """A phone left ``seat`` (or was signed out): when it was the last phone of a seat it
        had taken over from the bots, the bots play it again."""
        referee = self.referee
        if referee is None or seat is None or self.seat_control().get(seat) != PHONE:
            return
        if self.sessions.devices(seat):
            return  # another phone still plays it
        with self._lock:
            self._control.pop(seat, None)
            snapshot = dict(self._control)
            self._keep_control(referee, snapshot)
        log.info("the last phone left seat %d: the bots play it again", seat)
        self._emit("control", snapshot)

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
            # a seat a phone had taken over stays the phone's only while a phone still holds it
            self._control = {int(k): v for k, v in kept.items() if 0 <= int(k) < n
                             and (v in MODES or (v == PHONE and self.sessions.devices(int(k))))}
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

    def console_move(self, number: int, move: str) -> str:
        """The operator action for what was typed in the operator console's move field for seat
        ``number`` (counted from 1, as the field's seat list): a seat directive typed whole
        (``table bot 2``, ``table console 2``, ``table as 2 bid 3``) as it is; a bare ``bot`` or
        ``console`` hands this seat to the bots or onto the console (``table bot N``, ``table
        console N``) unless the game has a verb of that name; anything else is the seat's move
        (``table as N <move>``)."""
        words = " ".join(str(move).split())
        if words.startswith("table "):
            return words
        referee = self.referee
        verbs = type(referee.game)._verbs() if referee is not None else ()
        if words in MODES and words not in verbs:
            return f"table {words} {number}"
        return f"table as {number} {words}"

    def tell_control(self) -> None:
        """Tell the listeners who plays each seat now (the box's pads, or the bots, changed)."""
        self._emit("control", self.seat_control())
