"""The state of a skull table (:class:`SkullState`): the notes each seat owns, the stacks, the
bank, the round in progress, and the small queries every part of the engine asks."""

from __future__ import annotations

from typing import Sequence

from companion.games.base import Event, Game
from companion.games.skull.options import SkullOptions


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


class SkullState(Game):
    """A skull table's state and its helpers; :class:`companion.games.skull.rules.SkullGame` adds
    the checks, the moves and the views."""

    options: SkullOptions

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

    def _dealer_seat(self) -> int:
        """The dealer: chosen by set-up's last action, so known in every later phase."""
        d = self.dealer
        assert d is not None, "no dealer before the first round"
        return d
