"""Crash safety: ``companion run`` on the simulated table is killed with SIGKILL 20 times at random
moments (a «Верю — не верю» game: mostly button presses, so the table moves on quickly); every time the table log is intact and is exactly a prefix of the uninterrupted game
(nothing lost, nothing doubled, no divergence), and the service resumes from it — the last time
with the dashboard showing the resumed game."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion.log import TableLog
from companion.referee import Referee
from companion.service import TableService, choose_backends
from companion.settings import Settings
from companion.games.simulator import play_random_game

ROOT = Path(__file__).resolve().parents[2]
GAME = "doubt"
SEATS = ["Аня", "Борис", "Вера", "Глеб"]
SEED = 1


def _log_path(data: Path) -> Path | None:
    try:
        state = json.loads((data / "sim" / "table.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data / "sim" / "games" / state["current"] if state.get("current") else None


def _records(path: Path | None) -> list[str]:
    if path is None or not path.exists():
        return []
    with TableLog.open(path) as tl:
        return [r.action for r in tl.records()]


@pytest.mark.slow
@pytest.mark.timeout(1200)  # twenty start-ups of the whole table; "no progress in 2 minutes" catches a hang
def test_sigkill_twenty_times_then_resume(tmp_path, real_data):
    _game, reference = play_random_game(GAME, SEATS, None, SEED)
    expected = [text for text, _source in reference]
    env = dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_SHARED=str(real_data.parent.parent))
    cmd = [sys.executable, "-m", "companion", "run", "--sim", "--game", GAME, "--seed", str(SEED),
           "--seats", ",".join(SEATS), "--until-end", "--json", "--data-dir", str(tmp_path)]
    rng = random.Random(20)
    lengths = [0]
    first_log = None
    for cycle in range(int(os.environ.get("COMPANION_KILLS", "20"))):
        proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if cycle % 4 == 3:
            # a blind kill: anywhere in start-up, resume, a camera read or a press
            time.sleep(rng.uniform(0.3, 3.0))
        else:
            # a kill shortly after the table moved on: often mid-write, mid-press or mid-read
            deadline = time.monotonic() + 120
            while len(_records(_log_path(tmp_path))) <= lengths[-1] and proc.poll() is None:
                assert time.monotonic() < deadline, "no progress in 2 minutes"
                time.sleep(0.05)
            time.sleep(rng.uniform(0.0, 0.8))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        _out, err = proc.communicate(timeout=30)
        assert proc.returncode in (-signal.SIGKILL, 0), err.decode()[-2000:]
        got = _records(_log_path(tmp_path))
        assert got == expected[:len(got)], f"cycle {cycle}: the log diverged from the uninterrupted game"
        assert len(got) >= lengths[-1], "an accepted action was lost"
        if lengths[-1]:
            assert _log_path(tmp_path) == first_log, "a new game was started instead of resuming"
        else:
            first_log = _log_path(tmp_path)
        lengths.append(len(got))
        assert len(got) < len(expected), "the game ended before the 20th kill: choose a longer game"
    assert len(lengths) >= min(10, int(os.environ.get("COMPANION_KILLS", "20"))) and lengths[-1] > lengths[0], lengths
    path = _log_path(tmp_path)
    ref = Referee.resume(path)  # no line rejected, same state as the uninterrupted game's prefix
    assert ref.version == lengths[-1]
    ref.close()
    # resume once more, in process, and see the dashboard show the resumed game
    settings = Settings(game=GAME, seats=SEATS, sim=True, seed=SEED, data_dir=tmp_path / "sim",
                        host="127.0.0.1", port=0)
    with TableService(settings, choose_backends(settings), dashboard=True) as svc:
        assert svc.resumed, (svc.table.referee, os.listdir(tmp_path / "sim" / "games"))
        with urllib.request.urlopen(svc.server.url + "api/state", timeout=10) as resp:
            state = json.loads(resp.read())
        assert json.dumps(state).count('"version"') >= 1
        assert _find_version(state) == lengths[-1], state
        svc.run_bots()
        deadline = time.monotonic() + 60
        while len(_records(path)) <= lengths[-1] and time.monotonic() < deadline and not svc.over:
            assert svc.simtable.error is None, svc.simtable.error
            time.sleep(0.1)
    got = _records(path)
    assert got == expected[:len(got)] and len(got) > lengths[-1]


def _find_version(obj):
    """The game version in the dashboard's state JSON (top level or under ``model``)."""
    if isinstance(obj, dict):
        if isinstance(obj.get("version"), int):
            return obj["version"]
        for v in obj.values():
            found = _find_version(v)
            if found is not None:
                return found
    return None
