"""One table per data folder (companion.datalock): a second ``companion run`` or ``companion
dashboard`` on a folder another process referees from is refused in words, before it touches the
table log; a killed holder never leaves the folder locked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.datalock import DataFolderBusy, hold
from companion.i18n import M, render

ROOT = Path(__file__).resolve().parents[2]
HOLDER = ("import sys, time\nfrom companion.datalock import hold\n"
          "with hold(sys.argv[1]):\n    print('held', flush=True)\n    time.sleep(120)\n")


@pytest.fixture
def holder():
    """Starts processes that hold a folder (``holder(folder) -> Popen``); each is killed, reaped
    and its pipe closed after the test."""
    started: list[subprocess.Popen] = []

    def start(folder: Path) -> subprocess.Popen:
        p = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], stdout=subprocess.PIPE,
                             text=True, cwd=ROOT)
        started.append(p)
        assert p.stdout is not None and p.stdout.readline().strip() == "held"
        return p

    yield start
    for p in started:
        p.kill()
        p.wait()
        if p.stdout is not None:
            p.stdout.close()


def _companion(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env=dict(os.environ, PYTHONUNBUFFERED="1"))


def test_a_second_process_is_refused_and_told_who_holds_the_folder(tmp_path, holder):
    p = holder(tmp_path)
    with pytest.raises(DataFolderBusy) as err:
        with hold(tmp_path):
            pass
    assert err.value.pid == p.pid
    assert str(p.pid) in err.value.words("ru") and "занята" in err.value.words("ru")
    assert "--data-dir" in err.value.words("en")


def test_a_killed_holder_leaves_the_folder_free(tmp_path, holder):
    p = holder(tmp_path)
    p.send_signal(signal.SIGKILL)
    p.wait()
    with hold(tmp_path) as folder:
        assert (folder / "table.lock").read_text().strip() == str(os.getpid())


def test_run_and_dashboard_on_a_held_folder_stop_before_the_log(tmp_path, holder):
    p = holder(tmp_path / "sim")  # the simulated table keeps its games in <data>/sim
    q = holder(tmp_path / "dash")
    run = _companion("run", "--sim", "--game", "skull", "--until-end", "--json", "--port", "0",
                     "--data-dir", str(tmp_path))
    assert run.returncode == 1, run.stderr
    held = M("the data folder %(folder)s is in use by another table%(who)s: stop it first, or give this one a folder "
             "of its own (COMPANION_DATA=… or --data-dir)", folder=str(tmp_path / "sim"), who=M(" (process %(pid)s)", pid=p.pid))
    assert render(held, "ru") in run.stderr, run.stderr
    assert run.stdout == ""
    dash = _companion("dashboard", "--game", "skull", "--seats", "Аня,Борис", "--port", "0",
                      "--data-dir", str(tmp_path / "dash"), "--lang", "en")
    assert dash.returncode == 1, dash.stderr
    assert "in use by another table" in dash.stderr and str(q.pid) in dash.stderr
    for folder in (tmp_path / "sim", tmp_path / "dash"):
        assert not list(folder.rglob("*.sqlite")), "nothing written to the held folder"


def test_the_folder_is_free_again_once_a_run_ends(tmp_path):
    with hold(tmp_path):
        pass
    with hold(tmp_path):
        pass


def test_a_held_folder_is_said_before_a_busy_port(tmp_path, holder):
    """The port is checked before the data folder is prepared, but a second table on a folder
    another one holds is still told who holds it (its pid), not that the port is taken."""
    import socket

    p = holder(tmp_path / "sim")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    try:
        run = _companion("run", "--sim", "--game", "skull", "--host", "127.0.0.1", "--port",
                         str(s.getsockname()[1]), "--data-dir", str(tmp_path), "--lang", "en")
    finally:
        s.close()
    assert run.returncode == 1, run.stderr
    assert "in use by another table" in run.stderr and str(p.pid) in run.stderr, run.stderr
    assert "taken by another program" not in run.stderr
    assert not list((tmp_path / "sim").rglob("*.sqlite"))
