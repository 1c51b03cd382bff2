"""``companion say`` on a machine that cannot speak names what is missing — the espeak-ng program,
the aplay player, a sound card — and what to do, in the run's language (exit status 1)."""

from __future__ import annotations

import os
import re

import pytest

from companion import cli
from companion.commands import say
from companion.i18n import M, render
from companion.i18n import cli as words


def _bin(tmp_path, *programs: str) -> str:
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in programs:  # `aplay -l` of a machine without a sound card prints no "card N:"
        (folder / name).write_text("#!/bin/sh\nexit 0\n")
        os.chmod(folder / name, 0o755)
    return str(folder)


@pytest.fixture(autouse=True)
def _restore():
    yield
    words.use("ru")


@pytest.mark.parametrize("programs,missing", [((), "no_espeak"), (("espeak-ng",), "no_aplay"),
                                              (("espeak-ng", "aplay"), "no_card")])
def test_say_names_what_is_missing(tmp_path, monkeypatch, capsys, programs, missing):
    """The line for what is missing (say.WORDS: a message id), whole, in the run's language —
    not the voice status's «голос недоступен: …»."""
    monkeypatch.setenv("PATH", _bin(tmp_path, *programs))
    assert cli.main(["say", "Череп"]) == 1
    said = capsys.readouterr().err.strip()
    assert said == render(M(say.WORDS[missing]), "ru"), said
    assert not re.search(r"\b(?!espeak|ng|aplay|alsa|utils|sudo|apt|install|companion|say|wav|USB|HDMI|make|demo|l\b)[A-Za-z]{2,}",
                         said), said
    assert cli.main(["say", "skull", "--lang", "en"]) == 1
    said_en = capsys.readouterr().err.strip()
    assert said_en == render(M(say.WORDS[missing]), "en") and not re.search("[\u0400-\u04ff]", said_en), said_en
