""""Верю — не верю" (game id ``doubt``): the bluffing shedding game of seed ``001_*``.

Rules: ``/work/shared/seeds/001_*`` (the Russian leaflet), product rulings ``RULINGS.md`` §0 and §2,
documented as implemented in ``docs/rules/doubt.md``.

The engine never sees a card face except when the camera (or an operator's manual entry) reads
the cards of a placement turned over for a check. It knows hand *sizes* from the deal and from
every placement and pile taken; it knows the claimed kind of every placement.

Flow of one game::

    deal ──> lead ──> answer ──┬─ add ──> answer ...
     ^         ^               └─ believe / doubt ──> check (table reveal) ──> lead | game end
     └─ loser deals the next game (option ``games``)

Action text forms (seat numbers 0-based, clockwise)::

    0 deal                     the dealer has dealt all cards (hand sizes follow the split rule)
    0 place 3 mushroom         lead a pile: 3 cards face down, claimed "3 гриба"
    1 add 5                    option 3: "ещё 5 грибов — от меня" (same claimed kind)
    1 believe                  "Верю"
    1 doubt                    "Не верю"
    table reveal mushroom,fox  the last placement turned over: the kinds read (camera or manual)
    table void                 operator: void the round (each placement back to its placer)
"""

from __future__ import annotations

from companion.games.doubt.actions import Add, Believe, Deal, Doubt, Place, Reveal, Void
from companion.games.doubt.checks import DoubtChecks
from companion.games.doubt.deck import DECK_PROFILES, DEFAULT_DECK, normalize_deck
from companion.games.doubt.options import DoubtOptions
from companion.games.doubt.play import DoubtPlay
from companion.games.doubt.views import DoubtViews

#: what the game's modules (deck, options) give and the package and tools import from here
__all__ = ["DECK_PROFILES", "DEFAULT_DECK", "DoubtGame", "DoubtOptions", "GAME", "REASONS", "normalize_deck"]


REASONS = {
    "game_over": "the match has ended",
    "wrong_phase": "this action is not allowed in the current phase",
    "not_your_turn": "another seat must act now",
    "not_dealer": "only the dealer reports the deal",
    "table_only": "only the table (camera/operator) may do this",
    "seat_only": "a seat must do this, not the table",
    "player_out": "this seat has left the game (no cards)",
    "bad_count": "a placement is 1..max_cards cards",
    "not_enough_cards": "the seat holds fewer cards than that",
    "no_cards": "a seat without cards cannot add; it must believe or doubt",
    "unknown_kind": "no such kind in the deck profile",
    "unreadable_card": "a card of the reveal is '?' (reader not sure): rescan or enter it manually",
    "reveal_count_mismatch": "the reveal must list exactly the cards of the last placement",
    "impossible_cards": "more cards of a kind than the deck holds (with the ones already discarded)",
    "nothing_to_void": "no pile on the table",
}
"""Reason codes of this game (plus the common ones of ``companion.errors.COMMON_REASONS``)."""


class DoubtGame(DoubtChecks, DoubtPlay, DoubtViews):
    """The referee of "Верю — не верю". See the module docstring for the flow and text forms.

    Args:
        seats: 2–8 player names, clockwise (seed: "от 2 до 8 человек").
        options: :class:`DoubtOptions` or a dict.

    Raises:
        IllegalAction: ``bad_seats``, ``bad_option`` (also when the deck has fewer cards than
            players or ``first_dealer`` is not a seat).
    """

    GAME_ID = "doubt"
    REASONS = REASONS
    ACTIONS = (Deal, Place, Add, Believe, Doubt, Reveal, Void)
    OPTIONS = DoubtOptions
    options: DoubtOptions
    MIN_SEATS = 2
    MAX_SEATS = 8

GAME = DoubtGame
