"""A skull note is its serial: the serial checks, the role its last digit gives (RULINGS §1) and
the check of one player's set at registration (seed 000 "До начала игры")."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Iterable, Sequence, TypeGuard

from companion.i18n import N_
from companion.vision import serials as _serials
from companion.vision.serials import canonical, last_digit
from companion.games.skull.options import SkullOptions

ROSE = "rose"
SKULL = "skull"

# ---------------------------------------------------------------------------- serials
#: The serial shape of each currency :mod:`companion.vision.serials` knows, in words:
#: ``{currency: (message id, example)}`` (formats: serials module docstring).
SERIAL_SHAPES: dict[str, tuple[str, str]] = {
    "RUB": (N_("two letters and seven digits"), "АК2444841"),
    "EUR": (N_("one letter and eleven digits, or two letters and ten digits, passing the euro check"),
            "M23128416391"),
    "USD": (N_("one or two letters, eight digits and a letter or *"), "C53381275C"),
    "INR": (N_("a digit, a letter or digit, a letter and six digits"), "5HA852592"),
    "KRW": (N_("two letters, seven digits and a letter"), "CD1518438E"),
    "JPY": (N_("one or two letters, six digits and a letter"), "AW503378D"),
}


def _letters_and_digits(serial: object) -> TypeGuard[str]:
    """``serial`` is a non-empty string of upper-case letters and ASCII digits only (canonical
    characters, whatever its length or shape)."""
    return isinstance(serial, str) and bool(serial) and all(
        c in _serials.DIGITS or (c.isalpha() and c == c.upper() and c != c.lower()) for c in serial)


def serial_fits(serial: str, currency: str | None) -> bool:
    """True when ``serial`` (canonical) is a serial of ``currency`` as printed: an exact, correction-
    free fit of the currency's format (:func:`companion.vision.serials.validate`; on a RUB table a
    Latin letter that looks like the Cyrillic one counts as it, as the note reader maps it — seed
    000 and RULINGS §1 judge a note by its serial). A currency the serials module does not know
    keeps the lenient rule of :func:`is_canonical_serial`."""
    if not is_canonical_serial(serial):
        return False
    if currency not in _serials.CURRENCIES:
        return True
    return _serials.validate(serial, currency)


def serial_format_problem(bad: Sequence[str], currency: str) -> tuple[str, str]:
    """The ``serial_format`` problem (reason code, English message) for serials that do not fit
    ``currency``'s format."""
    shape, example = SERIAL_SHAPES.get(currency, ("its format", ""))
    return ("serial_format", f"{', '.join(map(str, bad))}: not a {currency} serial ({shape}, e.g. {example})")


def unused_letter(serial: object, currency: str | None) -> str | None:
    """The letter of ``serial`` that no serial of ``currency`` ever holds, or ``None``: on a rouble
    table a Cyrillic capital outside the Bank of Russia's serial letters (Ё Й Ъ Ы Ь —
    :data:`companion.vision.serials.CYRILLIC_SERIAL_LETTERS`), such as «Ё» typed for «Е»."""
    if currency != "RUB" or not isinstance(serial, str):
        return None
    return next((c for c in serial if "\u0400" <= c <= "\u04ff" and c.isupper()
                 and c not in _serials.CYRILLIC_SERIAL_LETTERS), None)


def serial_format_facts(bad: Sequence[str], currency: str) -> dict:
    """The facts of a ``serial_format`` refusal of ``bad``, for the presenter's sentence: when a
    serial holds a letter no serial of ``currency`` uses (:func:`unused_letter`), that serial,
    the letter and the currency; else ``{}`` (the currency's shape says enough)."""
    for serial in bad:
        letter = unused_letter(serial, currency)
        if letter is not None:
            return {"serial": serial, "letter": letter, "currency": currency}
    return {}


@lru_cache(maxsize=65536)
def table_serial(serial, currency: str | None):
    """``serial`` as a table of ``currency`` stores it: when it fits the currency's format exactly
    with look-alike letters of the other alphabet (``AK2444841`` typed in Latin on a RUB table,
    Cyrillic ``М`` in a euro serial), the reader's spelling (``АК2444841``), which is what
    :func:`serial_fits` already accepts as the same note (RULINGS §1: a note is its serial).
    Anything else — not canonical, not fitting, an unknown currency, ``None`` — is returned
    unchanged, for the checks to reject or keep as before. Without it one note could be registered
    twice (once per alphabet) and a camera read of a note registered by hand would be "unregistered"."""
    if currency not in _serials.CURRENCIES or not is_canonical_serial(serial):
        return serial
    for m in _serials.match(serial, currency):
        if m.corrections == 0:
            return m.serial
    return serial


canonical_serial = canonical
"""The canonical form of a serial as read off a note: uppercase, no spaces or separators —
``canonical_serial("Ак 2444841") == "АК2444841"``. The one implementation is
:func:`companion.vision.serials.canonical` (a pure text module: no image code)."""


_COMMON_SERIAL = re.compile(r"(?=.*[0-9])[0-9A-ZА-ЯЁ]{4,20}")


def is_canonical_serial(serial: str) -> bool:
    """True when ``serial`` is 4–20 characters of uppercase letters and ASCII digits with at least
    one digit (the digit that gives its role)."""
    if not isinstance(serial, str) or not 4 <= len(serial) <= 20:
        return False
    if _COMMON_SERIAL.fullmatch(serial):  # Latin and Cyrillic with a digit: the fast path
        return True
    has_digit = False
    for c in serial:
        if c in _serials.DIGITS:
            has_digit = True
        elif not (c.isalpha() and c == c.upper() and c != c.lower()):
            return False
    return has_digit


@lru_cache(maxsize=65536)
def note_role(serial: str, skull_parity: str = "odd") -> str:
    """``"rose"`` or ``"skull"`` from the serial's rightmost digit (RULINGS §1: even = rose and
    odd = skull by default; ``skull_parity="even"`` swaps them).

    Raises:
        ValueError: the serial has no digit.
    """
    odd = last_digit(serial) % 2 == 1
    return SKULL if odd == (skull_parity == "odd") else ROSE


def validate_note_set(serials: Sequence[str], options: SkullOptions | dict | None = None,
                      taken: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Check one player's set of notes at registration (seed "До начала игры", RULINGS §1).

    Args:
        serials: the player's serials, canonical (see :func:`canonical_serial`).
        options: the table's :class:`SkullOptions` (or a dict); defaults when ``None``.
        taken: serials already registered to other seats at this table.

    Returns:
        A list of ``(reason_code, message)`` problems, empty when the set is good. Codes:
        ``serial_format`` (a known currency's serial shape not met), ``bad_serial`` (another
        currency: not letters and digits), ``duplicate_serial``, ``serial_taken``, ``wrong_note_count``,
        ``wrong_skull_count`` (messages in English; sentences for players in
        :mod:`companion.dashboard.reasons`).

    Raises:
        IllegalAction: ``bad_option`` for bad options.
    """
    if not isinstance(options, SkullOptions):
        options = SkullOptions.from_dict(options)
    problems: list[tuple[str, str]] = []
    bad = [s for s in serials if not serial_fits(s, options.currency)]
    uncanonical = [s for s in bad if not _letters_and_digits(s)]
    if uncanonical or (bad and options.currency not in _serials.CURRENCIES):
        problems.append(("bad_serial", f"not a canonical serial: {', '.join(map(str, uncanonical or bad))}"))
    else:
        if bad:  # canonical text, but not the shape the table's currency prints
            problems.append(serial_format_problem(bad, options.currency))
    dups = sorted(s for s, k in Counter(serials).items() if k > 1)
    if dups:
        problems.append(("duplicate_serial", f"serial(s) twice in the set: {', '.join(dups)}"))
    taken = set(taken)
    clash = sorted(s for s in set(serials) if s in taken)
    if clash:
        problems.append(("serial_taken", f"already registered at this table: {', '.join(clash)}"))
    n = options.notes_per_player
    if len(serials) != n:
        problems.append(("wrong_note_count", f"{len(serials)} note(s); each player registers {n}"))
    if not bad:
        skulls = sum(1 for s in serials if note_role(s, options.skull_parity) == SKULL)
        want = options.skulls_per_player
        if skulls != want:
            problems.append((
                "wrong_skull_count",
                f"{skulls} skull(s) ({options.skull_parity} last digit); each player has {want} skull(s)"
                f" and {n - want} rose(s)",
            ))
    return problems
