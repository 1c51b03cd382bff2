"""Camera observations: from an engine's observation template to a filled ``table ...`` action.

An engine asks the table for physical facts through action templates whose observed fields are
``None`` (``legal_actions(None)``, base.py): a serial number, a card face, a tuple of them. This
module decides which reader a field needs, reads a frame with the real reader and fills the
template — or abstains with a reason so that the caller rescans or asks for manual entry. It is
the same code for a real camera and for the simulated table's rendered frames.

Field names decide the reader: a name containing ``serial`` or ``note`` → the banknote reader;
``card``, ``face``, ``kind``, ``value`` or ``rank`` → the card reader. A tuple field takes every item
in the frame, ordered left to right; a single field needs exactly one item.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from companion.games.base import Action

NOTE_WORDS = ("serial", "note")
CARD_WORDS = ("card", "face", "kind", "value", "rank")


@dataclass(frozen=True)
class ObservedField:
    """One field of a template the camera must fill.

    Attributes:
        name: the dataclass field name.
        kind: ``note`` or ``card``.
        many: True for a tuple field (all items in the frame, left to right).
    """

    name: str
    kind: str
    many: bool


def observed_fields(template: Action) -> list[ObservedField]:
    """The ``None`` fields of ``template`` and the reader each needs.

    Raises:
        ValueError: a ``None`` field whose name says neither note nor card (an engine/observer
            mismatch to fix, not to guess).
    """
    hints = typing.get_type_hints(type(template))
    out = []
    for f in dataclasses.fields(template)[1:]:
        if getattr(template, f.name) is not None:
            continue
        low = f.name.lower()
        if any(w in low for w in NOTE_WORDS):
            kind = "note"
        elif any(w in low for w in CARD_WORDS):
            kind = "card"
        else:
            raise ValueError(f"{type(template).__name__}.{f.name}: no camera reader for this field")
        hint = hints[f.name]
        many = "tuple" in str(hint).lower()
        out.append(ObservedField(f.name, kind, many))
    return out


def matches(template: Action, action: Action) -> bool:
    """True when ``action`` is ``template`` with its ``None`` fields filled."""
    if type(template) is not type(action) or template.seat != action.seat:
        return False
    return all(
        getattr(template, f.name) is None or getattr(template, f.name) == getattr(action, f.name)
        for f in dataclasses.fields(template)
    )


@dataclass(frozen=True)
class Item:
    """One thing a reader found in a frame: ``value`` (serial or card code; ``None`` when it saw
    the item but abstained), ``confidence`` 0…1, ``x`` its centre's column in px (for ordering),
    ``reason`` when abstaining."""

    value: str | None
    confidence: float = 0.0
    x: float = 0.0
    reason: str | None = None


Reader = Callable[[np.ndarray], Sequence[Item]]
"""A reader: frame (H×W×3 BGR uint8) → the items it found, any order."""


@dataclass(frozen=True)
class Reading:
    """The result of one observation attempt.

    Attributes:
        action: the filled action, or ``None`` when the reader abstained.
        values: field name → value read.
        reason: why it abstained (``no_item``, ``too_many``, a reader's reason).
    """

    action: Action | None
    values: dict
    reason: str | None = None


def fill(template: Action, frame: np.ndarray, readers: dict[str, Reader]) -> Reading:
    """Read ``frame`` for every observed field of ``template`` and fill it.

    Args:
        readers: ``{"note": reader, "card": reader}``; only the kinds the template needs are used.

    Raises:
        ValueError: the template needs no camera value, or needs more than one field (unsupported).
        KeyError: no reader for a needed kind.
    """
    fields = observed_fields(template)
    if not fields:
        raise ValueError(f"{template.text()!r} needs no camera value")
    if len(fields) > 1:
        raise ValueError(f"{type(template).__name__}: more than one camera field is not supported")
    f = fields[0]
    items = sorted(readers[f.kind](frame), key=lambda it: it.x)
    if not items:
        return Reading(None, {}, f"no_{f.kind}")
    unsure = [it for it in items if it.value is None]
    if unsure:
        return Reading(None, {}, unsure[0].reason or "unsure")
    if f.many:
        value: object = tuple(it.value for it in items)
    else:
        if len(items) != 1:
            return Reading(None, {}, f"too_many_{f.kind}s")
        value = items[0].value
    return Reading(dataclasses.replace(template, **{f.name: value}), {f.name: value})
