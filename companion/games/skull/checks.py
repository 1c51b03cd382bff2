"""Whether an action is legal at a skull table now (:class:`SkullChecks`): the refusals, each
with its reason code (:data:`companion.games.skull.rules.REASONS`) and facts."""

from __future__ import annotations

from collections import Counter

from companion.errors import IllegalAction
from companion.games.base import Action
from companion.vision import serials as _serials
from companion.games.skull.actions import Agree, Bid, ChooseDealer, Deposit, Flip, Leave, Pass, Place, Register, Void
from companion.games.skull.notes import (SKULL, _letters_and_digits, note_role, serial_fits, serial_format_facts,
                                         serial_format_problem, table_serial, validate_note_set)
from companion.games.skull.state import _ACTIVE, ROUND_PHASES, SkullState

_SEAT_ACTIONS = frozenset((Place, Bid, Agree, Pass))


class SkullChecks(SkullState):
    """The checks of :class:`companion.games.skull.rules.SkullGame`: ``_check`` refuses an illegal
    action and leaves the state as it was."""

    def _raise_phase(self) -> None:
        p = self.phase
        if p == "over":
            raise IllegalAction("game_over", "the game has ended")
        if p == "reveal":
            raise IllegalAction("reveal_in_progress", "the dealer is revealing notes")
        if p == "halted":
            raise IllegalAction("round_halted", "foreign note: the operator must void the round")
        if p == "settlement":
            raise IllegalAction("settlement_in_progress", "losers are depositing notes")
        raise IllegalAction("wrong_phase", f"not allowed in {p}")

    def _check_target(self, s: int) -> None:
        if not 0 <= s < len(self.seats):
            raise IllegalAction("unknown_seat", f"seat {s} is not at this table")

    # ------------------------------------------------------------------ checking
    def _check(self, a: Action) -> None:
        t = type(a)
        phase = self.phase
        if phase == "over":
            raise IllegalAction("game_over", "the game has ended")
        if a.seat is None:
            if t in _SEAT_ACTIONS:
                raise IllegalAction("bad_syntax", f"'{a.VERB}' is a seat's action, not the table's")
        elif t not in _SEAT_ACTIONS:
            raise IllegalAction("bad_syntax", f"'{a.VERB}' is an action of the table: 'table {a.VERB} ...'")
        elif self.status[a.seat] != _ACTIVE:
            raise IllegalAction("seat_out", f"{self.seats[a.seat]} is out of the game", {"player": self.seats[a.seat]})
        if type(a) is Place:
            s = a.seat
            if phase == "stage1":
                if self.stack[s]:
                    raise IllegalAction("already_placed", "stage 1: one note each")
                return
            if phase != "stage2":
                self._raise_phase()
            if s != self.turn:
                raise self._not_your_turn()
            if self.hand(s) <= 0:
                raise IllegalAction("must_bid", "no notes left in hand: bid")
            return
        if type(a) is Bid:
            s = a.seat
            if phase == "stage2":
                if s != self.turn:
                    raise self._not_your_turn()
            elif phase == "auction":
                if not self.to_act or s != self.to_act[0]:
                    raise IllegalAction("not_your_turn", self._who_acts(), self._who_acts_facts())
            else:
                self._raise_phase()
            low = self.bid + 1
            if a.count < low:
                raise IllegalAction("bid_too_low", f"bid at least {low}", {"least": low})
            total = self.table_total()
            if a.count > total:
                raise IllegalAction("bid_too_high", f"only {total} note(s) on the table", {"on_table": total})
            return
        if type(a) is Agree or type(a) is Pass:
            if phase != "auction":
                self._raise_phase()
            if a.seat == self.dealer:
                raise IllegalAction("dealer_cannot_answer", "the dealer holds the bid")
            if not self.to_act or a.seat != self.to_act[0]:
                raise IllegalAction("not_your_turn", self._who_acts(), self._who_acts_facts())
            if self.forced == a.seat:
                raise IllegalAction("must_raise", f"everybody agreed: raise above {self.bid}", {"bid": self.bid})
            return
        if type(a) is Flip:
            self._check_target(a.owner)
            if phase != "reveal":
                if phase == "halted":
                    self._raise_phase()
                raise IllegalAction("wrong_phase", "flips happen only in the reveal")
            o = a.owner
            if self.stack[o] - len(self.faceup[o]) <= 0:
                raise IllegalAction("no_face_down_note", f"{self.seats[o]} has no face-down note")
            d = self._dealer_seat()
            if o != d and self.stack[d] - len(self.faceup[d]) > 0:
                raise IllegalAction("own_stack_first", f"{self.seats[d]} must flip his own notes first")
            serial = self._check_serial(a.serial)
            if serial in self.faceup[self.owner_of[serial]]:
                raise IllegalAction("already_revealed", f"{serial} is already face up")
            return
        if type(a) is Deposit:
            self._check_target(a.owner)
            if phase != "settlement":
                if phase in ("reveal", "halted"):
                    self._raise_phase()
                raise IllegalAction("wrong_phase", "deposits happen only in the settlement")
            if a.owner not in self.owed:
                raise IllegalAction("not_a_loser", f"{self.seats[a.owner]} owes no note", {"player": self.seats[a.owner]})
            serial = self._check_serial(a.serial)
            if self.owner_of[serial] != a.owner:
                raise IllegalAction("not_own_note", f"{serial} is not {self.seats[a.owner]}'s note")
            if serial not in self.owned[a.owner]:
                raise IllegalAction("note_in_bank", f"{serial} is already in the bank")
            return
        if type(a) is Register:
            self._check_target(a.owner)
            if phase != "setup":
                raise IllegalAction("wrong_phase", "registration is at set-up only")
            if self.status[a.owner] != _ACTIVE:
                raise IllegalAction("seat_out", f"{self.seats[a.owner]} has left", {"player": self.seats[a.owner]})
            if self.registered[a.owner] is not None:
                raise IllegalAction("already_registered", f"{self.seats[a.owner]} is registered",
                                    {"player": self.seats[a.owner]})
            problems = validate_note_set(a.serials, self.options, self.owner_of.keys())
            if problems:
                code, message = problems[0]
                raise IllegalAction(code, message, self._note_set_facts(code, a.serials))
            values = a.denominations
            if values is not None and (len(values) != len(a.serials) or any(v <= 0 for v in values)):
                raise IllegalAction("bad_denominations", "one positive face value per note")
            return
        if type(a) is ChooseDealer:
            self._check_target(a.dealer)
            if phase != "setup":
                raise IllegalAction("wrong_phase", "the first dealer is chosen at set-up")
            if self.status[a.dealer] != _ACTIVE:
                raise IllegalAction("seat_out", f"{self.seats[a.dealer]} has left", {"player": self.seats[a.dealer]})
            missing = [self.seats[s] for s in self._remaining() if self.registered[s] is None]
            if missing:
                raise IllegalAction("registration_incomplete", f"not registered: {', '.join(missing)}",
                                    {"missing": list(missing)})
            return
        if type(a) is Leave:
            self._check_target(a.leaver)
            if self.status[a.leaver] != _ACTIVE:
                raise IllegalAction("already_left", f"{self.seats[a.leaver]} is no longer playing")
            return
        if type(a) is Void:
            if phase not in ROUND_PHASES:
                raise IllegalAction("nothing_to_void", "no round is in progress")
            return
        raise IllegalAction("unknown_action", f"{t.__name__}")  # pragma: no cover

    def _table_form(self, a: Action) -> Action:
        """Serials of ``register``, ``flip`` and ``deposit`` in the table's spelling
        (:func:`table_serial`); other actions unchanged."""
        cur = self.options.currency
        if type(a) is Register:
            serials = a.serials
            if isinstance(serials, tuple):
                fixed = tuple(table_serial(x, cur) if isinstance(x, str) else x for x in serials)
                if fixed != serials:
                    return Register(a.seat, a.owner, fixed, a.denominations)
        elif type(a) is Flip or type(a) is Deposit:
            fixed = table_serial(a.serial, cur)
            if fixed != a.serial:
                return type(a)(a.seat, a.owner, fixed)
        return a

    def _check_serial(self, serial: str | None) -> str:
        """``serial`` when it is a registered note's serial, else the refusal."""
        if serial in self.owner_of:  # registered serials were checked at registration
            return serial
        if serial is None or not serial_fits(serial, self.options.currency):
            if _letters_and_digits(serial) and self.options.currency in _serials.CURRENCIES:
                raise IllegalAction(*serial_format_problem([serial], self.options.currency),
                                    serial_format_facts([serial], self.options.currency) or None)
            raise IllegalAction("bad_serial", f"{serial!r} is not a canonical serial")
        if serial not in self.owner_of:
            raise IllegalAction(
                "unregistered_serial",
                f"{serial} was never registered at this table: rescan; if the read is right the note"
                " is foreign and the operator should void the round",
            )
        return serial

    def _not_your_turn(self) -> IllegalAction:
        """The refusal of a stage-2 move out of turn (stage 2 always has a seat to play)."""
        turn = self.turn
        assert turn is not None, "stage 2 without a turn"
        return IllegalAction("not_your_turn", f"{self.seats[turn]} plays now", {"player": self.seats[turn]})


    def _who_acts(self) -> str:
        return f"{self.seats[self.to_act[0]]} answers now" if self.to_act else "nobody answers now"

    def _who_acts_facts(self) -> dict:
        """A ``not_your_turn`` refusal's facts: the player who must answer now (none: ``{}``)."""
        return {"player": self.seats[self.to_act[0]]} if self.to_act else {}

    def _note_set_facts(self, code: str, serials) -> dict:
        """The facts of a registration refusal (:func:`validate_note_set`'s ``code``) for the
        dashboard's sentence: the serials a clash or a repeat concerns, the count given and the
        count each player registers, the skulls found and wanted."""
        serials = list(serials)
        if code == "serial_taken":
            return {"serials": sorted(s for s in set(serials) if s in self.owner_of)}
        if code == "duplicate_serial":
            return {"serials": sorted(s for s, k in Counter(serials).items() if k > 1)}
        if code == "wrong_note_count":
            return {"given": len(serials), "each": self.options.notes_per_player}
        if code == "serial_format":
            return serial_format_facts([s for s in serials if not serial_fits(s, self.options.currency)],
                                       self.options.currency)
        if code == "wrong_skull_count":
            skulls = sum(1 for s in serials if note_role(s, self.options.skull_parity) == SKULL)
            return {"skulls": skulls, "want": self.options.skulls_per_player, "each": self.options.notes_per_player}
        return {}
