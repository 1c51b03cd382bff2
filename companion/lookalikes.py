"""Letters of different alphabets that print alike (Latin «A» and Cyrillic «А», Greek «Ο» and
Cyrillic «О»): one table for the note reader (a Latin letter read in a RUB serial's Cyrillic
position, :mod:`companion.vision.serials`) and for seat names compared as people read them
(:func:`companion.games.seats.name_key`)."""

from __future__ import annotations

#: Latin capitals that print as a Cyrillic capital.
LATIN_AS_CYRILLIC: dict[str, str] = {
    "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р",
    "T": "Т", "X": "Х", "Y": "У",
}
#: Cyrillic capitals (Ukrainian, Serbian) that print as a Latin capital.
CYRILLIC_AS_LATIN: dict[str, str] = {"І": "I", "Ј": "J", "Ѕ": "S"}
#: Greek capitals that print as a Cyrillic or a Latin capital.
GREEK_AS_OTHER: dict[str, str] = {
    "Α": "А", "Β": "В", "Ε": "Е", "Η": "Н", "Κ": "К", "Μ": "М", "Ο": "О", "Ρ": "Р", "Τ": "Т",
    "Χ": "Х", "Υ": "У", "Ι": "I", "Ν": "N", "Ζ": "Z",
}
#: Small letters that print alike though their capitals differ (or have none).
SMALL_ALIKE: dict[str, str] = {"ο": "о", "ρ": "р", "κ": "к", "ë": "ё"}


def _folded() -> dict[int, str]:
    table = {}
    for src in (LATIN_AS_CYRILLIC, CYRILLIC_AS_LATIN, GREEK_AS_OTHER):
        for a, b in src.items():
            table[ord(a.casefold())] = b.casefold()
    for a, b in SMALL_ALIKE.items():
        table[ord(a)] = b
    return table


_FOLD = _folded()


def fold(text: str) -> str:
    """``text`` case-folded with each look-alike letter as the one letter it stands for: a letter
    whose capital or small form prints as another alphabet's (Latin «a», Greek «α» and Cyrillic
    «а»; «Aня» with a Latin A is «аня»). Case is folded first, so a pair that looks alike only
    in capitals («M» and «М») folds too: for comparing, never for showing."""
    return text.casefold().translate(_FOLD)
