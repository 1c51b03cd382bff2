"""Helpers for the skull tests (imported by conftest and the test modules)."""

from __future__ import annotations

from companion.errors import IllegalAction
from companion.games.skull import SkullGame
from tests import gamekit


def rose(s: int, i: int = 0) -> str:
    return f"РЗ{s}00000{2 * i + 2}"  # RUB shape: two letters, seven digits


def skull(s: int, i: int = 0) -> str:
    return f"ЧР{s}00000{2 * i + 1}"


def note_set(s: int, notes: int = 4, skulls: int = 1) -> tuple[str, ...]:
    return tuple([rose(s, i) for i in range(notes - skulls)] + [skull(s, i) for i in range(skulls)])


class Table:
    """A SkullGame plus helpers that play scripted lines and assert on rejections."""

    def __init__(self, n: int = 3, dealer: int | None = 0, denominations: bool = False, **options):
        names = ["Аня", "Борис", "Вера", "Гена", "Дина", "Егор", "Жанна", "Зоя"][:n]
        self.g = SkullGame(names, options)
        o = self.g.options
        if dealer is None:
            return
        for s in range(n):
            serials = note_set(s, o.notes_per_player, o.skulls_per_player)
            den = ",".join(["100"] * len(serials)) if denominations else "?"
            self.g.apply(f"table register {s} {','.join(serials)} {den}")
        self.g.apply(f"table dealer {dealer}")

    def play(self, *lines: str) -> list:
        return gamekit.run(self.g, *lines)

    def reject(self, line: str, reason: str) -> IllegalAction:
        return gamekit.rejects(self.g, line, reason)

    def kinds(self, events) -> list[str]:
        return gamekit.kinds(events)

    def stage1(self) -> None:
        """Every active seat places its first note (seat order)."""
        for s in self.g.current_seats():
            self.g.apply(f"{s} place")
