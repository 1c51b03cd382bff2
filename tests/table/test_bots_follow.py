"""Any game on the simulated table gets the bots and the simulated camera (#23 item 1), and the
operator can take any seat onto the console and hand it back (companion.table.control).

Real code path: TableService on the simulated table (virtual box on a pty, scene camera, the real
note reader), ``follow`` as ``companion run --sim`` sets it; the game is switched the way the
operator console's «Новая игра» does (``Table.new_game``) and reaches its end through the
referee's queue."""

from __future__ import annotations

import json
import time

import pytest

from companion.log import TableLog
from companion.service import TableService, choose_backends
from companion.settings import Settings
from companion.table import Table
from tests.waiting import wait_for as _wait

SEATS = ["Аня", "Борис", "Вика"]


def _records(path) -> list[tuple[str, str]]:
    with TableLog.open(path, readonly=True) as tl:
        return [(r.source, r.action) for r in tl.records()]


@pytest.mark.slow
@pytest.mark.timeout(900)  # a whole simulated game; minutes on a loaded machine
def test_a_game_switched_from_the_console_is_played_to_its_end_by_the_bots(fast_dir):
    s = Settings(game="doubt", seats=list(SEATS), sim=True, seed=0, data_dir=fast_dir, host="127.0.0.1",
                 port=0, pin="123456", pace_ms=0)
    svc = TableService(s, choose_backends(s), dashboard=False, follow=True).start()
    try:
        first = svc.table.referee.log.path
        svc.run_bots()
        assert _wait(lambda: len(_records(first)) >= 1, 120), "the bots did not start"
        # the operator switches to skull from the console: nobody types a serial or a card
        path = svc.table.new_game("skull", SEATS, None).log.path
        assert _wait(lambda: svc.simtable.owned == path, 60), svc.simtable.owned
        assert svc.simtable.released is None
        assert path.name in json.loads((fast_dir / "sim-seeds.json").read_text(encoding="utf-8"))
        assert _wait(lambda: any(src == "camera" for src, _ in _records(path)), 180), _records(path)
        # the operator takes seat 1 (Место 2: counted from 1) onto the console: the bots wait for its move
        assert svc.table.submit("table console 2", "operator").accepted
        assert svc.table.seat_control() == {1: "console"}

        def seat1_to_move():
            _e, _v, _views, legal, current, over, _r = svc.table.views()
            return over or (1 in current and bool(legal[1]))

        assert _wait(seat1_to_move, 240), svc.table.views()[4]
        before = _records(path)
        time.sleep(1.0)  # a bot's press for seat 1 would land now
        assert not [a for src, a in _records(path)[len(before):] if a.startswith("1 ")]
        move = svc.table.views()[3][1][0]
        refused = svc.table.submit(f"table as 3 {move.split(' ', 1)[1]}", "operator")
        assert not refused.accepted and refused.reason == "seat_not_on_console"
        out = svc.table.submit(f"table as 2 {move.split(' ', 1)[1]}", "operator")
        assert out.accepted, out
        assert ("operator", move) in _records(path)
        # handed back: the bots play it again, to the end
        assert svc.table.submit("table bot 2", "operator").accepted
        assert _wait(lambda: svc.over or svc.simtable.error is not None, 400), svc.simtable.stats.to_json()
        assert svc.simtable.error is None, svc.simtable.error
    finally:
        svc.stop()
    sources = {src for src, _ in _records(path)}
    assert {"camera", "button", "operator"} <= sources, sources


def test_seat_directives_are_operator_actions_kept_in_the_log(tmp_path):
    table = Table(tmp_path)
    try:
        table.new_game("doubt", SEATS)
        refused = table.submit("table bot 1", "operator")
        assert not refused.accepted and refused.reason == "no_bots"  # a real table has no bots
        assert table.submit("table console 9", "operator").reason == "unknown_seat"
        assert table.submit("table as 1 believe", "operator").reason == "seat_not_on_console"
        assert table.submit("table console 3", "operator").accepted  # Место 3: index 2
        seat = table.referee.game.current_seats()[0]
        table.hand_seat(seat, "console")
        move = table.views()[3][seat][0]
        out = table.submit(f"table as {seat + 1} {move.split(' ', 1)[1]}", "operator")
        assert out.accepted and table.referee.log.records()[-1].source == "operator"
        assert not table.submit("table console all", "dashboard").accepted  # only the operator's
        with pytest.raises(ValueError):
            table.hand_seat(0, "robot")
        kept = table.seat_control()
        assert kept == {2: "console", seat: "console"}
    finally:
        table.close()
    again = Table(tmp_path)  # resumed: the seat control with it
    try:
        assert again.seat_control() == kept
    finally:
        again.close()
