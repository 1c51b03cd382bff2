"""A system error that stops ``companion run`` (a failing disk, a device that went away) is said
in the console's language — the operating system's English text stays out of a Russian line."""

from __future__ import annotations

import errno
import re

import pytest

from companion.cli import build_parser
from companion.commands import run
from companion.commands.results import os_error_words


@pytest.mark.parametrize("code,ru,en", [
    (errno.EIO, "ошибка ввода-вывода", "input/output error"),
    (errno.ENOSPC, "на диске нет места", "no space left on the disk"),
    (errno.ECHILD, "системная ошибка ECHILD", "system error ECHILD"),
])
def test_a_system_error_is_said_in_words(code, ru, en):
    exc = OSError(code, "The system's own English words")
    said = os_error_words(exc, "ru")
    assert ru in said and not re.search(r"[A-Za-z]{3,}", said.replace("ECHILD", "")), said
    assert en in os_error_words(exc, "en")


def test_companion_run_stopped_by_a_system_error_says_it_in_russian(tmp_path, capsys, monkeypatch):
    from companion.service import TableService

    def broken(self):
        raise OSError(errno.EIO, "Input/output error", str(tmp_path / "games" / "x.sqlite"))

    monkeypatch.setattr(TableService, "start", broken)
    args = build_parser().parse_args(["run", "--sim", "--json", "--game", "skull", "--data-dir", str(tmp_path / "t")])
    assert run._main(args) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("companion run: ") and "Input/output" not in err, err
    assert "ошибка ввода-вывода" in err and "x.sqlite" in err, err
