"""The house rules of skull: :class:`SkullOptions` (seed 000 "До начала игры", RULINGS §1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.errors import IllegalAction
from companion.games.base import Options
from companion.vision import serials as _serials


# ---------------------------------------------------------------------------- options
@dataclass(frozen=True)
class SkullOptions(Options):
    """House rules of ``skull`` (seed 000 "До начала игры", RULINGS §1). See docs/rules/skull.md.

    Attributes:
        notes_per_player: notes each player registers (seed: 4 = 3 roses + 1 skull).
        skulls_per_player: skulls among them (seed: 1).
        skull_parity: ``"odd"`` (default, seed: odd last digit = skull) or ``"even"``.
        leaver_counts_as: ``"pass"`` (default, RULINGS §1) or ``"agree"``: the side a player who
            leaves mid-round takes in the auction (seed, Примечание).
        last_skull_out: a player whose only note left is a skull deposits it and is out
            automatically (seed, Прочее; default ``True``).
        currency: the notes' currency (default ``"RUB"``): the serial format every serial must
            fit, what the note reader reads, and the unit of the bank total. One of the formats
            the reader knows (:data:`companion.vision.serials.CURRENCIES`: RUB, EUR, USD, INR,
            KRW, JPY) — an unknown code would switch the serial check and the one-note-one-
            spelling rule off without a word (a typo such as ``RUR``).
    """

    #: the values a text option may take (the operator's new-game form offers them as a list)
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"skull_parity": ("odd", "even"),
                                                      "leaver_counts_as": ("pass", "agree"),
                                                      "currency": _serials.CURRENCIES}

    #: whole-number ranges (seed 000: 4 notes, 1 skull; RULINGS §1); see Options.check_limits
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {"notes_per_player": (2, 20), "skulls_per_player": (1, 19)}
    notes_per_player: int = 4
    skulls_per_player: int = 1
    skull_parity: str = "odd"
    leaver_counts_as: str = "pass"
    last_skull_out: bool = True
    currency: str = "RUB"

    def validate(self) -> None:
        if not isinstance(self.notes_per_player, int) or not 2 <= self.notes_per_player <= 20:
            raise IllegalAction("bad_option", "notes_per_player must be 2-20")
        if not isinstance(self.skulls_per_player, int) or not 1 <= self.skulls_per_player < self.notes_per_player:
            # the range depends on notes_per_player: the facts carry it, so a refusal can say
            # «от 1 до 3» rather than only that a value is impossible
            raise IllegalAction("bad_option", "skulls_per_player must be at least 1 and below notes_per_player",
                                facts={"option": "skulls_per_player", "min": 1, "max": self.notes_per_player - 1,
                                       "value": self.skulls_per_player,
                                       # the option it is bound to (companion.games.optionwords)
                                       "options": ["skulls_per_player", "notes_per_player"], "rule": "fewer_than",
                                       "than": self.notes_per_player})
        for name in ("skull_parity", "leaver_counts_as"):
            if getattr(self, name) not in self.CHOICES[name]:
                raise IllegalAction("bad_option", f"{name} must be {' or '.join(map(repr, self.CHOICES[name]))}",
                                    facts={"option": name, "choices": list(self.CHOICES[name]),
                                           "value": getattr(self, name)})
        if not isinstance(self.last_skull_out, bool):
            raise IllegalAction("bad_option", "last_skull_out must be true or false")
        if self.currency not in _serials.CURRENCIES:
            # a typo ("rub", "RUR") or a currency without a known serial format would silently
            # switch the serial check off, and the reader could not read its notes anyway
            raise IllegalAction("bad_option", f"currency must be one of {', '.join(_serials.CURRENCIES)} "
                                f"(the serial formats the note reader knows), got {self.currency!r}",
                                facts={"option": "currency", "choices": list(_serials.CURRENCIES),
                                       "value": self.currency})
