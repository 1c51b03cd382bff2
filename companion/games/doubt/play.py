"""What an accepted action does at a "Верю — не верю" table (:class:`DoubtPlay`): the deal, the
placements, "Верю" and "Не верю", the reveal and who takes the pile, the end and the void (seed 001,
RULINGS §2)."""

from __future__ import annotations

from companion.games.base import Action, Event
from companion.games.doubt.actions import Add, Believe, Deal, Doubt, Place, Reveal
from companion.games.doubt.state import DoubtState


class DoubtPlay(DoubtState):
    """The moves of :class:`companion.games.doubt.rules.DoubtGame`: ``_do`` applies a checked action."""

    # ------------------------------------------------------------------ transitions
    def _do(self, a: Action) -> list[Event]:
        if type(a) is Deal:
            return self._do_deal()
        if type(a) is Place or type(a) is Add:
            seat = a.seat
            if type(a) is Place:
                self.claim = a.kind
            self.hands[seat] -= a.count
            self.pile.append([seat, a.count])
            self.pile_cards += a.count
            self.turn = self._next_in(seat)
            self.phase = "answer"
            events = [Event("placed" if type(a) is Place else "added",
                            {"seat": seat, "count": a.count, "kind": self.claim, "pile": self.pile_size()})]
            if self.hands[seat] == 0:
                events.append(Event("last_cards", {"seat": seat}))
            return events
        if type(a) is Believe or type(a) is Doubt:
            self.answer = [a.seat, a.VERB]
            self.phase = "check"
            self.turn = None
            return [Event("answered", {"seat": a.seat, "answer": a.VERB, "placer": self.pile[-1][0],
                                       "count": self.pile[-1][1], "kind": self.claim})]
        if type(a) is Reveal:
            return self._do_reveal(a.kinds)
        return self._do_void()

    def _do_deal(self) -> list[Event]:
        self.hands = self.deal_sizes(self.dealer)
        n = len(self.seats)
        self.in_game = [True] * n
        self.pile = []
        self.pile_cards = 0
        self.claim = None
        self.answer = None
        self.discard = 0
        self.discard_known = {k: 0 for k in self.kind_count}
        self.out_order = []
        self.last_check = None
        self.phase = "lead"
        self.turn = self.dealer
        return [Event("dealt", {"dealer": self.dealer, "hands": list(self.hands), "game": self.game_no})]

    def _do_reveal(self, kinds: tuple[str, ...]) -> list[Event]:
        assert self.answer is not None, "the check follows an answer"
        answerer, answer = self.answer
        placer, count = self.pile[-1]
        claim = self.claim
        true_claim = all(k == claim for k in kinds)
        self.checks += 1
        total = self.pile_size()
        taker: int | None
        if answer == "believe":
            if true_claim:   # seed ¶7: бита, the right guesser leads
                taker, leader, outcome = None, answerer, "believe_right"
            else:            # seed ¶8: the naive believer takes the pile; his left leads
                taker, leader, outcome = answerer, None, "believe_wrong"
        else:
            if not true_claim:  # seed ¶9: the liar takes the pile; the right guesser leads
                taker, leader, outcome = placer, answerer, "doubt_right"
            else:               # seed ¶10: the suspicious one takes the pile; his left leads
                taker, leader, outcome = answerer, None, "doubt_wrong"
        if taker is None:
            self.discard += total
            for k in kinds:
                self.discard_known[k] += 1
        else:
            self.hands[taker] += total
        self.last_check = {"placer": placer, "answerer": answerer, "answer": answer, "claim": claim,
                           "count": count, "kinds": list(kinds), "true": true_claim, "taker": taker,
                           "pile": total, "outcome": outcome}
        events = [Event("checked", dict(self.last_check))]
        # RULINGS §2 / seed ¶11: a seat whose cards are all on the pile leaves once the pile is
        # resolved and he did not take it.
        for s in range(len(self.seats)):
            if self.in_game[s] and self.hands[s] == 0 and s != taker:
                self.in_game[s] = False
                self.out_order.append(s)
                events.append(Event("player_out", {"seat": s}))
        self.pile = []
        self.pile_cards = 0
        self.claim = None
        self.answer = None
        remaining = [s for s in range(len(self.seats)) if self.in_game[s]]
        if len(remaining) <= 1:
            events.extend(self._end_game(remaining[0] if remaining else None))
            return events
        if leader is None:
            leader = self._next_in(answerer)
        elif not self.in_game[leader]:
            leader = self._next_in(leader)
        self.turn = leader
        self.phase = "lead"
        events.append(Event("lead", {"seat": leader}))
        return events

    def _end_game(self, loser: int | None) -> list[Event]:
        """Seed ¶12: the last seat still in the game loses; he deals the next game (seed ¶2)."""
        self.games_log.append({"game": self.game_no, "dealer": self.dealer, "loser": loser,
                               "out_order": list(self.out_order)})
        events = [Event("game_over", {"game": self.game_no, "loser": loser,
                                      "loser_name": None if loser is None else self.seats[loser]})]
        self.turn = None
        if self.game_no >= self.options.games:
            self.phase = "over"
            events.append(Event("match_over", self._final_result()))
            return events
        self.game_no += 1
        self.dealer = loser if loser is not None else self.next_seat(self.dealer)
        self.turn = self.dealer
        self.phase = "deal"
        return events

    def _do_void(self) -> list[Event]:
        returned = [{"seat": s, "count": c} for s, c in self.pile]
        for s, c in self.pile:
            self.hands[s] += c
        leader = self.pile[0][0]
        self.pile = []
        self.pile_cards = 0
        self.claim = None
        self.answer = None
        self.turn = leader
        self.phase = "lead"
        return [Event("round_void", {"returned": returned, "lead": leader})]
