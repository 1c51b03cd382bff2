"""Simulated Hoggenheimer table: a shuffled 33-card deal, betting bots, and the camera that reads
every turned card and the slot the banker puts it on.

Bots vary their play: each punter places 0–4 bets per deal, mixing shapes (single cards most
often, then pairs, squares, columns, rows), with stakes between the table minimum and a share of
his chips; some favour the long shots, some the safe singles (a per-seat temperament drawn from
the seed). Bets the bank cannot cover are skipped, as a real punter would be told. Sometimes a
punter takes a bet back before the banker closes.
"""

from __future__ import annotations

from companion.games.hoggenheimer.layout import AT, CARDS, JOKER, POS, all_bet_targets
from companion.games.simulator import TableSim

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
         "bets": [{"id", "seat", "cards": [slot, ...], "stake"}],   chips lying on the layout
         "banker": int, "deal": int}

    Args:
        game: the engine (read only).
        seed: random seed.
        misplace_rate: probability that the banker first puts a turned card on a wrong slot (the
            camera reports it, the referee rejects it with ``wrong_slot``, the banker corrects it).
            Default 0: drivers that stop on a rejection (``play_random_game``) need 0.
        void_rate: probability per deal that the operator voids it when the bets close (a table
            mishap: the layout was disturbed), source ``operator``.
    """

    def __init__(self, game, seed: int, misplace_rate: float = 0.0, void_rate: float = 0.005) -> None:
        super().__init__(game, seed)
        self.void_rate = void_rate
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
            "bets": [],
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
        if g.bets and all(left <= 0 for left in self._plan.values()) and rng.random() < self.void_rate:
            self._plan = {}
            return "table void", "operator"
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
        if verb in ("bet", "withdraw"):
            self.truth["bets"] = [{"id": b["id"], "seat": b["seat"], "cards": list(b["cards"]), "stake": b["stake"]}
                                  for b in g.bets]
        elif verb == "close":
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

JOKER_ID = 32
"""Card id of the joker in :func:`simulate_chains` (ids 0..31 are :data:`CARDS` in layout order)."""
ASIDE = 32
"""Position of the 33rd card in :func:`simulate_chains` (positions 0..31 are the slots of CARDS)."""


def simulate_chains(n: int, seed: int):
    """Deal ``n`` uniform shuffles of the 33 cards and run each chain to the joker (seed «Правила
    игры»), vectorised with numpy — the Monte Carlo behind the 1/(k+1) check.

    Args:
        n: number of deals.
        seed: numpy random seed.

    Returns:
        ``(deals, turned)``: ``deals`` n×33 int8, the card id lying at each position (slot i holds
        the card ``CARDS[i]`` when it is "at home"; position 32 is the 33rd card aside, card id 32 is
        the joker); ``turned`` n×32 bool, which cards are face up when the joker appears.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    deals = rng.permuted(np.tile(np.arange(33, dtype=np.int8), (n, 1)), axis=1)
    turned = np.zeros((n, 32), dtype=bool)
    rows = np.arange(n)
    cur = deals[:, ASIDE].astype(np.int64)  # the 33rd card, turned first
    active = cur != JOKER_ID
    while active.any():
        idx = rows[active]
        c = cur[active]
        turned[idx, c] = True            # put face up on its own slot c ...
        cur[active] = deals[idx, c]      # ... and turn the card that lay there
        active = cur != JOKER_ID
    return deals, turned
