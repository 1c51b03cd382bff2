"""What an accepted action does at a "6100" table (:class:`InfinityPlay`): the deal, the plays and
their faces, "HOY!", the tricks, the cards kept and the end of a deal (seed 003, RULINGS §4)."""

from __future__ import annotations

from companion.games.base import Action, Event, clone_state
from companion.games.infinity.actions import DealCards, Face, Kept, Play, Void
from companion.games.infinity.cards import _checked_card, card_rank
from companion.games.infinity.state import InfinityState


class InfinityPlay(InfinityState):
    """The moves of :class:`companion.games.infinity.rules.InfinityGame`: ``_do`` applies a checked action."""

    # ------------------------------------------------------------------ applying
    def _do(self, a: Action) -> list[Event]:
        if isinstance(a, DealCards):
            return self._do_deal(a)
        if isinstance(a, Play):
            if a.card is None:
                self.s["pending"] = a.seat
                return [Event("play_declared", {"seat": a.seat})]
            return self._play_card(a.seat, _checked_card(a.card))
        if isinstance(a, Face):
            seat = self.s["pending"]
            self.s["pending"] = None
            return self._play_card(seat, _checked_card(a.card))
        if isinstance(a, Kept):
            return self._do_kept(a)
        if isinstance(a, Void):
            return self._do_void()
        raise AssertionError(a)  # pragma: no cover

    def _do_deal(self, a: DealCards) -> list[Event]:
        s = self.s
        n = len(self.seats)
        if s["half"] == 0:
            self._deal_start = clone_state(s)
            s["unseen"] = dict(self.deck)
            s["points"] = [0] * n
            s["tricks"] = [0] * n
            s["last_winner"] = None
        leader = a.leader if a.leader is not None else self.expected_leader()
        if n == 2:
            share = self.deck_size // 4
            if s["half"] == 0:
                s["aside"] = self.deck_size % 4
                s["stock"] = self.deck_size - s["aside"] - 2 * share
            else:
                s["stock"] -= 2 * share
        else:
            share = self.deck_size // n
            s["aside"] = self.deck_size % n
            s["stock"] = 0
        s["hands"] = [share] * n
        if s["half"] == 0:
            s["first_leaders"].append(leader)
        s["trick"] = []
        s["phase"] = "play"
        events = [Event("dealt", {"deal": s["deal"] + 1, "half": s["half"] + 1 if n == 2 else None,
                                  "cards_each": share, "aside": s["aside"], "leader": leader})]
        events += self._start_trick(leader)
        return events

    def _start_trick(self, leader: int) -> list[Event]:
        s = self.s
        if s["hands"][leader] == 0:
            leader = self.next_seat(leader, skip=[i for i, c in enumerate(s["hands"]) if c == 0])
        s["leader"] = leader
        s["token"] = self._prev_holder(leader)
        s["turn"] = leader
        s["trick"] = []
        return [Event("trick_started", {"leader": leader, "token": s["token"]})]

    def _play_card(self, seat: int, card: str) -> list[Event]:
        s = self.s
        prev = s["trick"][-1][1] if s["trick"] else None
        s["trick"].append([seat, card])
        s["hands"][seat] -= 1
        s["unseen"][card] -= 1
        events = [Event("card_played", {"seat": seat, "card": card})]
        if prev is not None and card_rank(prev) == card_rank(card):
            s["token"] = seat
            s["hoys"] += 1
            events.append(Event("hoy", {"seat": seat, "card": card}))
            return events + self._advance(seat)
        if seat == s["token"]:
            return events + self._end_trick()
        return events + self._advance(seat)

    def _advance(self, seat: int) -> list[Event]:
        """Pass the turn clockwise, skipping seats without cards; the token owner closes."""
        s = self.s
        n = len(self.seats)
        cur = seat
        for _ in range(n):
            cur = (cur + 1) % n
            if cur == s["token"]:
                if s["hands"][cur] > 0:
                    s["turn"] = cur
                    return []
                return self._end_trick()
            if s["hands"][cur] > 0:
                s["turn"] = cur
                return []
        return self._end_trick()  # pragma: no cover - the token owner is always reached

    def _end_trick(self) -> list[Event]:
        s = self.s
        best, winner = -1.0, None
        for seat, card in s["trick"]:
            r = card_rank(card)
            if r >= best:  # the later of equal highest cards wins (seed ¶"Если старшие карты...")
                best, winner = r, seat
        assert winner is not None, "a trick has cards"
        pts = sum(self.points_of(c) for _, c in s["trick"])
        s["points"][winner] += pts
        s["tricks"][winner] += 1
        s["last_winner"] = winner
        events = [Event("trick_won", {"seat": winner, "cards": [c for _, c in s["trick"]], "points": pts})]
        s["trick"] = []
        s["turn"] = None
        s["token"] = None
        holders = self.holders()
        if len(holders) >= 2:
            return events + self._start_trick(winner)
        if len(holders) == 1:
            s["phase"] = "kept"
            s["kept_seat"] = holders[0]
            return events + [Event("cards_left", {"seat": holders[0], "count": s["hands"][holders[0]]})]
        return events + self._end_half()

    def _do_kept(self, a: Kept) -> list[Event]:
        s = self.s
        cards = [_checked_card(t) for t in (a.cards or ())]
        pts = sum(self.points_of(c) for c in cards)
        for c in cards:
            s["unseen"][c] -= 1
        s["points"][a.owner] += pts
        s["hands"][a.owner] = 0
        s["kept_seat"] = None
        return [Event("cards_kept", {"seat": a.owner, "cards": cards, "points": pts})] + self._end_half()

    def _end_half(self) -> list[Event]:
        s = self.s
        s["leader"] = s["turn"] = s["token"] = None
        if len(self.seats) == 2 and s["half"] == 0:
            s["half"] = 1
            s["phase"] = "deal"
            return [Event("half_over", {"deal": s["deal"] + 1, "points": list(s["points"])})]
        s["deal_scores"].append(list(s["points"]))
        for i, p in enumerate(s["points"]):
            s["totals"][i] += p
        events = [Event("deal_over", {"deal": s["deal"] + 1, "points": list(s["points"]),
                                      "totals": list(s["totals"])})]
        s["deal"] += 1
        s["half"] = 0
        s["aside"] = 0
        s["stock"] = 0
        self._deal_start = None
        if s["deal"] >= self.options.deals:
            s["phase"] = "over"
            events.append(Event("game_over", self._final_result()))
        else:
            s["phase"] = "deal"
        return events

    def _do_void(self) -> list[Event]:
        deal = self.s["deal"]
        voids = self.s["voids"] + 1
        self.s = clone_state(self._deal_start)
        self.s["voids"] = voids
        self._deal_start = None
        return [Event("deal_voided", {"deal": deal + 1})]
