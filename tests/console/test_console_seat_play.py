"""The console of ``companion run`` says when a seat changes hands (a phone takes it over from
the simulated table's bots, gives it back, the operator takes it onto the console) and, at a
game's header, which seats the button box has no pad for.

Real code path: :class:`companion.commands.console.Console` listening to a
:class:`companion.table.Table`."""

from __future__ import annotations

import io
import types

import pytest

from companion.commands.console import Console
from companion.table import Table


@pytest.fixture
def counting():
    from tests.core.counting import register_counting

    unregister = register_counting()
    yield
    unregister()


def test_the_console_says_who_plays_a_seat_when_it_changes_hands(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    try:
        table.new_game("counting", ["Аня", "Борис"])
        table.bots, table.bots_playing = True, lambda: True
        out = io.StringIO()
        console = Console(out, lang="ru")
        console.table, console.seats = table, ["Аня", "Борис"]
        console._played = console._who_plays()
        table.subscribe(console.on_table)
        _seat, token = table.join(table.seat_codes()[1])
        assert "место 2 (Борис): играет телефон игрока (место взято у ботов)" in out.getvalue()
        table.leave_seat(token)
        assert out.getvalue().rstrip().endswith("место 2 (Борис): играют боты имитации")
        assert table.submit("table console 1", "operator").accepted
        assert out.getvalue().rstrip().endswith("место 1 (Аня): играет оператор с пульта")
        assert len(out.getvalue().splitlines()) == 3  # one line a change, nothing for the seat that stayed
    finally:
        table.close()


def test_the_header_names_the_seats_without_a_pad(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    try:
        table.new_game("counting", ["Аня", "Борис"])
        console = Console(io.StringIO(), lang="ru")
        console.table = table
        head = types.SimpleNamespace(seats=[f"Игрок {i}" for i in range(1, 11)])
        assert console._pads_line(head) == ""  # no button box: nothing to say
        table.pads = 8
        assert console._pads_line(head) == ("мест с кнопками на коробке кнопок: 8; места 9–10 играют с "
                                            "телефонов (страница места) или с пульта оператора")
        console.lang = "en"
        assert console._pads_line(head) == ("the button box has 8 pads: seats 9-10 play on their phones (seat view) "
                                            "or from the console")
    finally:
        table.close()
