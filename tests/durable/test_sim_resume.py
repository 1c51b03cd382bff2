"""``companion run --sim`` (``make demo``) resumes a game the operator started from the console.

The tester's steps: the demo table (skull, its bots), a «Верю — не верю» game started from the
operator console, a couple of moves from the phones, kill -9, the demo again. It used to print «the
unfinished doubt game is set aside» and deal the bots a new skull game. Now the doubt game resumes
with the bots idle (as they were before the kill), the console and the phones play on, and the
phones keep their seats. ``--resume LOG`` brings back any unfinished game of the data folder.

Real code path: TableService on the simulated table (virtual box on a pty, scene camera, real note
reader, the dashboard on a free port). A kill stops the devices but closes nothing of the table:
its referee thread and the table log's connection are left as a killed process leaves them.
"""

from __future__ import annotations

import io
import json
import time

from companion.commands.console_words import pin_origin
from companion.commands.run import Console
from companion.i18n import M, render
from companion.log import TableLog
from companion.service import TableService, choose_backends
from companion.settings import Settings
from companion.games.simulator import play_random_game
from companion.table import STATE_FILE
from tests.durable.kills import drop

SEATS = ["Аня", "Борис", "Вика"]


def _service(data_dir, **kwargs) -> TableService:
    s = Settings(game="skull", seats=list(SEATS), sim=True, seed=0, data_dir=data_dir, host="127.0.0.1",
                 port=0, pace_ms=5)
    return TableService(s, choose_backends(s), **kwargs).start()


def _kill(svc: TableService) -> None:
    svc.table.close = lambda: None  # the referee and its log stay open, as after kill -9
    drop(svc.table)  # (until the test ends: tests/durable/kills.py)
    svc.stop()


def _records(path) -> list[str]:
    with TableLog.open(path) as tl:
        return [r.action for r in tl.records()]


def _phone_moves(table, moves) -> None:
    """The doubt game's moves as the operator and the phones enter them."""
    for text, _source in moves:
        seat = text.split(" ", 1)[0]
        out = (table.submit_for_seat(int(seat), text, "dashboard") if seat.isdigit()
               else table.manual_entry(text))
        assert out.accepted, (text, out.reason, out.detail)


def _idle(svc: TableService) -> None:
    svc.run_bots()
    time.sleep(0.8)
    assert svc.simtable.error is None, svc.simtable.error
    assert svc.simtable.stats.presses == 0 and svc.simtable.stats.reads == 0


def test_an_operators_doubt_game_resumes_after_a_kill(fast_dir):
    _game, moves = play_random_game("doubt", SEATS, None, 3)
    svc = _service(fast_dir)
    try:
        bots_log = svc.table.referee.log.path
        # «Новая игра» on the console: the doubt game; the bots let go of their skull game
        doubt_log = svc.table.new_game("doubt", SEATS, None).log.path
        phone_seat, phone_token = svc.table.join(svc.table.seat_codes()[1])
        codes = svc.table.seat_codes()
        _phone_moves(svc.table, moves[:4])
        played = _records(doubt_log)
        bots_played = _records(bots_log)
        pin = svc.table.pin
    finally:
        _kill(svc)
    svc = _service(fast_dir)  # `make demo` again
    try:
        # the bug: "the unfinished doubt game is set aside" and a new skull game for the bots
        assert svc.set_aside is None and svc.resumed
        assert svc.table.game_id == "doubt" and svc.table.referee.log.path == doubt_log
        assert svc.table.referee.version == len(played)
        out = io.StringIO()
        Console(out, lang="en").header(svc, svc.server.url)
        text = out.getvalue()
        assert "resumed from" in text and "set aside" not in text
        assert "bots leave this game alone (it was started from the operator console" in text
        assert f"Operator PIN: {pin}  (kept in {fast_dir / 'operator-pin'}" in text  # the same PIN
        ru = io.StringIO()
        Console(ru).header(svc, svc.server.url)
        assert svc.simtable.released_words("ru") in ru.getvalue()  # the bots leave it alone; nothing set aside
        assert "set aside" not in render(svc.simtable.released_message, "en")
        # ... and the buttons' line does not say the bots press them (a tester read both)
        assert render(M("buttons: virtual box on a pty"), "ru") in ru.getvalue()
        assert render(M("buttons: virtual box on a pty, pressed by the bots"), "ru") not in ru.getvalue()
        assert "pressed by the bots" not in text
        assert render(M("Operator PIN: %(pin)s  (%(origin)s)", pin=pin, origin=pin_origin(svc.table, "ru")), "ru") in ru.getvalue()
        # the phones keep their seats, the console its codes; play goes on
        assert svc.table.seat_for_token(phone_token) == phone_seat and svc.table.seat_codes() == codes
        _idle(svc)
        _phone_moves(svc.table, moves[4:6])
        assert _records(doubt_log) == [t for t, _ in moves[:6]]
        assert _records(bots_log) == bots_played  # the bots' game is untouched
    finally:
        _kill(svc)
    # a power cut that emptied table.json: the same game, recovered from its log
    (fast_dir / STATE_FILE).write_bytes(b"")
    svc = _service(fast_dir)
    try:
        assert svc.table.referee.log.path == doubt_log and svc.table.referee.version == 6
        assert any("recovered" in str(n) for n in svc.table.notices)
        _idle(svc)
    finally:
        svc.stop()


def test_a_set_aside_game_comes_back_with_resume(fast_dir):
    """A headless run sets the operator's game aside (nobody could play it) and says how to get it
    back: ``--resume LOG`` — with the dashboard, the game is current again, bots idle."""
    _game, moves = play_random_game("doubt", SEATS, None, 3)
    svc = _service(fast_dir)
    try:
        doubt_log = svc.table.new_game("doubt", SEATS, None).log.path
        _phone_moves(svc.table, moves[:3])
    finally:
        svc.stop()
    svc = _service(fast_dir, dashboard=False)
    try:
        assert svc.set_aside == ("doubt", str(doubt_log))
        # said by the game's title in each language, never its bare id
        from companion.commands.console_words import _set_aside_words

        ru, en = _set_aside_words(svc, "ru"), _set_aside_words(svc, "en")
        assert ru.startswith("неоконченная игра «Верю — не верю» отложена"), ru
        assert en.startswith("the unfinished “Believe it or not” game is set aside"), en
        assert f"--resume {doubt_log.name}" in ru and f"--resume {doubt_log.name}" in en
        skull_log = svc.table.referee.log.path
        assert skull_log.name in json.loads((fast_dir / "sim-seeds.json").read_text(encoding="utf-8"))
    finally:
        svc.stop()
    svc = _service(fast_dir, resume=doubt_log.name)
    try:
        assert svc.table.referee.log.path == doubt_log and svc.table.referee.version == 3
        assert svc.resumed and "operator console" in svc.bots_idle
        assert len(svc.table.seat_codes()) == 3  # new codes: the phones join again
        _idle(svc)
    finally:
        svc.stop()
    # and the bots' skull game it set aside comes back the same way, with its bots
    svc = _service(fast_dir, resume=str(skull_log))
    try:
        assert svc.table.referee.log.path == skull_log and svc.bots_idle == ""
        assert svc.simtable.released is None and svc.simtable.owned == skull_log
    finally:
        svc.stop()
