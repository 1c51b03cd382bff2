"""Simulated "Верю — не верю" table: shuffled deck, real hands, face-down piles, camera reads, bots.

The bots play plausibly rather than uniformly: a leader claims the kind he holds most of and tells
the truth when he can (bluffing ~30 % of the time, more when his hand is thin in every kind); an
answerer doubts claims that his own hand and the known discards make impossible, doubts big or
suspicious claims more often, adds cards of the claimed kind when he holds them (sometimes a
bluff add), and believes otherwise. Typical rates: ~25–35 % of placements are bluffs, ~30 % of
answers are "Не верю".

Checks are read by the simulated camera (source ``camera``); about 2 % are entered by the operator
instead (source ``manual``), as when the reader abstains on a blurred card.
"""

from __future__ import annotations

from companion.sim import TableSim


class DoubtSim(TableSim):
    """Physical truth + bots for :class:`companion.games.doubt.DoubtGame`.

    ``truth`` (never for a screen)::

        {"hands": [[kind, ...] per seat], "pile": [{"seat", "cards": [kind, ...], "face_up": bool}],
         "discard": [kind, ...], "dealer": int, "deck": [kind, ...] (undealt, in order)}

    Args:
        game: the DoubtGame this sim plays (read only).
        seed: random seed.
        manual_rate: share of checks entered manually instead of by the camera (0..1).
        bluff_rate: base probability that a leader bluffs when he could tell the truth.
    """

    def __init__(self, game, seed: int, manual_rate: float = 0.02, bluff_rate: float = 0.3) -> None:
        super().__init__(game, seed)
        self.manual_rate = manual_rate
        self.bluff_rate = bluff_rate
        self.kinds = [k["id"] for k in game.deck["kinds"]]
        n = len(game.seats)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.pile: list[dict] = []
        self.discard: list[str] = []
        self._pending: tuple[str, list[str]] | None = None  # (action text, cards chosen)
        self.truth = {"hands": self.hands, "pile": self.pile, "discard": self.discard,
                      "dealer": game.dealer, "deck": []}

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
            self.hands[seat].append(card)
        self.truth["dealer"] = g.dealer

    def _take_cards(self, seat: int, count: int, kind: str, bluff: bool) -> list[str]:
        """Choose ``count`` cards of ``seat``: of ``kind`` first unless bluffing."""
        hand = self.hands[seat]
        same = [i for i, c in enumerate(hand) if c == kind]
        other = [i for i, c in enumerate(hand) if c != kind]
        self.rng.shuffle(same)
        self.rng.shuffle(other)
        order = (other + same) if bluff else (same + other)
        if bluff and other:
            # a bluff mixes in at least one wrong card; the rest may be genuine
            k = self.rng.randint(1, min(count, len(other)))
            pick = other[:k] + same[:count - k]
            if len(pick) < count:
                pick += other[k:k + count - len(pick)]
        else:
            pick = order[:count]
        return [hand[i] for i in pick]

    # ------------------------------------------------------------------ bots
    def next_action(self):
        g = self.game
        if g.is_over():
            return None
        phase = g.phase
        if phase == "deal":
            return f"{g.dealer} deal", "button"
        if phase == "check":
            cards = self.pile[-1]["cards"]
            source = "manual" if self.rng.random() < self.manual_rate else "camera"
            return "table reveal " + ",".join(cards), source
        seat = g.turn
        hand = self.hands[seat]
        rng = self.rng
        if phase == "lead":
            counts: dict[str, int] = {}
            for c in hand:
                counts[c] = counts.get(c, 0) + 1
            best = max(counts, key=lambda k: (counts[k], k))
            top = min(g.options.max_cards, len(hand))
            bluff = rng.random() < self.bluff_rate or (counts[best] == 1 and rng.random() < 0.5)
            if bluff:
                kind = rng.choice(self.kinds)
                count = rng.randint(1, min(top, 3))
            else:
                kind = best
                count = min(counts[best], top)
                if count > 1 and rng.random() < 0.3:
                    count = rng.randint(1, count)
            if len(hand) <= top and rng.random() < 0.5:
                count = len(hand)  # try to go out in one go
            cards = self._take_cards(seat, count, kind, bluff)
            text = f"{seat} place {count} {kind}"
            self._pending = (text, cards)
            return text, "button"
        # answer
        claim = g.claim
        last_count = g.pile[-1][1]
        mine = sum(1 for c in hand if c == claim)
        known = mine + g.discard_known.get(claim, 0)
        total_kind = g.kind_count[claim]
        if last_count + known > total_kind:
            return f"{seat} doubt", "button"  # impossible claim
        left_after = g.hands[g.pile[-1][0]]
        p_doubt = 0.12 + 0.07 * last_count + 0.25 * (known / total_kind)
        if left_after == 0:
            p_doubt += 0.25  # the placer would go out: challenge him
        if hand and rng.random() < (0.45 if mine else 0.12):
            count = min(mine if mine else rng.randint(1, 2), g.options.max_cards, len(hand))
            cards = self._take_cards(seat, count, claim, bluff=not mine)
            text = f"{seat} add {count}"
            self._pending = (text, cards)
            return text, "button"
        if rng.random() < min(p_doubt, 0.9):
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
            if self._pending is not None and self._pending[0] == action_text:
                cards = self._pending[1]
            else:  # an action from outside the bots: play the claimed kind first
                kind = parts[3] if verb == "place" else g.claim
                cards = self._take_cards(seat, count, kind, bluff=False)
            hand = self.hands[seat]
            for c in cards:
                hand.remove(c)
            self.pile.append({"seat": seat, "cards": list(cards), "face_up": False})
        elif verb == "reveal":
            self.pile[-1]["face_up"] = True
            check = g.last_check
            if check["taker"] is None:
                for p in self.pile:
                    self.discard.extend(p["cards"])
            else:
                for p in self.pile:
                    self.hands[check["taker"]].extend(p["cards"])
            self.pile.clear()
        elif verb == "void":
            for p in self.pile:
                self.hands[p["seat"]].extend(p["cards"])
            self.pile.clear()
        self._pending = None


SIM = DoubtSim
