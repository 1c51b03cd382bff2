"""What a skull table shows (:class:`SkullViews`): the legal actions, whose turn it is, the
result, the public and seat views (never a face-down note) and the snapshot."""

from __future__ import annotations

from companion.games.base import Action
from companion.games.skull.actions import Agree, Bid, ChooseDealer, Deposit, Flip, Leave, Pass, Place, Register, Void
from companion.games.skull.state import _ACTIVE, _LEFT, _OUT, ROUND_PHASES, SkullState


class SkullViews(SkullState):
    """The queries and views of :class:`companion.games.skull.rules.SkullGame`."""

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        out: list[Action] = []
        phase = self.phase
        if seat is None:
            if phase == "setup":
                # A template (legal_actions): its serials are for the camera to read.
                out += [Register(None, s, None, None)  # type: ignore[arg-type]
                        for s in self._remaining() if self.registered[s] is None]
                if all(self.registered[s] is not None for s in self._remaining()):
                    out += [ChooseDealer(None, s) for s in self._remaining()]
            elif phase == "reveal":
                d = self._dealer_seat()
                if self.stack[d] - len(self.faceup[d]) > 0:
                    out.append(Flip(None, d, None))
                else:
                    out += [Flip(None, o, None) for o in range(len(self.seats))
                            if o != d and self.stack[o] - len(self.faceup[o]) > 0]
            elif phase == "settlement":
                out += [Deposit(None, o, None) for o in self.owed]
            if phase in ROUND_PHASES:
                out.append(Void(None))
            out += [Leave(None, s) for s in self._remaining()]
            return out
        if not 0 <= seat < len(self.seats) or self.status[seat] != _ACTIVE:
            return []
        if phase == "stage1":
            return [Place(seat)] if not self.stack[seat] else []
        total = self.table_total()
        if phase == "stage2" and seat == self.turn:
            if self.hand(seat) > 0:
                out.append(Place(seat))
            return out + [Bid(seat, k) for k in range(1, total + 1)]
        if phase == "auction" and self.to_act and self.to_act[0] == seat:
            if self.forced != seat:
                out += [Agree(seat), Pass(seat)]
            return out + [Bid(seat, k) for k in range(self.bid + 1, total + 1)]
        return out

    def current_seats(self) -> list[int]:
        p = self.phase
        if p == "stage1":
            return [s for s in self._remaining() if not self.stack[s]]
        if p == "stage2":
            return [] if self.turn is None else [self.turn]
        if p == "auction":
            return self.to_act[:1]
        return []

    def is_over(self) -> bool:
        return self.phase == "over"

    def bank_face_value(self) -> tuple[int | None, int]:
        """``(total, unknown)``: the bank's face value in ``options.currency`` (``None`` if no note's
        value is known) and how many bank notes have no recorded denomination."""
        known = [self.denominations[b["serial"]] for b in self.bank if b["serial"] in self.denominations]
        unknown = len(self.bank) - len(known)
        return (sum(known) if known else None), unknown

    def result(self) -> dict | None:
        """Once over: ``{"winner": seat|None, "winner_name", "bank": [serials], "face_value",
        "face_value_unknown": count, "currency", "rounds", "notes": {name: [serials]}}``."""
        if self.phase != "over":
            return None
        value, unknown = self.bank_face_value()
        return {
            "winner": self.winner,
            "winner_name": None if self.winner is None else self.seats[self.winner],
            "bank": [b["serial"] for b in self.bank],
            "face_value": value,
            "face_value_unknown": unknown,
            "currency": self.options.currency,
            "rounds": self.rounds_settled + self.rounds_void,
            "notes": {self.seats[s]: list(self.owned[s]) for s in range(len(self.seats))},
        }

    def replay_summary(self) -> dict:
        """The ``companion replay --json`` object for this game (issue 2 part 5), minus
        ``rejected``: game, over, winner (name or null), rounds, bank serials, seats."""
        return {
            "game": self.GAME_ID,
            "over": self.phase == "over",
            "winner": None if self.winner is None else self.seats[self.winner],
            "rounds": self.rounds_settled + self.rounds_void,
            "bank": [b["serial"] for b in self.bank],
            "seats": [{"name": name, "notes": list(self.owned[s]), "out": self.status[s] in (_OUT, _LEFT)}
                      for s, name in enumerate(self.seats)],
        }

    def view(self, seat: int | None) -> dict:
        """Public view (``seat=None``) or seat ``seat``'s view.

        Public: phase, round, dealer (the button: while everybody agreed and the next player
        must raise, that player), bid, who passed/agreed, the seats with counts only (notes,
        hand, stack, face-down) plus the face-up notes of the reveal, the bank's size (its serials
        only once the game is over), the outcome. Never a face-down note's serial or role, never
        a bank deposit's serial. A seat's view adds ``"you"``: its own notes (serials and roles;
        the engine cannot tell hand from face-down stack) and the serials it lost to the bank.
        """
        over = self.phase == "over"
        seats = []
        for s, name in enumerate(self.seats):
            fu = self.faceup[s]
            seats.append({
                "seat": s, "name": name, "status": self.status[s],
                "registered": self.registered[s] is not None,
                "notes": len(self.owned[s]), "hand": self.hand(s), "stack": self.stack[s],
                "face_down": self.stack[s] - len(fu),
                "face_up": [{"serial": x, "role": self.role[x]} for x in fu],
                "lost": sum(1 for b in self.bank if b["seat"] == s),
            })
        value, unknown = self.bank_face_value()
        # the button: everybody agreed and it passed to the player who must raise (seed "передает
        # право хода и "баттон" ближайшему слева игроку, который становится новым дилером"; RULINGS
        # §1) — the page's «Дилер» badge is on him, as the history's line says, not on the bidder
        # whose bid he must beat (the engine's ``dealer`` holds that bid until he raises)
        button = self.forced if self.forced is not None else self.dealer
        v = {
            "game": self.GAME_ID, "phase": self.phase, "round": self.round, "dealer": button,
            "turn": self.current_seats(), "bid": self.bid, "table_notes": self.table_total(),
            "passed": sorted(self.passed), "agreed": sorted(self.agreed), "must_raise": self.forced,
            "roses": self.roses, "outcome": self.outcome, "skull_owner": self.skull_owner,
            "chooser": self.chooser, "owed": list(self.owed),
            "halt": None if self.halt is None else {k: v for k, v in self.halt.items() if k in ("seat", "why")},
            "seats": seats, "bank": {"count": len(self.bank)}, "last_round": self.last_round,
            "over": over, "winner": self.winner, "options": self.options.to_dict(),
        }
        if over:
            v["bank"] = {"count": len(self.bank), "serials": [b["serial"] for b in self.bank],
                         "face_value": value, "face_value_unknown": unknown, "currency": self.options.currency}
        if seat is not None and 0 <= seat < len(self.seats):
            v["you"] = {
                "seat": seat,
                "notes": [{"serial": x, "role": self.role[x]} for x in self.owned[seat]],
                "lost": [b["serial"] for b in self.bank if b["seat"] == seat],
            }
            # what this seat does at the table now, though its pad has no button for it (the
            # camera reads the result): the dealer turns notes over; the skull's owner chooses
            # the loser's note for the bank (seed "Итоги")
            if self.phase == "reveal" and seat == self.dealer:
                # his own stack first (seed, Вскрытие); once it is all face up, the others' notes
                own_down = self.stack[seat] - len(self.faceup[seat])
                v["table_task"] = "flip" if own_down > 0 else "flip_others"
            elif self.phase == "settlement" and seat == self.chooser:
                v["table_task"] = "choose"
        return v

    def snapshot(self) -> dict:
        return {
            "phase": self.phase, "round": self.round, "rounds_settled": self.rounds_settled,
            "rounds_void": self.rounds_void, "dealer": self.dealer, "round_dealer": self.round_dealer,
            "registered": [list(r) if r is not None else None for r in self.registered],
            "denominations": dict(sorted(self.denominations.items())),
            "owned": [list(o) for o in self.owned], "status": list(self.status),
            "stack": list(self.stack), "faceup": [list(f) for f in self.faceup],
            "bank": [dict(b) for b in self.bank], "turn": self.turn, "bid": self.bid,
            "passed": list(self.passed), "agreed": list(self.agreed), "to_act": list(self.to_act),
            "forced": self.forced, "roses": self.roses, "flips": [list(f) for f in self.flips],
            "outcome": self.outcome, "skull_owner": self.skull_owner, "chooser": self.chooser,
            "owed": list(self.owed), "halt": dict(self.halt) if self.halt else None,
            "winner": self.winner, "last_round": dict(self.last_round) if self.last_round else None,
            "options": self.options.to_dict(),
        }
