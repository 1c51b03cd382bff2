"""The house rules of "Верю — не верю": :class:`DoubtOptions` (RULINGS §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.errors import IllegalAction
from companion.games.base import Options
from companion.games.doubt.deck import normalize_deck


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class DoubtOptions(Options):
    """House-rule options of "Верю — не верю" (``docs/rules/doubt.md`` lists each with its source).

    Attributes:
        deck: deck profile (see :func:`normalize_deck`): ``None`` = :data:`DEFAULT_DECK`
            (104 = 8 kinds × 13, RULINGS §2), a built-in profile name, or a table's own profile.
        max_cards: most cards in one placement or addition (seed: "от 1 до 8"). Default 8.
        first_dealer: seat that deals the first game (seed: "игрок раздает"). Default 0.
        games: games in the match; the loser of each deals the next (seed: "В следующий раз
            проигравший поделится"). Default 1.
    """

    deck: dict | str | None = None
    #: whole-number ranges (seed "от 1 до 8" cards; a match of at most 1000 games: house limit)
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {"max_cards": (1, 52), "games": (1, 1000)}
    max_cards: int = 8
    SEATS: ClassVar[tuple[str, ...]] = ('first_dealer',)  # seat indexes (shown 1-based on forms)

    first_dealer: int = 0
    games: int = 1

    def validate(self) -> None:
        normalize_deck(self.deck)
        for name in ("max_cards", "first_dealer", "games"):
            if isinstance(getattr(self, name), bool):
                raise IllegalAction("bad_option", f"{name} must be an integer")
        if not isinstance(self.max_cards, int) or not 1 <= self.max_cards <= 52:
            raise IllegalAction("bad_option", "max_cards must be 1..52")
        if not isinstance(self.first_dealer, int) or self.first_dealer < 0:
            raise IllegalAction("bad_option", "first_dealer must be a seat number")
        if not isinstance(self.games, int) or not 1 <= self.games <= 1000:
            raise IllegalAction("bad_option", "games must be 1..1000")
