"""The cards of "6100": the default deck (RULINGS §4), the card tokens (``500``, ``INF``), their
rank, and the Infinity card by the name the pages show («Бесконечность»)."""

from __future__ import annotations

import functools
from typing import Any

from companion.i18n import MP, NC_, both
from companion.sanitise import fold_words

INF = "INF"
"""Token of the Infinity card (beats every card, RULINGS §4)."""

INF_NAME = NC_("infinity", "Infinity")
"""The Infinity card's name on the pages («Бесконечность»: the deck's key in «Подробнее»,
``terms["INF"]``), the catalogue's; a person may type it (:func:`card_for_name`)."""

DEFAULT_DECK: dict[str, int] = {
    "10": 6, "40": 1, "36": 4, "100": 4, "106": 4, "200": 4, "225": 4, "333": 4, "500": 4, INF: 1,
}
"""The default deck profile, RULINGS §4 (an assumption; the seed does not list the deck):
36 cards, 6100 points without Infinity."""

DECK_CARDS = 36
DECK_POINTS = 6100
"""Seed ``003_*`` ¶1: "В колоде 36 карт с общим количеством 6100 игровых очков"."""


# ---------------------------------------------------------------------- cards
@functools.lru_cache(maxsize=256)
def card_rank(card: str) -> float:
    """Strength of a card token: its value; Infinity is above every value."""
    return float("inf") if card == INF else int(card)


def canonical_card(token: Any) -> str | None:
    """The canonical token (``"500"``, ``"INF"``) for a written card, or ``None`` if malformed."""
    if not isinstance(token, str):
        return None
    return _canonical_card(token)


def _checked_card(token: Any) -> str:
    """The canonical card of an accepted action (its check refused a malformed one)."""
    card = canonical_card(token)
    assert card is not None, f"an unchecked card {token!r}"
    return card


@functools.lru_cache(maxsize=1024)
def _canonical_card(token: str) -> str | None:
    t = token.strip()
    if t.upper() in (INF, "INFINITY") or t == "∞":
        return INF
    if t.isdigit() and int(t) > 0:
        return str(int(t))
    return None


# ---------------------------------------------------------------------- cards in words
def card_words(card: str) -> dict[str, str] | str:
    """A card as the pages name it, a fact for a message: a value as written (``"500"``), Infinity
    by its name in each language (``{"ru": "Бесконечность", "en": "Infinity"}``)."""
    return both(MP("infinity", INF_NAME)) if card == INF else card


def card_for_name(text: str) -> str | None:
    """``INF`` for the Infinity card typed by the name the pages show, in any language and case
    («бесконечность», ``Infinity``), else ``None``. The engine never reads names (a log replays
    whatever the catalogue says): the dashboard turns a typed name into ``INF`` first
    (:meth:`companion.games.infinity.state.InfinityState.kind_for_name`)."""
    names = card_words(INF)
    return INF if isinstance(names, dict) and fold_words(text) in {fold_words(n) for n in names.values()} else None
