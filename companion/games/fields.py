"""Typed action fields: what a value of an action *is*, so that the table asks the schema instead
of knowing field names.

An action field's annotation says its kind with :data:`typing.Annotated` (the text form and the
engine see only the plain type)::

    @dataclass(frozen=True)
    class Flip(Action):
        VERB = "flip"
        owner: Seat
        serial: Serial | None

The kinds (:class:`Kind`):

* ``seat`` — a seat index (from 0 in the engine and the log; people see a name, type a number from
  1 or the name);
* ``slot`` — a place on the table: a whole number counted from 0 (the lottery's prize places,
  shown and typed from 1) or a layout place written as a card code (the joker game's 4×8 layout);
* ``card`` — a card of the game's deck, as the deck writes it: a code (``QH``, ``500``, ``INF``) or,
  for a deck of named pictures, the kind's id (doubt's ``mushroom``); the card reader fills it;
* ``serial`` — a banknote's serial number; the note reader fills it;
* ``amount`` — chips, stakes, face values: whole numbers, several typed with spaces between;
* ``count`` — how many of something (a bid, cards laid);
* ``choice`` — an id a person cannot read (a bet's number): the presenter words each choice.

An unannotated field has no kind (``None``): it is shown and typed as it is.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from dataclasses import dataclass
from typing import Annotated, Any


class Kind(str, enum.Enum):
    """The kind of an action field (module docstring)."""

    SEAT = "seat"
    SLOT = "slot"
    CARD = "card"
    SERIAL = "serial"
    AMOUNT = "amount"
    COUNT = "count"
    CHOICE = "choice"


Seat = Annotated[int, Kind.SEAT]
Slot = Annotated[int, Kind.SLOT]
LayoutSlot = Annotated[str, Kind.SLOT]
Card = Annotated[str, Kind.CARD]
Serial = Annotated[str, Kind.SERIAL]
Amount = Annotated[int, Kind.AMOUNT]
Count = Annotated[int, Kind.COUNT]
Choice = Annotated[int, Kind.CHOICE]

READ_BY = {Kind.SERIAL: "note", Kind.CARD: "card"}
"""Which reader fills an observed field of a kind (``companion.observe``): notes or cards."""


@dataclass(frozen=True)
class Field:
    """One argument field of an Action class.

    Attributes:
        name: the dataclass field's name.
        kind: its :class:`Kind`, or ``None`` when unannotated.
        type: the plain item type (``int``, ``str``, ``bool``).
        many: a tuple of items (a list box on a form, items left to right in a frame).
        unknown_ok: the operator may leave it unknown (``?``): the class's ``UNKNOWN_OK``.
    """

    name: str
    kind: Kind | None
    type: type
    many: bool
    unknown_ok: bool

    @property
    def reader(self) -> str | None:
        """``"note"`` or ``"card"``: the reader that fills this field when it is observed."""
        return READ_BY.get(self.kind) if self.kind is not None else None

    def schema(self) -> dict:
        """The JSON form the pages read: ``{"name", "kind", "type", "many", "optional"}`` (``kind``
        ``None`` for a plain field; ``type`` ``"int"``, ``"str"`` or ``"bool"``)."""
        return {"name": self.name, "kind": self.kind.value if self.kind is not None else None,
                "type": self.type.__name__, "many": self.many, "optional": self.unknown_ok}


def _unpack(hint: Any) -> tuple[Kind | None, type, bool]:
    """``(kind, item type, many)`` of an annotation with its extras kept."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        non_none = [a for a in args if a is not type(None)]
        return _unpack(non_none[0])
    if origin is Annotated:
        kind = next((a for a in args[1:] if isinstance(a, Kind)), None)
        inner_kind, item, many = _unpack(args[0])
        return kind or inner_kind, item, many
    if origin is tuple:
        kind, item, _many = _unpack(args[0] if args else str)
        return kind, item, True
    return None, hint if isinstance(hint, type) else str, False


def fields_of(cls: type) -> tuple[Field, ...]:
    """The argument fields (after ``seat``) of an Action class with their kinds, once per class.

    >>> from companion.games.skull.actions import Flip
    >>> [(f.name, f.kind.value) for f in fields_of(Flip)]
    [('owner', 'seat'), ('serial', 'serial')]
    """
    # (a plain function over the cache: mypy takes a frozen dataclass's instance __hash__ for its
    # class's, so ``type[SomeAction]`` is not Hashable to lru_cache's signature; ``type`` is)
    return _fields_of(cls)


@functools.lru_cache(maxsize=None)
def _fields_of(cls: type) -> tuple[Field, ...]:
    hints = typing.get_type_hints(cls, include_extras=True)
    unknown_ok = set(getattr(cls, "UNKNOWN_OK", ()))
    out = []
    for f in dataclasses.fields(cls)[1:]:
        kind, item, many = _unpack(hints[f.name])
        out.append(Field(f.name, kind, item, many, f.name in unknown_ok))
    return tuple(out)


def field_named(cls: type, name: str) -> Field | None:
    """The field ``name`` of an Action class, or ``None``."""
    return next((f for f in fields_of(cls) if f.name == name), None)


def schema(cls: type) -> list[dict]:
    """The action schema of an Action class for the pages: one :meth:`Field.schema` per field."""
    return [f.schema() for f in fields_of(cls)]
