"""Skull with banknotes ("череп и розы" on banknotes), game id ``skull``.

Rules: seed ``../shared/seeds/000_*.txt`` (the user's Russian text) and ``../shared/RULINGS.md``
§0–1; the rules as implemented, with every option, action verb and reason code, are in
``docs/rules/skull.md``.

The engine knows a note only by its serial number. A note's role comes from the rightmost digit of
its serial: with the default ``skull_parity="odd"`` an even digit is a rose and an odd digit a
skull (RULINGS §1). Face-down notes are never seen by the camera, so the engine tracks only how
many notes lie in each stack; it learns a serial when the dealer flips a note (``table flip``) or a
loser's note is scanned into the bank (``table deposit``, private).

Phases: ``setup`` → (``stage1`` → ``stage2`` → ``auction`` → ``reveal`` → ``settlement``)* →
``over``; ``halted`` after a foreign note until the operator voids the round.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, Iterable, Sequence, TypeGuard

from companion.errors import IllegalAction
from companion.games.base import Action, Event, Game, Options
from companion.i18n import N_
from companion.vision import serials as _serials
from companion.vision.serials import canonical, last_digit
from companion.games.skull.actions import Agree, Bid, ChooseDealer, Deposit, Flip, Leave, Pass, Place, Register, Void

ROSE = "rose"
SKULL = "skull"

# ---------------------------------------------------------------------------- reason codes
REASONS: dict[str, str] = {
    # shared codes (companion.errors.COMMON_REASONS) as used here
    "bad_syntax": "the action text does not parse",
    "unknown_action": "no such action verb in skull",
    "unknown_seat": "the seat number is not at this table",
    "game_over": "the game has ended; no more actions",
    "not_your_turn": "another seat must act now",
    "wrong_phase": "this action is not allowed in the current phase",
    "bad_option": "a house-rule option is unknown or impossible",
    "bad_seats": "skull needs 2-8 players with distinct names",
    # registration (also returned by validate_note_set)
    "bad_serial": "a serial number is not in canonical form (uppercase letters and digits, no spaces, with a digit)",
    "serial_format": "a serial number does not fit the serial format of the table's currency (option currency)",
    "wrong_note_count": "a player's set has the wrong number of notes (option notes_per_player)",
    "wrong_skull_count": "a player's set has the wrong number of skulls (option skulls_per_player)",
    "duplicate_serial": "the same serial appears twice in one player's set",
    "serial_taken": "the serial is already registered to another seat at this table",
    "bad_denominations": "denominations must be one positive whole number per note, or '?'",
    "already_registered": "this seat's notes are already registered",
    "registration_incomplete": "a dealer can be chosen only when every seat has registered its notes",
    # seats
    "seat_out": "that seat is out of the game (eliminated or left)",
    "already_left": "that seat has already left",
    # stage 1 / stage 2
    "already_placed": "in stage 1 each player places exactly one note",
    "must_bid": "the player has no notes left in hand and must bid",
    "bid_too_low": "a bid must be at least 1 and higher than the current bid",
    "bid_too_high": "a bid cannot exceed the number of notes on the table",
    "must_raise": "after everybody agreed, the new dealer must raise",
    "dealer_cannot_answer": "the dealer does not agree or pass on his own bid",
    # reveal
    "reveal_in_progress": "the dealer is revealing notes; bids, agreements and placements are closed",
    "own_stack_first": "the dealer must flip all of his own notes before any opponent's",
    "no_face_down_note": "that stack has no face-down note left to flip",
    "unregistered_serial": "no note with this serial was registered at this table (rescan)",
    "already_revealed": "that note is already face up",
    "round_halted": "the round is halted (foreign note); the operator must void it",
    # settlement
    "not_a_loser": "that seat owes no note to the bank",
    "not_own_note": "the deposited note belongs to another seat (rescan)",
    "note_in_bank": "that note is already in the bank",
    "settlement_in_progress": "losers are depositing notes; the round is decided",
    # operator
    "nothing_to_void": "no round is in progress",
    # log replay (companion.log)
    "bad_line": "a table-log line is not a JSON object with a string 'action'",
    "nothing_to_undo": "'table undo' with no accepted action to undo",
}
"""Every reason code :class:`SkullGame` and :func:`validate_note_set` raise, with its meaning."""

# Russian (and English) sentences for these codes, for players: companion/dashboard/reasons.py
# (one table for every game); reason_message() below words the few that name the table's facts.


# ---------------------------------------------------------------------------- options
@dataclass(frozen=True)
class SkullOptions(Options):
    """House rules of ``skull`` (seed 000 "До начала игры", RULINGS §1). See docs/rules/skull.md.

    Attributes:
        notes_per_player: notes each player registers (seed: 4 = 3 roses + 1 skull).
        skulls_per_player: skulls among them (seed: 1).
        skull_parity: ``"odd"`` (default, seed: odd last digit = skull) or ``"even"``.
        leaver_counts_as: ``"pass"`` (default, RULINGS §1) or ``"agree"``: the side a player who
            leaves mid-round takes in the auction (seed, Примечание).
        last_skull_out: a player whose only note left is a skull deposits it and is out
            automatically (seed, Прочее; default ``True``).
        currency: the notes' currency (default ``"RUB"``): the serial format every serial must
            fit, what the note reader reads, and the unit of the bank total. One of the formats
            the reader knows (:data:`companion.vision.serials.CURRENCIES`: RUB, EUR, USD, INR,
            KRW, JPY) — an unknown code would switch the serial check and the one-note-one-
            spelling rule off without a word (a typo such as ``RUR``).
    """

    #: the values a text option may take (the operator's new-game form offers them as a list)
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"skull_parity": ("odd", "even"),
                                                      "leaver_counts_as": ("pass", "agree"),
                                                      "currency": _serials.CURRENCIES}

    #: whole-number ranges (seed 000: 4 notes, 1 skull; RULINGS §1); see Options.check_limits
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {"notes_per_player": (2, 20), "skulls_per_player": (1, 19)}
    notes_per_player: int = 4
    skulls_per_player: int = 1
    skull_parity: str = "odd"
    leaver_counts_as: str = "pass"
    last_skull_out: bool = True
    currency: str = "RUB"

    def validate(self) -> None:
        if not isinstance(self.notes_per_player, int) or not 2 <= self.notes_per_player <= 20:
            raise IllegalAction("bad_option", "notes_per_player must be 2-20")
        if not isinstance(self.skulls_per_player, int) or not 1 <= self.skulls_per_player < self.notes_per_player:
            # the range depends on notes_per_player: the facts carry it, so a refusal can say
            # «от 1 до 3» rather than only that a value is impossible
            raise IllegalAction("bad_option", "skulls_per_player must be at least 1 and below notes_per_player",
                                facts={"option": "skulls_per_player", "min": 1, "max": self.notes_per_player - 1,
                                       "value": self.skulls_per_player})
        for name in ("skull_parity", "leaver_counts_as"):
            if getattr(self, name) not in self.CHOICES[name]:
                raise IllegalAction("bad_option", f"{name} must be {' or '.join(map(repr, self.CHOICES[name]))}",
                                    facts={"option": name, "choices": list(self.CHOICES[name]),
                                           "value": getattr(self, name)})
        if not isinstance(self.last_skull_out, bool):
            raise IllegalAction("bad_option", "last_skull_out must be true or false")
        if self.currency not in _serials.CURRENCIES:
            # a typo ("rub", "RUR") or a currency without a known serial format would silently
            # switch the serial check off, and the reader could not read its notes anyway
            raise IllegalAction("bad_option", f"currency must be one of {', '.join(_serials.CURRENCIES)} "
                                f"(the serial formats the note reader knows), got {self.currency!r}",
                                facts={"option": "currency", "choices": list(_serials.CURRENCIES),
                                       "value": self.currency})


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


_new_object = object.__new__


def _ev(kind: str, data: dict, private_to: int | None = None) -> Event:
    """Build an :class:`Event` without the frozen-dataclass ``__init__`` (half the cost; the engine
    emits one or two events per action). Equal to ``Event(kind, data, private_to)``."""
    e = _new_object(Event)
    d = e.__dict__
    d["kind"] = kind
    d["data"] = data
    d["private_to"] = private_to
    return e


ROUND_PHASES = ("stage1", "stage2", "auction", "reveal", "settlement", "halted")

_ACTIVE, _LEAVING, _LEFT, _OUT = "active", "leaving", "left", "out"


# ---------------------------------------------------------------------------- the game
class SkullGame(Game):
    """The skull-with-banknotes referee (seed 000, RULINGS §0–1). Pure; see the module docstring.

    Args:
        seats: 2–8 player names, clockwise.
        options: :class:`SkullOptions` or a dict of them.

    Raises:
        IllegalAction: ``bad_seats`` or ``bad_option``.
    """

    GAME_ID = "skull"
    ACTIONS = (Register, ChooseDealer, Place, Bid, Agree, Pass, Flip, Deposit, Leave, Void)
    OPTIONS = SkullOptions
    options: SkullOptions
    MIN_SEATS = 2
    MAX_SEATS = 8
    REASONS = REASONS

    _VERBS = {a.VERB: a for a in ACTIONS}

    def __init__(self, seats: Sequence[str], options: SkullOptions | dict | None = None) -> None:
        super().__init__(seats, options)
        n = len(self.seats)
        self.phase = "setup"
        self.registered: list[tuple[str, ...] | None] = [None] * n
        self.denominations: dict[str, int] = {}
        self.owner_of: dict[str, int] = {}
        self.role: dict[str, str] = {}
        self.owned: list[list[str]] = [[] for _ in range(n)]  # registered and not in the bank
        self.status: list[str] = [_ACTIVE] * n
        self._rem: list[int] | None = None  # cache of _remaining(); reset on every status change
        self.stack: list[int] = [0] * n
        self.faceup: list[list[str]] = [[] for _ in range(n)]
        self.bank: list[dict] = []  # {"serial", "seat", "round", "auto"}
        self.dealer: int | None = None
        self.round_dealer: int | None = None
        self.round = 0
        self.rounds_settled = 0
        self.rounds_void = 0
        self._reset_round_state()
        self.winner: int | None = None
        self.last_round: dict | None = None

    def _reset_round_state(self) -> None:
        self.turn: int | None = None
        self.bid = 0
        self.passed: list[int] = []
        self.agreed: list[int] = []
        self.to_act: list[int] = []
        self.forced: int | None = None
        self.roses = 0
        self.flips: list[tuple[int, str]] = []
        self.outcome: str | None = None
        self.skull_owner: int | None = None
        self.chooser: int | None = None
        self.owed: list[int] = []
        self.halt: dict | None = None

    # ------------------------------------------------------------------ helpers
    def _remaining(self) -> list[int]:
        """Seats still playing (active), clockwise from 0. Cached; do not mutate the list."""
        r = self._rem
        if r is None:
            r = self._rem = [s for s in range(len(self.seats)) if self.status[s] == _ACTIVE]
        return r

    def _next_active(self, seat: int) -> int:
        st = self.status
        n = len(st)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if st[s] == _ACTIVE:
                return s
        return seat

    def table_total(self) -> int:
        """Notes on the table (face down and face up), the maximum bid (seed "Ограничения ставки")."""
        return sum(self.stack)

    def conserved(self) -> dict[str, int]:
        """Every registered note is a player's or the bank's: ``notes`` is owned + banked −
        registered, always 0 (RULINGS §1: a note is never lost or made)."""
        registered = sum(len(r) for r in self.registered if r is not None)
        return {"notes": sum(len(o) for o in self.owned) + len(self.bank) - registered}

    def hand(self, s: int) -> int:
        """How many notes seat ``s`` holds in hand."""
        return len(self.owned[s]) - self.stack[s]

    def _raise_phase(self) -> None:
        p = self.phase
        if p == "over":
            raise IllegalAction("game_over", "the game has ended")
        if p == "reveal":
            raise IllegalAction("reveal_in_progress", "the dealer is revealing notes")
        if p == "halted":
            raise IllegalAction("round_halted", "foreign note: the operator must void the round")
        if p == "settlement":
            raise IllegalAction("settlement_in_progress", "losers are depositing notes")
        raise IllegalAction("wrong_phase", f"not allowed in {p}")

    def _check_target(self, s: int) -> None:
        if not 0 <= s < len(self.seats):
            raise IllegalAction("unknown_seat", f"seat {s} is not at this table")

    # ------------------------------------------------------------------ checking
    def _check(self, a: Action) -> None:
        t = type(a)
        phase = self.phase
        if phase == "over":
            raise IllegalAction("game_over", "the game has ended")
        if a.seat is None:
            if t in _SEAT_ACTIONS:
                raise IllegalAction("bad_syntax", f"'{a.VERB}' is a seat's action, not the table's")
        elif t not in _SEAT_ACTIONS:
            raise IllegalAction("bad_syntax", f"'{a.VERB}' is an action of the table: 'table {a.VERB} ...'")
        elif self.status[a.seat] != _ACTIVE:
            raise IllegalAction("seat_out", f"{self.seats[a.seat]} is out of the game", {"player": self.seats[a.seat]})
        if type(a) is Place:
            s = a.seat
            if phase == "stage1":
                if self.stack[s]:
                    raise IllegalAction("already_placed", "stage 1: one note each")
                return
            if phase != "stage2":
                self._raise_phase()
            if s != self.turn:
                raise self._not_your_turn()
            if self.hand(s) <= 0:
                raise IllegalAction("must_bid", "no notes left in hand: bid")
            return
        if type(a) is Bid:
            s = a.seat
            if phase == "stage2":
                if s != self.turn:
                    raise self._not_your_turn()
            elif phase == "auction":
                if not self.to_act or s != self.to_act[0]:
                    raise IllegalAction("not_your_turn", self._who_acts(), self._who_acts_facts())
            else:
                self._raise_phase()
            low = self.bid + 1
            if a.count < low:
                raise IllegalAction("bid_too_low", f"bid at least {low}", {"least": low})
            total = self.table_total()
            if a.count > total:
                raise IllegalAction("bid_too_high", f"only {total} note(s) on the table", {"on_table": total})
            return
        if type(a) is Agree or type(a) is Pass:
            if phase != "auction":
                self._raise_phase()
            if a.seat == self.dealer:
                raise IllegalAction("dealer_cannot_answer", "the dealer holds the bid")
            if not self.to_act or a.seat != self.to_act[0]:
                raise IllegalAction("not_your_turn", self._who_acts(), self._who_acts_facts())
            if self.forced == a.seat:
                raise IllegalAction("must_raise", f"everybody agreed: raise above {self.bid}", {"bid": self.bid})
            return
        if type(a) is Flip:
            self._check_target(a.owner)
            if phase != "reveal":
                if phase == "halted":
                    self._raise_phase()
                raise IllegalAction("wrong_phase", "flips happen only in the reveal")
            o = a.owner
            if self.stack[o] - len(self.faceup[o]) <= 0:
                raise IllegalAction("no_face_down_note", f"{self.seats[o]} has no face-down note")
            d = self._dealer_seat()
            if o != d and self.stack[d] - len(self.faceup[d]) > 0:
                raise IllegalAction("own_stack_first", f"{self.seats[d]} must flip his own notes first")
            serial = self._check_serial(a.serial)
            if serial in self.faceup[self.owner_of[serial]]:
                raise IllegalAction("already_revealed", f"{serial} is already face up")
            return
        if type(a) is Deposit:
            self._check_target(a.owner)
            if phase != "settlement":
                if phase in ("reveal", "halted"):
                    self._raise_phase()
                raise IllegalAction("wrong_phase", "deposits happen only in the settlement")
            if a.owner not in self.owed:
                raise IllegalAction("not_a_loser", f"{self.seats[a.owner]} owes no note", {"player": self.seats[a.owner]})
            serial = self._check_serial(a.serial)
            if self.owner_of[serial] != a.owner:
                raise IllegalAction("not_own_note", f"{serial} is not {self.seats[a.owner]}'s note")
            if serial not in self.owned[a.owner]:
                raise IllegalAction("note_in_bank", f"{serial} is already in the bank")
            return
        if type(a) is Register:
            self._check_target(a.owner)
            if phase != "setup":
                raise IllegalAction("wrong_phase", "registration is at set-up only")
            if self.status[a.owner] != _ACTIVE:
                raise IllegalAction("seat_out", f"{self.seats[a.owner]} has left", {"player": self.seats[a.owner]})
            if self.registered[a.owner] is not None:
                raise IllegalAction("already_registered", f"{self.seats[a.owner]} is registered",
                                    {"player": self.seats[a.owner]})
            problems = validate_note_set(a.serials, self.options, self.owner_of.keys())
            if problems:
                code, message = problems[0]
                raise IllegalAction(code, message, self._note_set_facts(code, a.serials))
            values = a.denominations
            if values is not None and (len(values) != len(a.serials) or any(v <= 0 for v in values)):
                raise IllegalAction("bad_denominations", "one positive face value per note")
            return
        if type(a) is ChooseDealer:
            self._check_target(a.dealer)
            if phase != "setup":
                raise IllegalAction("wrong_phase", "the first dealer is chosen at set-up")
            if self.status[a.dealer] != _ACTIVE:
                raise IllegalAction("seat_out", f"{self.seats[a.dealer]} has left", {"player": self.seats[a.dealer]})
            missing = [self.seats[s] for s in self._remaining() if self.registered[s] is None]
            if missing:
                raise IllegalAction("registration_incomplete", f"not registered: {', '.join(missing)}",
                                    {"missing": list(missing)})
            return
        if type(a) is Leave:
            self._check_target(a.leaver)
            if self.status[a.leaver] != _ACTIVE:
                raise IllegalAction("already_left", f"{self.seats[a.leaver]} is no longer playing")
            return
        if type(a) is Void:
            if phase not in ROUND_PHASES:
                raise IllegalAction("nothing_to_void", "no round is in progress")
            return
        raise IllegalAction("unknown_action", f"{t.__name__}")  # pragma: no cover

    def _table_form(self, a: Action) -> Action:
        """Serials of ``register``, ``flip`` and ``deposit`` in the table's spelling
        (:func:`table_serial`); other actions unchanged."""
        cur = self.options.currency
        if type(a) is Register:
            serials = a.serials
            if isinstance(serials, tuple):
                fixed = tuple(table_serial(x, cur) if isinstance(x, str) else x for x in serials)
                if fixed != serials:
                    return Register(a.seat, a.owner, fixed, a.denominations)
        elif type(a) is Flip or type(a) is Deposit:
            fixed = table_serial(a.serial, cur)
            if fixed != a.serial:
                return type(a)(a.seat, a.owner, fixed)
        return a

    def _check_serial(self, serial: str | None) -> str:
        """``serial`` when it is a registered note's serial, else the refusal."""
        if serial in self.owner_of:  # registered serials were checked at registration
            return serial
        if serial is None or not serial_fits(serial, self.options.currency):
            if _letters_and_digits(serial) and self.options.currency in _serials.CURRENCIES:
                raise IllegalAction(*serial_format_problem([serial], self.options.currency))
            raise IllegalAction("bad_serial", f"{serial!r} is not a canonical serial")
        if serial not in self.owner_of:
            raise IllegalAction(
                "unregistered_serial",
                f"{serial} was never registered at this table: rescan; if the read is right the note"
                " is foreign and the operator should void the round",
            )
        return serial

    def _not_your_turn(self) -> IllegalAction:
        """The refusal of a stage-2 move out of turn (stage 2 always has a seat to play)."""
        turn = self.turn
        assert turn is not None, "stage 2 without a turn"
        return IllegalAction("not_your_turn", f"{self.seats[turn]} plays now", {"player": self.seats[turn]})

    def _dealer_seat(self) -> int:
        """The dealer: chosen by set-up's last action, so known in every later phase."""
        d = self.dealer
        assert d is not None, "no dealer before the first round"
        return d

    def _who_acts(self) -> str:
        return f"{self.seats[self.to_act[0]]} answers now" if self.to_act else "nobody answers now"

    def _who_acts_facts(self) -> dict:
        """A ``not_your_turn`` refusal's facts: the player who must answer now (none: ``{}``)."""
        return {"player": self.seats[self.to_act[0]]} if self.to_act else {}

    def _note_set_facts(self, code: str, serials) -> dict:
        """The facts of a registration refusal (:func:`validate_note_set`'s ``code``) for the
        dashboard's sentence: the serials a clash or a repeat concerns, the count given and the
        count each player registers, the skulls found and wanted."""
        serials = list(serials)
        if code == "serial_taken":
            return {"serials": sorted(s for s in set(serials) if s in self.owner_of)}
        if code == "duplicate_serial":
            return {"serials": sorted(s for s, k in Counter(serials).items() if k > 1)}
        if code == "wrong_note_count":
            return {"given": len(serials), "each": self.options.notes_per_player}
        if code == "wrong_skull_count":
            skulls = sum(1 for s in serials if note_role(s, self.options.skull_parity) == SKULL)
            return {"skulls": skulls, "want": self.options.skulls_per_player, "each": self.options.notes_per_player}
        return {}

    # ------------------------------------------------------------------ applying
    def _do(self, a: Action) -> list[Event]:
        if type(a) is Place:
            return self._do_place(a.seat)
        if type(a) is Bid:
            return self._do_bid(a.seat, a.count)
        if type(a) is Agree:
            self.agreed.append(a.seat)
            self.to_act.pop(0)
            ev = [_ev("agree", {"seat": a.seat, "bid": self.bid})]
            return ev + self._auction_next()
        if type(a) is Pass:
            self.passed.append(a.seat)
            self.to_act.pop(0)
            ev = [_ev("pass", {"seat": a.seat, "bid": self.bid})]
            return ev + self._auction_next()
        if type(a) is Flip:
            assert a.serial is not None, "checked: a registered serial"
            return self._do_flip(a.owner, a.serial)
        if type(a) is Deposit:
            assert a.serial is not None, "checked: a registered serial"
            return self._do_deposit(a.owner, a.serial)
        if type(a) is Register:
            s = a.owner
            self.registered[s] = tuple(a.serials)
            self.owned[s] = list(a.serials)
            par = self.options.skull_parity
            for i, serial in enumerate(a.serials):
                self.owner_of[serial] = s
                self.role[serial] = note_role(serial, par)
                if a.denominations is not None:
                    self.denominations[serial] = a.denominations[i]
            # The composition is shown face up (seed: "купюры выдаются в открытую"), so the public
            # event carries the counts; the serials go to their owner only, because once shuffled
            # into the hand every note is a face-down note (issue 2: no face-down serial in public).
            roles = [self.role[x] for x in a.serials]
            return [_ev("registered", {"seat": s, "roses": roles.count(ROSE), "skulls": roles.count(SKULL)}),
                    _ev("your_notes", {"seat": s, "serials": list(a.serials), "roles": roles}, private_to=s)]
        if type(a) is ChooseDealer:
            self.dealer = a.dealer
            return [_ev("dealer", {"seat": a.dealer})] + self._start_round()
        if type(a) is Leave:
            return self._do_leave(a.leaver)
        if type(a) is Void:
            return self._void_round("operator")  # why: a code, worded by describe_event
        raise AssertionError(type(a))  # pragma: no cover

    def _start_round(self) -> list[Event]:
        self.round += 1
        self.phase = "stage1"
        self._reset_round_state()
        self.round_dealer = self.dealer
        for s in range(len(self.seats)):
            self.stack[s] = 0
            self.faceup[s] = []
        return [_ev("round_start", {"round": self.round, "dealer": self.dealer})]

    def _do_place(self, s: int) -> list[Event]:
        self.stack[s] += 1
        ev = [_ev("place", {"seat": s, "stack": self.stack[s]})]
        if self.phase == "stage1":
            st = self.stack
            for x in self._remaining():
                if not st[x]:
                    return ev
            self.phase = "stage2"
            self.turn = self.dealer
            ev.append(_ev("stage2", {"turn": self.turn}))
        else:
            self.turn = self._next_active(s)
        return ev

    def _do_bid(self, s: int, count: int) -> list[Event]:
        opening = self.phase == "stage2"
        self.phase = "auction"
        self.turn = None
        self.bid = count
        self.dealer = s  # the bidder takes the button (seed "Сделать ставку")
        self.forced = None
        leaver_side = self.options.leaver_counts_as
        # A new circle (seed Вариант 2: "запустив круг торгов сначала"): earlier agreements lapse.
        self.agreed = [x for x in range(len(self.seats))
                       if self.status[x] == _LEAVING and leaver_side == "agree" and x != s]
        for x in range(len(self.seats)):
            if self.status[x] == _LEAVING and leaver_side == "pass" and x not in self.passed:
                self.passed.append(x)
        self.to_act = self._circle_from(s)
        ev = [_ev("bid" if opening else "raise", {"seat": s, "bid": count})]
        return ev + self._auction_next()

    def _circle_from(self, s: int) -> list[int]:
        n = len(self.seats)
        out = []
        for step in range(1, n):
            x = (s + step) % n
            if self.status[x] == _ACTIVE and x not in self.passed:
                out.append(x)
        return out

    def _auction_next(self) -> list[Event]:
        """Resolve the auction when the turn is back at the dealer (seed "Этап 3 начинается…")."""
        if self.to_act:
            return []
        if self.passed:
            return self._start_reveal()
        # Everybody agreed: the button passes left; that player must raise (RULINGS §1).
        nxt = self._next_active(self._dealer_seat())
        if self.bid >= self.table_total():
            # ...or pass when the bid is already the maximum (RULINGS §1) — automatic.
            self.passed.append(nxt)
            if nxt in self.agreed:
                self.agreed.remove(nxt)
            return [_ev("forced_pass", {"seat": nxt, "bid": self.bid})] + self._start_reveal()
        self.forced = nxt
        self.to_act = [nxt]
        return [_ev("must_raise", {"seat": nxt, "bid": self.bid})]

    def _start_reveal(self) -> list[Event]:
        self.phase = "reveal"
        self.to_act = []
        self.forced = None
        return [_ev("reveal_start", {"dealer": self.dealer, "bid": self.bid,
                                       "passed": sorted(self.passed), "agreed": sorted(self.agreed)})]

    def _do_flip(self, o: int, serial: str) -> list[Event]:
        owner = self.owner_of[serial]
        if owner != o or serial not in self.owned[o]:
            self.phase = "halted"
            why = "other_owner" if owner != o else "in_bank"
            self.halt = {"seat": o, "serial": serial, "owner": owner, "why": why}
            # The serial and its owner stay out of the public event and view: after a misread
            # they may name a hidden note, and whose note it is says where it is missing from.
            # The operator sees both in the snapshot (audit).
            return [_ev("foreign_note", {"seat": o, "why": why})]
        self.faceup[o].append(serial)
        self.flips.append((o, serial))
        role = self.role[serial]
        ev = [_ev("flip", {"seat": o, "serial": serial, "role": role})]
        if role == SKULL:
            self.outcome = "failure"
            self.skull_owner = o
            self.chooser = o
            dealer = self._dealer_seat()
            losers = [dealer] + [x for x in self._order_from(dealer) if x in self.agreed]
        else:
            self.roses += 1
            if self.roses < self.bid:
                return ev
            self.outcome = "success"
            self.chooser = self.dealer
            losers = [x for x in self._order_from(self._dealer_seat()) if x in self.passed]
        self.phase = "settlement"
        self.owed = losers
        ev.append(_ev("outcome", {"outcome": self.outcome, "dealer": self.dealer, "bid": self.bid,
                                    "skull_owner": self.skull_owner, "chooser": self.chooser,
                                    "losers": list(losers)}))
        return ev

    def _order_from(self, s: int) -> list[int]:
        n = len(self.seats)
        return [(s + step) % n for step in range(1, n)]

    def _do_deposit(self, o: int, serial: str) -> list[Event]:
        self.owed.remove(o)
        self.owned[o].remove(serial)
        # The loser gathered his stack to shuffle his notes (seed "ПРИ НЕУДАЧНОЙ ПОПЫТКЕ").
        self.stack[o] = 0
        self.faceup[o] = []
        self.bank.append({"serial": serial, "seat": o, "round": self.round, "auto": False})
        # The deposit is scanned privately: the public event says only "one note to the bank".
        ev = [_ev("note_to_bank", {"seat": o, "bank": len(self.bank)}),
              _ev("your_note_to_bank", {"seat": o, "serial": serial, "role": self.role[serial]}, private_to=o)]
        if not self.owed:
            ev += self._end_round()
        return ev

    def _end_round(self) -> list[Event]:
        self.rounds_settled += 1
        ev: list[Event] = []
        dealer, outcome, skull_owner = self._dealer_seat(), self.outcome, self.skull_owner
        self.last_round = {"round": self.round, "outcome": outcome, "dealer": dealer, "bid": self.bid,
                           "skull_owner": skull_owner}
        for s in range(len(self.seats)):
            self.stack[s] = 0
            self.faceup[s] = []
            if self.status[s] == _LEAVING:
                self.status[s] = _LEFT
                ev.append(_ev("left", {"seat": s, "notes_back": len(self.owned[s])}))
        ev += self._eliminate()
        ev.append(_ev("round_end", dict(self.last_round)))
        # Next dealer (seed "Кто дилер в следующем раунде").
        if outcome == "failure" and skull_owner is not None and skull_owner != dealer:  # a failure has one
            nxt = skull_owner if self.status[skull_owner] == _ACTIVE else self._next_active(skull_owner)
        else:
            nxt = self._next_active(dealer)
        return ev + self._next_round_or_end(nxt)

    def _eliminate(self) -> list[Event]:
        ev = []
        for s in range(len(self.seats)):
            if self.status[s] != _ACTIVE:
                continue
            own = self.owned[s]
            if (self.options.last_skull_out and len(own) == 1 and self.role[own[0]] == SKULL):
                serial = own.pop()
                self.bank.append({"serial": serial, "seat": s, "round": self.round, "auto": True})
                ev.append(_ev("note_to_bank", {"seat": s, "bank": len(self.bank), "auto": True}))
                ev.append(_ev("your_note_to_bank", {"seat": s, "serial": serial, "role": SKULL}, private_to=s))
            if not own:
                self.status[s] = _OUT
                self._rem = None
                ev.append(_ev("out", {"seat": s}))
        return ev

    def _next_round_or_end(self, nxt: int) -> list[Event]:
        remaining = self._remaining()
        if len(remaining) <= 1:
            return self._finish(remaining[0] if remaining else None)
        if self.status[nxt] != _ACTIVE:
            nxt = self._next_active(nxt)
        self.dealer = nxt
        return self._start_round()

    def _finish(self, winner: int | None) -> list[Event]:
        self.phase = "over"
        self.winner = winner
        self._reset_round_state()
        self.turn = None
        for s in range(len(self.seats)):
            self.stack[s] = 0
            self.faceup[s] = []
        res = self._final_result()
        return [_ev("game_over", {"winner": winner, "bank": res["bank"], "face_value": res["face_value"],
                                    "currency": res["currency"]})]

    def _void_round(self, why: str, next_dealer: int | None = None) -> list[Event]:
        """Void the round in progress: every note back, no payments (RULINGS §0)."""
        self.rounds_void += 1
        returned = [b for b in self.bank if b["round"] == self.round]
        self.bank = [b for b in self.bank if b["round"] != self.round]
        for b in returned:
            self.owned[b["seat"]].append(b["serial"])
        ev = [_ev("round_void", {"round": self.round, "why": why, "returned": len(returned)})]
        for s in range(len(self.seats)):
            self.stack[s] = 0
            self.faceup[s] = []
            if self.status[s] == _LEAVING:
                self.status[s] = _LEFT
                ev.append(_ev("left", {"seat": s, "notes_back": len(self.owned[s])}))
        self.last_round = {"round": self.round, "outcome": "void", "dealer": self.dealer, "bid": self.bid,
                           "skull_owner": None}
        nxt = self.round_dealer if next_dealer is None else next_dealer
        assert nxt is not None, "a round has its dealer"
        return ev + self._next_round_or_end(nxt)

    def _do_leave(self, s: int) -> list[Event]:
        phase = self.phase
        ev = [_ev("leave", {"seat": s})]
        if phase == "setup":
            self.status[s] = _LEFT
            self._rem = None  # he takes his registered notes home (they stay in owned[s])
            if len(self._remaining()) <= 1:
                return ev + self._finish(self._remaining()[0] if self._remaining() else None)
            return ev
        in_round = phase in ROUND_PHASES
        others = [x for x in self._remaining() if x != s]
        if len(others) <= 1:
            # Only one player would be left: the round cannot be contested; it is void and that
            # player takes the bank.
            self.status[s] = _LEAVING if self.stack[s] else _LEFT
            self._rem = None
            if in_round:
                ev += self._void_round("last_opponent_left")
                if self.phase != "over":  # pragma: no cover - defensive
                    ev += self._finish(others[0] if others else None)
                return ev
            return ev + self._finish(others[0] if others else None)
        if s == self.dealer and phase in ("stage1", "stage2", "auction", "reveal", "halted"):
            # RULINGS §1: the dealer leaving before the reveal ends voids the round.
            self.status[s] = _LEAVING
            self._rem = None
            return ev + self._void_round("dealer_left", next_dealer=self._next_active(s))
        if not self.stack[s]:
            self.status[s] = _LEFT
            self._rem = None
            ev.append(_ev("left", {"seat": s, "notes_back": len(self.owned[s])}))
            if phase == "stage1" and all(self.stack[x] for x in self._remaining()):
                self.phase = "stage2"
                self.turn = self.dealer
                ev.append(_ev("stage2", {"turn": self.turn}))
            return ev
        # His notes stay on the table until the settlement (seed, Примечание).
        self.status[s] = _LEAVING
        self._rem = None
        if phase == "stage2" and self.turn == s:
            self.turn = self._next_active(s)
        elif phase == "auction":
            if s in self.to_act:
                self.to_act.remove(s)
            if self.forced == s:
                self.forced = None
            if s not in self.passed and s not in self.agreed:
                (self.agreed if self.options.leaver_counts_as == "agree" else self.passed).append(s)
            ev += self._auction_next()
        return ev

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int | None) -> list[Action]:
        if self.phase == "over":
            return []
        out: list[Action] = []
        phase = self.phase
        if seat is None:
            if phase == "setup":
                # A template (legal_actions): its serials are for the camera to read.
                out += [Register(None, s, None, None)  # type: ignore[arg-type]
                        for s in self._remaining() if self.registered[s] is None]
                if all(self.registered[s] is not None for s in self._remaining()):
                    out += [ChooseDealer(None, s) for s in self._remaining()]
            elif phase == "reveal":
                d = self._dealer_seat()
                if self.stack[d] - len(self.faceup[d]) > 0:
                    out.append(Flip(None, d, None))
                else:
                    out += [Flip(None, o, None) for o in range(len(self.seats))
                            if o != d and self.stack[o] - len(self.faceup[o]) > 0]
            elif phase == "settlement":
                out += [Deposit(None, o, None) for o in self.owed]
            if phase in ROUND_PHASES:
                out.append(Void(None))
            out += [Leave(None, s) for s in self._remaining()]
            return out
        if not 0 <= seat < len(self.seats) or self.status[seat] != _ACTIVE:
            return []
        if phase == "stage1":
            return [Place(seat)] if not self.stack[seat] else []
        total = self.table_total()
        if phase == "stage2" and seat == self.turn:
            if self.hand(seat) > 0:
                out.append(Place(seat))
            return out + [Bid(seat, k) for k in range(1, total + 1)]
        if phase == "auction" and self.to_act and self.to_act[0] == seat:
            if self.forced != seat:
                out += [Agree(seat), Pass(seat)]
            return out + [Bid(seat, k) for k in range(self.bid + 1, total + 1)]
        return out

    def current_seats(self) -> list[int]:
        p = self.phase
        if p == "stage1":
            return [s for s in self._remaining() if not self.stack[s]]
        if p == "stage2":
            return [] if self.turn is None else [self.turn]
        if p == "auction":
            return self.to_act[:1]
        return []

    def is_over(self) -> bool:
        return self.phase == "over"

    def bank_face_value(self) -> tuple[int | None, int]:
        """``(total, unknown)``: the bank's face value in ``options.currency`` (``None`` if no note's
        value is known) and how many bank notes have no recorded denomination."""
        known = [self.denominations[b["serial"]] for b in self.bank if b["serial"] in self.denominations]
        unknown = len(self.bank) - len(known)
        return (sum(known) if known else None), unknown

    def result(self) -> dict | None:
        """Once over: ``{"winner": seat|None, "winner_name", "bank": [serials], "face_value",
        "face_value_unknown": count, "currency", "rounds", "notes": {name: [serials]}}``."""
        if self.phase != "over":
            return None
        value, unknown = self.bank_face_value()
        return {
            "winner": self.winner,
            "winner_name": None if self.winner is None else self.seats[self.winner],
            "bank": [b["serial"] for b in self.bank],
            "face_value": value,
            "face_value_unknown": unknown,
            "currency": self.options.currency,
            "rounds": self.rounds_settled + self.rounds_void,
            "notes": {self.seats[s]: list(self.owned[s]) for s in range(len(self.seats))},
        }

    def replay_summary(self) -> dict:
        """The ``companion replay --json`` object for this game (issue 2 part 5), minus
        ``rejected``: game, over, winner (name or null), rounds, bank serials, seats."""
        return {
            "game": self.GAME_ID,
            "over": self.phase == "over",
            "winner": None if self.winner is None else self.seats[self.winner],
            "rounds": self.rounds_settled + self.rounds_void,
            "bank": [b["serial"] for b in self.bank],
            "seats": [{"name": name, "notes": list(self.owned[s]), "out": self.status[s] in (_OUT, _LEFT)}
                      for s, name in enumerate(self.seats)],
        }

    def view(self, seat: int | None) -> dict:
        """Public view (``seat=None``) or seat ``seat``'s view.

        Public: phase, round, dealer (the button: while everybody agreed and the next player
        must raise, that player), bid, who passed/agreed, the seats with counts only (notes,
        hand, stack, face-down) plus the face-up notes of the reveal, the bank's size (its serials
        only once the game is over), the outcome. Never a face-down note's serial or role, never
        a bank deposit's serial. A seat's view adds ``"you"``: its own notes (serials and roles;
        the engine cannot tell hand from face-down stack) and the serials it lost to the bank.
        """
        over = self.phase == "over"
        seats = []
        for s, name in enumerate(self.seats):
            fu = self.faceup[s]
            seats.append({
                "seat": s, "name": name, "status": self.status[s],
                "registered": self.registered[s] is not None,
                "notes": len(self.owned[s]), "hand": self.hand(s), "stack": self.stack[s],
                "face_down": self.stack[s] - len(fu),
                "face_up": [{"serial": x, "role": self.role[x]} for x in fu],
                "lost": sum(1 for b in self.bank if b["seat"] == s),
            })
        value, unknown = self.bank_face_value()
        # the button: everybody agreed and it passed to the player who must raise (seed "передает
        # право хода и "баттон" ближайшему слева игроку, который становится новым дилером"; RULINGS
        # §1) — the page's «Дилер» badge is on him, as the history's line says, not on the bidder
        # whose bid he must beat (the engine's ``dealer`` holds that bid until he raises)
        button = self.forced if self.forced is not None else self.dealer
        v = {
            "game": self.GAME_ID, "phase": self.phase, "round": self.round, "dealer": button,
            "turn": self.current_seats(), "bid": self.bid, "table_notes": self.table_total(),
            "passed": sorted(self.passed), "agreed": sorted(self.agreed), "must_raise": self.forced,
            "roses": self.roses, "outcome": self.outcome, "skull_owner": self.skull_owner,
            "chooser": self.chooser, "owed": list(self.owed),
            "halt": None if self.halt is None else {k: v for k, v in self.halt.items() if k in ("seat", "why")},
            "seats": seats, "bank": {"count": len(self.bank)}, "last_round": self.last_round,
            "over": over, "winner": self.winner, "options": self.options.to_dict(),
        }
        if over:
            v["bank"] = {"count": len(self.bank), "serials": [b["serial"] for b in self.bank],
                         "face_value": value, "face_value_unknown": unknown, "currency": self.options.currency}
        if seat is not None and 0 <= seat < len(self.seats):
            v["you"] = {
                "seat": seat,
                "notes": [{"serial": x, "role": self.role[x]} for x in self.owned[seat]],
                "lost": [b["serial"] for b in self.bank if b["seat"] == seat],
            }
            # what this seat does at the table now, though its pad has no button for it (the
            # camera reads the result): the dealer turns notes over; the skull's owner chooses
            # the loser's note for the bank (seed "Итоги")
            if self.phase == "reveal" and seat == self.dealer:
                v["table_task"] = "flip"
            elif self.phase == "settlement" and seat == self.chooser:
                v["table_task"] = "choose"
        return v

    def snapshot(self) -> dict:
        return {
            "phase": self.phase, "round": self.round, "rounds_settled": self.rounds_settled,
            "rounds_void": self.rounds_void, "dealer": self.dealer, "round_dealer": self.round_dealer,
            "registered": [list(r) if r is not None else None for r in self.registered],
            "denominations": dict(sorted(self.denominations.items())),
            "owned": [list(o) for o in self.owned], "status": list(self.status),
            "stack": list(self.stack), "faceup": [list(f) for f in self.faceup],
            "bank": [dict(b) for b in self.bank], "turn": self.turn, "bid": self.bid,
            "passed": list(self.passed), "agreed": list(self.agreed), "to_act": list(self.to_act),
            "forced": self.forced, "roses": self.roses, "flips": [list(f) for f in self.flips],
            "outcome": self.outcome, "skull_owner": self.skull_owner, "chooser": self.chooser,
            "owed": list(self.owed), "halt": dict(self.halt) if self.halt else None,
            "winner": self.winner, "last_round": dict(self.last_round) if self.last_round else None,
            "options": self.options.to_dict(),
        }


_SEAT_ACTIONS = frozenset((Place, Bid, Agree, Pass))

GAME = SkullGame


