"""The state of a lottery table (:class:`LotteryState`): balances, box, prizes, the cards dealt
and the play-off, the chips they hold in all, and the small queries every part of the engine asks."""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction
from companion.games.base import Game, Options
from companion.games.lottery.cards import PRIZE_SLOTS, RANKS, SUIT_ORDER, canonical, rank_index, suit_of
from companion.games.lottery.options import LotteryOptions


#: the least the four prizes can hold: 1 + 2 + 3 + 4 chips, all different (seed ¶5)
PRIZE_POOL = 1 + 2 + 3 + 4


class LotteryState(Game):
    """A lottery table's state (``self.s``, a JSON-like dict) and its helpers;
    :class:`companion.games.lottery.rules.LotteryGame` adds the checks, the moves and the views."""

    options: LotteryOptions

    @classmethod
    def seat_range(cls, options: Options | None = None) -> tuple[int, int]:
        """Two card-holding players at least (RULINGS §5), and the banker and the dealer are seats
        at the table: by default they hold no cards, so 4 seats — 2 when they play too — and more
        when either sits further round (banker on seat 6: 6 seats)."""
        if not isinstance(options, LotteryOptions):
            options = LotteryOptions()
        officials = 0 if options.officials_play else len({options.banker, options.dealer})
        least = max(cls.MIN_SEATS, 2 + officials, options.banker + 1, options.dealer + 1)
        return least, cls.MAX_SEATS

    def __init__(self, seats, options=None) -> None:
        super().__init__(seats, options)
        o = self.options
        n = len(self.seats)
        if o.banker >= n or o.dealer >= n:
            raise self.seat_refusal(n, o, "the banker and dealer must be seats at the table")
        self.players = [i for i in range(n) if o.officials_play or i not in (o.banker, o.dealer)]
        if len(self.players) < 2:
            raise self.seat_refusal(n, o, "the lottery needs at least two card-holding players")
        pool = o.box + o.entry_stake * len(self.players)
        if pool < PRIZE_POOL:
            # two options bound by one rule: the facts name both and the numbers the rule sums,
            # so a refusal says the rule (companion.games.optionwords), not just «a bad value»
            raise IllegalAction(
                "bad_option", f"entry_stake × {len(self.players)} card-holding players + box = {pool} chips "
                f"cannot make four different prizes (need {PRIZE_POOL})",
                facts={"options": ["entry_stake", "box"], "rule": "prize_pool", "entry_stake": o.entry_stake,
                       "box": o.box, "players": len(self.players), "pool": pool, "need": PRIZE_POOL})
        self.start_chips_total = o.chips * n + o.box
        s: dict[str, Any] = {
            "phase": "spread",           # spread | deal | draw | playoff | over
            "balances": [o.chips] * n,
            "box": o.box,
            "stakes": 0,                 # chips collected, waiting for the banker's spread
            "pool_from_box": True,       # the first spread spreads the box
            "slots": [{"card": None, "face_up": False, "chips": 0} for _ in range(PRIZE_SLOTS)],
            "banker_left": 52 - PRIZE_SLOTS,
            "banker_seen": [],           # prize cards turned so far
            "dealt": [],                 # dealer's cards dealt so far
            "draw": 0,                   # draws completed
            "expect": {},                # seat -> cards to read this deal
            "current": {},               # seat -> its cards of this deal (face up)
            "aside": {str(p): [] for p in self.players},  # cards that won nothing (face up)
            "won": [],                   # [{draw, slot, card, seat, chips}]
            "won_this_draw": [],         # slots emptied this draw
            "last_winner": None,
            "entries": {},
            "stakes_paid": [0] * n,
            "fines": [0] * n,
            "po": None,                  # play-off state
            "voids": 0,
        }
        for p in self.players:
            s["balances"][p] -= o.entry_stake
            s["entries"][str(p)] = o.entry_stake
        s["box"] += o.entry_stake * len(self.players)
        s["by_draw"] = [list(s["balances"])]  # the balances at the start and after each draw (public)
        self.s = s
        self._mark: dict | None = None

    # ------------------------------------------------------------------ chips
    def conserved(self) -> dict[str, int]:
        """Chips: balances, box, stakes and prizes (seats × chips + the box carried in)."""
        return {"chips": self.chips_total()}

    def chips_total(self) -> int:
        """All chips at the table: balances + box + stakes + chips on prizes. Never changes."""
        s = self.s
        return sum(s["balances"]) + s["box"] + s["stakes"] + sum(sl["chips"] for sl in s["slots"] if sl)

    def spread_pool(self) -> int:
        """Chips the banker must spread now (the box at the start, later the stakes)."""
        return self.s["box"] if self.s["pool_from_box"] else self.s["stakes"]

    def spread_bases(self) -> list[int | None]:
        return [sl["chips"] if sl is not None else None for sl in self.s["slots"]]

    # ------------------------------------------------------------------ helpers
    def _next_player(self, seat: int, holders: set[int] | None = None) -> int | None:
        """Next player clockwise from ``seat`` (excluded) who is in ``holders`` (all players if None)."""
        n = len(self.seats)
        pool = set(self.players) if holders is None else holders
        for step in range(1, n + 1):
            s = (seat + step) % n
            if s in pool and s != seat:
                return s
        return None

    def deal_order(self) -> list[int]:
        """Players clockwise from the dealer's left (seed ¶: the short deal goes round from there)."""
        order = []
        seat = self.options.dealer
        for _ in range(len(self.seats)):
            seat = (seat + 1) % len(self.seats)
            if seat in self.players:
                order.append(seat)
        return order

    def _expected_counts(self) -> dict[str, int]:
        left = 52 - len(self.s["dealt"])
        order = self.deal_order()
        p = len(order)
        if left >= 3 * p:
            return {str(x): 3 for x in order}
        q, r = divmod(left, p)
        return {str(x): q + (1 if i < r else 0) for i, x in enumerate(order)}

    def _hand(self, seat: int) -> list[str]:
        return self.s["po"]["hands"][str(seat)]

    def _holders(self) -> set[int]:
        return {int(k) for k, v in self.s["po"]["hands"].items() if v}

    def forced_first_lead(self, seat: int) -> str:
        """Variant 2: the lowest card of the seat's highest suit (♥ > ♣ > ♦ > ♠)."""
        hand = self._hand(seat)
        top = max(SUIT_ORDER[suit_of(c)] for c in hand)
        cands = [c for c in hand if SUIT_ORDER[suit_of(c)] == top]
        return min(cands, key=rank_index)

    def _card(self, token: str | None) -> str:
        c = canonical(token) if token is not None else None
        if c is None:
            raise IllegalAction("bad_card", f"{token!r} is not a card code (e.g. QH, 10S)",
                                {"card": token, "ranks": list(reversed(RANKS)), "examples": ["QH", "10S", "2C"]})
        return c
