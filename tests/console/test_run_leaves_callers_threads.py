"""``companion run`` called in-process leaves with ``os._exit`` only for worker threads it started
itself: a caller's own live thread (a test process, an embedding program) does not make a refused
run end the caller's process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CALLER = textwrap.dedent(
    """
    import threading
    from companion import cli
    stop = threading.Event()
    threading.Thread(target=stop.wait, name="callers-own", daemon=True).start()
    try:
        code = cli.main(["run", "--sim", "--json", "--game", "skull", "--option", "notes_per_player=abc"])
    except SystemExit as exc:
        code = exc.code
    print("returned", code, flush=True)
    stop.set()
    """
)


def test_a_refused_run_returns_to_a_caller_with_its_own_thread(tmp_path):
    env = dict(os.environ, COMPANION_DATA=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", CALLER], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120)
    assert "returned" in out.stdout, (out.returncode, out.stdout, out.stderr[-2000:])
    assert out.stdout.split()[-1] in ("1", "2")
