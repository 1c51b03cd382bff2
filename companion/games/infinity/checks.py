"""Whether an action is legal at a "6100" table now (:class:`InfinityChecks`): the refusals, each
with its reason code (:data:`companion.games.infinity.rules.REASONS`) and facts."""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.games.base import Action
from companion.games.words import TABLE_DOES
from companion.games.infinity.actions import DealCards, Face, Kept, Play, Void
from companion.games.infinity.cards import canonical_card
from companion.games.infinity.state import InfinityState


class InfinityChecks(InfinityState):
    """The checks of :class:`companion.games.infinity.rules.InfinityGame`: ``_check`` refuses an
    illegal action and leaves the state as it was."""

    # ------------------------------------------------------------------ checking
    def _check(self, a: Action) -> None:
        s = self.s
        if s["phase"] == "over":
            raise IllegalAction("game_over", "all agreed deals are played")
        if isinstance(a, Void):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "only the table (operator) voids a deal", TABLE_DOES)
            if s["phase"] == "deal" and s["half"] == 0:
                raise IllegalAction("nothing_to_void", "no deal is in progress")
            return
        if isinstance(a, DealCards):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "the deal is reported by the table", TABLE_DOES)
            if s["phase"] != "deal":
                raise IllegalAction("wrong_phase", "the cards are already dealt")
            if a.leader is not None:
                if not 0 <= a.leader < len(self.seats):
                    raise IllegalAction("unknown_seat", f"seat {a.leader} is not at this table")
                first = s["deal"] == 0 and s["half"] == 0
                if not first and self.options.deal_leader != "free" and a.leader != self.expected_leader():
                    raise IllegalAction(
                        "wrong_leader", f"seat {self.expected_leader()} leads this deal, not seat {a.leader}",
                        {"player": self.seats[self.expected_leader()]})
            return
        if isinstance(a, Play):
            if a.seat is None:
                raise IllegalAction("not_your_turn", "a card is played by a seat")
            if s["phase"] != "play":
                raise IllegalAction("wrong_phase", f"no trick in play (phase {s['phase']})")
            if s["pending"] is not None:
                raise IllegalAction("face_pending", f"seat {s['pending']}'s card must be read first")
            if a.seat != s["turn"]:
                raise IllegalAction("not_your_turn", f"seat {s['turn']} plays now", {"player": self.seats[s["turn"]]})
            if a.card is not None:
                self._check_card(a.card)
            return
        if isinstance(a, Face):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "a face is read by the table (camera or operator)", TABLE_DOES)
            if s["phase"] != "play" or s["pending"] is None:
                raise IllegalAction("no_pending_play", "no declared card is waiting for its face")
            self._check_card(a.card)
            return
        if isinstance(a, Kept):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "kept cards are read by the table", TABLE_DOES)
            if s["phase"] != "kept":
                raise IllegalAction("wrong_phase", "more than one seat still holds cards")
            if a.owner != s["kept_seat"]:
                raise IllegalAction("wrong_seat", f"seat {s['kept_seat']} is the one still holding cards",
                                    {"player": self.seats[s["kept_seat"]]})
            cards = a.cards or ()
            if len(cards) != s["hands"][a.owner]:
                raise IllegalAction(
                    "wrong_count", f"seat {a.owner} holds {s['hands'][a.owner]} card(s), {len(cards)} read",
                    {"player": self.seats[a.owner], "held": s["hands"][a.owner], "entered": len(cards)})
            need: dict[str, int] = {}
            for t in cards:
                c = canonical_card(t)
                if c is None:
                    raise IllegalAction("bad_card", f"{t!r} is not a card", {"card": t, "deck": self.deck_words()})
                need[c] = need.get(c, 0) + 1
            for c, k in need.items():
                self._check_card(c, need=k)
            return
        raise IllegalAction("unknown_action", type(a).__name__)  # pragma: no cover
