"""A reader that stops early (``companion demo | head -3``): the command stops quietly with status
0, and never says its own files are unreadable (the bug: «не удаётся прочитать записанную игру
None: системная ошибка EPIPE»)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "companion" / "examples" / "skull-game.jsonl")


@pytest.mark.parametrize("args", [["demo"], ["demo", "--lang", "en"], ["replay", EXAMPLE],
                                  ["replay", "--json", EXAMPLE]])
def test_a_reader_that_closes_the_pipe_stops_the_command_quietly(args):
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line: every write meets EPIPE
    try:
        p = subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT, stdout=write_end,
                           stderr=subprocess.PIPE, timeout=120, env=dict(os.environ, PYTHONUNBUFFERED="1"))
    finally:
        os.close(write_end)
    err = p.stderr.decode("utf-8", "replace")
    assert (p.returncode, err) == (0, "")
