"""The lottery's play-off (:class:`LotteryPlayoff`): the cards that won nothing played off, cover
or take (variant 1) or suit-ranked tricks (variant 2), and the fines (seed 004, last ¶; RULINGS §5)."""

from __future__ import annotations

from companion.games.base import Event, clone_state
from companion.games.lottery.cards import PRIZE_SLOTS, SUIT_FINES, SUIT_ORDER, rank_index, suit_of
from companion.games.lottery.state import LotteryState


class LotteryPlayoff(LotteryState):
    """The play-off moves of :class:`companion.games.lottery.rules.LotteryGame`."""

    # ------------------------------------------------------------------ play-off
    def _start_playoff(self) -> list[Event]:
        s = self.s
        left = s["stakes"] + sum(sl["chips"] for sl in s["slots"] if sl)
        s["box"] += left
        s["stakes"] = 0
        s["slots"] = [None] * PRIZE_SLOTS
        ev = [Event("prizes_to_box", {"chips": left, "box": s["box"]})]
        hands = {k: sorted(v, key=lambda c: (SUIT_ORDER[suit_of(c)], rank_index(c))) for k, v in s["aside"].items()}
        lw = s["last_winner"]
        first = lw if lw is not None else self.deal_order()[0]
        s["po"] = {"hands": hands, "leader": None, "attack": None, "attacker": None, "defender": None,
                   "stall": 0, "trick": [], "turn": None, "first": True, "discard": [], "out": []}
        s["phase"] = "playoff"
        self._mark = clone_state(s)
        holders = self._holders()
        if len(holders) <= 1:
            return ev + self._end_playoff()
        leader = first if first in holders else self._next_player(first, holders)
        assert leader is not None, "two holders or more"
        s["po"]["leader"] = leader
        if self.options.playoff == 2:
            s["po"]["turn"] = leader
            s["po"]["order"] = self._trick_order(leader)
        ev.append(Event("playoff", {"variant": self.options.playoff, "leader": leader}))
        return ev

    def _trick_order(self, leader: int) -> list[int]:
        holders = self._holders()
        order = [leader]
        cur = self._next_player(leader, holders)
        while cur is not None and cur != leader:
            order.append(cur)
            cur = self._next_player(cur, holders)
        return order

    def _do_lead(self, seat: int, card: str) -> list[Event]:
        po = self.s["po"]
        self._hand(seat).remove(card)
        po["attack"], po["attacker"] = card, seat
        # the left neighbour still holding cards (there is one: play-off runs with 2+ holders)
        po["defender"] = self._next_player(seat, self._holders() - {seat})
        return [Event("led", {"seat": seat, "card": card, "to": po["defender"]})]

    def _do_answer(self, seat: int, card: str | None) -> list[Event]:
        po = self.s["po"]
        att = po["attack"]
        if card is not None:
            self._hand(seat).remove(card)
            po["discard"] += [att, card]
            po["stall"] = 0
            ev = [Event("covered", {"seat": seat, "card": card, "led": att})]
        else:
            self._hand(seat).append(att)
            po["stall"] += 1
            ev = [Event("taken", {"seat": seat, "card": att})]
        po["attack"] = po["attacker"] = po["defender"] = None
        holders = self._holders()
        if len(holders) <= 1 or po["stall"] >= self.options.stall_limit:
            return ev + self._end_playoff(stalled=len(holders) > 1)
        po["leader"] = seat if seat in holders else self._next_player(seat, holders)
        return ev

    def _do_play2(self, seat: int, card: str) -> list[Event]:
        po = self.s["po"]
        self._hand(seat).remove(card)
        po["trick"].append([seat, card])
        po["first"] = False
        ev = [Event("played", {"seat": seat, "card": card})]
        order = po["order"]
        if len(po["trick"]) < len(order):
            po["turn"] = order[len(po["trick"])]
            return ev
        led = suit_of(po["trick"][0][1])
        taker, low = None, 99
        for p, c in po["trick"]:
            if suit_of(c) == led and rank_index(c) < low:
                taker, low = p, rank_index(c)
        po["discard"] += [c for _, c in po["trick"]]
        ev.append(Event("trick_taken", {"seat": taker, "cards": [c for _, c in po["trick"]]}))
        po["trick"] = []
        holders = self._holders()
        if len(holders) <= 1:
            return ev + self._end_playoff()
        assert taker is not None, "the led card follows its own suit"
        leader = taker if taker in holders else self._next_player(taker, holders)
        assert leader is not None, "two holders or more"
        po["leader"] = po["turn"] = leader
        po["order"] = self._trick_order(leader)
        return ev

    def _end_playoff(self, stalled: bool = False) -> list[Event]:
        s = self.s
        o = self.options
        ev = []
        for key, hand in sorted(s["po"]["hands"].items(), key=lambda kv: int(kv[0])):
            if not hand:
                continue
            seat = int(key)
            if o.playoff == 1:
                fine = o.fine_per_card * len(hand)
            else:
                fine = sum(SUIT_FINES[suit_of(c)] for c in hand)
            s["balances"][seat] -= fine
            s["box"] += fine
            s["fines"][seat] += fine
            ev.append(Event("fine_paid", {"seat": seat, "cards": list(hand), "chips": fine}))
        s["phase"] = "over"
        s["po"]["leader"] = s["po"]["turn"] = None
        s["po"]["stalled"] = stalled
        self._mark = None
        return ev + [Event("game_over", self._final_result())]

    def _do_void(self) -> list[Event]:
        voids = self.s["voids"] + 1
        what = "playoff" if self.s["phase"] == "playoff" else "deal"
        self.s = clone_state(self._mark)
        self.s["voids"] = voids
        return [Event("voided", {"what": what, "draw": self.s["draw"] + 1})]
