"""The console of ``companion run --sim`` after the operator ends the game («Завершить игру»).

A report: after ``POST /api/operator/end`` the console printed «боты имитации не трогают эту игру
(её начал оператор на пульте, а не боты имитации)» — the operator started nothing, he ended the
game — and Ctrl-C then printed «остановка; игра продолжится из журнала стола при следующем
запуске», though nothing resumes (the next start began a new game with new codes). The bots'
line was chosen for "the table's game is not the bots' own" even with no game at the table, and
the stop line read "over" from the current game only, which an ended game no longer is.

Real code path: TableService on the simulated table with its dashboard served, the console as
``companion run`` makes it (subscribed to the table), the operator's end posted to the app.
"""

from __future__ import annotations

import io

from companion.commands.console import Console
from companion.commands.console_words import bots_leave_words
from companion.commands.results import stop_words, table_stop_words
from companion.i18n import M, render
from companion.service import WHY_OPERATORS, TableService, choose_backends
from companion.settings import Settings
from companion.table import Table
from tests.dashboard.helpers import operator_client


def _start(data_dir) -> TableService:
    s = Settings(game="doubt", seats=["Аня", "Борис", "Вика"], sim=True, seed=0, data_dir=data_dir,
                 host="127.0.0.1", port=0, pin="123456", pace_ms=5)
    return TableService(s, choose_backends(s), dashboard=True).start()


def test_an_operator_ended_game_is_said_over_not_resumed(fast_dir):
    svc = _start(fast_dir)
    try:
        out = io.StringIO()
        console = Console(out, lang="ru")
        console.header(svc, svc.server.url)
        svc.table.subscribe(console.on_table)
        path = str(svc.table.referee.log.path)
        mark = len(out.getvalue())
        client, csrf = operator_client(svc.server.server.app, svc.table)
        r = client.post("/api/operator/end", json={}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200 and r.get_json()["ended"] is True
        console.every = 0
        console.progress(svc)  # the periodic status line, too, has nothing of the bots to say
        told = out.getvalue()[mark:]
        assert render(M(WHY_OPERATORS), "ru") not in told, told
        assert bots_leave_words(WHY_OPERATORS, "ru") not in told, told
        assert "не трогают" not in told and "только свою игру" not in told, told  # no bots' line at all
        stop = stop_words(svc, "ru")
        assert stop == render(M("stopping; the operator ended the game, its table log is %(path)s", path=path), "ru")
        assert "продолжится" not in stop and path in stop
        assert "resumes" not in stop_words(svc, "en", headless=True)
    finally:
        svc.stop()
    again = Table(fast_dir, pin="123456")  # the next start: nothing to resume, as the line said
    try:
        assert again.referee is None
    finally:
        again.close()


def test_a_served_table_says_the_same_after_the_operator_ends_its_game(fast_dir):
    table = Table(fast_dir, pin="123456")
    try:
        table.new_game("skull", ["Аня", "Борис"])
        path = str(table.referee.log.path)
        assert "resumes" in table_stop_words(table, "en")
        table.end_game()
        assert table_stop_words(table, "en") == (f"stopping; the operator ended the game, its table log is {path}")
        table.new_game("skull", ["Аня", "Борис"])  # a game since: its own line again
        assert "resumes" in table_stop_words(table, "en")
    finally:
        table.close()
