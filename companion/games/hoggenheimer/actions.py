"""The actions of the joker banking game (hoggenheimer): frozen dataclasses whose text form round-trips
(:mod:`companion.games.base`). The rules are in :mod:`companion.games.hoggenheimer.rules`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.base import Action, SeatAction
from companion.games.fields import Amount, Card, Choice, LayoutSlot


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Bet(SeatAction):
    """Stake ``stake`` chips on ``cards`` (codes or ``col:<rank>`` / ``row:<suit>``)."""

    VERB = "bet"
    stake: Amount
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Withdraw(SeatAction):
    """Take back own bet ``bet_id`` while bets are open."""

    VERB = "withdraw"
    #: the bet's number means nothing to a player (a ``Choice``): the dashboard offers his open
    #: bets in words (the presenter's ``choice_label``, ``companion.dashboard.model.label_choices``)
    bet_id: Choice


@dataclass(frozen=True)
class Close(SeatAction):
    """The banker closes the bets; the deal (the chain of turned cards) starts."""

    VERB = "close"


@dataclass(frozen=True)
class Turn(Action):
    """Observation (table): ``card`` was turned and put on ``slot`` (``None`` for the joker)."""

    VERB = "turn"
    #: fields an operator's manual entry may leave unknown (``?``): the joker takes no slot
    #: (``table turn JK ?``); a layout card without its slot is refused by the engine (``slot_missing``).
    UNKNOWN_OK: ClassVar[tuple[str, ...]] = ("slot",)
    card: Card
    slot: LayoutSlot | None


@dataclass(frozen=True)
class Void(Action):
    """Operator (table): void the deal — all stakes back, no payments, same banker redeals (RULINGS §0)."""

    VERB = "void"


