"""The simulated table's bots play only the game they started (README, docs/architecture.md).

A game the operator starts from the console (``Table.new_game`` is what the console's "new game"
calls) is the operator's: the bots stop pressing and putting notes in view for it, the run says so
once, and the next start resumes it with the bots idle from the start (the console and the phones
play on). Only a headless run (no dashboard: nobody could play it) sets it aside, its log kept, and
deals the bots a new game of their own. This used to go wrong three ways: the bots registered and
pressed in the operator's game; every restart then died on it (``unregistered_serial``, or a
``ValueError`` traceback out of the skull sim); and then every restart set it aside.

Real code path: TableService with the simulated table (virtual box on a pty, scene camera, real
note reader), bots paced at a few ms; the dashboard on a free port where a restart resumes.
"""

from __future__ import annotations

import io
import json
import time

import pytest

from companion.commands.run import Console
from companion.errors import CompanionError
from companion.i18n import M
from companion.log import TableLog
from companion.service import TableService, choose_backends
from companion.settings import Settings
from companion.games.simulator import play_random_game
from tests.waiting import wait_for as _wait
from companion.tablebots import WHY_OPERATORS
from tests.wording import said

SEATS = ["Аня", "Борис", "Вика"]
OPERATOR_NOTES = "table register 0 АК2444841,АК2444842,АК2444844,АК2444846 ?"
"""Seat 0's notes as the operator types them in (the bug report's manual entry)."""


def _settings(data_dir) -> Settings:
    return Settings(game="skull", seats=list(SEATS), sim=True, seed=0, data_dir=data_dir,
                    host="127.0.0.1", port=0, pin="123456", pace_ms=5)


def _start(data_dir, dashboard: bool = False) -> TableService:
    s = _settings(data_dir)
    return TableService(s, choose_backends(s), dashboard=dashboard).start()


def _bots_stay_idle(svc: TableService, log_path) -> None:
    """The resumed game is the operator's: the bots press nothing and show nothing for it."""
    before = _records(log_path)
    svc.run_bots()
    time.sleep(1.0)  # a press or a read would land now
    assert svc.simtable.error is None, svc.simtable.error
    assert svc.simtable.released is not None and "leave this game alone" in svc.simtable.released
    assert svc.simtable.stats.presses == 0 and svc.simtable.stats.reads == 0
    assert _records(log_path) == before


def _records(path) -> list[tuple[str, str]]:
    with TableLog.open(path) as tl:
        return [(r.source, r.action) for r in tl.records()]


def _seeds(data_dir) -> dict:
    return json.loads((data_dir / "sim-seeds.json").read_text(encoding="utf-8"))


def _bots_play_their_new_game(svc: TableService, foreign: set) -> None:
    """After a restart that set a game aside: the bots play a game of their own, recorded."""
    path = svc.table.referee.log.path
    assert path not in foreign and not svc.resumed
    assert path.name in _seeds(svc.settings.data_dir)
    svc.run_bots()
    assert _wait(lambda: svc.simtable.error is not None or len(_records(path)) >= 1, 60), "the bots did not play"
    assert svc.simtable.error is None, svc.simtable.error
    assert svc.simtable.released is None


def test_bots_leave_the_operators_game_alone_and_the_restart_sets_it_aside(fast_dir):
    svc = _start(fast_dir)
    try:
        bots_log = svc.table.referee.log.path
        svc.run_bots()
        # while the bots' game is still at registration, the operator starts a new game
        assert _wait(lambda: len(_records(bots_log)) >= 1, 60), "the bots did not start"
        op_log = svc.table.new_game("skull", SEATS, None).log.path
        assert svc.table.manual_entry(OPERATOR_NOTES).accepted

        def foreign():
            return [r for r in _records(op_log) if r[0] != "manual"]

        # the bots let go (the bug: they registered seats 1, 2 and pressed seat 0's buttons here)
        assert _wait(lambda: getattr(svc.simtable, "released", None) is not None or foreign(), 30)
        time.sleep(1.0)  # a read or a press in flight would land now
        assert foreign() == [], foreign()
        assert svc.simtable.error is None, svc.simtable.error
        # their thread ends (a note read in flight finishes first: seconds on a loaded machine)
        assert svc.simtable._thread is not None and _wait(lambda: not svc.simtable._thread.is_alive(), 30)
        assert "operator started another game" in svc.simtable.released
        # the console and dashboard keep working for manual play
        assert svc.table.submit("table register 1 ВВ1234561,ВВ1234562,ВВ1234564,ВВ1234566 ?", "manual").accepted
        # the run says so once, in the console's language (Russian by default; the tester saw
        # the English line on a Russian console)
        out = io.StringIO()
        console = Console(out)
        console.progress(svc)
        console.progress(svc)
        assert out.getvalue().count(svc.simtable.released_words("ru")) == 1, out.getvalue()
        why = svc.simtable.released_message.facts["why"]
        assert said(why)[0] == "the operator started another game (%(game)s, table log %(path)s)" and why.facts["game"] == "skull"
        assert "the operator" not in out.getvalue() and "bots play" not in out.getvalue()
        en = io.StringIO()
        Console(en, lang="en").progress(svc)
        assert en.getvalue().count("bots play only their own game") == 1, en.getvalue()
    finally:
        svc.stop()
    op_records = _records(op_log)
    # the next start resumes the operator's game; the bots leave it alone as they did before
    svc = _start(fast_dir, dashboard=True)
    try:
        assert svc.resumed and svc.set_aside is None, svc.set_aside_why
        assert svc.table.referee.log.path == op_log
        assert "operator console" in svc.bots_idle
        out = io.StringIO()
        console = Console(out, lang="en")
        console.header(svc, None)
        assert "bots leave this game alone (it was started from the operator console" in out.getvalue()
        assert "set aside" not in out.getvalue()
        ru = io.StringIO()
        Console(ru).header(svc, None)  # the console's own language, Russian by default
        assert svc.simtable.released_words("ru") in ru.getvalue()
        assert svc.simtable.released_message.facts["why"] == M(WHY_OPERATORS)  # she started it from the console
        _bots_stay_idle(svc, op_log)
        console.progress(svc)
        assert out.getvalue().count("leave this game alone") == 1  # said once
        # the console goes on with it
        assert svc.table.manual_entry("table register 2 ГГ1234561,ГГ1234562,ГГ1234564,ГГ1234566 ?").accepted
        op_records = _records(op_log)
    finally:
        svc.stop()
    # a headless run (no dashboard) has nobody to play it: set aside, log kept, bots deal anew
    svc = _start(fast_dir)
    try:
        assert svc.set_aside == ("skull", str(op_log)), svc.set_aside
        assert "operator console" in svc.set_aside_why and "no dashboard" in svc.set_aside_why
        out = io.StringIO()
        Console(out, lang="en").header(svc, None)
        assert "set aside (it was started from the operator console" in out.getvalue()
        assert str(op_log) in out.getvalue() and f"--resume {op_log.name}" in out.getvalue()
        assert op_log.name not in _seeds(fast_dir)
        _bots_play_their_new_game(svc, {op_log, bots_log})
    finally:
        svc.stop()
    assert _records(op_log) == op_records  # the operator's game is untouched


def _play(table, actions, *, by_operator: bool) -> None:
    """Submit ``(text, source)`` actions through the Table API: as the bots' devices would
    (``by_operator=False``) or as the operator on the console and the players on their phones."""
    for text, source in actions:
        seat = text.split(" ", 1)[0]
        if seat.isdigit():
            out = table.submit_for_seat(int(seat), text, "dashboard" if by_operator else "button")
        else:
            out = table.submit(text, ("manual" if source == "camera" else "operator") if by_operator else source)
        assert out.accepted, (text, out.reason, out.detail)


def test_an_operators_game_after_the_bots_game_ended_resumes_at_restart(fast_dir):
    svc = _start(fast_dir)
    try:
        # the bots' game to its end (their own actions, fed in at once rather than over minutes)
        game, actions = play_random_game("skull", SEATS, None, seed=svc.settings.seed)
        _play(svc.table, actions, by_operator=False)
        assert svc.over
        # then the operator starts a skull game of his own and plays past the first deposit
        op_log = svc.table.new_game("skull", SEATS, None).log.path
        _, op_actions = play_random_game("skull", SEATS, None, seed=7)
        first_deposit = next(i for i, (t, _) in enumerate(op_actions) if " deposit " in t)
        _play(svc.table, op_actions[:first_deposit + 3], by_operator=True)
    finally:
        svc.stop()
    # the first bug: the restart resumed it and the skull sim died in list.remove (ValueError);
    # the second: the restart set it aside. Now it resumes, and the bots leave it alone
    svc = _start(fast_dir, dashboard=True)
    try:
        assert svc.resumed and svc.set_aside is None and svc.table.referee.log.path == op_log
        _bots_stay_idle(svc, op_log)
    finally:
        svc.stop()


def test_a_log_the_bots_cannot_follow_is_a_clear_error_not_a_traceback(fast_dir):
    """A data folder left by the old code, which recorded the operator's game as the bots' on
    resume: the start fails with one clear line (``companion run`` prints it), not a ValueError."""
    svc = _start(fast_dir)
    try:
        op_log = svc.table.new_game("skull", SEATS, None).log.path
        _, op_actions = play_random_game("skull", SEATS, None, seed=7)
        first_deposit = next(i for i, (t, _) in enumerate(op_actions) if " deposit " in t)
        _play(svc.table, op_actions[:first_deposit + 1], by_operator=True)
    finally:
        svc.stop()
    seeds = _seeds(fast_dir)
    seeds[op_log.name] = 0
    (fast_dir / "sim-seeds.json").write_text(json.dumps(seeds), encoding="utf-8")
    with pytest.raises(CompanionError, match=r"the bots cannot follow the table log .*--new") as err:
        _start(fast_dir)
    assert not isinstance(err.value, ValueError) and "\n" not in str(err.value)
    # with a dashboard the game still resumes: the console and the phones play it, the bots idle
    svc = _start(fast_dir, dashboard=True)
    try:
        assert svc.resumed and svc.table.referee.log.path == op_log
        assert "cannot follow its log" in svc.bots_idle
        _bots_stay_idle(svc, op_log)
    finally:
        svc.stop()


def test_following_bots_handed_a_log_they_cannot_follow_leave_it_and_say_why(fast_dir):
    """``follow`` (``companion run --sim``): the operator resumes an older game whose notes are
    not the ones the bots deal; the hand-over finds it cannot follow the log, and the bots leave
    the game alone with that reason in words."""
    from companion.i18n import M, render
    from companion.tablebots import WHY_CANNOT_FOLLOW

    s = _settings(fast_dir)
    svc = TableService(s, choose_backends(s), dashboard=True, follow=True).start()
    try:
        op_log = svc.table.new_game("skull", SEATS, None).log.path
        _, op_actions = play_random_game("skull", SEATS, None, seed=7)
        first_deposit = next(i for i, (t, _) in enumerate(op_actions) if " deposit " in t)
        _play(svc.table, op_actions[:first_deposit + 1], by_operator=True)
        svc.table.new_game("skull", SEATS, None)
        svc.table.resume_game(op_log)
        assert _wait(lambda: svc.simtable.released is not None, 30)
        why = M(WHY_CANNOT_FOLLOW)
        assert svc.simtable.released_message.facts["why"] == why
        assert render(why, "ru") in svc.simtable.released_words("ru")
    finally:
        svc.stop()
