"""The actions of skull: frozen dataclasses whose text form round-trips
(:mod:`companion.games.base`). The rules are in :mod:`companion.games.skull.rules`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.base import Action, SeatAction
from companion.games.fields import Amount, Count, Seat, Serial


# ---------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Register(Action):
    """``table register SEAT SERIALS DENOMS`` — the camera read ``owner``'s notes face up at set-up.
    ``denominations`` (face values, one per note, in the currency option) or ``None`` (``?``)."""

    VERB: ClassVar[str] = "register"
    #: fields an operator's manual entry may leave unknown (``?``): the face values only decide the
    #: bank's money total, never a role; the serials must be typed.
    UNKNOWN_OK: ClassVar[tuple[str, ...]] = ("denominations",)
    owner: Seat
    serials: tuple[Serial, ...]
    denominations: tuple[Amount, ...] | None = None


@dataclass(frozen=True)
class ChooseDealer(Action):
    """``table dealer SEAT`` — the players chose the first dealer (the button), seed "До начала игры"."""

    VERB: ClassVar[str] = "dealer"
    dealer: Seat


@dataclass(frozen=True)
class Place(SeatAction):
    """``SEAT place`` — the seat put one note face down on its stack (stage 1 or stage 2 "add")."""

    VERB: ClassVar[str] = "place"


@dataclass(frozen=True)
class Bid(SeatAction):
    """``SEAT bid N`` — open the auction in stage 2, or raise in the auction, to ``count`` roses."""

    VERB: ClassVar[str] = "bid"
    count: Count


@dataclass(frozen=True)
class Agree(SeatAction):
    """``SEAT agree`` — agree with the dealer's bid (auction, Вариант 1)."""

    VERB: ClassVar[str] = "agree"


@dataclass(frozen=True)
class Pass(SeatAction):
    """``SEAT pass`` — disagree and leave the auction (Вариант 3)."""

    VERB: ClassVar[str] = "pass"


@dataclass(frozen=True)
class NoteRead(Action):
    """Base of the table's reads of one note of ``owner``'s: the camera read ``serial`` (``?``
    until it is read; the table stores it in its own spelling, ``SkullGame._table_form``)."""

    owner: Seat
    serial: Serial | None


@dataclass(frozen=True)
class Flip(NoteRead):
    """``table flip SEAT SERIAL`` — the dealer turned the top face-down note of ``owner``'s stack;
    the camera read ``serial``."""

    VERB: ClassVar[str] = "flip"


@dataclass(frozen=True)
class Deposit(NoteRead):
    """``table deposit SEAT SERIAL`` — the note chosen from loser ``owner``'s notes went to the bank;
    the camera scanned it privately (``serial`` is never shown publicly)."""

    VERB: ClassVar[str] = "deposit"


@dataclass(frozen=True)
class Leave(Action):
    """``table leave SEAT`` — the operator records that a player left the game (seed, Примечание)."""

    VERB: ClassVar[str] = "leave"
    leaver: Seat


@dataclass(frozen=True)
class Void(Action):
    """``table void`` — the operator voids the round: every note back, no payments (RULINGS §0)."""

    VERB: ClassVar[str] = "void"
