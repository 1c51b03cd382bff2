"""The console's lines come in order: a game's header before any line about it.

* A game the operator starts on the dashboard's console may move, or its parts report, before
  the table's "game" change reaches ``companion run``'s console; the status line («ходов 0 · ждём:
  …») was then printed before the new game's header. Now the header comes first, whichever line
  notices the new game.
* A headless run (``--json``) stopped by Ctrl-C before the end said nothing on its console; now it
  says the game is kept, in which table log, and how to go on with it.

Real code path: TableService on the simulated table with its dashboard served, the console as
``companion run`` makes it; the new-game form posted to the dashboard's app.
"""

from __future__ import annotations

import io
from types import SimpleNamespace
from pathlib import Path

from companion.commands.console import Console
from companion.commands.results import stop_words
from companion.dashboard.i18n import game_title
from companion.i18n import M, render
from companion.service import TableService, choose_backends
from companion.settings import Settings
from tests.dashboard.helpers import operator_client

SEATS = ["Аня", "Борис", "Вика"]


def _start(data_dir):
    s = Settings(game="skull", seats=list(SEATS), sim=True, seed=0, data_dir=data_dir, host="127.0.0.1",
                 port=0, pin="123456", pace_ms=5)
    svc = TableService(s, choose_backends(s), dashboard=True).start()
    out = io.StringIO()
    console = Console(out)
    console.header(svc, svc.server.url)
    return svc, console, out


def test_the_status_line_of_a_console_started_game_comes_after_its_header(fast_dir):
    svc, console, out = _start(fast_dir)
    try:
        client, csrf = operator_client(svc.server.server.app, svc.table)
        mark = len(out.getvalue())
        # the console hears nothing of the new game yet (as when its "game" change is still on
        # the way): the periodic status line is the first to notice it
        r = client.post("/operator/new", data={"game": "doubt", "seats": "Дина\nЕгор\nЖеня", "csrf_token": csrf})
        assert r.status_code == 302
        console.every = 0
        console.progress(svc)
        told = out.getvalue()[mark:].splitlines()
        title = game_title("doubt", "ru")  # the game's page name, «Верю — не верю»
        assert told and title in told[0], told
        status = [i for i, line in enumerate(told) if "ждём:" in line]
        assert status and status[0] > 0, told
        # the "game" change arriving later does not announce it again
        console.on_table("game", None)
        assert out.getvalue()[mark:].count(title) == 1, out.getvalue()[mark:]
        # nor does a part's status line
        console.on_table("status", {"camera": {"state": "ok", "detail": "x"}})
        assert out.getvalue()[mark:].count(title) == 1
    finally:
        svc.stop()


def test_headless_ctrl_c_says_the_game_is_kept_and_how_to_go_on():
    log = SimpleNamespace(path=Path("/data/sim/games/20261202-skull.sqlite"))
    running = SimpleNamespace(table=SimpleNamespace(referee=SimpleNamespace(log=log)), over=False)
    ru, en = stop_words(running, "ru", headless=True), stop_words(running, "en", headless=True)
    kept = M("stopping before the end; the game is kept in its table log %(path)s: the same command (without --new) "
             "or `companion run --resume %(name)s` goes on with it", path=str(log.path), name=log.path.name)
    assert ru == render(kept, "ru") and en == render(kept, "en")
    over = SimpleNamespace(table=SimpleNamespace(referee=SimpleNamespace(log=log)), over=True)
    assert "--resume" not in stop_words(over, "en", headless=True)
    # a served table keeps its line (its header said how the game resumes)
    assert stop_words(running, "ru") == render(M("stopping; the game resumes from its table log at the next start"), "ru")


def test_nothing_is_said_after_the_stop_line(fast_dir):
    """The Ctrl-C line is the run's last: the bots' last moves and the parts stopping after it
    print nothing, even a part in trouble on a headless console."""
    svc = _start(fast_dir)[0]
    try:
        for quiet in (False, True):
            out = io.StringIO()
            console = Console(out, quiet=quiet, lang="ru")
            console.header(svc, svc.server.url)
            stop = stop_words(svc, "ru", headless=quiet)
            console.last_line(stop)
            said = out.getvalue()
            console.on_table("status", {"camera": {"state": "error", "detail": "x", "error": "gone"}})
            console.line("later", always=True)
            assert out.getvalue() == said and said.rstrip().endswith(stop)
    finally:
        svc.stop()
