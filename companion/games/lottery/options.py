"""The house rules of the lottery: :class:`LotteryOptions` (RULINGS §5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.errors import IllegalAction
from companion.games.base import HOUSE_MAX, Options


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class LotteryOptions(Options):
    """House rules of ``lottery`` (RULINGS §5; ``docs/rules/lottery.md``). Amounts in chips.

    Attributes:
        banker: seat of the banker (RULINGS §5).
        dealer: seat of the dealer.
        officials_play: banker and dealer also hold cards (RULINGS §5: default they don't).
        chips: chips each seat holds at the start (seed ¶4 "сдают всем играющим определенное число фишек").
        entry_stake: each card-holding player's entry into the box (seed ¶4).
        card_stake: stake per card that won nothing, after each draw (seed ¶7).
        box: chips already in the box, carried over from the previous game (RULINGS §5).
        playoff: play-off variant, 1 (cover or take, default) or 2 (suit-ranked tricks).
        fine_per_card: variant 1 fine per card left in the last hand (seed ¶9 "определенный штраф").
        stall_limit: variant 1: after this many leads in a row taken (none covered) the play-off
            stops and every holder pays the fine per card (termination; house rule).
    """

    SEATS: ClassVar[tuple[str, ...]] = ('banker', 'dealer')  # seat indexes (shown 1-based on forms)
    CARRIED: ClassVar[dict[str, str]] = {"box": "box"}  # the box carries over (RULINGS §5)

    #: whole-number ranges; the seed leaves amounts to the table (house limit: HOUSE_MAX chips)
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {
        "chips": (0, HOUSE_MAX), "entry_stake": (0, HOUSE_MAX), "card_stake": (0, HOUSE_MAX), "box": (0, HOUSE_MAX),
        "playoff": (1, 2), "fine_per_card": (0, HOUSE_MAX), "stall_limit": (1, HOUSE_MAX)}
    banker: int = 0
    dealer: int = 1
    officials_play: bool = False
    chips: int = 30
    entry_stake: int = 5
    card_stake: int = 1
    box: int = 0
    playoff: int = 1
    fine_per_card: int = 2
    stall_limit: int = 30

    def validate(self) -> None:
        for name in ("banker", "dealer", "chips", "entry_stake", "card_stake", "box", "playoff",
                     "fine_per_card", "stall_limit"):
            v = getattr(self, name)
            if not _is_int(v) or v < 0:
                raise IllegalAction("bad_option", f"{name} must be a non-negative integer")
        if not isinstance(self.officials_play, bool):
            raise IllegalAction("bad_option", "officials_play is true or false")
        if self.banker == self.dealer:
            raise IllegalAction("bad_option", "the banker and the dealer are two different seats",
                                facts={"options": ["banker", "dealer"], "rule": "different_seats"})
        if self.playoff not in (1, 2):
            raise IllegalAction("bad_option", "playoff is variant 1 or 2")
        if self.stall_limit < 1:
            raise IllegalAction("bad_option", "stall_limit must be at least 1")
