"""Who plays a seat (companion.table.control): a phone that joins a seat the simulated table's bots
play takes it over from them, as ``table console N`` does for the operator's console, and gives
it back when its last phone leaves (or the operator hands it back); the operator console's move
field takes the documented typed forms (``table bot N``, ``bot``, ``table as N …``).

Real code path: :class:`companion.table.Table` (joins, leaves, the operator's directives on its
queue); the last test runs the simulated table's service, whose bots wait while a phone plays."""

from __future__ import annotations

import time

import pytest

from companion.log import TableLog
from companion.table import Table
from tests.waiting import wait_for


@pytest.fixture
def bots_table(fast_dir, counting):
    """A counting game the (stand-in) bots play: the table as the simulated table's service sets it."""
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис", "Вика"])
    table.bots = True
    table.bots_playing = lambda: True
    told: list = []
    table.subscribe(lambda kind, payload: kind == "control" and told.append(dict(payload)))
    yield table, told
    table.close()


@pytest.fixture
def counting():
    from tests.core.counting import Counting, register_counting

    unregister = register_counting()
    yield Counting
    unregister()


def test_a_phone_joining_a_bot_seat_takes_it_over_and_gives_it_back_when_it_leaves(bots_table):
    table, told = bots_table
    assert [table.played_by(s) for s in range(3)] == ["bots"] * 3
    seat, token = table.join(table.seat_codes()[1])
    assert seat == 1
    assert table.seat_control() == {1: "phone"} and table.played_by(1) == "phone"
    assert told[-1] == {1: "phone"}
    play = table.seat_play()
    assert [p["by"] for p in play["seats"]] == ["bots", "phone", "bots"] and play["bots"] is True
    assert "взято у ботов" in play["seats"][1]["words"]["ru"]
    # a second phone on the seat; the first leaving keeps it the phones'
    _seat, second = table.join(table.seat_codes()[1])
    table.leave_seat(token)
    assert table.played_by(1) == "phone"
    table.leave_seat(second)  # the last phone leaves: the bots play it again
    assert table.played_by(1) == "bots" and table.seat_control() == {}
    assert told[-1] == {}


def test_the_operator_hands_a_phones_seat_back_to_the_bots_and_a_join_takes_it_again(bots_table):
    table, _told = bots_table
    _seat, token = table.join(table.seat_codes()[0])
    assert table.submit("table bot 1", "operator").accepted
    assert table.played_by(0) == "bots"
    table.join(table.seat_codes()[0], token)  # joining again (the same phone) takes it over
    assert table.played_by(0) == "phone"
    assert table.submit("table console 1", "operator").accepted
    assert table.played_by(0) == "console"
    table.leave_seat(token)  # the operator's seat stays the operator's
    assert table.played_by(0) == "console"


def test_a_table_without_bots_leaves_joins_alone_and_says_which_seats_have_no_pad(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    try:
        table.new_game("counting", ["Аня", "Борис", "Вика"])
        table.pads = 2
        table.join(table.seat_codes()[2])
        assert table.seat_control() == {}
        assert [table.played_by(s) for s in range(3)] == ["pad", "pad", "no_pad"]
        assert [s["pad"] for s in table.seat_play()["seats"]] == [True, True, False]
        table.bots, table.bots_playing = True, lambda: True  # the bots' game: they play it by its seat view
        assert "страницу места" in table.seat_play()["seats"][2]["words"]["ru"]
        assert table.seat_play()["seats"][0]["words"]["ru"] == "играют боты имитации"
        table.bots, table.bots_playing = False, None
        table.pads = None  # no button box at all (companion dashboard): every seat is its player's, on the phone
        play = table.seat_play()["seats"]
        assert [s["by"] for s in play] == ["phone_only"] * 3 and play[0]["pad"] is None
        assert "кнопки" not in play[0]["words"]["ru"] and "pad" not in play[0]["words"]["en"]
    finally:
        table.close()


def test_a_resumed_game_keeps_a_phones_seat_only_while_a_phone_holds_it(fast_dir, counting):
    import json

    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    table.bots, table.bots_playing = True, lambda: True
    table.join(table.seat_codes()[0])
    table.close()
    again = Table(fast_dir, pin="246810")  # a restart: the phone's login is kept, so is its seat
    try:
        assert again.seat_control() == {0: "phone"}
    finally:
        again.close()
    state = fast_dir / "table.json"  # the phone's login is gone (expired): the seat is not a phone's
    kept = json.loads(state.read_text(encoding="utf-8"))
    state.write_text(json.dumps(dict(kept, seat_tokens={})), encoding="utf-8")
    again = Table(fast_dir, pin="246810")
    try:
        assert again.seat_control() == {}
    finally:
        again.close()


def test_the_console_move_field_takes_the_documented_typed_forms(bots_table):
    table, _told = bots_table
    assert table.console_move(2, "table bot 2") == "table bot 2"
    assert table.console_move(2, "  table   console 3 ") == "table console 3"
    assert table.console_move(2, "bot") == "table bot 2"
    assert table.console_move(2, "console") == "table console 2"
    assert table.console_move(2, "add 3") == "table as 2 add 3"
    assert table.console_move(2, "table as 2 add 3") == "table as 2 add 3"
    # what they do: the seat goes onto the console, its move is made, it goes back to the bots
    assert table.submit(table.console_move(1, "console"), "operator").accepted
    out = table.submit(table.console_move(1, "add 3"), "operator")  # Аня's move (the first turn)
    assert out.accepted and out.action == "0 add 3", out
    assert table.submit(table.console_move(1, "bot"), "operator").accepted
    assert table.seat_control() == {0: "bot"}


def _records(path) -> list[tuple[str, str]]:
    with TableLog.open(path, readonly=True) as tl:
        return [(r.source, r.action) for r in tl.records()]


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_bots_stop_playing_a_seat_a_phone_joined_and_take_it_back_when_it_leaves(fast_dir):
    from companion.service import TableService, choose_backends
    from companion.settings import Settings

    s = Settings(game="doubt", seats=["Аня", "Борис", "Вика"], sim=True, seed=0, data_dir=fast_dir,
                 host="127.0.0.1", port=0, pin="123456", pace_ms=0)
    svc = TableService(s, choose_backends(s), dashboard=False, follow=True).start()
    try:
        table = svc.table
        path = table.referee.log.path
        svc.run_bots()
        assert wait_for(lambda: len(_records(path)) >= 1, 120), "the bots did not start"
        _seat, token = table.join(table.seat_codes()[1])  # Борис's phone joins his seat
        assert table.played_by(1) == "phone"

        def seat1_to_move():
            _e, _v, _views, legal, current, over, _r = table.views()
            return over or (1 in current and bool(legal[1]))

        assert wait_for(seat1_to_move, 300), table.views()[4]
        before = _records(path)
        time.sleep(1.5)  # a bot's move for seat 1 would land now
        assert not [a for _src, a in _records(path)[len(before):] if a.startswith("1 ")], _records(path)[len(before):]
        move = table.views()[3][1][0]
        assert table.submit_for_seat(1, move, "dashboard").accepted  # the phone's own tap
        table.leave_seat(token)  # the phone leaves: the bots play seat 1 again
        assert table.played_by(1) == "bots"
        n = len(_records(path))
        assert wait_for(lambda: svc.over or any(a.startswith("1 ") for _s, a in _records(path)[n:]), 300)
        assert svc.simtable.error is None
    finally:
        svc.stop()
