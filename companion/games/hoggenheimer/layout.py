"""The joker game's layout and its bets: the 32 places (rows ♠ ♥ ♦ ♣, columns A K Q J 10 9 8 7),
the bet shapes with their payout k:1 and chance 1/(k+1), and the reading of a bet's target
(:func:`parse_bet`). Pure facts of the seed (``002_*``; RULINGS §3), no words: a shape is its id
(``"square"``), named at the edge (the game's terms, ``companion.games.hoggenheimer.SPEC``)."""

from __future__ import annotations

from fractions import Fraction

from companion.errors import IllegalAction

SUITS = ("S", "H", "D", "C")
"""Rows top to bottom: ♠ ♥ ♦ ♣ (seed ¶"Прием ставок"; RULINGS §3)."""
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
"""Columns left to right: aces at the far left, sevens at the far right (seed; RULINGS §3)."""
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKER = "JK"
CARDS = tuple(r + s for s in SUITS for r in RANKS)
"""The 32 layout cards in layout order (row by row); each card's own place is its "slot"."""
POS = {c: (SUITS.index(c[-1]), RANKS.index(c[:-1])) for c in CARDS}
"""Card (= slot) code -> (row, column)."""
AT = {v: k for k, v in POS.items()}
CARD_FACTS = {"ranks": list(RANKS), "examples": ["QH", "10S", "7C"], "joker": JOKER}
"""The facts of a ``bad_card`` refusal besides the card typed: how this deck's codes are written
(its ranks, examples from the layout, the joker's code), for the dashboard's sentence."""

SHAPES = {"card": 1, "pair": 2, "square": 4, "column": 4, "row": 8}
"""Bet shape -> k, the number of cards; the payout is k:1 (seed "Расчет по ставкам"; RULINGS §3)."""


def parse_bet(items: tuple[str, ...] | list[str]) -> tuple[str, tuple[str, ...]]:
    """Classify a bet target.

    Args:
        items: card codes (``"QH"``, ``"10S"``) or one alias ``"col:<rank>"`` / ``"row:<suit>"``.

    Returns:
        ``(shape, cards)`` with ``shape`` a key of :data:`SHAPES` and ``cards`` in layout order.

    Raises:
        IllegalAction: ``bad_card`` (unknown code, the joker, a repeated card) or ``bad_bet_shape``
            (cards that are not one card, two touching horizontally/vertically, a 2×2 square, a
            whole column or a whole row — diagonals are not bets, RULINGS §3).
    """
    items = list(items)
    if len(items) == 1 and items[0].startswith("col:"):
        rank = items[0][4:]
        if rank not in RANKS:
            raise IllegalAction("bad_card", f"no column {rank!r}; columns are {' '.join(RANKS)}")
        return "column", tuple(rank + s for s in SUITS)
    if len(items) == 1 and items[0].startswith("row:"):
        suit = items[0][4:]
        if suit not in SUITS:
            raise IllegalAction("bad_card", f"no row {suit!r}; rows are {' '.join(SUITS)}")
        return "row", tuple(r + suit for r in RANKS)
    for c in items:
        if c not in POS:
            raise IllegalAction("bad_card", f"{c!r} is not a layout card (rank A K Q J 10 9 8 7 + suit S H D C)",
                                {"card": c, "ranks": CARD_FACTS["ranks"], "examples": CARD_FACTS["examples"]})
    if len(set(items)) != len(items) or not items:
        raise IllegalAction("bad_card", "a bet names each card once")
    cards = tuple(sorted(items, key=lambda c: POS[c]))
    rows = {POS[c][0] for c in cards}
    cols = {POS[c][1] for c in cards}
    n = len(cards)
    if n == 1:
        return "card", cards
    if n == 2:
        (r1, c1), (r2, c2) = POS[cards[0]], POS[cards[1]]
        if abs(r1 - r2) + abs(c1 - c2) == 1:
            return "pair", cards
    if n == 4:
        if len(cols) == 1:
            return "column", cards
        if len(rows) == 2 and len(cols) == 2 and max(rows) - min(rows) == 1 and max(cols) - min(cols) == 1:
            return "square", cards
    if n == 8 and len(rows) == 1:
        return "row", cards
    raise IllegalAction("bad_bet_shape", f"{','.join(cards)} is not a card, two touching cards, a 2×2 square, "
                                         "a column or a row")


def all_bet_targets() -> list[tuple[str, tuple[str, ...]]]:
    """Every distinct bet target on the layout: 32 cards, 52 pairs (28 horizontal + 24 vertical),
    21 squares, 8 columns, 4 rows — 117 in all."""
    out: list[tuple[str, tuple[str, ...]]] = [("card", (c,)) for c in CARDS]
    for r in range(4):
        for c in range(8):
            if c < 7:
                out.append(("pair", (AT[r, c], AT[r, c + 1])))
            if r < 3:
                out.append(("pair", (AT[r, c], AT[r + 1, c])))
    for r in range(3):
        for c in range(7):
            out.append(("square", (AT[r, c], AT[r, c + 1], AT[r + 1, c], AT[r + 1, c + 1])))
    for rank in RANKS:
        out.append(("column", tuple(rank + s for s in SUITS)))
    for s in SUITS:
        out.append(("row", tuple(r + s for r in RANKS)))
    return out


_ALL_TARGETS = None


def _targets() -> list[tuple[str, tuple[str, ...]]]:
    global _ALL_TARGETS
    if _ALL_TARGETS is None:
        _ALL_TARGETS = all_bet_targets()
    return _ALL_TARGETS


def win_probability(k: int) -> Fraction:
    """Exact probability that a bet on ``k`` cards wins: 1/(k+1) (derived in
    ``docs/rules/hoggenheimer.md``; RULINGS §3)."""
    return Fraction(1, k + 1)
