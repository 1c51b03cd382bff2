"""Simulated Hoggenheimer table: a shuffled 33-card deal, betting bots, and the camera that reads
every turned card and the slot the banker puts it on.

Bots vary their play: each punter places 0–4 bets per deal, mixing shapes (single cards most
often, then pairs, squares, columns, rows), with stakes between the table minimum and a share of
his chips; some favour the long shots, some the safe singles (a per-seat temperament drawn from
the seed). Bets the bank cannot cover are skipped, as a real punter would be told. Sometimes a
punter takes a bet back before the banker closes.
"""

from __future__ import annotations

from companion.games.hoggenheimer import AT, CARDS, JOKER, POS, SHAPES, all_bet_targets
from companion.sim import TableSim

_TARGETS = all_bet_targets()
_BY_SHAPE: dict[str, list[tuple[str, ...]]] = {}
for _shape, _cards in _TARGETS:
    _BY_SHAPE.setdefault(_shape, []).append(_cards)
_SHAPE_NAMES = ("card", "pair", "square", "column", "row")


class HoggenheimerSim(TableSim):
    """Physical truth + bots for :class:`companion.games.hoggenheimer.HoggenheimerGame`.

    ``truth`` (never for a screen)::

        {"layout": [[{"card": code, "face_up": bool} × 8] × 4]  (rows ♠ ♥ ♦ ♣, columns A..7),
         "aside": {"card": code, "face_up": bool},   the 33rd card
         "in_hand": code | None,                     the card the banker holds between slots
         "banker": int, "deal": int}

    Args:
        game: the engine (read only).
        seed: random seed.
        misplace_rate: probability that the banker first puts a turned card on a wrong slot (the
            camera reports it, the referee rejects it with ``wrong_slot``, the banker corrects it).
            Default 0: drivers that stop on a rejection (``play_random_game``) need 0.
    """

    def __init__(self, game, seed: int, misplace_rate: float = 0.0) -> None:
        super().__init__(game, seed)
        self.misplace_rate = misplace_rate
        n = len(game.seats)
        # temperament: weights over shapes (card, pair, square, column, row) and boldness
        self.style = []
        for _ in range(n):
            w = [self.rng.uniform(0.5, 3.0), self.rng.uniform(0.3, 2.0), self.rng.uniform(0.2, 1.5),
                 self.rng.uniform(0.1, 1.0), self.rng.uniform(0.05, 0.6)]
            self.style.append((w, self.rng.uniform(0.05, 0.25)))
        self._plan: dict[int, int] = {}   # seat -> bets still to place this deal
        self._misplaced: str | None = None
        self.truth = {}
        self._deal()

    # ------------------------------------------------------------------ physical
    def _deal(self) -> None:
        g = self.game
        deck = list(CARDS) + [JOKER]
        self.rng.shuffle(deck)
        self.truth = {
            "layout": [[{"card": deck[r * 8 + c], "face_up": False} for c in range(8)] for r in range(4)],
            "aside": {"card": deck[32], "face_up": False},
            "in_hand": None,
            "banker": g.banker,
            "deal": len(g.deals_log) + 1,
        }
        n = len(g.seats)
        self._plan = {s: self.rng.choice((0, 1, 1, 2, 2, 3, 4)) for s in range(n) if s != g.banker}
        self._misplaced = None

    def _next_card(self) -> str:
        """The card the banker turns next: the 33rd, then whatever lay on the last filled slot."""
        g = self.game
        if not g.chain:
            return self.truth["aside"]["card"]
        r, c = POS[g.source]
        return self.truth["layout_under"][r][c]

    # ------------------------------------------------------------------ bots
    def next_action(self):
        g = self.game
        if g.is_over():
            return None
        if g.phase == "chain":
            card = self._next_card()
            if card == JOKER:
                return f"table turn {JOKER} ?", "camera"
            if self._misplaced is None and self.rng.random() < self.misplace_rate:
                r, c = POS[card]
                wrong = AT[r, (c + 1) % 8]
                self._misplaced = card
                return f"table turn {card} {wrong}", "camera"
            return f"table turn {card} {card}", "camera"
        # betting
        rng = self.rng
        for seat, left in self._plan.items():
            if left <= 0:
                continue
            self._plan[seat] = left - 1
            mine = [b for b in g.bets if b["seat"] == seat]
            if mine and rng.random() < 0.08:
                return f"{seat} withdraw {rng.choice(mine)['id']}", "button"
            weights, boldness = self.style[seat]
            shape = rng.choices(_SHAPE_NAMES, weights)[0]
            cards = rng.choice(_BY_SHAPE[shape])
            o = g.options
            top = min(o.max_stake, max(o.min_stake, int(g.balances[seat] * boldness)))
            stake = rng.randint(o.min_stake, max(o.min_stake, top))
            if shape == "column" and rng.random() < 0.5:
                target = "col:" + cards[0][:-1]
            elif shape == "row" and rng.random() < 0.5:
                target = "row:" + cards[0][-1]
            else:
                target = ",".join(cards)
            text = f"{seat} bet {stake} {target}"
            if g.is_legal(g.parse_action(text)):
                return text, "button"
        return f"{g.banker} close", "button"

    # ------------------------------------------------------------------ truth follows the engine
    def applied(self, action_text: str) -> None:
        g = self.game
        parts = action_text.split()
        verb = parts[1]
        if verb == "close":
            # keep what lies under each slot (face down) for the chain
            self.truth["layout_under"] = [[cell["card"] for cell in row] for row in self.truth["layout"]]
        elif verb == "turn":
            card = parts[2]
            self._misplaced = None
            if card == JOKER:  # the joker appeared: the deal is settled, the cards are collected
                if g.is_over():
                    self.truth["aside"]["face_up"] = True
                    self.truth["in_hand"] = JOKER
                else:
                    self._deal()
                return
            if len(g.chain) == 1:
                self.truth["aside"]["face_up"] = True
            r, c = POS[card]
            cell = self.truth["layout"][r][c]
            self.truth["in_hand"] = cell["card"]   # the face-down card picked up from the slot
            cell["card"] = card
            cell["face_up"] = True
        elif verb == "void":
            self._deal()


SIM = HoggenheimerSim
