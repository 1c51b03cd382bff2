"""Whether an action is legal at a "Верю — не верю" table now (:class:`DoubtChecks`): the refusals,
each with its reason code (:data:`companion.games.doubt.rules.REASONS`) and facts."""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.games.base import Action
from companion.games.doubt.actions import Add, Deal, Place, Reveal, Void
from companion.games.doubt.state import DoubtState


class DoubtChecks(DoubtState):
    """The checks of :class:`companion.games.doubt.rules.DoubtGame`: ``_check`` refuses an illegal
    action and leaves the state as it was."""

    # ------------------------------------------------------------------ checks
    def _check(self, a: Action) -> None:
        if self.phase == "over":
            raise IllegalAction("game_over", "the match has ended")
        if type(a) is Reveal or type(a) is Void:
            if a.seat is not None:
                raise IllegalAction("table_only", f"'{a.VERB}' is an observation/operator action of the table")
            if type(a) is Void:
                if not self.pile:
                    raise IllegalAction("nothing_to_void", "no pile on the table")
                return
            assert type(a) is Reveal, type(a)
            if self.phase != "check":
                raise IllegalAction("wrong_phase", "no check is pending; reveal comes after believe/doubt")
            count = self.pile[-1][1]
            if len(a.kinds) != count:
                raise IllegalAction("reveal_count_mismatch",
                                    f"the last placement has {count} card(s), the reveal lists {len(a.kinds)}",
                                    {"expected": count, "given": len(a.kinds)})
            if any(k is None or k == "?" for k in a.kinds):
                raise IllegalAction("unreadable_card", "the reader is not sure of a card: rescan it or "
                                                       "enter the kinds manually")
            seen: dict[str, int] = {}
            for k in a.kinds:
                if k not in self.kind_count:
                    raise IllegalAction("unknown_kind", f"{k!r} is not a kind of deck {self.deck['name']}",
                                        self._unknown_kind_facts(k))
                seen[k] = seen.get(k, 0) + 1
            for k, c in seen.items():
                if self.discard_known[k] + c > self.kind_count[k]:
                    raise IllegalAction("impossible_cards",
                                        f"{c} × {k} plus {self.discard_known[k]} discarded exceeds the deck's "
                                        f"{self.kind_count[k]}",
                                        {"kind": self._kind_words(k), "in_deck": self.kind_count[k],
                                         "discarded": self.discard_known[k]})
            return
        if a.seat is None:
            raise IllegalAction("seat_only", f"'{a.VERB}' is a seat's action")
        seat = a.seat
        if type(a) is Deal:
            if self.phase != "deal":
                raise IllegalAction("wrong_phase", "the cards are already dealt")
            if seat != self.dealer:
                raise IllegalAction("not_dealer", f"seat {self.dealer} deals this game",
                                    {"player": self.seats[self.dealer]})
            return
        if not self.in_game[seat]:
            raise IllegalAction("player_out", f"seat {seat} has left the game")
        if type(a) is Place:
            if self.phase != "lead":
                raise IllegalAction("wrong_phase", "a pile is already in play; answer it")
            if seat != self.turn:
                raise self._out_of_turn("leads")
            if a.kind not in self.kind_count:
                raise IllegalAction("unknown_kind", f"{a.kind!r} is not a kind of deck {self.deck['name']}",
                                    self._unknown_kind_facts(a.kind))
            self._check_count(seat, a.count)
            return
        if self.phase != "answer":
            raise IllegalAction("wrong_phase", f"'{a.VERB}' answers a placement; phase is {self.phase}")
        if seat != self.turn:
            raise self._out_of_turn("answers")
        if type(a) is Add:
            if self.hands[seat] == 0:
                raise IllegalAction("no_cards", f"seat {seat} holds no cards; believe or doubt")
            self._check_count(seat, a.count)

    def _out_of_turn(self, does: str) -> IllegalAction:
        """The ``not_your_turn`` refusal: the lead and the answer always have a seat to play."""
        turn = self.turn
        assert turn is not None, "a lead or an answer without a turn"
        return IllegalAction("not_your_turn", f"seat {turn} {does}", {"player": self.seats[turn]})

    def _check_count(self, seat: int, count: int) -> None:
        if not 1 <= count <= self.options.max_cards:
            raise IllegalAction("bad_count", f"place 1..{self.options.max_cards} cards, not {count}",
                                {"max": self.options.max_cards})
        if count > self.hands[seat]:
            raise IllegalAction("not_enough_cards", f"seat {seat} holds {self.hands[seat]} card(s)",
                                {"player": self.seats[seat], "held": self.hands[seat]})
