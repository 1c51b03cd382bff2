"""Card lottery ("Карточная лотерея", seed ``004_*``, RULINGS §5), game id ``lottery``.

Two full 52-card decks: the banker's (prize cards) and the dealer's (players' cards). Players pay
an entry stake into the box; the banker lays four prize cards face down and spreads the box over
them, every prize a different amount. The dealer deals three cards to each player, face up; the
banker turns the prizes one by one; a player holding the identical card (rank and suit) wins that
prize's chips. Every card that won nothing costs its holder a stake; the banker replaces each won
prize from his deck and spreads the new stakes so all amounts stay different. When the dealer's
deck runs out (the last deal is short) the cards that won nothing are played off (variant 1: cover
or take; variant 2: suit-ranked tricks) and the loser(s) pay fines into the box, which carries
over to the next game.

Every chip is accounted for at every step: ``sum(balances) + box + stakes + chips on prizes`` is
constant (:meth:`LotteryGame.chips_total`).

Card codes: rank ``A K Q J 10 9 8 7 6 5 4 3 2`` then suit ``S H D C`` — ``QH``, ``10S``.
Rules as implemented, options and reason codes: ``docs/rules/lottery.md``.
"""

from __future__ import annotations

import marshal
import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.errors import IllegalAction
from companion.games.base import HOUSE_MAX, Action, Event, Game, Options
from companion.games.words import TABLE_DOES
from companion.games.lottery.actions import Cards, Cover, Lead, PlayCard, PrizeCard, Spread, Take, Void


def _clone(obj):
    """A deep copy of JSON-like state (dicts, lists, str, int, None): marshal is ~10x faster than
    copy.deepcopy, which dominated the simulated games' time."""
    return marshal.loads(marshal.dumps(obj))

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Low to high: "Сила карт стандартная" (seed ¶3)."""
SUITS = ("S", "H", "D", "C")
SUIT_ORDER = {"H": 4, "C": 3, "D": 2, "S": 1}
"""Play-off variant 2: ♥ > ♣ > ♦ > ♠ (seed last ¶, RULINGS §5)."""
SUIT_FINES = {"H": 4, "C": 3, "D": 2, "S": 1}
"""Play-off variant 2 fines per card left in hand: ♥4 ♣3 ♦2 ♠1 (seed last ¶)."""
FULL_DECK = tuple(r + s for s in SUITS for r in RANKS)
PRIZE_SLOTS = 4
"""Seed ¶5: the banker lays out 4 prize cards."""

REASONS = {
    "bad_option": "an option is unknown or impossible (e.g. the box cannot make four different prizes)",
    "bad_seats": "fewer than two card-holding players, or banker and dealer are the same seat",
    "game_over": "the play-off has ended",
    "wrong_phase": "this action is not possible now",
    "not_your_turn": "another seat (or the table) must act now",
    "bad_card": "the card code is malformed (rank A K Q J 10..2 and suit S H D C, e.g. QH)",
    "bad_spread": "the spread does not give one amount per prize slot, or puts chips on an empty slot or a negative amount",
    "wrong_total": "the spread does not add up to the chips to be spread",
    "prize_empty": "the first spread must put at least one chip on every prize",
    "amounts_must_differ": "two prizes would carry the same amount while a spread with all amounts different exists",
    "not_a_player": "that seat holds no cards in this game (banker or dealer)",
    "already_read": "that seat's cards for this deal are already read",
    "wrong_count": "the number of cards read differs from the number dealt to that seat",
    "card_already_dealt": "that card of the dealer's deck has already been dealt",
    "duplicate_card": "the same card is listed twice in one entry (each deck holds each card once)",
    "no_such_slot": "there is no face-down prize in that slot",
    "prize_already_drawn": "that card of the banker's deck has already been laid as a prize",
    "cards_not_read": "the prizes are turned only after every player's cards are read",
    "not_in_hand": "the seat does not hold that card",
    "must_lead_lowest_of_highest_suit": "variant 2: the first lead is the lowest card of the leader's highest suit",
    "must_follow_suit": "variant 2: a player who holds the led suit must play it",
    "cannot_cover": "a cover must be a higher card of the same suit",
    "nothing_to_cover": "no card has been led to this seat",
    "nothing_to_void": "no deal or play-off is in progress",
}

# ---------------------------------------------------------------------- cards
@functools.lru_cache(maxsize=128)
def parse_card(token: str) -> tuple[str, str] | None:
    """``"QH"`` → ``("Q", "H")``; ``None`` when malformed."""
    if not isinstance(token, str) or len(token) < 2:
        return None
    t = token.strip().upper()
    rank, suit = t[:-1], t[-1]
    if rank == "1" or rank == "T":
        rank = "10"
    if rank not in RANKS or suit not in SUITS:
        return None
    return rank, suit


def canonical(token: str) -> str | None:
    """The canonical card code (``"10S"``) or ``None``."""
    p = parse_card(token)
    return p[0] + p[1] if p else None


_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}


def rank_index(card: str) -> int:
    """0 for a 2 … 12 for an ace (``card`` canonical, e.g. ``"QH"``)."""
    return _RANK_INDEX[card[:-1]]


def suit_of(card: str) -> str:
    return card[-1]


def find_spread(bases: list[int | None], total: int, minimum: int = 0,
                order: list[int] | None = None) -> tuple[int, ...] | None:
    """A way to add ``total`` chips over the prize slots so all present prizes differ.

    Args:
        bases: chips already on each slot; ``None`` for an empty slot (gets 0).
        total: chips to add (≥ 0).
        minimum: least amount any present prize may end with.
        order: slot order in which to try (the last present slot takes the remainder).

    Returns:
        additions per slot, or ``None`` when no spread makes every amount different.
    """
    present = [i for i, b in enumerate(bases) if b is not None]
    if order is not None:
        present = [i for i in order if bases[i] is not None]
    out = [0] * len(bases)
    if not present:
        return tuple(out) if total == 0 else None
    on = [b or 0 for b in bases]  # the chips on each slot (only present slots are read)

    def rec(k: int, left: int, used: set[int]) -> bool:
        i = present[k]
        if k == len(present) - 1:
            final = on[i] + left
            if final >= minimum and final not in used:
                out[i] = left
                return True
            return False
        for x in range(0, left + 1):
            final = on[i] + x
            if final < minimum or final in used:
                continue
            out[i] = x
            used.add(final)
            if rec(k + 1, left - x, used):
                return True
            used.discard(final)
        return False

    return tuple(out) if rec(0, total, set()) else None


# ---------------------------------------------------------------------- options
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class LotteryOptions(Options):
    """House rules of ``lottery`` (RULINGS §5; ``docs/rules/lottery.md``). Amounts in chips.

    Attributes:
        banker: seat of the banker (RULINGS §5).
        dealer: seat of the dealer.
        officials_play: banker and dealer also hold cards (RULINGS §5: default they don't).
        chips: chips each seat holds at the start (seed ¶4 "сдают всем играющим определенное число фишек").
        entry_stake: each card-holding player's entry into the box (seed ¶4).
        card_stake: stake per card that won nothing, after each draw (seed ¶7).
        box: chips already in the box, carried over from the previous game (RULINGS §5).
        playoff: play-off variant, 1 (cover or take, default) or 2 (suit-ranked tricks).
        fine_per_card: variant 1 fine per card left in the last hand (seed ¶9 "определенный штраф").
        stall_limit: variant 1: after this many leads in a row taken (none covered) the play-off
            stops and every holder pays the fine per card (termination; house rule).
    """

    SEATS: ClassVar[tuple[str, ...]] = ('banker', 'dealer')  # seat indexes (shown 1-based on forms)
    CARRIED: ClassVar[dict[str, str]] = {"box": "box"}  # the box carries over (RULINGS §5)

    #: whole-number ranges; the seed leaves amounts to the table (house limit: HOUSE_MAX chips)
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {
        "chips": (0, HOUSE_MAX), "entry_stake": (0, HOUSE_MAX), "card_stake": (0, HOUSE_MAX), "box": (0, HOUSE_MAX),
        "playoff": (1, 2), "fine_per_card": (0, HOUSE_MAX), "stall_limit": (1, HOUSE_MAX)}
    banker: int = 0
    dealer: int = 1
    officials_play: bool = False
    chips: int = 30
    entry_stake: int = 5
    card_stake: int = 1
    box: int = 0
    playoff: int = 1
    fine_per_card: int = 2
    stall_limit: int = 30

    def validate(self) -> None:
        for name in ("banker", "dealer", "chips", "entry_stake", "card_stake", "box", "playoff",
                     "fine_per_card", "stall_limit"):
            v = getattr(self, name)
            if not _is_int(v) or v < 0:
                raise IllegalAction("bad_option", f"{name} must be a non-negative integer")
        if not isinstance(self.officials_play, bool):
            raise IllegalAction("bad_option", "officials_play is true or false")
        if self.banker == self.dealer:
            raise IllegalAction("bad_option", "the banker and the dealer are two different seats",
                                facts={"options": ["banker", "dealer"], "rule": "different_seats"})
        if self.playoff not in (1, 2):
            raise IllegalAction("bad_option", "playoff is variant 1 or 2")
        if self.stall_limit < 1:
            raise IllegalAction("bad_option", "stall_limit must be at least 1")


# ---------------------------------------------------------------------- the game
class LotteryGame(Game):
    """One game of card lottery (seed ``004_*``, RULINGS §5).

    Args:
        seats: 2-20 names, clockwise; the banker and dealer seats are given by the options.
        options: :class:`LotteryOptions` or a dict.

    Raises:
        IllegalAction: ``bad_seats`` (banker/dealer not at the table, fewer than two card-holding
            players) or ``bad_option`` (e.g. the box cannot make four different prizes of ≥ 1 chip).
    """

    GAME_ID: ClassVar[str] = "lottery"
    ACTIONS: ClassVar[tuple[type[Action], ...]] = (Spread, Cards, PrizeCard, Lead, Cover, Take, PlayCard, Void)
    OPTIONS: ClassVar[type[Options]] = LotteryOptions
    options: LotteryOptions
    MIN_SEATS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 20
    REASONS: ClassVar[dict[str, str]] = REASONS

    def __init__(self, seats, options=None) -> None:
        super().__init__(seats, options)
        o = self.options
        n = len(self.seats)
        if o.banker >= n or o.dealer >= n:
            raise IllegalAction("bad_seats", "the banker and dealer must be seats at the table")
        self.players = [i for i in range(n) if o.officials_play or i not in (o.banker, o.dealer)]
        if len(self.players) < 2:
            raise IllegalAction("bad_seats", "the lottery needs at least two card-holding players")
        pool = o.box + o.entry_stake * len(self.players)
        if pool < 1 + 2 + 3 + 4:
            raise IllegalAction(
                "bad_option", f"box + entries = {pool} chips cannot make four different prizes (need 10)")
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
        self._mark = _clone(s)
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
        self._mark = _clone(s)
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
        self.s = _clone(self._mark)
        self.s["voids"] = voids
        return [Event("voided", {"what": what, "draw": self.s["draw"] + 1})]

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int | None) -> list[Action]:
        s = self.s
        o = self.options
        ph = s["phase"]
        if ph == "over":
            return []
        out: list[Action] = []
        if seat is None:
            if ph == "deal":
                out += [Cards(None, int(k), None) for k, v in s["expect"].items()
                        if v > 0 and k not in s["current"]]
            elif ph == "draw":
                out += [PrizeCard(None, i, None) for i, sl in enumerate(s["slots"])
                        if sl is not None and not sl["face_up"]]
            if self._mark is not None and ph != "spread":
                out.append(Void(None))
            return out
        if ph == "spread" and seat == o.banker:
            minimum = 1 if s["pool_from_box"] else 0
            bases = self.spread_bases()
            sp = find_spread(bases, self.spread_pool(), minimum)
            if sp is None:  # no spread keeps all amounts different: any one is accepted
                first = next(i for i, b in enumerate(bases) if b is not None)
                sp = tuple(self.spread_pool() if i == first else 0 for i in range(PRIZE_SLOTS))
            out.append(Spread(seat, sp))
            return out
        if ph == "playoff":
            po = s["po"]
            if o.playoff == 2:
                if seat == po["turn"]:
                    out += [PlayCard(seat, c) for c in self._hand(seat) if self.is_legal(PlayCard(seat, c))]
            elif po["attack"] is None and seat == po["leader"]:
                out += [Lead(seat, c) for c in self._hand(seat)]
            elif po["attack"] is not None and seat == po["defender"]:
                out += [Cover(seat, c) for c in self._hand(seat) if self.is_legal(Cover(seat, c))]
                out.append(Take(seat))
        return out

    def current_seats(self) -> list[int]:
        s = self.s
        ph = s["phase"]
        if ph == "spread":
            return [self.options.banker]
        if ph == "playoff":
            po = s["po"]
            if self.options.playoff == 2:
                return [po["turn"]] if po["turn"] is not None else []
            if po["attack"] is not None:
                return [po["defender"]]
            return [po["leader"]] if po["leader"] is not None else []
        return []

    def is_over(self) -> bool:
        return self.s["phase"] == "over"

    def result(self) -> dict | None:
        if not self.is_over():
            return None
        s = self.s
        o = self.options
        net = [b - o.chips for b in s["balances"]]
        best = max(net[p] for p in self.players)
        winners = [p for p in self.players if net[p] == best]
        return {
            "game": self.GAME_ID,
            "balances": {self.seats[i]: b for i, b in enumerate(s["balances"])},
            "net": {self.seats[i]: v for i, v in enumerate(net)},
            "box": s["box"],
            "box_carried_in": o.box,
            "prizes_won": [dict(w, name=self.seats[w["seat"]]) for w in s["won"]],
            "stakes_paid": {self.seats[i]: v for i, v in enumerate(s["stakes_paid"]) if i in self.players},
            "fines": {self.seats[i]: v for i, v in enumerate(s["fines"]) if i in self.players},
            "playoff_variant": o.playoff,
            "playoff_stalled": bool(s["po"] and s["po"].get("stalled")),
            "winners": winners,
            "winner": self.seats[winners[0]] if len(winners) == 1 else None,
            "draws": s["draw"],
            "rounds": s["draw"],
            "voids": s["voids"],
            "chips_total": self.chips_total(),
            # the roles' names: their net is in ``net`` too, beside the card-holding players'
            "banker": self.seats[o.banker] if o.banker is not None else None,
            "dealer": self.seats[o.dealer] if o.dealer is not None else None,
        }

    def replay_summary(self) -> dict:
        """Summary for ``companion replay --json``: ``{"game", "over", "winner", "rounds", "box",
        "result", "seats": [{"name", "role", "balance", "net"}]}`` (rounds = draws finished)."""
        s = self.s
        o = self.options
        result = self.result()

        def role(i: int) -> str:
            return "banker" if i == o.banker else "dealer" if i == o.dealer else "player"

        return {
            "game": self.GAME_ID, "over": self.is_over(),
            "winner": result["winner"] if result else None,
            "rounds": s["draw"], "box": s["box"], "result": result,
            "seats": [{"name": n, "role": role(i), "balance": s["balances"][i],
                       "net": s["balances"][i] - o.chips} for i, n in enumerate(self.seats)],
        }

    def view(self, seat: int | None) -> dict:
        """Everything the engine knows is public (players' cards are dealt face up, seed ¶6);
        face-down prize cards are unknown to the engine and shown as face down."""
        s = self.s
        po = s["po"]
        v = {
            "game": self.GAME_ID,
            "seats": list(self.seats),
            "banker": self.options.banker,
            "dealer": self.options.dealer,
            "players": list(self.players),
            "phase": s["phase"],
            "draw": s["draw"] + (0 if s["phase"] in ("playoff", "over") else 1),
            "balances": list(s["balances"]),
            "box": s["box"],
            "stakes": s["stakes"],
            "to_spread": self.spread_pool() if s["phase"] == "spread" else 0,
            "prizes": [None if sl is None else {"slot": i, "face_up": sl["face_up"],
                                                "card": sl["card"] if sl["face_up"] else None,
                                                "chips": sl["chips"]}
                       for i, sl in enumerate(s["slots"])],
            "banker_deck": s["banker_left"],
            "dealer_deck": 52 - len(s["dealt"]),
            "expect": dict(s["expect"]),
            "current": {k: list(v) for k, v in s["current"].items()},
            "aside": {k: list(v) for k, v in s["aside"].items()},
            "won": [dict(w) for w in s["won"]],
            # each seat's chips at the start and after each draw (the result screen's chart)
            "balances_by_draw": [list(b) for b in s.get("by_draw", [])],
            "last_winner": s["last_winner"],
            "current_seats": self.current_seats(),
            "chips_total": self.chips_total(),
            "version": self.version,
        }
        if po is not None:
            v["playoff"] = {"variant": self.options.playoff,
                            "hands": {k: list(h) for k, h in po["hands"].items()},
                            "leader": po["leader"], "attack": po["attack"], "defender": po["defender"],
                            "trick": [{"seat": p, "card": c} for p, c in po["trick"]],
                            "turn": po["turn"], "stall": po["stall"]}
        if self.is_over():
            v["result"] = self.result()  # public: the end of the game is told to everyone
        if seat is not None:
            v["you"] = seat
        return v

    def snapshot(self) -> dict:
        return {"s": _clone(self.s), "mark": _clone(self._mark),
                "options": self.options.to_dict()}


GAME = LotteryGame


