"""The 36-card "6100" trick game with the Infinity card and "ХОЙ!" (seed ``003_*``, RULINGS §4).

Game id ``infinity``. Rules as implemented, with every option and reason code, are in
``docs/rules/infinity.md``; the tests in ``tests/games/infinity/`` cite the seed paragraph each proves.

What the engine knows. Hands are held in the players' hands, so the engine never knows which
cards a seat holds — only how many (the deal is physical, RULINGS §0). It learns a card's face
when the card lands face up on the table: the camera reads it. It keeps the multiset of cards not
yet seen this deal, so a face that cannot exist any more (a fifth "500") is rejected.

A play honours both the seat's decision and the camera's read:

* ``0 play 500`` — one action: the camera saw seat 0 put down a 500 (source ``camera``), or the
  operator typed it (source ``manual``).
* ``0 play ?`` then ``table face 500`` — the seat declared its play (button box) before the face was
  read; the engine then waits for the camera's read of that card, and accepts nothing else but
  ``table face`` (or ``table void``) meanwhile.

Card tokens: the card's value in decimal (``10``, ``36``, ``500``) or ``INF`` for Infinity
("Бесконечность"). Cards of equal value are interchangeable.
"""

from __future__ import annotations

from typing import ClassVar

from companion.games.base import Action, Options
from companion.games.infinity.actions import DealCards, Face, Kept, Play, Void
from companion.games.infinity.cards import DECK_CARDS, DECK_POINTS, DEFAULT_DECK, INF, canonical_card, card_rank
from companion.games.infinity.checks import InfinityChecks
from companion.games.infinity.options import DEAL_LEADER_RULES, InfinityOptions
from companion.games.infinity.play import InfinityPlay
from companion.games.infinity.views import InfinityViews

#: what the game's modules (cards, options) give and the package and tools import from here
__all__ = [
    "DEAL_LEADER_RULES", "DECK_CARDS", "DECK_POINTS", "DEFAULT_DECK", "GAME", "INF", "InfinityGame",
    "InfinityOptions", "REASONS", "canonical_card", "card_rank",
]

REASONS = {
    "bad_option": "an option is unknown or has an impossible value (e.g. a deck that is not 36 cards/6100 points)",
    "bad_seats": "fewer than 2 or more than 8 players, or more players than the deck can serve",
    "game_over": "all agreed deals are played",
    "wrong_phase": "this action is not possible now (e.g. a play while the deck is being dealt)",
    "not_your_turn": "another seat must play now",
    "face_pending": "a declared card's face has not been read yet; the camera (or operator) must read it first",
    "no_pending_play": "'table face' without a declared play waiting for its face",
    "bad_card": "the card token is missing or malformed",
    "unknown_card": "no card of that value in this deck",
    "card_exhausted": "every card of that value has already been seen this deal",
    "wrong_leader": "the named leader is not the one the rules (option deal_leader) give",
    "wrong_seat": "'table kept' names a seat other than the last one holding cards",
    "wrong_count": "'table kept' lists a different number of cards than the seat holds",
    "nothing_to_void": "no deal is in progress",
}


# ---------------------------------------------------------------------- the game
class InfinityGame(InfinityChecks, InfinityPlay, InfinityViews):
    """One game of "6100" at one table (seed ``003_*``, RULINGS §4).

    Args:
        seats: 2-8 player names, clockwise.
        options: :class:`InfinityOptions` or a dict.

    Raises:
        IllegalAction: ``bad_seats`` or ``bad_option``.
    """

    GAME_ID: ClassVar[str] = "infinity"
    ACTIONS: ClassVar[tuple[type[Action], ...]] = (DealCards, Play, Face, Kept, Void)
    OPTIONS: ClassVar[type[Options]] = InfinityOptions
    options: InfinityOptions
    MIN_SEATS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 8
    REASONS: ClassVar[dict[str, str]] = REASONS


GAME = InfinityGame
