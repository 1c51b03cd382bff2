"""The table's state files survive a power cut (docs/architecture.md, "Crash safety"):

* every state file (``table.json``, ``secret.key``, ``operator-pin``, ``sim-seeds.json``) is written
  durably — temp file, fsync, rename, fsync of the folder — and never left empty or half written;
* a missing, empty or damaged ``table.json`` never silently starts a new game: the current game is
  recovered from the table logs (new seat codes, said in one line), or the table refuses to start
  with one line saying what to do;
* a damaged ``secret.key`` is said in one line;
* the table log itself is SQLite in WAL mode with ``synchronous=FULL``.

A "kill" is a table dropped without ``close()`` (its log connection and referee thread left as a
killed process leaves them) and files truncated as a power cut on an SD card can leave them.
"""

from __future__ import annotations

import errno
import json
import os
import stat
import threading
from pathlib import Path

import pytest

from companion import durable
from companion.cli import build_parser
from companion.commands import dashboard as dashboard_cmd
from companion.games import registry
from companion.i18n import M, MN, render
from companion.table import MISSING_LOG, PIN_FILE, PROBLEMS, SECRET_FILE, STATE_FILE, Table, TableStateError
from tests.durable.kills import drop
from tests.wording import said

SEATS = ["Аня", "Борис", "Вика"]
NOTES = {0: "АК2444841,АК2444842,АК2444844,АК2444846", 1: "ВВ1234561,ВВ1234562,ВВ1234564,ВВ1234566"}


def _skull_in_play(folder: Path) -> tuple[Table, dict, str, Path]:
    """A skull game with two seats' notes registered and a phone joined at seat 1; returns the
    (still open) table, its seat codes, the phone's seat token and the game's log."""
    table = Table(folder)
    table.new_game("skull", SEATS, None)
    for seat, notes in NOTES.items():
        assert table.manual_entry(f"table register {seat} {notes} ?").accepted
    codes = table.seat_codes()
    _seat, token = table.join(codes[1])
    return table, codes, token, table.referee.log.path


def _kill(table: Table) -> None:
    """Drop the table as a kill -9 would: nothing is closed or flushed beyond what it wrote (its
    referee thread is stopped after the test, tests/durable/kills.py)."""
    drop(table)


def _games(folder: Path) -> list[Path]:
    return sorted((folder / "games").glob("*.sqlite"))


@pytest.mark.parametrize("damage", ["empty", "missing", "garbage", "not a state"])
def test_a_lost_table_json_recovers_the_game_from_its_log(fast_dir, damage):
    table, codes, token, log_path = _skull_in_play(fast_dir)
    version = table.referee.version
    _kill(table)
    state = fast_dir / STATE_FILE
    damaged = {"empty": b"", "garbage": b'{"current": "2026', "not a state": b"[1, 2]"}.get(damage)
    if damaged is None:
        state.unlink()
    else:
        state.write_bytes(damaged)  # what a torn write of the old code could leave
    again = Table(fast_dir)
    try:
        # the bug: no warning, no game, and `--game` then dealt a new one at version 0
        assert again.referee is not None and again.referee.log.path == log_path
        assert again.referee.version == version and again.game_id == "skull"
        assert len(again.notices) == 1, again.notices
        line = str(again.notices[0])
        assert said(again.notices[0].message)[0].startswith("%(said)s: the unfinished %(game)s game was recovered")
        assert "\n" not in line and "recovered" in line and str(log_path) in line
        assert "seat codes and the phones' logins are kept" in line and STATE_FILE in line
        # the game's log kept its seat codes and the phones' tokens: nobody joins again
        assert again.seat_codes() == codes
        assert again.seat_for_token(token) == 1
        assert again.join(codes[2])[0] == 2
        if damaged is not None:  # kept for a look
            assert (fast_dir / f"{STATE_FILE}.damaged").read_bytes() == damaged
        # the state is whole again: the next start is an ordinary resume
        assert json.loads(state.read_text(encoding="utf-8"))["current"] == log_path.name
    finally:
        again.close()
    third = Table(fast_dir)
    try:
        assert third.referee.version == version and third.notices == []
    finally:
        third.close()
    assert _games(fast_dir) == [log_path]  # no new game anywhere


def test_the_dashboard_command_resumes_instead_of_dealing_a_new_game(fast_dir, capsys):
    """The tester's steps: an unfinished skull game, table.json truncated to 0 bytes, then
    ``companion dashboard --game skull --seats …``: the game goes on, the console says why."""
    table, _codes, _token, log_path = _skull_in_play(fast_dir)
    version = table.referee.version
    _kill(table)
    (fast_dir / STATE_FILE).write_bytes(b"")
    args = build_parser().parse_args(["dashboard", "--game", "skull", "--seats", "Аня,Борис,Вика", "--data-dir",
                                      str(fast_dir), "--host", "127.0.0.1", "--port", "0"])
    stop = threading.Event()
    stop.set()  # serve, print, and stop at once
    assert dashboard_cmd.run(args, stop) == 0
    out = capsys.readouterr().out
    # the console's language, Russian by default
    empty = M("%(file)s in %(folder)s was %(problem)s", file=STATE_FILE, folder=str(fast_dir), problem=PROBLEMS["empty"])
    recovered = render(MN("%(said)s: the unfinished %(game)s game was recovered from its table log %(path)s (%(n)s "
                          "action logged); %(seats)s", "%(said)s: the unfinished %(game)s game was recovered from its "
                          "table log %(path)s (%(n)s actions logged); %(seats)s", version, said=empty, game="skull",
                          path="§", seats=""), "ru")
    assert recovered.split("§")[0] in out
    # the game and its table log, as companion run says them: resumed, not a new game
    assert render(M("resumed from %(path)s at action %(n)s", path=str(log_path), n=version), "ru") in out
    assert render(M("Table Companion — %(game)s, %(n)s seats: %(seats)s", game=registry.console_name("skull"), n=3,
                    seats="Аня, Борис, Вика"), "ru") in out
    assert _games(fast_dir) == [log_path]


def test_the_newest_bound_log_is_the_current_game(fast_dir):
    """Without table.json the logs say which game was current: the one the table last made
    current (a game set aside by a newer one, or resumed with --resume, counts from then)."""
    table = Table(fast_dir)
    first = table.new_game("skull", SEATS, None).log.path
    assert table.manual_entry(f"table register 0 {NOTES[0]} ?").accepted
    second = table.new_game("doubt", SEATS, None).log.path
    table.close()
    (fast_dir / STATE_FILE).write_bytes(b"")
    table = Table(fast_dir)
    assert table.referee.log.path == second
    table.resume_game(first.name)  # what `--resume LOG` does: the older game is current again
    assert table.referee.log.path == first and table.referee.version == 1
    _kill(table)
    (fast_dir / STATE_FILE).write_bytes(b"")
    again = Table(fast_dir)
    try:
        assert again.referee.log.path == first, again.notices
    finally:
        again.close()


def test_an_ended_or_finished_last_game_is_not_brought_back(fast_dir):
    table, _codes, _token, log_path = _skull_in_play(fast_dir)
    table.end_game()
    table.close()
    (fast_dir / STATE_FILE).write_bytes(b"")
    again = Table(fast_dir)
    try:
        assert again.referee is None
        assert len(again.notices) == 1 and "ended by the operator" in str(again.notices[0])
    finally:
        again.close()
    # the rewritten table.json says "no game": the next start is quiet
    third = Table(fast_dir)
    assert third.referee is None and third.notices == []
    third.close()


def test_recovery_impossible_refuses_to_start_in_one_line(fast_dir, capsys):
    table, _codes, _token, log_path = _skull_in_play(fast_dir)
    table.close()
    (fast_dir / STATE_FILE).write_bytes(b"")
    log_path.write_bytes(b"\0" * 4096)  # the newest log is gone to garbage as well
    for name in (f"{log_path.name}-wal", f"{log_path.name}-shm"):
        (log_path.parent / name).unlink(missing_ok=True)
    with pytest.raises(TableStateError) as err:
        Table(fast_dir)
    msg = str(err.value)
    assert "\n" not in msg and "cannot be recovered" in msg and "--new" in msg and str(log_path) in msg
    # the dashboard command says it in that one line and deals no new game
    args = build_parser().parse_args(["dashboard", "--game", "skull", "--seats", "Аня,Борис", "--data-dir",
                                      str(fast_dir), "--host", "127.0.0.1", "--port", "0"])
    assert dashboard_cmd.run(args, threading.Event()) == 1
    errors = capsys.readouterr().err.strip().splitlines()
    assert errors == ["companion dashboard: " + err.value.words("ru")], errors
    assert _games(fast_dir) == [log_path]
    # --new is the operator's explicit choice: a new game, the damaged log left where it is
    fresh = Table(fast_dir, resume=False)
    try:
        assert fresh.referee is None
        fresh.new_game("skull", SEATS, None)
        assert len(_games(fast_dir)) == 2
    finally:
        fresh.close()


def test_a_current_log_that_cannot_be_resumed_is_not_replaced_silently(fast_dir):
    """table.json is fine but names a log that is gone (the old code then started a new game)."""
    table, _codes, _token, log_path = _skull_in_play(fast_dir)
    table.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{log_path}{suffix}").unlink(missing_ok=True)
    with pytest.raises(TableStateError, match=rf"names {log_path.name} as the current game.*--new"):
        Table(fast_dir)


def test_a_table_json_naming_a_log_that_is_not_there_is_damage(fast_dir):
    """One flipped byte in the log's name (found by bench/soak_log.py): the logs tell the game."""
    import json

    table, codes, _token, log_path = _skull_in_play(fast_dir)
    version = table.referee.version
    table.close()
    state = json.loads((fast_dir / STATE_FILE).read_text(encoding="utf-8"))
    state["current"] = state["current"].replace("skull", "skulk")
    (fast_dir / STATE_FILE).write_text(json.dumps(state), encoding="utf-8")
    again = Table(fast_dir)
    try:
        assert again.referee is not None and again.referee.log.path == log_path and again.referee.version == version
        assert any("names a table log that is not there" in n.en for n in again.notices)
        assert any(render(PROBLEMS[MISSING_LOG], "ru") in n.ru for n in again.notices)
    finally:
        again.close()


def test_a_damaged_secret_key_is_said_in_one_line(fast_dir):
    table = Table(fast_dir)
    key = table.secret_key
    table.close()
    assert Table(fast_dir).secret_key == key  # kept across restarts
    (fast_dir / SECRET_FILE).write_bytes(key[:5])  # a torn write of the old code
    again = Table(fast_dir)
    assert again.secret_key != key and len(again.secret_key) == 32
    line = str(again.notices[0])
    assert len(again.notices) == 1 and SECRET_FILE in line and "log in again" in line
    assert stat.S_IMODE((fast_dir / SECRET_FILE).stat().st_mode) == 0o600


def test_every_state_file_is_written_durably(fast_dir, monkeypatch):
    """Each state file goes through a synced temp file, a rename and a synced folder (the old
    code never called fsync: a power cut could leave table.json or secret.key empty)."""
    synced: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        return real_fsync(fd)

    def replace(src, dst):
        synced.append(f"rename {Path(src).name} -> {Path(dst).name}")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    table = Table(fast_dir)
    table.new_game("skull", SEATS, None)
    table.close()
    for name in (SECRET_FILE, PIN_FILE, STATE_FILE):
        target = f"-> {name}"
        renames = [i for i, s in enumerate(synced) if s.startswith("rename") and s.endswith(target)]
        assert renames, f"{name} was not written through a rename: {synced}"
        i = renames[0]
        tmp = synced[i].split()[1]
        assert any(s.endswith("/" + tmp) for s in synced[:i]), f"{name}'s data was not synced before the rename"
        assert str(fast_dir) in synced[i + 1:i + 2], f"the folder was not synced after {name}'s rename"
        assert stat.S_IMODE((fast_dir / name).stat().st_mode) == 0o600
    assert str(fast_dir / "games") in synced  # the new log's name is on disk too
    assert not list(fast_dir.glob(".*.tmp"))


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "table.json"
    target.write_text('{"current": null}', encoding="utf-8")

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError, match="No space"):
        durable.write_file(target, "{}")
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == '{"current": null}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.json"]


def test_leftovers_of_a_killed_write_are_removed_at_start(fast_dir):
    Table(fast_dir).close()
    leftover = fast_dir / f".{STATE_FILE}.abc123{durable.TMP_SUFFIX}"
    leftover.write_bytes(b'{"curr')
    Table(fast_dir).close()
    assert not leftover.exists()


def test_the_table_log_is_sqlite_wal_with_full_sync(fast_dir):
    table = Table(fast_dir)
    try:
        table.new_game("skull", SEATS, None)
        conn = table.referee.log._conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: synced at every commit
    finally:
        table.close()


def test_a_new_start_says_which_unfinished_game_it_leaves(tmp_path):
    """``--new`` left the unfinished game without a word (a second fresh user); now one line names
    its log and how to bring it back, and nothing of it changes."""
    from companion.table import Table

    t = Table(tmp_path, pin="123456")
    t.new_game("skull", ["Аня", "Борис"])
    name = t.referee.log.path.name
    t.close()
    t2 = Table(tmp_path, pin="123456", resume=False)
    try:
        assert t2.referee is None
        lines = [n.ru for n in t2.notices]
        assert any(name in line and "--resume" in line for line in lines), lines
    finally:
        t2.close()


def test_a_resumed_older_game_keeps_its_seat_codes_and_phones(fast_dir):
    """``--resume LOG`` gave every seat a new code and sent the phones back to /join (a second
    fresh user); the game's log keeps its codes and the phones' tokens, so they come back too."""
    table, codes, token, log_path = _skull_in_play(fast_dir)
    try:
        table.new_game("doubt", ["Аня", "Борис", "Вика"])  # the skull game is set aside
        assert table.seat_for_token(token) is None
        table.resume_game(log_path.name)
        assert table.seat_codes() == codes
        assert table.seat_for_token(token) == 1
    finally:
        table.close()


RESUME_REFUSED = ("%(what)s, but its log cannot be resumed (%(why)s); nothing was changed: start with --new for a "
                  "new game (every log stays in %(games)s) or --resume LOG for another unfinished game")
DAMAGED = "the database file is damaged (SQLite: %(error)s)"


def _damage(log_path: Path) -> None:
    """The tester's damage: bytes 5000-8000 of the current log overwritten (its WAL checkpointed)."""
    for name in (f"{log_path.name}-wal", f"{log_path.name}-shm"):
        (log_path.parent / name).unlink(missing_ok=True)
    data = bytearray(log_path.read_bytes())
    data[5000:8000] = b"\xa5" * 3000
    log_path.write_bytes(bytes(data))


def test_a_damaged_current_log_is_refused_in_the_run_s_language(fast_dir, capsys):
    """`companion dashboard` (Russian by default) said the refusal in English, SQLite's words and
    all; now by message id, the file and SQLite's own words as an aside."""
    from companion.log import TableLog

    table, _codes, _token, log_path = _skull_in_play(fast_dir)
    table.close()
    _damage(log_path)
    with pytest.raises(Exception) as opened:  # what SQLite says of this file
        TableLog.open(log_path, readonly=True)
    sqlite = said(opened.value.message)[1]["why"]
    assert said(opened.value.message) == ("%(path)s is not a table log: %(why)s", {"path": str(log_path), "why": sqlite})
    assert render(opened.value.message, "ru") == render(M("%(path)s is not a table log: %(why)s", path=str(log_path),
                                                          why=M(DAMAGED, error=sqlite)), "ru")
    with pytest.raises(TableStateError) as err:
        Table(fast_dir)
    assert said(err.value.message) == (RESUME_REFUSED, {
        "what": f"{STATE_FILE} names {log_path.name} as the current game",
        "why": f"{log_path} is not a table log: {sqlite}", "games": str(fast_dir / "games")})
    args = build_parser().parse_args(["dashboard", "--data-dir", str(fast_dir), "--host", "127.0.0.1", "--port", "0"])
    assert dashboard_cmd.run(args, threading.Event()) == 1
    assert capsys.readouterr().err.strip() == "companion dashboard: " + err.value.words("ru")
    assert render(M(DAMAGED, error=sqlite), "ru") in err.value.words("ru")
    assert sqlite not in err.value.words("ru").replace(render(M(DAMAGED, error=sqlite), "ru"), "")  # only as the aside
