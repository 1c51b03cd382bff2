"""Simulated table for ``lottery`` (seed ``004_*``): the banker's and the dealer's shuffled decks,
the face-down prize cards, the players' face-up cards, and bots for the banker and the play-off.

Observations come as a real table makes them: the camera reads each player's dealt cards
(``table cards``) and each prize the banker turns (``table prize``); the banker's spread and the
play-off moves come from the seats (source ``button``; a card led or played is also seen by the
camera, but one report per move is enough). Rarely the operator voids a deal (``table void``);
the returned cards are shuffled back into the dealer's deck.

Bots: the banker spreads chips at random but always legally (all prizes different); in
play-off variant 1 a leader leads a card its neighbour cannot cover when it can (cards are face
up, so that is known), and a defender covers with its lowest covering card; in variant 2 players
follow with their highest card of the suit and throw their most expensive card (♥) otherwise.
"""

from __future__ import annotations

from companion.games.lottery.rules import (FULL_DECK, SUIT_FINES, SUIT_ORDER, find_spread, rank_index,
                                     suit_of)
from companion.games.base import clone_state
from companion.games.simulator import TableSim


class LotterySim(TableSim):
    """Physical truth and bots for one ``lottery`` table.

    Args:
        game: a :class:`companion.games.lottery.LotteryGame`.
        seed: random seed.
        void_rate: chance per deal that the operator voids it once (a table mishap).
    """

    def __init__(self, game, seed: int, void_rate: float = 0.02) -> None:
        super().__init__(game, seed)
        self.void_rate = void_rate
        self.banker_deck = list(FULL_DECK)
        self.dealer_deck = list(FULL_DECK)
        self.rng.shuffle(self.banker_deck)
        self.rng.shuffle(self.dealer_deck)
        self.slot_cards: list[str | None] = [self.banker_deck.pop() for _ in range(4)]
        self.dealt_now: dict[str, list[str]] | None = None
        self.banker_discard: list[str] = []
        self._seen_mark = None
        self._my_mark = None
        self._void_after: int | None = None
        self._won_seen = 0

    # ------------------------------------------------------------------ bots
    def _spread(self) -> str:
        g = self.game
        bases = g.spread_bases()
        pool = g.spread_pool()
        minimum = 1 if g.s["pool_from_box"] else 0
        present = [i for i, b in enumerate(bases) if b is not None]
        for _ in range(20):
            add = [0] * 4
            for _ in range(pool):
                add[self.rng.choice(present)] += 1
            finals = [bases[i] + add[i] for i in present]
            if min(finals) >= minimum and len(set(finals)) == len(finals):
                break
        else:
            order = present[:]
            self.rng.shuffle(order)
            sp = find_spread(bases, pool, minimum, order)
            add = list(sp) if sp is not None else [pool if i == present[0] else 0 for i in range(4)]
        return f"{g.options.banker} spread {','.join(map(str, add))}"

    def _v1(self) -> str:
        g = self.game
        po = g.s["po"]
        if po["attack"] is None:
            seat = po["leader"]
            hand = po["hands"][str(seat)]
            nxt = g._next_player(seat, g._holders() - {seat})
            other = po["hands"][str(nxt)]
            top: dict[str, int] = {}
            for o in other:
                top[o[-1]] = max(top.get(o[-1], -1), rank_index(o))
            safe = [c for c in hand if top.get(c[-1], -1) < rank_index(c)]
            pick = (min(safe, key=rank_index) if safe and self.rng.random() < 0.3
                    else min(hand, key=rank_index))
            return f"{seat} lead {pick}"
        seat = po["defender"]
        att = po["attack"]
        covers = [c for c in po["hands"][str(seat)] if suit_of(c) == suit_of(att) and rank_index(c) > rank_index(att)]
        if covers:
            return f"{seat} cover {min(covers, key=rank_index)}"
        return f"{seat} take"

    def _v2(self) -> str:
        g = self.game
        po = g.s["po"]
        seat = po["turn"]
        hand = po["hands"][str(seat)]
        if not po["trick"]:
            if po["first"]:
                return f"{seat} play {g.forced_first_lead(seat)}"
            pick = max(hand, key=lambda c: (SUIT_FINES[suit_of(c)], -rank_index(c)))
            return f"{seat} play {pick}"
        led = suit_of(po["trick"][0][1])
        same = [c for c in hand if suit_of(c) == led]
        if same:
            return f"{seat} play {max(same, key=rank_index)}"
        pick = max(hand, key=lambda c: (SUIT_ORDER[suit_of(c)], rank_index(c)))
        return f"{seat} play {pick}"

    # ------------------------------------------------------------------ driving
    def next_action(self) -> tuple[str, str] | None:
        g = self.game
        s = g.s
        ph = s["phase"]
        if ph == "over":
            return None
        if ph == "spread":
            return self._spread(), "button"
        if ph in ("deal", "draw") and self._void_after is not None:
            if self._void_after <= 0:
                self._void_after = None
                return "table void", "operator"
            self._void_after -= 1
        if ph == "deal":
            if self.dealt_now is None:
                self._deal()
            dealt = self.dealt_now
            assert dealt is not None, "_deal() deals"
            for seat in g.deal_order():
                key = str(seat)
                if key not in s["current"] and s["expect"].get(key, 0) > 0:
                    return f"table cards {seat} {','.join(dealt[key])}", "camera"
        if ph == "draw":
            for i, sl in enumerate(s["slots"]):
                if sl is not None and not sl["face_up"]:
                    return f"table prize {i} {self.slot_cards[i]}", "camera"
        if ph == "playoff":
            return (self._v1() if g.options.playoff == 1 else self._v2()), "button"
        raise RuntimeError(f"lottery sim: nothing to do in phase {ph}")  # pragma: no cover

    def _deal(self) -> None:
        g = self.game
        self.dealt_now = {}
        expect = g.s["expect"]
        order = g.deal_order()
        # one card at a time round the table from the dealer's left (seed ¶: the short deal)
        for k in range(3):
            for seat in order:
                key = str(seat)
                if expect.get(key, 0) > k:
                    self.dealt_now.setdefault(key, []).append(self.dealer_deck.pop())
        if self.rng.random() < self.void_rate:
            self._void_after = self.rng.randrange(0, len(order) + 3)

    def applied(self, action_text: str) -> None:
        g = self.game
        s = g.s
        verb = action_text.split()[1]
        if verb == "void":
            self._restore()
            return
        for w in s["won"][self._won_seen:]:
            i = w["slot"]
            if self.slot_cards[i] is not None:
                self.banker_discard.append(self.slot_cards[i])
                self.slot_cards[i] = None
        self._won_seen = len(s["won"])
        for i, sl in enumerate(s["slots"]):
            if sl is None:
                card = self.slot_cards[i]
                if card is not None:
                    self.banker_discard.append(card)
                    self.slot_cards[i] = None
            elif not sl["face_up"] and self.slot_cards[i] is None:
                self.slot_cards[i] = self.banker_deck.pop()   # a replacement prize, face down
        if s["phase"] != "deal":
            self.dealt_now = None
        if g._mark is not None and g._mark is not self._seen_mark:
            self._seen_mark = g._mark
            self._my_mark = clone_state((self.banker_deck, self.dealer_deck, self.slot_cards,
                                           self.banker_discard, self._won_seen))
            if s["phase"] == "deal":
                self.dealt_now = None

    def _restore(self) -> None:
        (self.banker_deck, self.dealer_deck, self.slot_cards, self.banker_discard,
         self._won_seen) = clone_state(self._my_mark)
        self.rng.shuffle(self.dealer_deck)  # the returned cards are shuffled back in
        self.dealt_now = None
        self._void_after = None

    # ------------------------------------------------------------------ truth
    @property
    def truth(self) -> dict:
        """The physical table for a scene renderer (face-down prizes and decks included — never
        for a screen)."""
        g = self.game
        s = g.s
        po = s["po"]
        return {
            "game": "lottery",
            "seats": list(g.seats),
            "banker": g.options.banker,
            "dealer": g.options.dealer,
            "banker_deck": len(self.banker_deck),
            "dealer_deck": len(self.dealer_deck),
            "prizes": [None if sl is None else {"card": self.slot_cards[i], "face_up": sl["face_up"],
                                                "chips": sl["chips"]}
                       for i, sl in enumerate(s["slots"])],
            "dealt": {k: list(v) for k, v in (self.dealt_now or {}).items()},   # face up
            "aside": {k: list(v) for k, v in s["aside"].items()} if po is None else {},
            "playoff_hands": {k: list(v) for k, v in po["hands"].items()} if po else {},
            "playoff_table": ([po["attack"]] if po and po["attack"] else
                              [c for _, c in po["trick"]] if po else []),
            "balances": list(s["balances"]),
            "box": s["box"],
            "stakes": s["stakes"],
            "banker_discard": list(self.banker_discard),
        }

    @truth.setter
    def truth(self, value) -> None:  # TableSim.__init__ assigns {}; the property supersedes it
        pass


SIM = LotterySim
