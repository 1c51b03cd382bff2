"""The actions of 6100 (infinity): frozen dataclasses whose text form round-trips
(:mod:`companion.games.base`). The rules are in :mod:`companion.games.infinity.rules`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.base import Action, SeatAction
from companion.games.fields import Card, Seat


# ---------------------------------------------------------------------- actions
@dataclass(frozen=True)
class DealCards(Action):
    """``table deal <leader|?>`` — the dealer has dealt (or, for two players, dealt the second half).

    ``leader`` is the seat that leads the first trick; ``?`` lets the engine apply option
    ``deal_leader`` (seat 0 for the first deal).
    """

    VERB: ClassVar[str] = "deal"
    #: fields an operator's manual entry may leave unknown (``?``): the leader then follows
    #: option ``deal_leader`` (:meth:`InfinityGame.expected_leader`).
    UNKNOWN_OK: ClassVar[tuple[str, ...]] = ("leader",)
    leader: Seat | None = None


@dataclass(frozen=True)
class Play(SeatAction):
    """``<seat> play <card|?>`` — the seat puts a card face up on the trick. ``?``: the face is
    read afterwards by ``table face``."""

    VERB: ClassVar[str] = "play"
    card: Card | None = None


@dataclass(frozen=True)
class Face(Action):
    """``table face <card>`` — the camera's (or operator's) read of the card just declared."""

    VERB: ClassVar[str] = "face"
    card: Card | None = None


@dataclass(frozen=True)
class Kept(Action):
    """``table kept <seat> <card,card,...>`` — the last seat holding cards shows them; they are
    his points (seed ¶"Так продолжается...", RULINGS §4)."""

    VERB: ClassVar[str] = "kept"
    owner: Seat = 0
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True)
class Void(Action):
    """``table void`` — operator voids the current deal: cards go back, its points are dropped,
    the same deal is dealt again (RULINGS §0)."""

    VERB: ClassVar[str] = "void"


