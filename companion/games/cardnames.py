"""A playing card as a person reads and types it, in each language of the pages.

A card code (``QH``, ``10C``, ``JK``) is the engines', the log's and the APIs' form and never
changes. Written for a person, a card is its rank then its suit sign; the picture ranks are the
letters of the language's deck indices: English A K Q J, Russian Т К Д В (туз, король, дама,
валет) — ``"QH"`` → «Д♥» / "Q♥", ``"10C"`` → «10♣». Typed back (the operator's card fields, a
typed move) either language's letters, a suit sign or letter, in any case, read as the code.
The boards write cards the same way (``web/static/js/cards.js`` ``cardWords``).
"""

from __future__ import annotations

import re
from typing import Iterable

from companion.i18n.render import LANGUAGES

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""Suit letter of a card code -> its sign (the pages' ``H_SUITS``, web/static/js/cards.js)."""

RANK_LETTERS: dict[str, dict[str, str]] = {
    "ru": {"A": "Т", "K": "К", "Q": "Д", "J": "В"},
    "en": {"A": "A", "K": "K", "Q": "Q", "J": "J"},
}
"""A picture rank of a card code -> its letter on the language's decks (pip ranks are digits)."""

_CODE = re.compile(r"^(10|[2-9AKQJ])([SHDC])$")
_READ_RANK = {letter: rank for letters in RANK_LETTERS.values() for rank, letter in letters.items()}
_READ_SUIT = {**{s: s for s in SUIT_SIGNS}, **{sign: s for s, sign in SUIT_SIGNS.items()}}
_TYPED = re.compile(r"^(10|[2-9]|[%s])([%s])$" % ("".join(_READ_RANK), "".join(_READ_SUIT)), re.IGNORECASE)


def card_code(text: str) -> str | None:
    """The card code of a card as a person types or reads it: ``"QH"``, ``"Q♥"``, ``"Д♥"``,
    ``"дh"``, ``"10♣"``, ``"т♠"`` → ``"QH"``, ``"QH"``, ``"QH"``, ``"QH"``, ``"10C"``, ``"AS"``;
    ``None`` for anything else (a serial, a number, a picture deck's card name, the joker)."""
    m = _TYPED.match(str(text).strip())
    if not m:
        return None
    rank, suit = m.group(1).upper(), m.group(2).upper()
    return _READ_RANK.get(rank, rank) + _READ_SUIT[suit]


def rank_words(rank: str, lang: str) -> str:
    """A rank of a card code as ``lang`` writes it: ``"Q", "ru"`` → «Д», ``"10"`` → «10»."""
    return RANK_LETTERS.get(lang, RANK_LETTERS["en"]).get(rank, rank)


def card_words(code: str, lang: str) -> str:
    """A card code as ``lang`` writes it: ``"QH", "ru"`` → «Д♥», ``"QH", "en"`` → "Q♥",
    ``"10C"`` → «10♣» in both. A text that is not a rank-and-suit code is returned as it is."""
    m = _CODE.match(str(code))
    if not m:
        return str(code)
    rank, suit = m.groups()
    return rank_words(rank, lang) + SUIT_SIGNS[suit]


def card_label(code: str) -> dict[str, str] | str:
    """A card code in every language, a fact for a message or a page view's words (as
    :func:`companion.games.words.money`): ``"QH"`` → ``{"ru": "Д♥", "en": "Q♥"}``. A text that
    is not a rank-and-suit code (the joker's ``JK``, a picture deck's name) is returned as it is."""
    if not _CODE.match(str(code)):
        return str(code)
    return {lang: card_words(code, lang) for lang in LANGUAGES}


def cards_label(codes: Iterable[str], sep: str = ", ") -> dict[str, str]:
    """Several card codes in every language: ``["QH", "7S"]`` → ``{"ru": "Д♥, 7♠", "en": "Q♥, 7♠"}``."""
    codes = [str(c) for c in codes]
    return {lang: sep.join(card_words(c, lang) for c in codes) for lang in LANGUAGES}
