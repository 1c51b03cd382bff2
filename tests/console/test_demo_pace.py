"""Plain ``make demo`` (``companion run --game skull``, no ``--sim``) paces the bots so a person can
follow the game: the simulated table is chosen because this is not a Raspberry Pi, and the pace
follows the table actually chosen, not the ``--sim`` flag.

The tester's report: button actions landed ~20 ms apart and a whole 9-round skull game ended ~16 s
after round 1, while ``--sim`` given explicitly spaced them ~1.2 s apart.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.commands.run import SIM_PACE_MS, build_settings
from companion.log import TableLog
from companion.service import Platform, choose_backends
from companion.i18n import M, render

ROOT = Path(__file__).resolve().parents[2]
NOT_A_PI = Platform(model="")
A_PI = Platform(model="Raspberry Pi 5 Model B Rev 1.0", is_pi=True, has_picamera2=True)


def _pace(argv: list[str], platform: Platform, tmp_path) -> tuple[int, bool, Path]:
    from companion.commands.run import apply_plan

    args = build_parser().parse_args(["run", "--data-dir", str(tmp_path), *argv])
    settings = build_settings(args)
    plan = choose_backends(settings, platform)
    apply_plan(settings, plan, args)
    return settings.pace_ms, plan.sim, settings.data_dir


def test_the_pace_follows_the_table_chosen_not_the_flag(tmp_path):
    # make demo: no --sim, the simulated table because this is not a Pi (the bug: 0 ms)
    assert _pace(["--game", "skull"], NOT_A_PI, tmp_path) == (SIM_PACE_MS, True, tmp_path / "sim")
    assert _pace(["--sim"], NOT_A_PI, tmp_path) == (SIM_PACE_MS, True, tmp_path / "sim")
    assert _pace(["--sim"], A_PI, tmp_path) == (SIM_PACE_MS, True, tmp_path / "sim")
    # headless: as fast as it goes, however the simulated table was chosen
    assert _pace(["--json"], NOT_A_PI, tmp_path)[0] == 0
    assert _pace(["--sim", "--json"], NOT_A_PI, tmp_path)[0] == 0
    # the real table has no bots to pace, and its logs stay in the data folder itself
    assert _pace([], A_PI, tmp_path) == (0, False, tmp_path)
    # an explicit pace wins, on the flag or in the settings file
    assert _pace(["--pace-ms", "300"], NOT_A_PI, tmp_path)[0] == 300
    assert _pace(["--pace-ms", "0"], NOT_A_PI, tmp_path)[0] == 0
    conf = tmp_path / "c.toml"
    conf.write_text("pace_ms = 450\n", encoding="utf-8")
    assert _pace(["--config", str(conf)], NOT_A_PI, tmp_path)[0] == 450
    # `sim = true` in the settings file is the same table as --sim
    conf.write_text("sim = true\n", encoding="utf-8")
    assert _pace(["--config", str(conf)], A_PI, tmp_path)[0] == SIM_PACE_MS


def _records(data: Path) -> list:
    try:
        state = json.loads((data / "sim" / "table.json").read_text(encoding="utf-8"))
        with TableLog.open(data / "sim" / "games" / state["current"]) as tl:
            return tl.records()
    except (OSError, ValueError, KeyError):
        return []


STALL_S = 90  # longest wait for the next logged action before the table counts as stuck


@pytest.mark.slow
@pytest.mark.timeout(420)
def test_plain_make_demo_paces_the_bots(tmp_path):
    """``companion run --game skull`` exactly as ``make demo`` runs it (no ``--sim``): the logged
    actions are about :data:`SIM_PACE_MS` apart, not a few milliseconds."""
    if "Raspberry Pi" in (Path("/proc/device-tree/model").read_text(errors="replace")
                          if Path("/proc/device-tree/model").exists() else ""):
        pytest.skip("on a Raspberry Pi `make demo` runs the real table, not the bots")
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT), PYTHONFAULTHANDLER="1")
    p = subprocess.Popen([sys.executable, "-m", "companion", "run", "--game", "skull", "--host", "127.0.0.1",
                          "--port", "0", "--data-dir", str(tmp_path)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    try:
        # wait on progress, not on the clock: a loaded machine reads each frame slowly, a hung table
        # adds no record for STALL_S
        seen, last_change, cap = 0, time.monotonic(), time.monotonic() + 280
        while seen < 5 and p.poll() is None and time.monotonic() < cap:
            n = len(_records(tmp_path))
            if n != seen:
                seen, last_change = n, time.monotonic()
            if time.monotonic() - last_change > STALL_S:
                break
            time.sleep(0.2)
    finally:
        p.send_signal(signal.SIGINT)
        try:
            out, _ = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # seen once in a loaded full run: say where it stood
            p.send_signal(signal.SIGABRT)  # faulthandler prints every thread's stack
            out, _ = p.communicate(timeout=30)
            pytest.fail("companion run did not stop within 60 s of Ctrl-C; its threads:\n" + out[-6000:])
    records = _records(tmp_path)
    assert len(records) >= 5, out[-2000:]
    not_a_pi = render(M("simulated table: not a Raspberry Pi (%(model)s)", model="§"), "ru").split(" (")[0]
    assert not_a_pi in out, out[:2000]  # chosen by the platform, not --sim
    stamps = [_dt.datetime.fromisoformat(r.ts) for r in records[:5]]
    gaps = sorted((b - a).total_seconds() for a, b in zip(stamps, stamps[1:]))
    # the bots wait SIM_PACE_MS after each accepted action (a camera read adds to it)
    assert gaps[0] >= 0.9 * SIM_PACE_MS / 1000, (gaps, out[-2000:])
