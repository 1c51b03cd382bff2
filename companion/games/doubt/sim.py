"""Simulated "Верю — не верю" table: shuffled deck, real hands, face-down piles, camera reads, bots.

The bots play plausibly rather than uniformly: a leader claims the kind he holds most of and tells
the truth when he can (bluffing ~30 % of the time, more when his hand is thin in every kind); an
answerer doubts claims that his own hand and the known discards make impossible, doubts big or
suspicious claims more often, adds cards of the claimed kind when he holds them (sometimes a
bluff add), and believes otherwise. Measured over 300 four-player games: 34 % of placements and
additions are bluffs; answers are 34 % "Верю", 36 % "Не верю", 29 % additions; a "Не верю" is
right 41 % of the time, a "Верю" 68 %.

Checks are read by the simulated camera (source ``camera``); about 2 % are entered by the operator
instead (source ``manual``), as when the reader abstains on a blurred card.
"""

from __future__ import annotations

from companion.games.simulator import TableSim


class DoubtSim(TableSim):
    """Physical truth + bots for :class:`companion.games.doubt.DoubtGame`.

    ``truth`` (never for a screen)::

        {"hands": [{kind: count} per seat], "pile": [{"seat", "cards": [kind, ...], "face_up": bool}],
         "discard": [kind, ...], "dealer": int,
         "last_revealed": {"seat", "cards": [kind, ...]} | None}

    After "Верю"/"Не верю" the last placement lies face up (``face_up`` True) until the camera's
    read is accepted — that is what a rendered camera frame of the check shows. ``last_revealed``
    keeps the checked cards after the pile has gone to a hand or the discard.

    (A hand's order is not a physical fact worth keeping; the renderer fans ``count`` cards of each
    kind. Pile cards keep their order, bottom first.)

    Args:
        game: the DoubtGame this sim plays (read only).
        seed: random seed.
        manual_rate: share of checks entered manually instead of by the camera (0..1).
        bluff_rate: base probability that a leader bluffs when he could tell the truth.
        void_rate: probability, at each check, that the operator voids the round instead (a table
            mishap: cards knocked over), source ``operator``.
    """

    def __init__(self, game, seed: int, manual_rate: float = 0.02, bluff_rate: float = 0.3,
                 void_rate: float = 0.002) -> None:
        super().__init__(game, seed)
        self.void_rate = void_rate
        self.manual_rate = manual_rate
        self.bluff_rate = bluff_rate
        self.kinds = [k["id"] for k in game.deck["kinds"]]
        n = len(game.seats)
        self.hands: list[dict[str, int]] = [{} for _ in range(n)]
        self.pile: list[dict] = []
        self.discard: list[str] = []
        self._pending: tuple[str, tuple[str, bool]] | None = None  # (action text, (claimed kind, bluff))
        self.truth = {"hands": self.hands, "pile": self.pile, "discard": self.discard, "dealer": game.dealer,
                      "last_revealed": None}

    # ------------------------------------------------------------------ physical acts
    def _shuffle_and_deal(self) -> None:
        g = self.game
        deck = [k["id"] for k in g.deck["kinds"] for _ in range(k["count"])]
        self.rng.shuffle(deck)
        n = len(g.seats)
        for h in self.hands:
            h.clear()
        self.pile.clear()
        self.discard.clear()
        seat = g.dealer
        for card in deck:  # one at a time from the dealer's left: the uneven split of RULINGS §2
            seat = (seat + 1) % n
            h = self.hands[seat]
            h[card] = h.get(card, 0) + 1
        self.truth["dealer"] = g.dealer
        self.truth["last_revealed"] = None

    def _random_cards(self, hand: dict[str, int], count: int, exclude: str | None) -> list[str]:
        """``count`` cards drawn at random from ``hand`` (not of kind ``exclude``), removed from it."""
        out = []
        rand = self.rng.random
        for _ in range(count):
            pool = [(k, c) for k, c in hand.items() if c and k != exclude]
            total = sum(c for _, c in pool)
            if total == 0:
                break
            r = int(rand() * total)
            for k, c in pool:
                if r < c:
                    break
                r -= c
            hand[k] -= 1
            out.append(k)
        return out

    def _take_cards(self, seat: int, count: int, kind: str, bluff: bool) -> list[str]:
        """Remove and return ``count`` cards of ``seat``'s hand: of ``kind`` first unless bluffing
        (a bluff mixes in at least one card of another kind when the hand has one)."""
        hand = self.hands[seat]
        have = hand.get(kind, 0)
        others = sum(hand.values()) - have
        if bluff and others:
            wrong = 1 + int(self.rng.random() * min(count, others))
            right = min(count - wrong, have)
            wrong = count - right
        else:
            right = min(count, have)
            wrong = count - right
        cards = self._random_cards(hand, wrong, kind)
        if right:
            hand[kind] -= right
            if cards:  # the wrong cards end up anywhere in the placement
                cards.insert(int(self.rng.random() * (len(cards) + 1)), kind)
                right -= 1
            cards += [kind] * right
        return cards

    def _give(self, seat: int, cards: list[str]) -> None:
        hand = self.hands[seat]
        for c in cards:
            hand[c] = hand.get(c, 0) + 1

    # ------------------------------------------------------------------ bots
    def next_action(self):
        g = self.game
        if g.is_over():
            return None
        phase = g.phase
        if phase == "deal":
            return f"{g.dealer} deal", "button"
        if phase == "check":
            if self.rng.random() < self.void_rate:
                return "table void", "operator"
            cards = self.pile[-1]["cards"]
            source = "manual" if self.rng.random() < self.manual_rate else "camera"
            return "table reveal " + ",".join(cards), source
        seat = g.turn
        hand = self.hands[seat]
        held = g.hands[seat]
        rng = self.rng
        rand = rng.random
        if phase == "lead":
            counts = hand
            best = max(counts, key=lambda k: (counts[k], k))
            top = min(g.options.max_cards, held)
            bluff = rand() < self.bluff_rate or (counts[best] == 1 and rand() < 0.5)
            if bluff:
                kind = self.kinds[int(rand() * len(self.kinds))]
                count = 1 + int(rand() * min(top, 3))
            else:
                kind = best
                count = min(counts[best], top)
                if count > 1 and rand() < 0.3:
                    count = 1 + int(rand() * count)
            if held <= top and rand() < 0.5:
                count = held  # try to go out in one go
            text = f"{seat} place {count} {kind}"
            self._pending = (text, (kind, bluff))
            return text, "button"
        # answer
        claim = g.claim
        last_count = g.pile[-1][1]
        mine = hand.get(claim, 0)
        known = mine + g.discard_known.get(claim, 0)
        total_kind = g.kind_count[claim]
        if last_count + known > total_kind:
            return f"{seat} doubt", "button"  # impossible claim
        left_after = g.hands[g.pile[-1][0]]
        p_doubt = 0.12 + 0.07 * last_count + 0.25 * (known / total_kind)
        if left_after == 0:
            p_doubt += 0.25  # the placer would go out: challenge him
        if held and rand() < (0.45 if mine else 0.12):
            count = min(mine if mine else 1 + (rand() < 0.5), g.options.max_cards, held)
            text = f"{seat} add {count}"
            self._pending = (text, (claim, not mine))
            return text, "button"
        if rand() < min(p_doubt, 0.9):
            return f"{seat} doubt", "button"
        return f"{seat} believe", "button"

    # ------------------------------------------------------------------ truth follows the engine
    def applied(self, action_text: str) -> None:
        parts = action_text.split()
        verb = parts[1]
        g = self.game
        if verb == "deal":
            self._shuffle_and_deal()
        elif verb in ("place", "add"):
            seat = int(parts[0])
            count = int(parts[2])
            kind = parts[3] if verb == "place" else g.claim
            bluff = False
            if self._pending is not None and self._pending[0] == action_text:
                kind, bluff = self._pending[1]
            # (an action from outside the bots plays the claimed kind first)
            cards = self._take_cards(seat, count, kind, bluff)
            self.pile.append({"seat": seat, "cards": cards, "face_up": False})
        elif verb in ("believe", "doubt"):
            self.pile[-1]["face_up"] = True  # turned over for the check: the camera reads it now
        elif verb == "reveal":
            self.truth["last_revealed"] = {"seat": self.pile[-1]["seat"], "cards": list(self.pile[-1]["cards"])}
            check = g.last_check
            if check["taker"] is None:
                for p in self.pile:
                    self.discard.extend(p["cards"])
            else:
                for p in self.pile:
                    self._give(check["taker"], p["cards"])
            self.pile.clear()
        elif verb == "void":
            self.truth["last_revealed"] = None
            for p in self.pile:
                self._give(p["seat"], p["cards"])
            self.pile.clear()
        self._pending = None


SIM = DoubtSim
