"""The State API shared by the five rule engines (``../shared/DESIGN.md``, after OpenSpiel and
python-chess).

A game is a :class:`Game` subclass. It is *pure*: no I/O, no clock, no threads, no randomness.
Everything that happens at the table enters through :meth:`Game.apply` as an :class:`Action`:
a player's decision (a bid, "Верю") or an observation of the physical table (the camera read a
serial number, the operator typed a card). An illegal action raises :class:`IllegalAction` with a
reason code and leaves the state exactly as it was.

Actions are frozen dataclasses with a text form that round-trips::

    Bid(seat=2, count=3).text() == "2 bid 3"
    game.parse_action("2 bid 3") == Bid(seat=2, count=3)

Text form: ``<actor> <verb> <arg> <arg> ...`` where ``<actor>`` is the seat number (0-based,
clockwise) or ``table`` for actions of the table itself (camera observations, operator actions
such as ``table void``). Arguments are written in field order: ``int`` as decimal, ``str`` as is
(no spaces), ``bool`` as ``yes``/``no``, a ``tuple`` as comma-joined items (``-`` when empty), and
``None`` as ``?``.

Hidden information lives in the state; the world only ever sees :meth:`Game.view` — ``view(None)``
is the public view, ``view(seat)`` adds that seat's private facts. ``snapshot()`` is the full state
(hidden facts included) for tests, crash-resume checks and the operator's audit, never for a screen.
"""

from __future__ import annotations

import dataclasses
import json
import marshal
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Iterable, Self, Sequence

from companion.errors import ActionSyntaxError, IllegalAction
from companion.games.action import TABLE, Action, Event, SeatAction, observation_fields
from companion.games.seats import name_key, repeated_name, seat_from_one, seat_namer

#: the State API's names, with those of :mod:`companion.games.action` and :mod:`companion.games.seats`
#: that the games, the table and the tests import from here
__all__ = [
    "HOUSE_MAX", "TABLE", "Action", "Event", "Game", "Options", "SeatAction", "clone_state", "name_key",
    "observation_fields", "repeated_name", "seat_from_one", "seat_namer",
]


HOUSE_MAX = 1_000_000
"""The largest value any whole-number house-rule option takes (chips per player, stakes, the
box, counts): a house limit, since the seeds and RULINGS bound none of them
(each game's page in ``docs/rules/`` names it)."""


@dataclass(frozen=True)
class Options:
    """Base of a game's house-rule options. Subclasses declare fields with defaults and docstrings
    (in ``docs/rules/<game>.md``). Options are fixed when the game starts.

    ``SEATS`` names the int options that hold a seat index (0-based in the engine and the log);
    forms people fill in show and take them 1-based, like every other seat number they see.
    ``CARRIED`` names the options carried over from the previous game of the same kind.
    """

    SEATS: ClassVar[tuple[str, ...]] = ()
    #: Options a new game takes over from the newest finished game of the same kind at the table:
    #: ``{option: key of that game's result()}`` (the lottery's box, RULINGS §5). Forms offer the
    #: carried value as the option's default.
    CARRIED: ClassVar[dict[str, str]] = {}
    #: ``{option: (least, most)}`` for whole-number options (:meth:`check_limits`); an int
    #: option not listed may be at most :data:`HOUSE_MAX`.
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {}

    @classmethod
    def from_dict(cls, data: dict | None) -> Self:
        """Build options from a JSON object; unknown keys raise ``IllegalAction('bad_option')``."""
        data = dict(data or {})
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise IllegalAction("bad_option", f"unknown option(s): {', '.join(sorted(unknown))}",
                                {"unknown": sorted(unknown), "known": sorted(names)})
        for f in dataclasses.fields(cls):  # a value of the wrong kind, named with its option
            if f.name not in data or f.type not in ("int", "bool"):
                continue
            value = data[f.name]
            if f.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
                raise IllegalAction("bad_option", f"{f.name} must be a whole number, got {value!r}",
                                    facts={"option": f.name, "expected": "integer", "value": value})
            if f.type == "bool" and not isinstance(value, bool):
                raise IllegalAction("bad_option", f"{f.name} must be true or false, got {value!r}",
                                    facts={"option": f.name, "expected": "boolean", "value": value})
        try:
            opts = cls(**data)
        except TypeError as exc:
            raise IllegalAction("bad_option", str(exc)) from None
        opts.check_limits()
        opts.validate()
        return opts

    def check_limits(self) -> None:
        """Refuse a whole-number option outside its range: :attr:`LIMITS` (the rules' bounds), else
        at most :data:`HOUSE_MAX` (a house limit: no rule of the seeds or RULINGS bounds chips,
        stakes or counts, but forty nines typed into «Фишки» are a slip, not a table). Seat options
        (:attr:`SEATS`) are bounded by the table's seats instead. Called before :meth:`validate`.

        Raises:
            IllegalAction: ``bad_option`` with facts ``{"option", "min", "max", "value"}`` (``min``
                ``None`` when only the upper bound applies).
        """
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in self.SEATS or not isinstance(value, int) or isinstance(value, bool):
                continue
            lo, hi = self.LIMITS.get(f.name, (None, HOUSE_MAX))
            if value > hi or (lo is not None and value < lo):
                span = f"{lo}..{hi}" if lo is not None else f"at most {hi}"
                raise IllegalAction("bad_option", f"{f.name} must be {span}, got {value}",
                                    facts={"option": f.name, "min": lo, "max": hi, "value": value})

    def validate(self) -> None:
        """Raise ``IllegalAction('bad_option', ...)`` for an impossible combination."""

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)



class Game(ABC):
    """One game at one table: the shared State API.

    Subclasses implement :meth:`_check` (validate, raise, never mutate) and :meth:`_do` (mutate,
    return events), plus the query methods. The base keeps the history of accepted actions and a
    version counter, parses text actions and checks the actor seat.

    Args:
        seats: player names in clockwise seat order (seat 0 first).
        options: the game's :class:`Options` subclass instance, or a dict for ``from_dict``.

    Raises:
        IllegalAction: ``bad_seats`` (wrong number of players for this game, empty or duplicate
            name) or ``bad_option``.
    """

    GAME_ID: ClassVar[str] = ""
    ACTIONS: ClassVar[tuple[type[Action], ...]] = ()
    #: ``{reason code: its meaning}`` (English, for logs and ``docs/rules/<game>.md``)
    REASONS: ClassVar[dict[str, str]] = {}
    OPTIONS: ClassVar[type[Options]] = Options
    MIN_SEATS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 8

    def __init__(self, seats: Sequence[str], options: Options | dict | None = None) -> None:
        names = [str(s).strip() for s in seats]
        if not self.MIN_SEATS <= len(names) <= self.MAX_SEATS:
            # the range the options in force allow, when they are good (else the class's)
            raise self.seat_refusal(len(names), self.options_if_good(options))
        empty = next((i for i, n in enumerate(names) if not name_key(n)), None)
        if empty is not None:  # a blank or a name of invisible characters only
            raise IllegalAction("bad_seats", f"seat {empty + 1} has an empty name", facts={"empty": empty + 1})
        repeated = repeated_name(names)
        if repeated is not None:
            raise IllegalAction("bad_seats", f"seat names must be distinct: {repeated!r} is given twice",
                                facts={"repeated": repeated})
        self.seats: tuple[str, ...] = tuple(names)
        if options is None or isinstance(options, dict):
            options = self.OPTIONS.from_dict(options)
        elif not isinstance(options, self.OPTIONS):
            raise IllegalAction("bad_option", f"options must be {self.OPTIONS.__name__}")
        else:
            options.validate()
        self.options = options
        self.history: list[Action] = []
        self.version = 0

    @classmethod
    def seat_range(cls, options: Options | None = None) -> tuple[int, int]:
        """``(fewest, most)`` players the game starts with under ``options`` (the class's
        :attr:`MIN_SEATS`–:attr:`MAX_SEATS` when ``None``). A game whose options change the
        count overrides it (the lottery: its banker and dealer hold no cards by default, so it
        needs 4). The one source of the range the new-game form offers and every ``bad_seats``
        refusal of a player count states (:meth:`seat_refusal`)."""
        return cls.MIN_SEATS, cls.MAX_SEATS

    @classmethod
    def options_if_good(cls, options: Options | dict | None) -> Options | None:
        """``options`` parsed (a dict as typed, ``None`` for the defaults, or the class's own
        :attr:`OPTIONS`), or ``None`` when they do not parse (their own refusal comes later)."""
        if isinstance(options, cls.OPTIONS):
            return options
        if options is None or isinstance(options, dict):
            try:
                return cls.OPTIONS.from_dict(options)
            except (IllegalAction, TypeError):
                return None
        return None

    @classmethod
    def seat_refusal(cls, given: int, options: Options | None = None, why: str = "") -> IllegalAction:
        """The ``bad_seats`` refusal of ``given`` players, with facts ``{"min", "max", "given"}``:
        the range :meth:`seat_range` gives for ``options``."""
        lo, hi = cls.seat_range(options) if options is not None else (cls.MIN_SEATS, cls.MAX_SEATS)
        return IllegalAction("bad_seats", f"{cls.GAME_ID} needs {lo}-{hi} players" + (f" ({why})" if why else ""),
                             {"min": lo, "max": hi, "given": given})

    # ------------------------------------------------------------------ parsing
    _PARSE_CACHE_MAX: ClassVar[int] = 20_000
    # Set on each game class on first use (cls.__dict__, never inherited): _verbs(), parse_action().
    _verb_table: ClassVar[dict[str, type[Action]]]
    _parse_cache: ClassVar[dict[str, Action]]

    @classmethod
    def _verbs(cls) -> dict[str, type[Action]]:
        """This game's action classes by verb (built once per class)."""
        verbs = cls.__dict__.get("_verb_table")
        if verbs is None:
            verbs = {t.VERB: t for t in cls.ACTIONS}
            cls._verb_table = verbs
        return verbs

    @classmethod
    def parse_action(cls, text: str) -> Action:
        """Parse an action's text form (see module docstring).

        Results are cached per game class (actions are immutable and the same lines recur all
        game long; the engine bench and the random playouts parse millions of them).

        Raises:
            ActionSyntaxError: ``bad_syntax`` or ``unknown_action``.
        """
        if not isinstance(text, str):
            raise ActionSyntaxError("bad_syntax", "an action is a line of text")
        cache = cls.__dict__.get("_parse_cache")
        if cache is None:
            cache = {}
            cls._parse_cache = cache
        action = cache.get(text)
        if action is None:
            action = cls._parse_uncached(text)
            if len(cache) >= cls._PARSE_CACHE_MAX:
                cache.clear()
            cache[text] = action
        return action

    @classmethod
    def _parse_uncached(cls, text: str) -> Action:
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
        action_type = cls._verbs().get(verb)
        if action_type is None:
            raise ActionSyntaxError("unknown_action", f"{cls.GAME_ID} has no action {verb!r}")
        return action_type.from_args(seat, args)

    # ------------------------------------------------------------------ the State API
    def apply(self, action: Action | str) -> list[Event]:
        """Validate and apply one action; return the events it caused.

        Raises:
            IllegalAction: with a reason code; the state is unchanged.
        """
        if action.__class__ is str:
            action = self.parse_action(action)
        verb = getattr(action, "VERB", None)
        if verb is None or self._verbs().get(verb) is not action.__class__:
            raise IllegalAction("unknown_action", f"{type(action).__name__} is not a {self.GAME_ID} action")
        if action.seat is not None and not 0 <= action.seat < len(self.seats):
            raise IllegalAction("unknown_seat", f"seat {action.seat} is not at this table")
        action = self._table_form(action)
        self._check(action)
        events = self._do(action)
        self.history.append(action)
        self.version += 1
        return events

    def is_legal(self, action: Action) -> bool:
        """True when :meth:`apply` would accept ``action`` now (no state change)."""
        try:
            if action.seat is not None and not 0 <= action.seat < len(self.seats):
                return False
            self._check(self._table_form(action))
        except IllegalAction:
            return False
        return True

    def _table_form(self, action: Action) -> Action:
        """``action`` with its observed values in the form this table stores them (the same action
        when nothing changes; the default). A game overrides it where one observation has several
        spellings, so that :meth:`_check`, :meth:`_do` and :attr:`history` see one (the skull game:
        a serial typed with Latin look-alikes of the Cyrillic letters on a RUB table). Must not
        mutate state; raises nothing (an unusable value is left for :meth:`_check` to reject)."""
        return action

    @abstractmethod
    def _check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` if ``action`` is illegal now. Must not mutate state."""

    @abstractmethod
    def _do(self, action: Action) -> list[Event]:
        """Apply an action already checked by :meth:`_check`; return events."""

    @abstractmethod
    def legal_actions(self, seat: int | None) -> list[Action]:
        """Actions ``seat`` (``None``: the table) may take now.

        Observation fields whose value only the camera or operator can supply (a serial number, a
        card face) are ``None`` in the returned templates; fill them before :meth:`apply`.
        """

    @abstractmethod
    def current_seats(self) -> list[int]:
        """Seats whose action the game waits for now (empty when it waits for the table)."""

    @abstractmethod
    def is_over(self) -> bool:
        """True when the game has ended."""

    @abstractmethod
    def result(self) -> dict | None:
        """JSON-safe final result (winner, scores, bank) once over, else ``None``."""

    def _final_result(self) -> dict:
        """:meth:`result` of a game that has just ended (its last event carries it)."""
        res = self.result()
        assert res is not None, "result() of a game that is over"
        return res

    @abstractmethod
    def view(self, seat: int | None) -> dict:
        """JSON-safe view for one viewer: ``None`` = public, else that seat's private view.

        Never contains a fact hidden from that viewer (face-down card or note, another seat's
        bank deposit).
        """

    @abstractmethod
    def snapshot(self) -> dict:
        """The complete state as JSON-safe data, hidden facts included (for tests and audit)."""

    def conserved(self) -> dict[str, int]:
        """What the rules neither create nor destroy, by name (chips, notes, cards in the game's
        books): every accepted action leaves each value as it was. ``{}`` by default; the
        registry's API-consistency test (``tests/games/test_api.py``) checks it after every action."""
        return {}

    # ------------------------------------------------------------------ helpers
    def snapshot_bytes(self) -> bytes:
        """Canonical bytes of :meth:`snapshot` plus history and version, to compare states."""
        return json.dumps(
            {"state": self.snapshot(), "history": [a.text() for a in self.history], "version": self.version},
            sort_keys=True,
            ensure_ascii=False,
        ).encode()

    def next_seat(self, seat: int, skip: Iterable[int] = ()) -> int:
        """The next seat clockwise ("left", RULINGS §0) from ``seat``, skipping ``skip``.

        Raises:
            ValueError: every seat is skipped.
        """
        skip = set(skip)
        n = len(self.seats)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if s not in skip:
                return s
        raise ValueError("no seat left")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.GAME_ID} seats={len(self.seats)} v{self.version}>"


def clone_state(obj):
    """A deep copy of JSON-like state (dicts, lists, str, int, None): marshal is ~10x faster than
    copy.deepcopy, which dominated the simulated games' time (an engine's snapshot and void, a
    simulated table's truth)."""
    return marshal.loads(marshal.dumps(obj))
