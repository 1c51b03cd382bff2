"""Whether an action is legal at a lottery table now (:class:`LotteryChecks`): the refusals, each
with its reason code (:data:`companion.games.lottery.rules.REASONS`) and facts."""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.games.base import Action
from companion.games.words import TABLE_DOES
from companion.games.lottery.actions import Cards, Cover, Lead, PlayCard, PrizeCard, Spread, Take, Void
from companion.games.lottery.cards import PRIZE_SLOTS, rank_index, suit_of
from companion.games.lottery.spread import find_spread
from companion.games.lottery.state import LotteryState


class LotteryChecks(LotteryState):
    """The checks of :class:`companion.games.lottery.rules.LotteryGame`: ``_check`` refuses an
    illegal action and leaves the state as it was."""

    # ------------------------------------------------------------------ checking
    def _check(self, a: Action) -> None:
        s = self.s
        o = self.options
        ph = s["phase"]
        if ph == "over":
            raise IllegalAction("game_over", "the lottery has ended")
        if isinstance(a, Void):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "only the table (operator) voids", TABLE_DOES)
            if self._mark is None or ph == "spread":
                raise IllegalAction("nothing_to_void", "no deal or play-off is in progress")
            return
        if isinstance(a, Spread):
            if ph != "spread":
                raise IllegalAction("wrong_phase", f"nothing to spread now (phase {ph})")
            if a.seat != o.banker:
                raise IllegalAction("not_your_turn", f"the banker (seat {o.banker}) spreads the chips",
                                    {"player": self.seats[o.banker], "role": "banker"})
            bases = self.spread_bases()
            if len(a.amounts) != PRIZE_SLOTS:
                raise IllegalAction("bad_spread", f"give {PRIZE_SLOTS} non-negative amounts, one per slot",
                                    {"slots": PRIZE_SLOTS})
            if any(x < 0 for x in a.amounts):
                raise IllegalAction("bad_spread", "an amount of the spread is negative",
                                    {"slots": PRIZE_SLOTS, "negative": [x for x in a.amounts if x < 0]})
            if any(b is None and x for b, x in zip(bases, a.amounts)):
                raise IllegalAction("bad_spread", "chips on an empty slot",
                                    {"empty": [i + 1 for i, (b, x) in enumerate(zip(bases, a.amounts))
                                               if b is None and x]})
            pool = self.spread_pool()
            if sum(a.amounts) != pool:
                raise IllegalAction("wrong_total", f"spread {pool} chips, not {sum(a.amounts)}",
                                    {"pool": pool, "total": sum(a.amounts)})
            minimum = 1 if s["pool_from_box"] else 0
            finals = [b + x for b, x in zip(bases, a.amounts) if b is not None]
            if any(f < minimum for f in finals):
                raise IllegalAction("prize_empty", "every prize gets at least one chip")
            if len(set(finals)) != len(finals) and find_spread(bases, pool, minimum) is not None:
                raise IllegalAction("amounts_must_differ", f"prizes would carry {finals}; make them all different",
                                    {"prizes": list(finals)})
            return
        if isinstance(a, Cards):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "dealt cards are read by the table (camera)", TABLE_DOES)
            if ph != "deal":
                raise IllegalAction("wrong_phase", f"no deal in progress (phase {ph})")
            key = str(a.owner)
            if a.owner not in self.players:
                raise IllegalAction("not_a_player", f"seat {a.owner} holds no cards",
                                    {"player": self.seats[a.owner]} if 0 <= a.owner < len(self.seats) else None)
            if key in s["current"]:
                raise IllegalAction("already_read", f"seat {a.owner}'s cards are already read",
                                    {"player": self.seats[a.owner]})
            cards = [self._card(t) for t in (a.cards or ())]
            if len(cards) != s["expect"].get(key, 0):
                raise IllegalAction("wrong_count", f"seat {a.owner} was dealt {s['expect'].get(key, 0)} card(s), "
                                                   f"{len(cards)} entered",
                                    {"player": self.seats[a.owner], "dealt": s["expect"].get(key, 0),
                                     "entered": len(cards)})
            twice = next((c for i, c in enumerate(cards) if c in cards[:i]), None)
            if twice is not None:  # a typing slip in this entry, not a card dealt before it
                raise IllegalAction("duplicate_card", f"{twice} is listed twice in this entry", {"card": twice})
            dealt = next((c for c in cards if c in s["dealt"]), None)
            if dealt is not None:
                raise IllegalAction("card_already_dealt", f"{dealt} of the dealer's deck is already dealt",
                                    {"card": dealt})
            return
        if isinstance(a, PrizeCard):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "prizes are read by the table (camera)", TABLE_DOES)
            if ph == "deal":
                raise IllegalAction("cards_not_read", "read every player's cards first")
            if ph != "draw":
                raise IllegalAction("wrong_phase", f"no draw in progress (phase {ph})")
            if not 0 <= a.slot < PRIZE_SLOTS or s["slots"][a.slot] is None or s["slots"][a.slot]["face_up"]:
                raise IllegalAction("no_such_slot", f"no face-down prize in slot {a.slot}")
            c = self._card(a.card)
            if c in s["banker_seen"]:
                raise IllegalAction("prize_already_drawn", f"{c} of the banker's deck was already a prize",
                                    {"card": c})
            return
        # ---- play-off
        if isinstance(a, (Lead, Cover, Take, PlayCard)):
            if ph != "playoff":
                raise IllegalAction("wrong_phase", "the play-off has not started")
            po = s["po"]
            if isinstance(a, PlayCard):
                if o.playoff != 2:
                    raise IllegalAction("wrong_phase", "variant 1 play-off: lead, cover or take")
                if a.seat != po["turn"]:
                    raise IllegalAction("not_your_turn", f"seat {po['turn']} plays now", {"player": self.seats[po["turn"]]})
                c = self._card(a.card)
                hand = self._hand(a.seat)
                if c not in hand:
                    raise IllegalAction("not_in_hand", f"seat {a.seat} does not hold {c}",
                                        {"player": self.seats[a.seat], "card": c})
                if not po["trick"]:
                    if po["first"] and c != self.forced_first_lead(a.seat):
                        raise IllegalAction("must_lead_lowest_of_highest_suit",
                                            f"the first lead is {self.forced_first_lead(a.seat)}",
                                            {"card": self.forced_first_lead(a.seat)})
                else:
                    led = suit_of(po["trick"][0][1])
                    if suit_of(c) != led and any(suit_of(h) == led for h in hand):
                        raise IllegalAction("must_follow_suit", f"seat {a.seat} holds {led} and must play it",
                                            {"suit": led})
                return
            if o.playoff != 1:
                raise IllegalAction("wrong_phase", "variant 2 play-off: play cards to tricks")
            if isinstance(a, Lead):
                if po["attack"] is not None or a.seat != po["leader"]:
                    who = po["defender"] if po["attack"] else po["leader"]
                    raise IllegalAction("not_your_turn", f"seat {who} acts now", {"player": self.seats[who]})
                c = self._card(a.card)
                if c not in self._hand(a.seat):
                    raise IllegalAction("not_in_hand", f"seat {a.seat} does not hold {c}",
                                        {"player": self.seats[a.seat], "card": c})
                return
            if po["attack"] is None:
                raise IllegalAction("nothing_to_cover", "no card has been led")
            if a.seat != po["defender"]:
                raise IllegalAction("not_your_turn", f"seat {po['defender']} answers the lead",
                                    {"player": self.seats[po["defender"]]})
            if isinstance(a, Cover):
                c = self._card(a.card)
                if c not in self._hand(a.seat):
                    raise IllegalAction("not_in_hand", f"seat {a.seat} does not hold {c}",
                                        {"player": self.seats[a.seat], "card": c})
                att = po["attack"]
                if suit_of(c) != suit_of(att) or rank_index(c) <= rank_index(att):
                    raise IllegalAction("cannot_cover", f"{c} does not cover {att}", {"card": c, "attack": att})
            return
        raise IllegalAction("unknown_action", type(a).__name__)  # pragma: no cover
