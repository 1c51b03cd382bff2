"""Seats and their names: names compared as people read them, a seat number typed from 1 as the
engine's index from 0, and a seat's name in an event's words."""

from __future__ import annotations

import unicodedata
from typing import Sequence

from companion.lookalikes import fold

MAX_SEAT_NAME = 24
"""The longest player name (in characters) a new game takes, from the new-game form and from
``--seats`` or the settings file alike (``companion.table.session.check_new_game``)."""


def long_name(names: Sequence[str]) -> str | None:
    """The first of ``names`` longer than :data:`MAX_SEAT_NAME`, or ``None``."""
    return next((n for n in names if isinstance(n, str) and len(n) > MAX_SEAT_NAME), None)


def shortened_name(name: str) -> str:
    """A name too long to show whole, as a refusal quotes it: at most twice
    :data:`MAX_SEAT_NAME` characters, then «…»."""
    return name if len(name) <= 2 * MAX_SEAT_NAME else name[:2 * MAX_SEAT_NAME] + "…"


def name_key(name: str) -> str:
    """A seat name as people read it, for comparing names: compatibility forms folded (NFKC:
    full-width «Ａня» is «Аня», a decomposed «Á» the composed one), invisible format characters
    (zero-width spaces, direction marks) dropped, runs of spaces as one, case and «ё» ignored,
    and a letter that prints like another alphabet's as that letter («Aня» with a Latin A is
    «Аня», :func:`companion.lookalikes.fold`). ``""`` for a name nobody could see."""
    text = unicodedata.normalize("NFKC", str(name))
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return fold(" ".join(text.split())).replace("ё", "е")


def repeated_name(names: Sequence[str]) -> str | None:
    """The first of ``names`` (seat names) that repeats an earlier one, as it was typed, or
    ``None``. Names are compared as people read them (:func:`name_key`), so «Аня», « аня»,
    «Ａня», «Aня» with a Latin A and «Аня» with a zero-width space are one player (README: a repeated name is refused)."""
    seen: set[str] = set()
    for name in names:
        key = name_key(name)
        if key in seen:
            return name
        seen.add(key)
    return None


def seat_from_one(value, seat_count: int | None = None) -> int:
    """A seat number as people see and type it (from 1, clockwise; ``Options.SEATS`` values on
    the new-game form, ``companion run --option first_dealer=2``) as the engine's seat index (from
    0): ``2`` → ``1``. The one place that conversion is made.

    Args:
        value: the typed seat number (an int; a bool is not one).
        seat_count: the number of seats, when the caller knows it: a larger number is refused
            too (else the engine refuses it later with ``bad_option``).

    Raises:
        ValueError: not a whole number, below 1, or above ``seat_count``.
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"a seat number must be a whole number, got {value!r}")
    if value < 1:
        raise ValueError(f"seats are numbered from 1, got {value!r}")
    if seat_count is not None and value > seat_count:
        raise ValueError(f"there are {seat_count} seats, got {value!r}")
    return value - 1


def seat_namer(data: dict, seats):
    """``name(key="seat")``: the player's name for the seat number under ``key`` in an event's
    ``data``, ``"—"`` when it is absent or ``None`` (the games' ``describe_event`` helpers)."""

    def name(key: str = "seat") -> str:
        s = data.get(key)
        return "—" if s is None else seats[s]

    return name
