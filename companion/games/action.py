"""The actions and events every game speaks (:mod:`companion.games.base` has the State API):
:class:`Action` with its round-tripping text form (``"2 bid 3"``), :class:`SeatAction`,
:class:`Event`, and which fields of an action only the camera or the operator can supply."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

from companion.errors import ActionSyntaxError

TABLE = "table"
"""Actor token of actions that belong to the table (camera, operator), not to a seat."""


@dataclass(frozen=True)
class Action:
    """Base of every game action.

    Subclasses set ``VERB`` and declare their fields after ``seat``. ``seat`` is the acting seat
    (0-based, clockwise) or ``None`` for the table itself (camera observations, operator actions).
    """

    VERB: ClassVar[str] = ""
    seat: int | None

    # ------------------------------------------------------------------ text form
    def text(self) -> str:
        """The action's text form, e.g. ``"2 bid 3"``; :meth:`Game.parse_action` reverses it."""
        actor = TABLE if self.seat is None else str(self.seat)
        parts = [actor, self.VERB]
        for f in dataclasses.fields(self)[1:]:
            parts.append(_format_arg(getattr(self, f.name)))
        return " ".join(parts)

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.text()

    @classmethod
    def from_args(cls, seat: int | None, args: Sequence[str]) -> "Action":
        """Build the action from its text arguments (after actor and verb).

        Raises:
            ActionSyntaxError: wrong number of arguments or an argument of the wrong type.
        """
        spec = _arg_spec(cls)
        if len(args) != len(spec):
            raise ActionSyntaxError(
                "bad_syntax",
                f"'{cls.VERB}' takes {len(spec)} argument(s) "
                f"({', '.join(name for name, _, _ in spec) or 'none'}), got {len(args)}",
            )
        values = []
        for token, (name, type_name, convert) in zip(args, spec):
            try:
                values.append(convert(token))
            except ValueError:
                raise ActionSyntaxError(
                    "bad_syntax", f"'{cls.VERB}': argument {name}={token!r} is not a {type_name}"
                ) from None
        return cls(seat, *values)


@dataclass(frozen=True)
class SeatAction(Action):
    """Base of an action only a seat takes (a bid, «Верю», a card played): ``seat`` is a seat
    number. The text form still parses ``table <verb> ...`` into one with ``seat=None``, which the
    engine's check refuses before anything reads the seat, so an accepted one always has a seat."""

    seat: int


_ARG_SPECS: dict[type, tuple[tuple[str, str, Any], ...]] = {}


def _arg_spec(cls: type) -> tuple[tuple[str, str, Any], ...]:
    """``(name, type name, converter)`` for each argument field (after ``seat``) of an Action
    class, built once per class: ``typing.get_type_hints`` is slow and the engines parse many
    actions per second. A converter takes one text token and raises ``ValueError``."""
    spec = _ARG_SPECS.get(cls)
    if spec is None:
        hints = typing.get_type_hints(cls)
        spec = tuple(
            (f.name, _type_name(hints[f.name]), _converter(hints[f.name]))
            for f in dataclasses.fields(cls)[1:]
        )
        _ARG_SPECS[cls] = spec
    return spec


def _type_name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint)


def _converter(hint: Any):
    """A function text token -> value for a field type (``int``, ``str``, ``bool``, tuples of
    them, optionally ``| None``)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        non_none = [a for a in args if a is not type(None)]
        inner = _converter(non_none[0])
        if type(None) in args:
            return lambda t: None if t == "?" else inner(t)
        return inner
    if origin is tuple:
        item = _converter(args[0] if args else str)
        return lambda t: () if t == "-" else tuple(item(x) for x in t.split(","))
    if hint is bool:
        def to_bool(t: str) -> bool:
            if t not in ("yes", "no"):
                raise ValueError(t)
            return t == "yes"
        return to_bool
    if hint is int:
        def to_int(t: str) -> int:
            if not t.lstrip("-").isdigit():
                raise ValueError(t)
            return int(t)
        return to_int
    if hint is str:
        return str
    raise TypeError(f"unsupported action field type {hint!r}")  # programming error


def _format_arg(value: Any) -> str:
    if value is None:
        return "?"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(_format_arg(v) for v in value) if value else "-"
    text = str(value)
    if not text or any(c.isspace() for c in text) or text in ("?", "-") or "," in text:
        raise ValueError(f"action argument {text!r} cannot be written in text form")
    return text


@dataclass(frozen=True)
class Event:
    """Something that happened, for the dashboard history, lights and sounds.

    Attributes:
        kind: stable event code, e.g. ``"bid"``, ``"note_to_bank"``, ``"round_won"``.
        data: JSON-safe facts. For a public event (``private_to is None``) it must not contain any
            hidden fact (face-down card or note, bank deposit identity).
        private_to: seat number if only that seat may see this event, else ``None``.
    """

    kind: str
    data: dict = field(default_factory=dict)
    private_to: int | None = None

def observation_fields(cls: type) -> tuple[str, ...]:
    """The fields of an Action class that may be ``None`` (``?``): observations only the camera or
    the operator can supply (a card face, a serial). ``Game.legal_actions`` leaves them ``None`` in
    its templates. A seat action with such a field (infinity's ``0 play ?``) is one the seat
    declares and the operator may complete by hand; a seat's pure decisions (a bid, «Верю») have
    none."""
    # (a plain function over the cache, as companion.games.fields.fields_of: to mypy a frozen
    # dataclass's ``type[SomeAction]`` is not Hashable)
    return _observation_fields(cls)


@functools.lru_cache(maxsize=None)
def _observation_fields(cls: type) -> tuple[str, ...]:
    hints = typing.get_type_hints(cls)
    return tuple(f.name for f in dataclasses.fields(cls)[1:]
                 if type(None) in typing.get_args(hints.get(f.name)))
