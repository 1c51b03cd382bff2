"""The house rules of "6100": :class:`InfinityOptions` (RULINGS §4) and the deck profile they give."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.errors import IllegalAction
from companion.games.base import HOUSE_MAX, Options
from companion.games.infinity.cards import DECK_CARDS, DECK_POINTS, DEFAULT_DECK, INF, canonical_card, card_rank

DEAL_LEADER_RULES = ("rotate", "free")


# ---------------------------------------------------------------------- options
@dataclass(frozen=True)
class InfinityOptions(Options):
    """House rules of ``infinity`` (defaults from RULINGS §4; see ``docs/rules/infinity.md``).

    Attributes:
        deals: number of deals (партии) whose points are summed; seed ¶1 "(3-6-10)". 1–100.
        simplified_scoring: seed's last paragraph: values rounded down to hundreds, so the 10s,
            the 36s and the 40 count 0.
        infinity_points: what the Infinity card scores (RULINGS §4: 0).
        deck: the table's own deck as ``{value: count}`` (``"INF"`` for Infinity), e.g. learned
            with the card reader's ``deck learn``; ``None`` = the default profile.
        deck_check: require the deck to hold 36 cards and 6100 points (seed ¶1) and one or more
            Infinity cards.
        deal_leader: who leads a new deal — ``rotate`` (the seat left of the previous deal's first
            leader; the table's usual "deal passes left") or ``free`` (the table names any seat).
    """

    #: the values a text option may take (the operator's new-game form offers them as a list)
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"deal_leader": DEAL_LEADER_RULES}

    #: whole-number ranges (seed ¶1: 3, 6 or 10 deals; at most 100: house limit)
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {"deals": (1, 100), "infinity_points": (0, HOUSE_MAX)}
    deals: int = 3
    simplified_scoring: bool = False
    infinity_points: int = 0
    deck: dict | None = None
    deck_check: bool = True
    deal_leader: str = "rotate"

    def validate(self) -> None:
        if not isinstance(self.deals, int) or isinstance(self.deals, bool) or not 1 <= self.deals <= 100:
            raise IllegalAction("bad_option", "deals must be an integer 1-100 (usually 3, 6 or 10)")
        if not isinstance(self.simplified_scoring, bool) or not isinstance(self.deck_check, bool):
            raise IllegalAction("bad_option", "simplified_scoring and deck_check are true/false")
        if not isinstance(self.infinity_points, int) or isinstance(self.infinity_points, bool) \
                or self.infinity_points < 0:
            raise IllegalAction("bad_option", "infinity_points must be a non-negative integer")
        if self.deal_leader not in DEAL_LEADER_RULES:
            raise IllegalAction("bad_option", f"deal_leader must be one of {', '.join(DEAL_LEADER_RULES)}")
        self.deck_profile()

    def deck_profile(self) -> dict[str, int]:
        """The deck as ``{card token: count}``, validated.

        Raises:
            IllegalAction: ``bad_option`` for a malformed deck, or one that fails the 36-card /
                6100-point check while ``deck_check`` is on.
        """
        if self.deck is None:
            return dict(DEFAULT_DECK)
        if not isinstance(self.deck, dict) or not self.deck:
            raise IllegalAction("bad_option", "deck must be an object {value: count}")
        out: dict[str, int] = {}
        for key, count in self.deck.items():
            card = canonical_card(str(key))
            if card is None:
                raise IllegalAction("bad_option", f"deck: {key!r} is not a card value (a positive number or INF)")
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise IllegalAction("bad_option", f"deck: count of {key!r} must be a positive integer")
            if card in out:
                raise IllegalAction("bad_option", f"deck: value {card} listed twice")
            out[card] = count
        total = sum(out.values())
        points = sum(int(c) * n for c, n in out.items() if c != INF)
        if self.deck_check:
            if total != DECK_CARDS or points != DECK_POINTS:
                raise IllegalAction(
                    "bad_option",
                    f"deck has {total} cards and {points} points; the game needs {DECK_CARDS} and "
                    f"{DECK_POINTS} (set deck_check false for a home-made deck)")
            if INF not in out:
                raise IllegalAction("bad_option", "deck has no Infinity card")
        elif total < 4:
            raise IllegalAction("bad_option", "deck needs at least 4 cards")
        return dict(sorted(out.items(), key=lambda kv: card_rank(kv[0])))
