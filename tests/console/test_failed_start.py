"""A start that fails before anything is played leaves no empty game to resume, and a finished
game is never offered for resuming."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.i18n import M, render
from companion.cli import build_parser
from companion.commands import dashboard as dashboard_cmd
from companion.commands.run import _stop_words
from companion.table import Table

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def busy_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    yield s.getsockname()[1]
    s.close()


def _games(folder: Path) -> list[Path]:
    return sorted((folder / "games").glob("*.sqlite*")) if (folder / "games").is_dir() else []


def _current(folder: Path):
    return json.loads((folder / "table.json").read_text(encoding="utf-8")).get("current")


def test_run_with_a_busy_port_leaves_no_game_to_resume(tmp_path, busy_port):
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--sim", "--game", "skull", "--host", "127.0.0.1",
                        "--port", str(busy_port), "--data-dir", str(tmp_path), "--lang", "en"],
                       cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert r.returncode == 1, r.stdout + r.stderr
    # said in words, in English too: not the system's «[Errno 98] Address already in use (while …)»
    taken = M("the dashboard port %(port)s is taken by another program; choose another with --port", port=busy_port)
    assert r.stderr.strip().splitlines()[-1] == "companion run: " + render(taken, "en"), r.stderr
    sim = tmp_path / "sim"
    assert not sim.exists()  # refused before the data folder was made: nothing in it to resume
    table = Table(sim, pin="123456")
    try:
        assert table.referee is None  # nothing to resume
    finally:
        table.close()


def test_run_with_a_busy_port_creates_nothing_in_a_new_folder(tmp_path, busy_port, capsys):
    """A taken port is refused before the data folder is prepared: a new, empty folder stays
    empty (no operator-pin, secret.key, table.json, table.lock, sim-seeds.json, games/)."""
    from companion.cli import main

    folder = tmp_path / "new-empty-dir"
    folder.mkdir()
    assert main(["run", "--sim", "--game", "skull", "--host", "127.0.0.1", "--port", str(busy_port),
                 "--data-dir", str(folder), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    taken = M("the dashboard port %(port)s is taken by another program; choose another with --port", port=busy_port)
    assert err.strip().splitlines()[-1] == "companion run: " + render(taken, "en"), err
    assert list(folder.rglob("*")) == [], "nothing made in the new folder"


def test_run_with_a_busy_port_creates_no_data_folder(tmp_path, busy_port, capsys):
    folder = tmp_path / "absent"
    from companion.cli import main

    assert main(["run", "--sim", "--game", "skull", "--host", "127.0.0.1", "--port", str(busy_port),
                 "--data-dir", str(folder), "--lang", "ru"]) == 1
    taken = M("the dashboard port %(port)s is taken by another program; choose another with --port", port=busy_port)
    assert render(taken, "ru") in capsys.readouterr().err
    assert not folder.exists()


def test_dashboard_with_a_busy_port_leaves_no_game_to_resume(tmp_path, busy_port, capsys):
    args = build_parser().parse_args(["dashboard", "--game", "skull", "--seats", "Аня,Борис", "--data-dir",
                                      str(tmp_path), "--host", "127.0.0.1", "--port", str(busy_port)])
    assert dashboard_cmd.run(args) == 1
    err = capsys.readouterr().err
    said = M("cannot listen on %(host)s:%(port)s: %(why)s", host="127.0.0.1", port=busy_port,
             why=M("the port is taken by another program"))
    assert render(said, "ru") in err, err
    assert _games(tmp_path) == [] and _current(tmp_path) is None


def test_discard_keeps_a_game_with_actions(tmp_path):
    table = Table(tmp_path, pin="123456", resume=False)
    try:
        table.new_game("skull", ["Аня", "Борис"], None)
        assert table.submit("table leave 1", "operator").accepted
        assert table.discard_unplayed() is False
        assert table.referee is not None and len(_games(tmp_path)) >= 1
    finally:
        table.close()
    again = Table(tmp_path, pin="123456")
    try:
        assert again.referee is None or again.game_id == "skull"
    finally:
        again.close()


def test_discard_removes_an_unplayed_game(tmp_path):
    table = Table(tmp_path, pin="123456", resume=False)
    try:
        table.new_game("skull", ["Аня", "Борис"], None)
        assert table.discard_unplayed() is True
        assert table.referee is None and table.discard_unplayed() is False
    finally:
        table.close()
    assert _games(tmp_path) == [] and _current(tmp_path) is None


def test_ctrl_c_line_offers_resume_only_for_an_unfinished_game():
    log = SimpleNamespace(path=Path("/data/games/g.sqlite"))
    over = SimpleNamespace(table=SimpleNamespace(referee=SimpleNamespace(log=log)), over=True)
    running = SimpleNamespace(table=SimpleNamespace(referee=SimpleNamespace(log=log)), over=False)
    assert "resumes" not in _stop_words(over, "en") and "the game is over" in _stop_words(over, "en")
    assert "resumes from its table log" in _stop_words(running, "en")
    # Russian by default
    assert _stop_words(over) == render(M("stopping; the game is over, its table log is %(path)s", path=str(log.path)), "ru")
    assert _stop_words(running) == render(M("stopping; the game resumes from its table log at the next start"), "ru")
