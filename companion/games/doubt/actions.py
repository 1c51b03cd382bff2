"""The actions of «Верю — не верю» (doubt): frozen dataclasses whose text form round-trips
(:mod:`companion.games.base`). The rules are in :mod:`companion.games.doubt.rules`."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import Action, SeatAction
from companion.games.fields import Card, Count


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Deal(SeatAction):
    """The dealer has dealt the whole deck (seed ¶2; RULINGS §2 uneven split)."""

    VERB = "deal"


@dataclass(frozen=True)
class Place(SeatAction):
    """Lead a new pile: ``count`` cards face down, claiming they are all ``kind`` (seed ¶3)."""

    VERB = "place"
    count: Count
    kind: Card


@dataclass(frozen=True)
class Add(SeatAction):
    """Answer 3: add ``count`` more cards, claiming the pile's kind (RULINGS §2)."""

    VERB = "add"
    count: Count


@dataclass(frozen=True)
class Believe(SeatAction):
    """Answer 1: "Верю" (seed ¶4)."""

    VERB = "believe"


@dataclass(frozen=True)
class Doubt(SeatAction):
    """Answer 2: "Не верю" (seed ¶4)."""

    VERB = "doubt"


@dataclass(frozen=True)
class Reveal(Action):
    """Observation (table): the kinds of the last placement's cards, turned over for the check."""

    VERB = "reveal"
    kinds: tuple[Card, ...]


@dataclass(frozen=True)
class Void(Action):
    """Operator (table): void the round — every placement of the pile back to its placer (RULINGS §0)."""

    VERB = "void"


