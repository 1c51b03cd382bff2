"""A part in trouble on the console, in the console's language (a newcomer's finding: «Кнопки:
неисправность — … — cannot open /dev/buttonbox: [Errno 2] could not open port …» and a logging
WARNING in English on a Russian console): the system's error in words, its English kept for the
log (``-v``)."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.commands.console import Console

ROOT = Path(__file__).resolve().parents[2]
BOX_ERROR = ("cannot open /dev/buttonbox: [Errno 2] could not open port /dev/buttonbox: "
             "[Errno 2] No such file or directory: '/dev/buttonbox'")


def _line(lang: str, part: str, status: dict) -> str:
    return Console(out=io.StringIO(), lang=lang).part_line(part, status)


def test_the_system_error_is_said_in_the_console_s_language():
    box = {"state": "error", "detail": "/dev/buttonbox", "error": BOX_ERROR}
    ru = _line("ru", "buttons", box)
    assert ru.startswith("Кнопки: ") and "нет такого файла или папки" in ru, ru
    assert "cannot open" not in ru and "Errno" not in ru, ru
    en = _line("en", "buttons", box)
    assert BOX_ERROR in en  # the English console keeps the system's own text
    denied = dict(box, error="cannot open /dev/ttyACM0: [Errno 13] Permission denied: '/dev/ttyACM0'")
    assert "нет прав доступа" in _line("ru", "buttons", denied)


def test_an_error_with_no_system_code_is_left_to_the_log_on_a_russian_line():
    camera = {"state": "error", "detail": "opencv:7", "error": "cannot open camera 7"}
    ru = _line("ru", "camera", camera)
    assert ru.startswith("Камера: ") and "cannot open" not in ru, ru
    assert "cannot open camera 7" in _line("en", "camera", camera)


def test_a_russian_run_without_camera_and_box_prints_no_english(tmp_path):
    """`companion run` on a table with neither part: every line the operator reads is Russian (the
    paths, the game's words and the URL aside)."""
    p = subprocess.Popen([sys.executable, "-m", "companion", "run", "--new", "--game", "skull",
                          "--seats", "Аня,Борис", "--camera", "opencv:7", "--buttons", str(tmp_path / "ttyNOPE"),
                          "--lights", "mock", "--data-dir", str(tmp_path), "--port", "0", "--lang", "ru"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert p.stdout is not None
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not (any("Камера:" in s for s in seen) and any("Кнопки:" in s for s in seen)):
            line = p.stdout.readline()
            if not line:
                break
            seen.append(line)
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
    parts = [s for s in seen if "Камера:" in s or "Кнопки:" in s]
    assert len(parts) >= 2, "".join(seen)
    assert not any("WARNING" in s for s in seen), "".join(seen)
    assert "нет такого файла или папки" in "".join(s for s in parts if "Кнопки:" in s), parts
    for s in parts:  # no English word of three letters or more but paths, commands to type and "USB"
        typed = r"\S*/\S*|opencv:\d+|--\w+ [A-Z]+|companion \w+|USB"
        words = re.findall(r"[A-Za-z]{3,}", re.sub(typed, "", s))
        assert not words, (words, s)
