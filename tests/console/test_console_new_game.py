"""A game started from the operator console (the dashboard's /operator page) while ``make demo``
runs is announced on ``companion run``'s console at once, like the first game: a header with the
game and its players, its table log and seat codes, and — once — that the simulated table's bots do
not touch it.

The tester's report: the console printed nothing of the kind and went straight to «ходов 0 ·
ждём: камера или оператор»; the sentence «боты имитации не трогают эту игру (её начал оператор на
пульте…)» appeared only at the next ``make demo``. The bots' game was over by then, so their thread
had ended and nothing noticed the new game.

Real code path: TableService on the simulated table with its dashboard served, the console
subscribed as ``companion run`` subscribes it, the new-game form posted to the dashboard's app.
"""

from __future__ import annotations

import io
import time

from companion.commands.run import Console
from companion.games import registry
from companion.i18n import M, render
from companion.service import WHY_OPERATORS, TableService, choose_backends
from companion.settings import Settings
from companion.games.simulator import play_random_game
from tests.dashboard.helpers import operator_client
from tests.waiting import wait_for as _wait

SEATS = ["Аня", "Борис", "Вика"]
OPERATORS = ["Борис", "Дина", "Егор"]


def _start(data_dir) -> tuple[TableService, Console, io.StringIO]:
    s = Settings(game="skull", seats=list(SEATS), sim=True, seed=0, data_dir=data_dir, host="127.0.0.1",
                 port=0, pin="123456", pace_ms=5)
    svc = TableService(s, choose_backends(s), dashboard=True).start()
    out = io.StringIO()
    console = Console(out)
    svc.table.subscribe(console.on_table)  # as companion run does
    console.header(svc, svc.server.url)
    return svc, console, out


def _new_game_from_the_console(svc: TableService, game: str = "doubt") -> None:
    client, csrf = operator_client(svc.server.server.app, svc.table)
    r = client.post("/operator/new", data={"game": game, "seats": "\n".join(OPERATORS), "csrf_token": csrf})
    assert r.status_code == 302, r.get_data(as_text=True)[:500]


def ru(msg) -> str:
    return render(msg, "ru")


def _after(out: io.StringIO, mark: int) -> str:
    return out.getvalue()[mark:]


def test_a_game_started_after_the_bots_game_ended_is_announced_at_once(fast_dir):
    svc, console, out = _start(fast_dir)
    try:
        # the bots' game to its end (their own actions, fed in at once rather than over minutes)
        _game, actions = play_random_game("skull", SEATS, None, seed=svc.settings.seed)
        for text, source in actions:
            seat = text.split(" ", 1)[0]
            outcome = (svc.table.submit_for_seat(int(seat), text, source) if seat.isdigit()
                       else svc.table.submit(text, source))
            assert outcome.accepted, (text, outcome.reason)
        assert svc.over
        mark = len(out.getvalue())
        _new_game_from_the_console(svc)
        told = _after(out, mark)  # at once: no status line was asked for
        path = svc.table.referee.log.path
        assert ru(M("Table Companion — %(game)s, %(n)s seats: %(seats)s", game=registry.console_name("doubt"), n=3,
                    seats="Борис, Дина, Егор")) in told, told
        assert ru(M("new game, started from the operator console; table log %(path)s", path=str(path))) in told
        assert ru(M("Seat codes: %(codes)s", codes="§")).split("§")[0] + "Борис=" in told  # for the phones
        left = ru(M("the simulated table's bots leave this game alone (%(why)s); play it from the console and the "
                    "phones", why=M(WHY_OPERATORS)))
        assert told.count(left) == 1, told
        # said once: the status lines do not repeat it
        console.every = 0
        for _ in range(3):
            console.progress(svc)
        after = _after(out, mark)
        stopped = ru(M("%(why)s: the simulated table's bots play only their own game (%(game)s) and stop; play on "
                       "from the console and the phones", why="§", game="§")).split("§")[1]  # «: боты имитации играют…»
        assert after.count(left) + after.count(stopped) == 1, after
        # the console tells the new game's events by its own names and words (doubt's, not skull's)
        assert console.game_id == "doubt" and console.seats == OPERATORS
    finally:
        svc.stop()


def test_a_game_started_while_the_bots_play_is_announced_at_once_in_english_too(fast_dir):
    svc, console, out = _start(fast_dir)
    console.lang = "en"
    try:
        bots_log = svc.table.referee.log.path
        svc.run_bots()
        assert _wait(lambda: svc.table.referee.version >= 1, 60), "the bots did not start"
        mark = len(out.getvalue())
        _new_game_from_the_console(svc, "skull")
        told = _after(out, mark)
        assert "Table Companion — Skull and roses (banknotes), 3 seats: Борис, Дина, Егор" in told, told
        assert "new game, started from the operator console; table log" in told
        assert told.count("bots leave this game alone (it was started from the operator console") == 1, told
        console.every = 0
        time.sleep(0.5)
        console.progress(svc)
        console.progress(svc)
        assert _after(out, mark).count("bots leave") + _after(out, mark).count("bots play") == 1, _after(out, mark)
        assert svc.table.referee.log.path != bots_log
        assert _wait(lambda: svc.simtable._thread is not None and not svc.simtable._thread.is_alive(), 30)
        assert svc.simtable.error is None, svc.simtable.error
    finally:
        svc.stop()
