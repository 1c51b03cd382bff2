"""A cached, faster parser for action text forms (same grammar as :meth:`Game.parse_action`).

``Action.from_args`` resolves type hints on every call, which dominates the cost of applying an
action in tight loops (engine bench, Hypothesis playouts, Monte Carlo). :class:`FastParse` caches
each action class's field parsers once. The accepted grammar, results and errors are identical to
:meth:`companion.games.base.Game.parse_action` (module docstring of ``base.py``).
"""

from __future__ import annotations

import dataclasses
import typing

from companion.errors import ActionSyntaxError
from companion.games.base import TABLE, _parse_arg


class FastParse:
    """Mixin for a :class:`~companion.games.base.Game` subclass: overrides ``parse_action``.

    Raises (from ``parse_action``):
        ActionSyntaxError: ``bad_syntax`` or ``unknown_action``, as the base parser.
    """

    _verb_table: typing.ClassVar[dict | None] = None

    @classmethod
    def _verbs(cls) -> dict:
        table = cls.__dict__.get("_verb_table")
        if table is None:
            table = {}
            for action_type in cls.ACTIONS:  # type: ignore[attr-defined]
                hints = typing.get_type_hints(action_type)
                fields = [(f.name, hints[f.name], _kind(hints[f.name]))
                          for f in dataclasses.fields(action_type)[1:]]
                table[action_type.VERB] = (action_type, fields)
            cls._verb_table = table
        return table

    _CACHE_MAX: typing.ClassVar[int] = 4096

    @classmethod
    def parse_action(cls, text: str):
        """Parse an action's text form; results are cached per text (actions are immutable)."""
        cache = cls.__dict__.get("_parse_cache")
        if cache is None:
            cache = {}
            cls._parse_cache = cache
        action = cache.get(text) if isinstance(text, str) else None
        if action is None:
            action = cls._parse_uncached(text)
            if len(cache) >= cls._CACHE_MAX:
                cache.clear()
            cache[text] = action
        return action

    @classmethod
    def _parse_uncached(cls, text: str):
        if not isinstance(text, str):
            raise ActionSyntaxError("bad_syntax", "an action is a line of text")
        tokens = text.split()
        if len(tokens) < 2:
            raise ActionSyntaxError("bad_syntax", f"expected '<seat|table> <verb> ...', got {text!r}")
        actor, verb, args = tokens[0], tokens[1], tokens[2:]
        if actor == TABLE:
            seat = None
        elif actor.isdigit():
            seat = int(actor)
        else:
            raise ActionSyntaxError("bad_syntax", f"actor must be a seat number or 'table', got {actor!r}")
        entry = cls._verbs().get(verb)
        if entry is None:
            raise ActionSyntaxError("unknown_action", f"{cls.GAME_ID} has no action {verb!r}")  # type: ignore[attr-defined]
        action_type, fields = entry
        if len(args) != len(fields):
            raise ActionSyntaxError(
                "bad_syntax",
                f"'{verb}' takes {len(fields)} argument(s) "
                f"({', '.join(f[0] for f in fields) or 'none'}), got {len(args)}",
            )
        values = []
        for token, (name, hint, kind) in zip(args, fields):
            if kind == "int":
                if not token.lstrip("-").isdigit():
                    raise ActionSyntaxError("bad_syntax", f"'{verb}': argument {name}={token!r} is not a int")
                values.append(int(token))
            elif kind == "str":
                values.append(token)
            elif kind == "opt_str":
                values.append(None if token == "?" else token)
            elif kind == "tuple_str" and token not in ("-", "?"):
                values.append(tuple(token.split(",")))
            else:
                values.append(_parse_arg(token, hint, name, verb))
        return action_type(seat, *values)


def _kind(hint) -> str:
    """Fast-path class of a field type: ``int``, ``str``, ``opt_str``, ``tuple_str`` or ``other``."""
    if hint is int:
        return "int"
    if hint is str:
        return "str"
    if hint == (str | None) or hint == typing.Optional[str]:
        return "opt_str"
    if hint == tuple[str, ...]:
        return "tuple_str"
    return "other"
