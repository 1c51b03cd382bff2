"""What an accepted action does at a lottery table (:class:`LotteryPlay`): the spread, the deal,
the prizes turned and matched, a draw's settlement (seed 004 ¶5-9); the play-off is
:mod:`companion.games.lottery.playoff`."""

from __future__ import annotations

from companion.games.base import Action, Event, clone_state
from companion.games.lottery.actions import Cards, Cover, Lead, PlayCard, PrizeCard, Spread, Take, Void
from companion.games.lottery.cards import canonical
from companion.games.lottery.playoff import LotteryPlayoff


class LotteryPlay(LotteryPlayoff):
    """The moves of :class:`companion.games.lottery.rules.LotteryGame`: ``_do`` applies a checked action."""

    # ------------------------------------------------------------------ applying
    def _do(self, a: Action) -> list[Event]:
        if isinstance(a, Void):
            return self._do_void()
        if isinstance(a, Spread):
            return self._do_spread(a)
        if isinstance(a, Cards):
            return self._do_cards(a)
        if isinstance(a, PrizeCard):
            return self._do_prize(a)
        if isinstance(a, PlayCard):
            return self._do_play2(a.seat, self._card(a.card))
        if isinstance(a, Lead):
            return self._do_lead(a.seat, self._card(a.card))
        if isinstance(a, Cover):
            return self._do_answer(a.seat, self._card(a.card))
        if isinstance(a, Take):
            return self._do_answer(a.seat, None)
        raise AssertionError(a)  # pragma: no cover

    def _do_spread(self, a: Spread) -> list[Event]:
        s = self.s
        for sl, x in zip(s["slots"], a.amounts):
            if sl is not None:
                sl["chips"] += x
        if s["pool_from_box"]:
            s["box"] -= sum(a.amounts)
            s["pool_from_box"] = False
        else:
            s["stakes"] -= sum(a.amounts)
        ev = [Event("spread", {"amounts": list(a.amounts),
                               "prizes": [sl["chips"] if sl else None for sl in s["slots"]]})]
        return ev + self._start_deal()

    def _start_deal(self) -> list[Event]:
        s = self.s
        s["phase"] = "deal"
        s["expect"] = self._expected_counts()
        s["current"] = {}
        s["won_this_draw"] = []
        self._mark = clone_state(s)
        short = any(v != 3 for v in s["expect"].values())
        return [Event("deal", {"draw": s["draw"] + 1, "cards": dict(s["expect"]), "short": short})]

    def _do_cards(self, a: Cards) -> list[Event]:
        s = self.s
        cards = [canonical(t) for t in (a.cards or ())]
        s["current"][str(a.owner)] = cards
        s["dealt"].extend(cards)
        # a copy: the hand is changed later (a card wins a prize), the event must not be
        ev = [Event("cards_read", {"seat": a.owner, "cards": list(cards)})]
        if all(k in s["current"] for k, v in s["expect"].items() if v > 0):
            for k, v in s["expect"].items():
                s["current"].setdefault(k, [])
            # face-up prizes left from earlier draws are matched first, left to right
            for i, sl in enumerate(s["slots"]):
                if sl is not None and sl["face_up"]:
                    ev += self._match(i)
            if any(sl is not None and not sl["face_up"] for sl in s["slots"]):
                s["phase"] = "draw"
            else:
                ev += self._settle()
        return ev

    def _do_prize(self, a: PrizeCard) -> list[Event]:
        s = self.s
        c = self._card(a.card)
        sl = s["slots"][a.slot]
        sl["card"], sl["face_up"] = c, True
        s["banker_seen"].append(c)
        ev = [Event("prize_turned", {"slot": a.slot, "card": c, "chips": sl["chips"]})]
        ev += self._match(a.slot)
        if not any(x is not None and not x["face_up"] for x in s["slots"]):
            ev += self._settle()
        return ev

    def _match(self, slot: int) -> list[Event]:
        """Pay a face-up prize to the player whose current card is identical (seed ¶6)."""
        s = self.s
        sl = s["slots"][slot]
        for key, cards in s["current"].items():
            if sl["card"] in cards:
                seat = int(key)
                chips = sl["chips"]
                s["balances"][seat] += chips
                cards.remove(sl["card"])
                s["won"].append({"draw": s["draw"] + 1, "slot": slot, "card": sl["card"],
                                 "seat": seat, "chips": chips})
                s["last_winner"] = seat
                s["slots"][slot] = None
                s["won_this_draw"].append(slot)
                return [Event("prize_won", {"slot": slot, "card": sl["card"], "seat": seat, "chips": chips})]
        return []

    def _settle(self) -> list[Event]:
        """After a draw: stakes for cards that won nothing; those cards go aside (seed ¶7-8)."""
        s = self.s
        o = self.options
        ev = []
        for key, cards in sorted(s["current"].items(), key=lambda kv: int(kv[0])):
            seat = int(key)
            due = o.card_stake * len(cards)
            if due:
                s["balances"][seat] -= due
                s["stakes"] += due
                s["stakes_paid"][seat] += due
                ev.append(Event("stake_paid", {"seat": seat, "cards": len(cards), "chips": due}))
            s["aside"][key].extend(cards)
        s["current"] = {}
        s["expect"] = {}
        s["draw"] += 1
        s.setdefault("by_draw", []).append(list(s["balances"]))
        if len(s["dealt"]) >= 52:
            return ev + self._start_playoff()
        for i in sorted(s["won_this_draw"]):
            if s["banker_left"] > 0:
                s["banker_left"] -= 1
                s["slots"][i] = {"card": None, "face_up": False, "chips": 0}
                ev.append(Event("prize_replaced", {"slot": i}))
        s["won_this_draw"] = []
        self._mark = None
        if all(sl is None for sl in s["slots"]):
            s["box"] += s["stakes"]
            s["stakes"] = 0
            return ev + self._start_deal()
        s["phase"] = "spread"
        return ev
