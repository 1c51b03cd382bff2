"""The actions of the card lottery (lottery): frozen dataclasses whose text form round-trips
(:mod:`companion.games.base`). The rules are in :mod:`companion.games.lottery.rules`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.base import Action, SeatAction
from companion.games.fields import Amount, Card, Seat, Slot


# ---------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Spread(SeatAction):
    """``<banker> spread a,b,c,d`` — chips the banker adds to prize slots 0-3 (left to right)."""

    VERB: ClassVar[str] = "spread"
    amounts: tuple[Amount, ...] = ()


@dataclass(frozen=True)
class Cards(Action):
    """``table cards <seat> QH,10S,2C`` — the camera read a player's dealt cards (face up)."""

    VERB: ClassVar[str] = "cards"
    owner: Seat = 0
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class PrizeCard(Action):
    """``table prize <slot> <card>`` — the banker turned the prize in ``slot``; the camera read it."""

    VERB: ClassVar[str] = "prize"
    slot: Slot = 0
    card: Card | None = None


@dataclass(frozen=True)
class Lead(SeatAction):
    """``<seat> lead <card>`` — play-off variant 1: lead a card to the left neighbour."""

    VERB: ClassVar[str] = "lead"
    card: Card | None = None


@dataclass(frozen=True)
class Cover(SeatAction):
    """``<seat> cover <card>`` — play-off variant 1: cover the led card (same suit, higher)."""

    VERB: ClassVar[str] = "cover"
    card: Card | None = None


@dataclass(frozen=True)
class Take(SeatAction):
    """``<seat> take`` — play-off variant 1: take the led card into hand."""

    VERB: ClassVar[str] = "take"


@dataclass(frozen=True)
class PlayCard(SeatAction):
    """``<seat> play <card>`` — play-off variant 2: play a card to the trick."""

    VERB: ClassVar[str] = "play"
    card: Card | None = None


@dataclass(frozen=True)
class Void(Action):
    """``table void`` — operator voids the current deal (or the play-off): everything goes back
    to how it was when it started, no payments (RULINGS §0)."""

    VERB: ClassVar[str] = "void"


