"""Simulated table for ``infinity`` (seed ``003_*``): a shuffled physical deck, the hands, the
trick, the face-down trick piles, and bots that play sensibly.

The sim holds the physical truth the engine never sees (which cards each hand holds). It reports
plays the two ways a real table does (``docs/rules/infinity.md``, "Plays and the camera"): mostly
as one camera read ``<seat> play <card>`` (source ``camera``), sometimes as a button declaration
``<seat> play ?`` (source ``button``) followed by the camera's ``table face <card>``. Deals are
reported by the operator (``table deal ?``), leftover cards by the camera (``table kept``).

Bot strategy (per seat, deterministic given the seed):
* the closing seat (token owner) takes a trick worth taking with its lowest card that wins
  (equal to the highest wins, being later), otherwise dumps its lowest card;
* other seats call "ХОЙ!" when they hold the value just played and that value is the trick's
  highest (to take the token and close the trick), otherwise they play low;
* the leader leads its lowest card; a little randomness keeps games varied.
"""

from __future__ import annotations

from companion.games.infinity.rules import INF, card_rank
from companion.games.simulator import TableSim


class InfinitySim(TableSim):
    """Physical truth and bots for one ``infinity`` table (see module docstring).

    Args:
        game: an :class:`companion.games.infinity.InfinityGame`.
        seed: random seed.
        declare_rate: share of plays reported as button declaration + camera face (0..1).
        void_rate: chance per deal that the operator voids it once mid-deal (a table mishap).
    """

    def __init__(self, game, seed: int, declare_rate: float = 0.25, void_rate: float = 0.02) -> None:
        super().__init__(game, seed)
        self.declare_rate = declare_rate
        self.void_rate = void_rate
        n = len(game.seats)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.stock: list[str] = []
        self.aside: list[str] = []
        self.piles: list[list[str]] = [[] for _ in range(n)]
        self.in_hand_pending: str | None = None  # card a seat declared (lies face up, not yet read)
        self._void_at: int | None = None
        self._plays_this_deal = 0
        self._table_cards: list[str] = []
        self.truth_pending: tuple[int, str] | None = None

    # ------------------------------------------------------------------ physical deck
    def _full_deck(self) -> list[str]:
        cards = [c for c, k in self.game.deck.items() for _ in range(k)]
        self.rng.shuffle(cards)
        return cards

    def _deal(self) -> None:
        g = self.game
        n = len(g.seats)
        s = g.s
        share = s["hands"][0]
        if n == 2 and s["half"] == 1:
            pass  # second half: stock already shuffled
        else:
            deck = self._full_deck()
            self.piles = [[] for _ in range(n)]
            self.aside = deck[:s["aside"]]
            self.stock = deck[s["aside"]:]
            self._void_at = (self.rng.randrange(5, 30) if self.rng.random() < self.void_rate else None)
            self._plays_this_deal = 0
        # one card at a time round the table (the physical order does not matter to the rules)
        self.hands = [[] for _ in range(n)]
        for _ in range(share):
            for i in range(n):
                self.hands[i].append(self.stock.pop())

    # ------------------------------------------------------------------ bots
    def _choose(self, seat: int) -> str:
        g = self.game
        s = g.s
        hand = sorted(self.hands[seat], key=card_rank)
        trick = s["trick"]
        rng = self.rng
        if not trick:
            if rng.random() < 0.15:
                return rng.choice(hand)
            # lead low; keep the Infinity for a fat trick
            low = [c for c in hand if c != INF] or hand
            return low[0]
        best = max(card_rank(c) for _, c in trick)
        prev = trick[-1][1]
        if seat == s["token"]:  # the closing card
            winners = [c for c in hand if card_rank(c) >= best]
            if winners and (rng.random() < 0.5 or sum(g.points_of(c) for _, c in trick) >= 150):
                return winners[0]
            non_hoy = [c for c in hand if card_rank(c) != card_rank(prev)]
            return (non_hoy or hand)[0]
        if prev in hand and card_rank(prev) == best and rng.random() < 0.8:
            return prev  # "ХОЙ!": take the token and the last word
        if rng.random() < 0.1:
            return rng.choice(hand)
        non_hoy = [c for c in hand if card_rank(c) != card_rank(prev)]
        return (non_hoy or hand)[0]

    def next_action(self) -> tuple[str, str] | None:
        g = self.game
        if g.is_over():
            return None
        s = g.s
        if s["phase"] == "deal":
            return "table deal ?", "operator"
        if s["phase"] == "kept":
            seat = s["kept_seat"]
            return f"table kept {seat} {','.join(self.hands[seat])}", "camera"
        if self._void_at is not None and self._plays_this_deal >= self._void_at:
            self._void_at = None
            return "table void", "operator"
        if s["pending"] is not None:
            return f"table face {self.in_hand_pending}", "camera"
        seat = s["turn"]
        card = self._choose(seat)
        if self.rng.random() < self.declare_rate:
            self.in_hand_pending = card
            return f"{seat} play ?", "button"
        return f"{seat} play {card}", "camera"

    # ------------------------------------------------------------------ truth follows the referee
    def applied(self, action_text: str) -> None:
        g = self.game
        parts = action_text.split()
        actor, verb = parts[0], parts[1]
        if verb == "deal":
            self._deal()
        elif verb == "play":
            seat = int(actor)
            card = parts[2]
            if card == "?":
                declared = self.in_hand_pending
                assert declared is not None, "a bot declared the card (next_action)"
                self._remove(seat, declared)
                self.truth_pending = (seat, declared)
            else:
                self._remove(seat, card)
                self._played(seat, card)
            self._plays_this_deal += 1
        elif verb == "face":
            assert self.truth_pending is not None, "a declared card is waiting for its face"
            seat, card = self.truth_pending
            self.in_hand_pending = None
            self._played(seat, card)
        elif verb == "kept":
            seat = int(parts[2])
            self.piles[seat].extend(self.hands[seat])
            self.hands[seat] = []
        elif verb == "void":
            n = len(g.seats)
            self.hands = [[] for _ in range(n)]
            self.piles = [[] for _ in range(n)]
            self.stock, self.aside, self._table_cards = [], [], []
            self.in_hand_pending = None

    def _remove(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)

    def _played(self, seat: int, card: str) -> None:
        # the engine has already scored the trick if it closed; mirror its piles from the state
        g = self.game
        if not g.s["trick"] and g.s["last_winner"] is not None:
            # the trick just closed: every card on the table goes face down to the winner
            self.piles[g.s["last_winner"]].extend(self._table_cards + [card])
            self._table_cards = []
        else:
            self._table_cards.append(card)

    @property
    def truth(self) -> dict:
        """The physical table (hands and piles face down — never for a screen), built on read."""
        g = self.game
        s = g.s
        return {
            "game": "infinity",
            "seats": list(g.seats),
            "hands": [list(h) for h in self.hands],          # face down in the players' hands
            "stock": list(self.stock),                        # two players: the undealt half, face down
            "aside": list(self.aside),                        # face down, unscored
            "trick": [{"seat": p, "card": c, "face_up": True} for p, c in s["trick"]],
            "pending": ({"seat": s["pending"], "card": self.in_hand_pending, "face_up": True}
                        if s["pending"] is not None else None),
            "piles": [list(p) for p in self.piles],          # won tricks, face down
            "token": s["token"],
            "leader": s["leader"],
            "turn": s["turn"],
        }

    @truth.setter
    def truth(self, value) -> None:  # TableSim.__init__ assigns {}; the property supersedes it
        pass


SIM = InfinitySim
