"""The game is in one file (issue #20 item 3): after every append the record is in the ``.sqlite``
file itself, so the loss or damage of ``-wal`` or ``-shm`` costs at most the action being written;
a flipped byte in a WAL record is said, not silently dropped; a start that refuses a log changes
not one byte of it. Real SQLite files, real SIGKILLs of a writing process."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.commands.replay import load_and_replay
from companion.log import TableLog
from companion.table import STATE_FILE, Table, TableStateError

ROOT = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent(
    """
    import os, sys
    from companion.log import TableLog
    from companion.sim import play_random_game

    path, n, die = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seats = ["Аня", "Борис", "Вера"]
    _game, actions = play_random_game("skull", seats, None, 3)
    log = TableLog.create(path, "skull", seats, {}) if not os.path.exists(path) else TableLog.open(path)
    for i, (text, source) in enumerate(actions[:n]):
        if i == n - 1 and die == "before_checkpoint":
            log._checkpoint = lambda: os._exit(0)  # committed, the table stops before the checkpoint
        log.append(text, source)
        print(i + 1, flush=True)
    os.kill(os.getpid(), 9)
    """
)


def _write(path: Path, n: int, die: str = "kill") -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", WRITER, str(path), str(n), die], env=env, cwd=str(ROOT),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode in (0, -signal.SIGKILL), r.stderr
    assert r.stdout.split()[-1] == str(n) if die == "kill" else True


def _count(path: Path) -> int:
    with TableLog.open(path, readonly=True) as log:
        return len(log.records())


def test_after_a_kill_the_sqlite_file_alone_holds_the_game(tmp_path):
    """The bug: after a kill the .sqlite was 4 KB and `companion replay` on a copy of it said
    "no game header" — the game lived only in the -wal."""
    log = tmp_path / "game.sqlite"
    _write(log, 12)
    alone = tmp_path / "copy" / "game.sqlite"
    alone.parent.mkdir()
    shutil.copyfile(log, alone)  # the one file, as an operator would copy it
    res = load_and_replay(alone)
    assert len(res.applied) == 12 and not res.rejected
    assert os.path.getsize(f"{log}-wal") == 0 if os.path.exists(f"{log}-wal") else True


@pytest.mark.parametrize("damage", ["delete wal", "truncate wal", "garbage wal", "delete shm", "garbage shm",
                                    "delete both"])
def test_losing_or_damaging_the_wal_or_shm_at_rest_loses_nothing(tmp_path, damage):
    log = tmp_path / "game.sqlite"
    _write(log, 9)
    wal, shm = Path(f"{log}-wal"), Path(f"{log}-shm")
    if "delete" in damage:
        for f in ([wal, shm] if damage == "delete both" else [wal] if "wal" in damage else [shm]):
            f.unlink(missing_ok=True)
    elif damage == "truncate wal":
        wal.write_bytes(b"")
    else:
        (wal if "wal" in damage else shm).write_bytes(os.urandom(40000))
    with TableLog.open(log) as opened:
        assert len(opened.records()) == 9
        opened.append("table undo", "operator")
    assert _count(log) == 10


def test_a_stop_between_commit_and_checkpoint_keeps_the_record(tmp_path):
    log = tmp_path / "game.sqlite"
    _write(log, 5, die="before_checkpoint")
    assert os.path.getsize(f"{log}-wal") > 0  # the last record is in the WAL only
    with TableLog.open(log) as opened:
        assert len(opened.records()) == 5 and opened.wal_damage is None
    assert os.path.getsize(f"{log}-wal") == 0 if os.path.exists(f"{log}-wal") else True
    # the next open moved it into the file: the .sqlite alone holds all five
    Path(f"{log}-wal").unlink(missing_ok=True)
    assert _count(log) == 5


def _flip_in_wal(log: Path) -> None:
    wal = Path(f"{log}-wal")
    data = bytearray(wal.read_bytes())
    data[32 + 24 + 4000] ^= 0x04  # a byte of the first frame's page
    wal.write_bytes(bytes(data))


def test_a_flipped_wal_byte_is_said_not_silently_dropped(tmp_path):
    """The bug: one flipped byte in the WAL silently dropped the last action."""
    log = tmp_path / "game.sqlite"
    _write(log, 5, die="before_checkpoint")
    _flip_in_wal(log)
    with TableLog.open(log, readonly=True) as opened:
        assert len(opened.records()) == 4  # SQLite drops the damaged record …
        damage = opened.wal_damage          # … and the log says so
    assert damage is not None and damage.damaged >= 1 and damage.commits_lost == 1
    assert Path(f"{log}-wal.damaged").exists()


def test_the_table_says_a_damaged_wal_in_words(tmp_path):
    table = Table(tmp_path, pin="246810")
    table.new_game("skull", ["Аня", "Борис", "Вера"])
    path = table.referee.log.path
    table.close()
    _write(path, 4, die="before_checkpoint")  # the writer appends to the game's log
    _flip_in_wal(path)
    again = Table(tmp_path)
    try:
        assert again.referee is not None and again.referee.version == 3
        words = [n for n in again.notices if "WAL" in n.en]
        assert len(words) == 1, again.notices
        assert "about 1 action(s) after action 3 are lost" in words[0].en
        assert "потеряно действий после 3-го: примерно 1" in words[0].ru
    finally:
        again.close()


def _digest(path: Path) -> dict:
    # the -shm is SQLite's scratch index of the WAL (rebuilt from the WAL by any reader), not the log
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.parent.glob(path.name + "*"))
            if p.stat().st_size and not p.name.endswith("-shm")}


def test_a_refused_start_changes_no_byte_of_the_log(tmp_path):
    """The bug: a start that refused the log still rewrote it while saying "nothing was changed"."""
    table = Table(tmp_path, pin="246810")
    table.new_game("skull", ["Аня", "Борис", "Вера"])
    path = table.referee.log.path
    table.submit("table dealer 0", "operator")
    table.close()
    # a line the engine rejects, left in the WAL by a writer that stopped before its checkpoint
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    code = (f"import sqlite3, os\nc = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
            "c.execute('PRAGMA wal_autocheckpoint=0')\n"
            "c.execute(\"INSERT INTO actions (action, source, ts) VALUES ('7 frobnicate', 'button', 'x')\")\n"
            "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
    before = _digest(path)
    assert any(name.endswith("-wal") for name in before)
    # a refused start in a process of its own, as `companion run` is: its exit closes everything
    start = f"from companion.table import Table\nTable({str(tmp_path)!r})\n"
    r = subprocess.run([sys.executable, "-c", start], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "nothing was changed" in r.stderr
    assert _digest(path) == before
    with pytest.raises(TableStateError, match="nothing was changed"):  # and in this process, too
        Table(tmp_path)
    import gc

    gc.collect()
    assert _digest(path) == before


def test_opening_a_sqlite_file_that_is_not_a_log_writes_nothing(tmp_path):
    other = tmp_path / "photos.sqlite"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE pics (name TEXT)")
    conn.commit()
    conn.close()
    before = other.read_bytes()
    from companion.errors import LogError

    with pytest.raises(LogError):
        TableLog.open(other)
    assert other.read_bytes() == before
    assert not (tmp_path / STATE_FILE).exists()


def test_reading_a_closed_log_leaves_no_files_beside_it(tmp_path):
    log = tmp_path / "game.sqlite"
    _write(log, 3)
    TableLog.open(log).close()  # a clean close: the WAL and its index go
    before = sorted(p.name for p in tmp_path.iterdir())
    assert before == ["game.sqlite"]
    with TableLog.open(log, readonly=True) as opened:
        assert len(opened.records()) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == before
