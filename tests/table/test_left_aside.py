"""A start with ``--new`` leaves the current game's log as it is and the table with no current
game — in ``table.json`` and in the log's own notes, so a lost ``table.json`` recovered from the
logs agrees — and a game replaced by another («Начать другую игру») says so in its log
(companion.table.store: ``set_aside``, :func:`stop_notes`).

Real code path: :class:`companion.table.Table` on a data folder."""

from __future__ import annotations

import json

from companion.log import TableLog
from companion.table import Table
from companion.table.store import stop_notes

SEATS = ["Аня", "Борис", "Вика"]


def _current(folder):
    return json.loads((folder / "table.json").read_text(encoding="utf-8"))["current"]


def test_a_start_with_new_leaves_no_current_game_and_the_logs_agree(fast_dir):
    table = Table(fast_dir, pin="135792")
    log = table.new_game("doubt", SEATS).log.path
    table.close()
    assert _current(fast_dir) == log.name
    left = Table(fast_dir, pin="135792", resume=False)  # --new
    try:
        assert left.referee is None
        assert any(f"--resume {log.name}" in n.words("en") for n in left.notices)
        assert _current(fast_dir) == log.name  # nothing written before the start is accepted
        left.leave_aside()  # no game to start (companion dashboard --new)
    finally:
        left.close()
    assert _current(fast_dir) is None  # it sticks: the next start resumes nothing
    with Table(fast_dir, pin="135792") as again:
        assert again.referee is None
    with TableLog.open(log, readonly=True) as tl:
        assert stop_notes(tl)["how"] == "new"
    (fast_dir / "table.json").unlink()  # a lost table.json: the logs say the same
    with Table(fast_dir, pin="135792") as recovered:
        assert recovered.referee is None
    with Table(fast_dir, pin="135792", resume=False) as table:  # --resume brings it back
        table.resume_game(log.name)
        assert table.referee.log.path == log
        with TableLog.open(log, readonly=True) as tl:
            assert stop_notes(tl) is None  # taken up again: current, resumable as it is


def test_a_game_replaced_by_another_says_so_in_its_log(fast_dir):
    with Table(fast_dir, pin="135792") as table:
        first = table.new_game("doubt", SEATS).log.path
        second = table.new_game("skull", SEATS).log.path
        with TableLog.open(first, readonly=True) as tl:
            stopped = stop_notes(tl)
        assert (stopped["how"], stopped["by"]) == ("replaced", second.name)
        table.resume_game(first.name)  # resuming an older game sets the current one aside too
        with TableLog.open(second, readonly=True) as tl:
            assert (stop_notes(tl)["how"], stop_notes(tl)["by"]) == ("replaced", first.name)
        table.end_game()
        with TableLog.open(first, readonly=True) as tl:
            assert stop_notes(tl)["how"] == "ended"


def test_a_game_a_start_with_new_replaces_says_so_and_a_refused_one_changes_nothing(fast_dir):
    import pytest

    from companion.errors import IllegalAction

    table = Table(fast_dir, pin="135792")
    log = table.new_game("doubt", SEATS).log.path
    table.close()
    with Table(fast_dir, pin="135792", resume=False) as table:  # --new --game chess: refused
        with pytest.raises(IllegalAction):
            table.new_game("chess", SEATS)
    assert _current(fast_dir) == log.name
    with TableLog.open(log, readonly=True) as tl:
        assert stop_notes(tl) is None
    with Table(fast_dir, pin="135792", resume=False) as table:  # --new --game skull
        new = table.new_game("skull", SEATS).log.path
    with TableLog.open(log, readonly=True) as tl:
        assert (stop_notes(tl)["how"], stop_notes(tl)["by"]) == ("replaced", new.name)
