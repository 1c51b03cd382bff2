"""The console's status line keeps coming while the table waits, and a seat a phone holds that
has waited long gets the line how to hand it back to the bots.

The new user's report: on ``make demo`` a browser joined seat 1 on its phone page and was closed
without «Покинуть место»; the console printed ``[112.7s] ходов … ждём: Игрок 1, Игрок 4`` and then
nothing for 440 s while the game waited on Игрок 1 — the status line was printed only when the game
had moved, and nothing said how to give the seat back to the bots.

Real code path: :class:`companion.commands.console.Console` (as ``companion run`` makes it, with a
fake clock) over a :class:`companion.table.Table` whose bots play the game, a phone joined to seat 1.
"""

from __future__ import annotations

import io
import types

import pytest

from companion.commands.console import Console
from companion.commands.console_words import phone_hint
from companion.i18n import M, render
from companion.table import Table

NAMES = ["Игрок 1", "Игрок 2"]


@pytest.fixture
def counting():
    from tests.core.counting import register_counting

    unregister = register_counting()
    yield
    unregister()


@pytest.fixture
def table(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", list(NAMES))
    table.bots, table.bots_playing = True, lambda: True
    yield table
    table.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _console(table, lang: str = "ru"):
    clock, out = Clock(), io.StringIO()
    console = Console(out, lang=lang, clock=clock)
    service = types.SimpleNamespace(table=table, simtable=None, bots_left_alone=lambda: None)
    return console, service, clock, out


def _at(console, service, clock, out, t: float) -> list[str]:
    """The lines the console prints when the run's loop looks at ``t`` seconds."""
    mark = len(out.getvalue())
    clock.now = 1000.0 + t
    console.progress(service)
    camera = console.camera_words({"reads": 0, "retried": None, "manual": 0})  # nothing read in these games
    return [line.split("] ", 1)[1].removesuffix(camera) for line in out.getvalue()[mark:].splitlines()]


def test_the_status_line_keeps_coming_while_a_phone_held_seat_waits(table):
    _seat, _token = table.join(table.seat_codes()[0])  # a browser took seat 1 … and was closed
    assert table.played_by(0) == "phone"
    console, service, clock, out = _console(table)
    assert console.every == 15.0 and console.long_wait == 60.0
    at = lambda t: _at(console, service, clock, out, t)  # noqa: E731
    waiting = render(M("actions %(n)s · waiting for: %(who)s", n=0, who="Игрок 1"), "ru")
    still = lambda s: render(M("nothing moved for %(s)s s", s=s), "ru")  # noqa: E731
    hint = lambda s: render(phone_hint(0, "Игрок 1", s), "ru")  # noqa: E731
    assert at(0) == []  # the first line comes after `every` seconds
    # the bug: nothing at all once the game stopped moving
    assert at(15) == [f"{waiting} · {still(15)}"]
    assert at(20) == []  # not a flood: one line every 15 s
    assert at(30) == [f"{waiting} · {still(30)}"]
    assert len(at(45)) == 1
    told = at(60)
    assert told == [f"{waiting} · {still(60)}", hint(60)], told
    assert "«Отдать ботам»" in told[1] and "`table bot 1`" in told[1] and "«Играть место с пульта»" in told[1]
    assert len(at(75)) == len(at(90)) == len(at(105)) == 1  # the hint is not repeated at every status line…
    assert at(120)[1:] == [hint(120)]  # … but again after a minute
    # the seat moves: the next line says whom the table waits for now, and no hint (a bot's seat)
    assert table.submit_for_seat(0, "0 add 1", "dashboard").accepted
    moved = at(135)
    assert moved == [render(M("actions %(n)s · waiting for: %(who)s", n=1, who="Игрок 2"), "ru")], moved
    later = at(150)
    assert later == [render(M("actions %(n)s · waiting for: %(who)s", n=1, who="Игрок 2"), "ru") + " · " + still(15)]
    assert not any("table bot" in line for line in at(240))  # the bots' seat: no hint


def test_the_hint_in_english_and_not_for_a_seat_the_bots_play(table):
    console, service, clock, out = _console(table, "en")
    for t in (15, 60, 120):
        _at(console, service, clock, out, t)
    assert "nothing moved for 120 s" in out.getvalue()
    assert "table bot" not in out.getvalue()  # the bots play seat 1: nothing to hand back
    table.join(table.seat_codes()[0])
    told = _at(console, service, clock, out, 180)
    assert told[-1].endswith('seat 1 (Игрок 1) is held by a phone and nothing has moved for 180 s; if nobody plays it '
                             'there, hand it back to the bots: "Hand back to the bots" on the operator console, or '
                             '`table bot 1` in "Play a seat from the console"\'s move field'), told


def test_no_status_line_once_the_game_is_over(table):
    console, service, clock, out = _console(table)
    assert table.submit_for_seat(0, "0 add 10", "button").accepted
    for t in (15, 30, 300):
        assert _at(console, service, clock, out, t) == []
