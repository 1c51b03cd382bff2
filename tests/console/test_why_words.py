"""The start-up lines that say which table and devices were chosen (``plan.why``) are Russian
words on the Russian console and English with ``--lang en``; a board's own model name is data and
stays as the board gives it.

The tester's report: «имитация стола: это не Raspberry Pi (no board model)» — an English reason
inside a Russian line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.commands.run import why_words
from companion.i18n import M, render
from companion.service import Platform, choose_backends
from companion.settings import Backends, Settings
from tests.wording import said

ROOT = Path(__file__).resolve().parents[2]
LATIN = re.compile(r"[A-Za-z]{3,}")
#: Latin that is a name in a Russian line: the board, libraries, device nodes, the flag
NAMES = {"Raspberry", "pty", "gpiozero", "sim", "udev", "USB", "Orange", "Plus", "mock"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]")

CASES = [
    (Settings(), Platform(model="")),                                     # make demo on a PC
    (Settings(), Platform(model="Orange Pi 5 Plus")),                      # another board
    (Settings(sim=True), Platform(model="")),
    (Settings(), Platform(model="Raspberry Pi 4 Model B", is_pi=True)),   # the real table
    (Settings(), Platform(model="Raspberry Pi 5", is_pi=True, has_picamera2=True)),
    (Settings(backends=Backends(buttons="/dev/ttyACM0", camera="opencv:0", lights="mock")), Platform()),
]


@pytest.mark.parametrize("settings,platform", CASES)
def test_every_choice_is_said_in_the_consoles_language(settings, platform):
    for why in choose_backends(settings, platform).why:
        ru = why_words(why, "ru")
        assert CYRILLIC.search(ru), ru
        names_free = re.sub(r"/\S+|\S*\d\S*", "", ru)  # device paths, picamera2, opencv:0
        assert not [w for w in LATIN.findall(names_free) if w not in NAMES], ru
        en = why_words(why, "en")
        assert en == render(why, "en") and not CYRILLIC.search(en)


def test_the_missing_board_model_is_russian_and_a_model_is_kept():
    why = choose_backends(Settings(), Platform(model="")).why[0]
    assert said(why) == ("simulated table: not a Raspberry Pi (no board model)", {})
    assert why_words(why, "ru") == render(why, "ru")
    other = choose_backends(Settings(), Platform(model="Orange Pi 5 Plus")).why[0]
    assert said(other) == ("simulated table: not a Raspberry Pi (%(model)s)", {"model": "Orange Pi 5 Plus"})
    assert why_words(other, "ru") == render(other, "ru")


def test_the_doctor_says_it_in_russian_too(tmp_path):
    """``companion doctor`` reuses the words for its platform line (Russian by default)."""
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine has a board model: the doctor names it")
    r = subprocess.run([sys.executable, "-m", "companion", "doctor", "--timeout", "0.5", "--port", "0"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={**os.environ, "COMPANION_DATA": str(tmp_path)})
    told = render(M("simulated table: not a Raspberry Pi (no board model)"), "ru")
    assert any(told in line for line in r.stdout.splitlines()) and "no board model" not in r.stdout, r.stdout
