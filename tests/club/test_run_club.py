"""``companion run … --club URL`` end to end: the simulated table (bots, rendered camera, virtual
button box) publishing to a real broker and the club board; a table killed mid-game (SIGKILL, a
power cut) resumes from its log and the board's record still equals the log; a missing broker does
not stop a game; a bad address is one line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.club.board import Board
from companion.club.broker import free_port
from companion.table import Table
from tests.club.helpers import wait_until
from tests.club.test_publisher import record_matches_log

ROOT = Path(__file__).resolve().parents[2]


def run_cmd(data_dir: Path, url: str) -> list[str]:
    return [sys.executable, "-m", "companion", "run", "--sim", "--game", "lottery", "--seed", "3", "--until-end",
            "--json", "--data-dir", str(data_dir), "--club", url]


def env_for(real_data) -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_SHARED=str(real_data.parent.parent))


@pytest.mark.slow
def test_a_simulated_table_killed_mid_game_publishes_its_whole_game_once(broker, fast_dir, real_data):
    board = Board(broker.url(None), fast_dir / "board").start()
    wait_until(lambda: board.connected, what="the board's connection")
    data = fast_dir / "t1"
    cmd, env = run_cmd(data, broker.url("t1")), env_for(real_data)
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until(lambda: len(board.store.events("t1")) >= 15 or proc.poll() is not None, timeout=120,
                   what="15 records of the game at the board")
    finally:
        proc.send_signal(signal.SIGKILL)
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, err.decode()[-2000:]
    done = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    table = Table(data / "sim", pin="123456", resume=False)
    assert len(list((data / "sim" / "games").glob("*.sqlite"))) == 1, "the game resumed, not a new one"
    wait_until(lambda: record_matches_log(board, "t1", table), timeout=30, what="the whole game once at the board")
    wait_until(lambda: board.store.results(), what="the game's result")
    table.close(), board.stop()


@pytest.mark.slow
def test_a_missing_broker_does_not_stop_the_game(fast_dir, real_data):
    url = f"mqtt://t1:pw@127.0.0.1:{free_port()}/vecher"  # nothing listens there
    done = subprocess.run(run_cmd(fast_dir, url), env=env_for(real_data), cwd=ROOT, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert b'"game": "lottery"' in done.stdout and b'"over": true' in done.stdout


def test_a_bad_club_address_is_one_line(fast_dir):
    done = subprocess.run([sys.executable, "-m", "companion", "run", "--sim", "--game", "skull", "--until-end",
                           "--json", "--data-dir", str(fast_dir), "--club", "http://t1@host/vecher"],
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT, capture_output=True, timeout=120)
    err = done.stderr.decode().strip().splitlines()
    assert done.returncode != 0 and "Traceback" not in done.stderr.decode()
    assert err[-1].startswith("companion run: ") and "mqtt://" in err[-1] and "адрес клуба" in err[-1]
