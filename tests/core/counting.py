"""A tiny counting game used to test the shared State API, log and referee."""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import IllegalAction
from companion.games.base import Action, Event, Game, Options


@dataclass(frozen=True)
class Add(Action):
    VERB = "add"
    count: int


@dataclass(frozen=True)
class Tag(Action):
    VERB = "tag"
    names: tuple[str, ...]
    maybe: int | None


@dataclass(frozen=True)
class CountOpts(Options):
    limit: int = 10

    def validate(self):
        if self.limit < 1:
            raise IllegalAction("bad_option", "limit must be positive")


class Counting(Game):
    GAME_ID = "counting"
    ACTIONS = (Add, Tag)
    OPTIONS = CountOpts

    def __init__(self, seats, options=None):
        super().__init__(seats, options)
        self.total = 0
        self.turn = 0

    def _check(self, a):
        if self.is_over():
            raise IllegalAction("game_over")
        if a.seat != self.turn:
            raise IllegalAction("not_your_turn")
        if isinstance(a, Add) and not 1 <= a.count <= self.options.limit - self.total:
            raise IllegalAction("bad_count")

    def _do(self, a):
        if isinstance(a, Add):
            self.total += a.count
        self.turn = self.next_seat(self.turn)
        return [Event("added", {"total": self.total})]

    def legal_actions(self, seat):
        if seat != self.turn or self.is_over():
            return []
        return [Add(seat, n) for n in range(1, self.options.limit - self.total + 1)]

    def current_seats(self):
        return [self.turn]

    def is_over(self):
        return self.total >= self.options.limit

    def result(self):
        return {"total": self.total} if self.is_over() else None

    def view(self, seat):
        return {"total": self.total}

    def snapshot(self):
        return {"total": self.total, "turn": self.turn}


def register_counting():
    """Register the counting game (its :class:`~companion.games.spec.GameSpec`, nothing else: the
    table's generic words); returns a function that unregisters it."""
    from companion.games import registry
    from companion.games.spec import GameSpec

    registry.register(GameSpec(id="counting", title="Counting", engine=Counting))
    return lambda: registry.unregister("counting")
