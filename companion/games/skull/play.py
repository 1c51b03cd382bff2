"""What an accepted action does at a skull table (:class:`SkullPlay`): the stages, the auction,
the reveal, the settlement, leaving and voiding (seed 000, RULINGS §0–1)."""

from __future__ import annotations

from companion.games.base import Action, Event
from companion.games.skull.actions import Agree, Bid, ChooseDealer, Deposit, Flip, Leave, Pass, Place, Register, Void
from companion.games.skull.notes import ROSE, SKULL, note_role
from companion.games.skull.state import _ACTIVE, _LEAVING, _LEFT, _OUT, ROUND_PHASES, SkullState, _ev


class SkullPlay(SkullState):
    """The moves of :class:`companion.games.skull.rules.SkullGame`: ``_do`` applies a checked action."""

    # ------------------------------------------------------------------ applying
    def _do(self, a: Action) -> list[Event]:
        if type(a) is Place:
            return self._do_place(a.seat)
        if type(a) is Bid:
            return self._do_bid(a.seat, a.count)
        if type(a) is Agree:
            self.agreed.append(a.seat)
            self.to_act.pop(0)
            ev = [_ev("agree", {"seat": a.seat, "bid": self.bid})]
            return ev + self._auction_next()
        if type(a) is Pass:
            self.passed.append(a.seat)
            self.to_act.pop(0)
            ev = [_ev("pass", {"seat": a.seat, "bid": self.bid})]
            return ev + self._auction_next()
        if type(a) is Flip:
            assert a.serial is not None, "checked: a registered serial"
            return self._do_flip(a.owner, a.serial)
        if type(a) is Deposit:
            assert a.serial is not None, "checked: a registered serial"
            return self._do_deposit(a.owner, a.serial)
        if type(a) is Register:
            s = a.owner
            self.registered[s] = tuple(a.serials)
            self.owned[s] = list(a.serials)
            par = self.options.skull_parity
            for i, serial in enumerate(a.serials):
                self.owner_of[serial] = s
                self.role[serial] = note_role(serial, par)
                if a.denominations is not None:
                    self.denominations[serial] = a.denominations[i]
            # The composition is shown face up (seed: "купюры выдаются в открытую"), so the public
            # event carries the counts; the serials go to their owner only, because once shuffled
            # into the hand every note is a face-down note (issue 2: no face-down serial in public).
            roles = [self.role[x] for x in a.serials]
            return [_ev("registered", {"seat": s, "roses": roles.count(ROSE), "skulls": roles.count(SKULL)}),
                    _ev("your_notes", {"seat": s, "serials": list(a.serials), "roles": roles}, private_to=s)]
        if type(a) is ChooseDealer:
            self.dealer = a.dealer
            return [_ev("dealer", {"seat": a.dealer})] + self._start_round()
        if type(a) is Leave:
            return self._do_leave(a.leaver)
        if type(a) is Void:
            return self._void_round("operator")  # why: a code, worded by describe_event
        raise AssertionError(type(a))  # pragma: no cover

    def _start_round(self) -> list[Event]:
        self.round += 1
        self.phase = "stage1"
        self._reset_round_state()
        self.round_dealer = self.dealer
        for s in range(len(self.seats)):
            self.stack[s] = 0
            self.faceup[s] = []
        return [_ev("round_start", {"round": self.round, "dealer": self.dealer})]

    def _do_place(self, s: int) -> list[Event]:
        self.stack[s] += 1
        ev = [_ev("place", {"seat": s, "stack": self.stack[s]})]
        if self.phase == "stage1":
            st = self.stack
            for x in self._remaining():
                if not st[x]:
                    return ev
            self.phase = "stage2"
            self.turn = self.dealer
            ev.append(_ev("stage2", {"turn": self.turn}))
        else:
            self.turn = self._next_active(s)
        return ev

    def _do_bid(self, s: int, count: int) -> list[Event]:
        opening = self.phase == "stage2"
        self.phase = "auction"
        self.turn = None
        self.bid = count
        self.dealer = s  # the bidder takes the button (seed "Сделать ставку")
        self.forced = None
        leaver_side = self.options.leaver_counts_as
        # A new circle (seed Вариант 2: "запустив круг торгов сначала"): earlier agreements lapse.
        self.agreed = [x for x in range(len(self.seats))
                       if self.status[x] == _LEAVING and leaver_side == "agree" and x != s]
        for x in range(len(self.seats)):
            if self.status[x] == _LEAVING and leaver_side == "pass" and x not in self.passed:
                self.passed.append(x)
        self.to_act = self._circle_from(s)
        ev = [_ev("bid" if opening else "raise", {"seat": s, "bid": count})]
        return ev + self._auction_next()

    def _circle_from(self, s: int) -> list[int]:
        n = len(self.seats)
        out = []
        for step in range(1, n):
            x = (s + step) % n
            if self.status[x] == _ACTIVE and x not in self.passed:
                out.append(x)
        return out

    def _auction_next(self) -> list[Event]:
        """Resolve the auction when the turn is back at the dealer (seed "Этап 3 начинается…")."""
        if self.to_act:
            return []
        if self.passed:
            return self._start_reveal()
        # Everybody agreed: the button passes left; that player must raise (RULINGS §1).
        nxt = self._next_active(self._dealer_seat())
        if self.bid >= self.table_total():
            # ...or pass when the bid is already the maximum (RULINGS §1) — automatic.
            self.passed.append(nxt)
            if nxt in self.agreed:
                self.agreed.remove(nxt)
            return [_ev("forced_pass", {"seat": nxt, "bid": self.bid})] + self._start_reveal()
        self.forced = nxt
        self.to_act = [nxt]
        return [_ev("must_raise", {"seat": nxt, "bid": self.bid})]

    def _start_reveal(self) -> list[Event]:
        self.phase = "reveal"
        self.to_act = []
        self.forced = None
        return [_ev("reveal_start", {"dealer": self.dealer, "bid": self.bid,
                                       "passed": sorted(self.passed), "agreed": sorted(self.agreed)})]

    def _do_flip(self, o: int, serial: str) -> list[Event]:
        owner = self.owner_of[serial]
        if owner != o or serial not in self.owned[o]:
            self.phase = "halted"
            why = "other_owner" if owner != o else "in_bank"
            self.halt = {"seat": o, "serial": serial, "owner": owner, "why": why}
            # The serial and its owner stay out of the public event and view: after a misread
            # they may name a hidden note, and whose note it is says where it is missing from.
            # The operator sees both in the snapshot (audit).
            return [_ev("foreign_note", {"seat": o, "why": why})]
        self.faceup[o].append(serial)
        self.flips.append((o, serial))
        role = self.role[serial]
        ev = [_ev("flip", {"seat": o, "serial": serial, "role": role})]
        if role == SKULL:
            self.outcome = "failure"
            self.skull_owner = o
            self.chooser = o
            dealer = self._dealer_seat()
            losers = [dealer] + [x for x in self._order_from(dealer) if x in self.agreed]
        else:
            self.roses += 1
            if self.roses < self.bid:
                return ev
            self.outcome = "success"
            self.chooser = self.dealer
            losers = [x for x in self._order_from(self._dealer_seat()) if x in self.passed]
        self.phase = "settlement"
        self.owed = losers
        ev.append(_ev("outcome", {"outcome": self.outcome, "dealer": self.dealer, "bid": self.bid,
                                    "skull_owner": self.skull_owner, "chooser": self.chooser,
                                    "losers": list(losers)}))
        return ev

    def _order_from(self, s: int) -> list[int]:
        n = len(self.seats)
        return [(s + step) % n for step in range(1, n)]

    def _do_deposit(self, o: int, serial: str) -> list[Event]:
        self.owed.remove(o)
        self.owned[o].remove(serial)
        # The loser gathered his stack to shuffle his notes (seed "ПРИ НЕУДАЧНОЙ ПОПЫТКЕ").
        self.stack[o] = 0
        self.faceup[o] = []
        self.bank.append({"serial": serial, "seat": o, "round": self.round, "auto": False})
        # The deposit is scanned privately: the public event says only "one note to the bank".
        ev = [_ev("note_to_bank", {"seat": o, "bank": len(self.bank)}),
              _ev("your_note_to_bank", {"seat": o, "serial": serial, "role": self.role[serial]}, private_to=o)]
        if not self.owed:
            ev += self._end_round()
        return ev

    def _end_round(self) -> list[Event]:
        self.rounds_settled += 1
        ev: list[Event] = []
        dealer, outcome, skull_owner = self._dealer_seat(), self.outcome, self.skull_owner
        self.last_round = {"round": self.round, "outcome": outcome, "dealer": dealer, "bid": self.bid,
                           "skull_owner": skull_owner}
        ev += self._clear_table()
        ev += self._eliminate()
        ev.append(_ev("round_end", dict(self.last_round)))
        # Next dealer (seed "Кто дилер в следующем раунде").
        if outcome == "failure" and skull_owner is not None and skull_owner != dealer:  # a failure has one
            nxt = skull_owner if self.status[skull_owner] == _ACTIVE else self._next_active(skull_owner)
        else:
            nxt = self._next_active(dealer)
        return ev + self._next_round_or_end(nxt)

    def _clear_table(self) -> list[Event]:
        """The round is over: every stack is gathered, and a player who left mid-round takes his
        notes home (``leaving`` → ``left``, seed Примечание)."""
        ev = []
        for s in range(len(self.seats)):
            self.stack[s] = 0
            self.faceup[s] = []
            if self.status[s] == _LEAVING:
                self.status[s] = _LEFT
                ev.append(_ev("left", {"seat": s, "notes_back": len(self.owned[s])}))
        return ev

    def _eliminate(self) -> list[Event]:
        ev = []
        for s in range(len(self.seats)):
            if self.status[s] != _ACTIVE:
                continue
            own = self.owned[s]
            if (self.options.last_skull_out and len(own) == 1 and self.role[own[0]] == SKULL):
                serial = own.pop()
                self.bank.append({"serial": serial, "seat": s, "round": self.round, "auto": True})
                ev.append(_ev("note_to_bank", {"seat": s, "bank": len(self.bank), "auto": True}))
                ev.append(_ev("your_note_to_bank", {"seat": s, "serial": serial, "role": SKULL}, private_to=s))
            if not own:
                self.status[s] = _OUT
                self._rem = None
                ev.append(_ev("out", {"seat": s}))
        return ev

    def _next_round_or_end(self, nxt: int) -> list[Event]:
        remaining = self._remaining()
        if len(remaining) <= 1:
            return self._finish(remaining[0] if remaining else None)
        if self.status[nxt] != _ACTIVE:
            nxt = self._next_active(nxt)
        self.dealer = nxt
        return self._start_round()

    def _finish(self, winner: int | None) -> list[Event]:
        self.phase = "over"
        self.winner = winner
        self._reset_round_state()
        self.turn = None
        for s in range(len(self.seats)):
            self.stack[s] = 0
            self.faceup[s] = []
        res = self._final_result()
        return [_ev("game_over", {"winner": winner, "bank": res["bank"], "face_value": res["face_value"],
                                    "currency": res["currency"]})]

    def _void_round(self, why: str, next_dealer: int | None = None) -> list[Event]:
        """Void the round in progress: every note back, no payments (RULINGS §0)."""
        self.rounds_void += 1
        returned = [b for b in self.bank if b["round"] == self.round]
        self.bank = [b for b in self.bank if b["round"] != self.round]
        for b in returned:
            self.owned[b["seat"]].append(b["serial"])
        ev = [_ev("round_void", {"round": self.round, "why": why, "returned": len(returned)})]
        ev += self._clear_table()
        self.last_round = {"round": self.round, "outcome": "void", "dealer": self.dealer, "bid": self.bid,
                           "skull_owner": None}
        nxt = self.round_dealer if next_dealer is None else next_dealer
        assert nxt is not None, "a round has its dealer"
        return ev + self._next_round_or_end(nxt)

    def _do_leave(self, s: int) -> list[Event]:
        phase = self.phase
        ev = [_ev("leave", {"seat": s})]
        if phase == "setup":
            self.status[s] = _LEFT
            self._rem = None  # he takes his registered notes home (they stay in owned[s])
            if len(self._remaining()) <= 1:
                return ev + self._finish(self._remaining()[0] if self._remaining() else None)
            return ev
        in_round = phase in ROUND_PHASES
        others = [x for x in self._remaining() if x != s]
        if len(others) <= 1:
            # Only one player would be left: the round cannot be contested; it is void and that
            # player takes the bank.
            self.status[s] = _LEAVING if self.stack[s] else _LEFT
            self._rem = None
            if in_round:
                ev += self._void_round("last_opponent_left")
                if self.phase != "over":  # pragma: no cover - defensive
                    ev += self._finish(others[0] if others else None)
                return ev
            return ev + self._finish(others[0] if others else None)
        if s == self.dealer and phase in ("stage1", "stage2", "auction", "reveal", "halted"):
            # RULINGS §1: the dealer leaving before the reveal ends voids the round.
            self.status[s] = _LEAVING
            self._rem = None
            return ev + self._void_round("dealer_left", next_dealer=self._next_active(s))
        if not self.stack[s]:
            self.status[s] = _LEFT
            self._rem = None
            ev.append(_ev("left", {"seat": s, "notes_back": len(self.owned[s])}))
            if phase == "stage1" and all(self.stack[x] for x in self._remaining()):
                self.phase = "stage2"
                self.turn = self.dealer
                ev.append(_ev("stage2", {"turn": self.turn}))
            return ev
        # His notes stay on the table until the settlement (seed, Примечание).
        self.status[s] = _LEAVING
        self._rem = None
        if phase == "stage2" and self.turn == s:
            self.turn = self._next_active(s)
        elif phase == "auction":
            if s in self.to_act:
                self.to_act.remove(s)
            if self.forced == s:
                self.forced = None
            if s not in self.passed and s not in self.agreed:
                (self.agreed if self.options.leaver_counts_as == "agree" else self.passed).append(s)
            ev += self._auction_next()
        return ev
