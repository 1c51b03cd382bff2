"""Card lottery ("Карточная лотерея", seed ``004_*``, RULINGS §5), game id ``lottery``.

Two full 52-card decks: the banker's (prize cards) and the dealer's (players' cards). Players pay
an entry stake into the box; the banker lays four prize cards face down and spreads the box over
them, every prize a different amount. The dealer deals three cards to each player, face up; the
banker turns the prizes one by one; a player holding the identical card (rank and suit) wins that
prize's chips. Every card that won nothing costs its holder a stake; the banker replaces each won
prize from his deck and spreads the new stakes so all amounts stay different. When the dealer's
deck runs out (the last deal is short) the cards that won nothing are played off (variant 1: cover
or take; variant 2: suit-ranked tricks) and the loser(s) pay fines into the box, which carries
over to the next game.

Every chip is accounted for at every step: ``sum(balances) + box + stakes + chips on prizes`` is
constant (:meth:`LotteryGame.chips_total`).

Card codes: rank ``A K Q J 10 9 8 7 6 5 4 3 2`` then suit ``S H D C`` — ``QH``, ``10S``.
Rules as implemented, options and reason codes: ``docs/rules/lottery.md``.
"""

from __future__ import annotations

from typing import ClassVar

from companion.games.base import Action, Options
from companion.games.lottery.actions import Cards, Cover, Lead, PlayCard, PrizeCard, Spread, Take, Void
from companion.games.lottery.cards import (FULL_DECK, PRIZE_SLOTS, RANKS, SUIT_FINES, SUIT_ORDER, SUITS, canonical,
                                           parse_card, rank_index, suit_of)
from companion.games.lottery.checks import LotteryChecks
from companion.games.lottery.options import LotteryOptions
from companion.games.lottery.play import LotteryPlay
from companion.games.lottery.spread import find_spread
from companion.games.lottery.views import LotteryViews

#: what the game's modules (cards, spread, options) give and the package and tools import from here
__all__ = [
    "FULL_DECK", "GAME", "LotteryGame", "LotteryOptions", "PRIZE_SLOTS", "RANKS", "REASONS", "SUIT_FINES",
    "SUIT_ORDER", "SUITS", "canonical", "find_spread", "parse_card", "rank_index", "suit_of",
]

REASONS = {
    "bad_option": "an option is unknown or impossible (e.g. the box cannot make four different prizes)",
    "bad_seats": "fewer than two card-holding players, or banker and dealer are the same seat",
    "game_over": "the play-off has ended",
    "wrong_phase": "this action is not possible now",
    "not_your_turn": "another seat (or the table) must act now",
    "bad_card": "the card code is malformed (rank A K Q J 10..2 and suit S H D C, e.g. QH)",
    "bad_spread": "the spread does not give one amount per prize slot, or puts chips on an empty slot or a negative amount",
    "wrong_total": "the spread does not add up to the chips to be spread",
    "prize_empty": "the first spread must put at least one chip on every prize",
    "amounts_must_differ": "two prizes would carry the same amount while a spread with all amounts different exists",
    "not_a_player": "that seat holds no cards in this game (banker or dealer)",
    "already_read": "that seat's cards for this deal are already read",
    "wrong_count": "the number of cards read differs from the number dealt to that seat",
    "card_already_dealt": "that card of the dealer's deck has already been dealt",
    "duplicate_card": "the same card is listed twice in one entry (each deck holds each card once)",
    "no_such_slot": "there is no face-down prize in that slot",
    "prize_already_drawn": "that card of the banker's deck has already been laid as a prize",
    "cards_not_read": "the prizes are turned only after every player's cards are read",
    "not_in_hand": "the seat does not hold that card",
    "must_lead_lowest_of_highest_suit": "variant 2: the first lead is the lowest card of the leader's highest suit",
    "must_follow_suit": "variant 2: a player who holds the led suit must play it",
    "cannot_cover": "a cover must be a higher card of the same suit",
    "nothing_to_cover": "no card has been led to this seat",
    "nothing_to_void": "no deal or play-off is in progress",
}


# ---------------------------------------------------------------------- the game
class LotteryGame(LotteryChecks, LotteryPlay, LotteryViews):
    """One game of card lottery (seed ``004_*``, RULINGS §5).

    Args:
        seats: 2-20 names, clockwise; the banker and dealer seats are given by the options.
        options: :class:`LotteryOptions` or a dict.

    Raises:
        IllegalAction: ``bad_seats`` (banker/dealer not at the table, fewer than two card-holding
            players) or ``bad_option`` (e.g. the box cannot make four different prizes of ≥ 1 chip).
    """

    GAME_ID: ClassVar[str] = "lottery"
    ACTIONS: ClassVar[tuple[type[Action], ...]] = (Spread, Cards, PrizeCard, Lead, Cover, Take, PlayCard, Void)
    OPTIONS: ClassVar[type[Options]] = LotteryOptions
    options: LotteryOptions
    MIN_SEATS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 20
    REASONS: ClassVar[dict[str, str]] = REASONS


GAME = LotteryGame
