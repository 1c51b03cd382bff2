"""What code says to people: a :class:`Message` (a catalogue message id and its facts), never a
language. The one renderer (:func:`companion.i18n.render`) turns it into Russian or English at the
edge (a page, the console, a CLI line, an error).

The constructors are the catalogue's extraction keywords (``web/babel.cfg``, ``make catalogue``):

>>> M("%(name)s leads", name="Аня").facts["name"]
'Аня'
>>> MN("%(n)s card", "%(n)s cards", 3).facts["n"]
3
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class Message:
    """A message id with its facts, rendered later in any language.

    Attributes:
        id: the English message id (also the English text), ``%(fact)s`` placeholders for facts.
        facts: the values the text names; a fact that is itself words is a :class:`Message`
            (rendered in the same language), a list of them is joined with ``", "``.
        context: the gettext context (a game id: the same English word, that game's Russian).
        plural: the English plural form; the fact ``n`` then chooses the form (``ngettext``).
    """

    id: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    context: str | None = None
    plural: str | None = None

    __hash__ = None  # type: ignore[assignment]  # facts is a dict

    def __str__(self) -> str:  # a message printed by mistake still reads (in Russian)
        from companion.i18n.render import render

        return render(self, "ru")


def M(id: str, /, **facts: Any) -> Message:
    """A message: ``M("%(name)s leads", name="Аня")`` (extraction keyword ``M``)."""
    return Message(id, facts)


def MP(context: str, id: str, /, **facts: Any) -> Message:
    """A message in a context (``pgettext``): ``MP("skull", "Dealer")`` (keyword ``MP:1c,2``)."""
    return Message(id, facts, context=context)


def MN(singular: str, plural: str, n: int, /, **facts: Any) -> Message:
    """A message whose form follows the number ``n`` (``ngettext``; also the fact ``n``):
    ``MN("%(n)s chip", "%(n)s chips", 5)`` → «5 фишек» (keyword ``MN:1,2``)."""
    return Message(singular, {"n": n, **facts}, plural=plural)


def MPN(context: str, singular: str, plural: str, n: int, /, **facts: Any) -> Message:
    """:func:`MN` in a context (``npgettext``; keyword ``MPN:1c,2,3``)."""
    return Message(singular, {"n": n, **facts}, context=context, plural=plural)


@dataclass(frozen=True)
class DecimalNumber:
    """A fact that is a number with ``places`` decimals, written as the text's language writes it
    (:func:`companion.i18n.render.fact`): «400,0» in Russian, "400.0" in English."""

    value: float
    places: int = 1


def decimal(value: float, places: int = 1) -> DecimalNumber:
    """A decimal fact: ``M("%(mp)s MP", mp=decimal(400.0))`` → «400,0 Мп» / "400.0 MP"."""
    return DecimalNumber(float(value), places)


def N_(message: str) -> str:
    """Mark ``message`` (an English message id) for the catalogue and return it unchanged; it is
    translated where it is shown (keyword ``N_``)."""
    return message


def NC_(context: str, message: str) -> str:
    """Mark ``message`` for the catalogue in ``context`` and return it unchanged (``NC_:1c,2``)."""
    return message


#: extraction keywords of the constructors above, as ``pybabel extract -k`` takes them
KEYWORDS = ("M", "MP:1c,2", "MN:1,2", "MPN:1c,2,3", "N_", "NC_:1c,2", "_l", "_", "pgettext:1c,2",
            "ngettext:1,2")
