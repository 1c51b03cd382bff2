"""The lottery's cards: two 52-card decks, the card codes (``QH``, ``10S``), ranks and suits, and
the play-off's suit order and fines (seed 004, RULINGS §5)."""

from __future__ import annotations

import functools

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


# ---------------------------------------------------------------------- cards
@functools.lru_cache(maxsize=128)
def parse_card(token: str) -> tuple[str, str] | None:
    """``"QH"`` → ``("Q", "H")``; ``None`` when malformed. A Latin ``T`` is not a rank: it is the
    ten in English shorthand and looks like the Russian ace «Т» (companion.games.cardnames)."""
    if not isinstance(token, str) or len(token) < 2:
        return None
    t = token.strip().upper()
    rank, suit = t[:-1], t[-1]
    if rank == "1":
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
