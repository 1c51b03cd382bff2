"""The state of a "6100" table (:class:`InfinityState`): the hand counts, the cards not yet seen
this deal, the trick and the points, and the small queries every part of the engine asks."""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalAction
from companion.games.base import Game, Options
from companion.games.infinity.cards import INF, canonical_card, card_for_name, card_rank, card_words
from companion.games.infinity.options import InfinityOptions


class InfinityState(Game):
    """A "6100" table's state (``self.s``, a JSON-like dict) and its helpers;
    :class:`companion.games.infinity.rules.InfinityGame` adds the checks, the moves and the views."""

    options: InfinityOptions

    @classmethod
    def seat_range(cls, options: Options | None = None) -> tuple[int, int]:
        """No more players than the deck has cards (a home-made deck of 5 serves 5), two only
        with 4 cards or more."""
        try:
            size = sum((options if isinstance(options, InfinityOptions) else InfinityOptions()).deck_profile().values())
        except IllegalAction:
            return cls.MIN_SEATS, cls.MAX_SEATS
        return (cls.MIN_SEATS if size >= 4 else 3), min(cls.MAX_SEATS, size)

    def __init__(self, seats, options=None) -> None:
        super().__init__(seats, options)
        self.deck = self.options.deck_profile()
        self.deck_size = sum(self.deck.values())
        n = len(self.seats)
        if (n == 2 and self.deck_size < 4) or self.deck_size < n:
            raise self.seat_refusal(n, self.options, f"a {self.deck_size}-card deck cannot serve {n} players")
        # All mutable state lives in self.s (JSON-safe), so snapshot and void are a copy.
        self.s: dict[str, Any] = {
            "phase": "deal",          # deal | play | kept | over
            "deal": 0,                # index of the current deal (партия), 0-based
            "half": 0,                # two players: 0 = first 9+9, 1 = second 9+9
            "hands": [0] * n,         # cards held, per seat (faces unknown to the engine)
            "unseen": {},             # card -> count not yet seen face up this deal
            "aside": 0,               # cards set aside face down, unscored (3+ players' remainder)
            "stock": 0,               # two players: cards of the second half not yet dealt
            "trick": [],              # [[seat, card], ...] face up, in play order
            "leader": None, "token": None, "turn": None,
            "pending": None,          # seat that declared a play whose face is not read yet
            "kept_seat": None,
            "tricks": [0] * n,        # tricks won this deal
            "points": [0] * n,        # points this deal
            "totals": [0] * n,
            "deal_scores": [],        # [[points per seat], ...] per finished deal
            "first_leaders": [],      # first leader of each deal
            "last_winner": None,
            "hoys": 0,                # ХОЙ! calls this game
            "voids": 0,
        }
        self._deal_start: dict | None = None
        self._points: dict[str, int] = {}

    # ------------------------------------------------------------------ helpers
    def conserved(self) -> dict[str, int]:
        """While a deal is played every card is in a hand, aside, in the stock or seen (``cards``),
        and the points scored plus those on the table are the seen cards' points (``points``):
        both differences are always 0."""
        s = self.s
        if s["phase"] not in ("play", "kept"):
            return {"cards": 0, "points": 0}
        seen = [c for c, k in self.deck.items() for _ in range(k - s["unseen"].get(c, 0))]
        on_table = sum(self.points_of(c) for _, c in s["trick"])
        return {"cards": sum(s["hands"]) + s["aside"] + s["stock"] - sum(s["unseen"].values()),
                "points": sum(s["points"]) + on_table - sum(self.points_of(c) for c in seen)}

    def points_of(self, card: str) -> int:
        """Points a card scores under the options (seed last ¶ for the simplified scoring)."""
        pts = self._points.get(card)
        if pts is None:
            pts = self._points[card] = self._points_uncached(card)
        return pts

    def _points_uncached(self, card: str) -> int:
        value = self.options.infinity_points if card == INF else int(card)
        if self.options.simplified_scoring:
            value = value // 100 * 100
        return value

    def holders(self) -> list[int]:
        return [i for i, c in enumerate(self.s["hands"]) if c > 0]

    def _prev_holder(self, seat: int) -> int:
        """The nearest seat to ``seat``'s right (counter-clockwise) that holds cards."""
        n = len(self.seats)
        for step in range(1, n):
            s = (seat - step) % n
            if self.s["hands"][s] > 0:
                return s
        return seat

    def expected_leader(self) -> int:
        """The leader the rules give for the deal about to be dealt (option ``deal_leader``)."""
        s = self.s
        if s["half"] == 1:
            return s["last_winner"] if s["last_winner"] is not None else s["first_leaders"][-1]
        if not s["first_leaders"]:
            return 0
        return (s["first_leaders"][-1] + 1) % len(self.seats)

    def deck_cards(self) -> list[str]:
        """This table's card values, weakest first (``["10", "36", …, "INF"]``): the table's own
        deck profile, not another game's card codes."""
        return sorted(self.deck, key=card_rank)

    def deck_words(self) -> list:
        """:meth:`deck_cards` as the pages name them (Infinity by its name, «Бесконечность»,
        :func:`~companion.games.infinity.cards.card_words`): a refusal of a card written wrong
        names them in the page's language."""
        return [card_words(c) for c in self.deck_cards()]

    def kind_for_name(self, text: str) -> str:
        """A card typed by the name the pages show, as the engine reads it: «бесконечность»,
        ``Infinity`` (any case) → ``INF``; anything else as typed (the checks refuse a card written
        wrong with the deck's cards, ``bad_card``). The dashboard's typed paths ask this before the
        engine sees an action (``companion.dashboard.manualentry.typed_cards``), as they ask doubt's
        deck for its kinds' names."""
        return card_for_name(text) or text

    def _check_card(self, token: str | None, *, need: int = 1) -> str:
        card = canonical_card(token) if token is not None else None
        if card is None:
            raise IllegalAction("bad_card", f"{token!r} is not a card (a value such as 500, or INF)",
                                {"card": token, "deck": self.deck_words()})
        if card not in self.deck:
            raise IllegalAction("unknown_card", f"this deck has no {card}", {"card": card, "deck": self.deck_words()})
        if self.s["unseen"].get(card, 0) < need:
            raise IllegalAction("card_exhausted", f"every {card} of the deck has already been seen this deal")
        return card
