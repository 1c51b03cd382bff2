"""A system error that stops ``companion run`` (a failing disk, a device that went away) is said
in the console's language — the operating system's English text stays out of a Russian line."""

from __future__ import annotations

import errno

import pytest

from companion.cli import build_parser
from companion.commands import run
from companion.commands.results import os_error_words, os_reason
from companion.i18n import render
from tests import wording


@pytest.mark.parametrize("code,said", [
    (errno.EIO, ("input/output error (a failing disk, card or cable)", {})),
    (errno.ENOSPC, ("no space left on the disk", {})),
    (errno.ECHILD, ("system error %(code)s", {"code": "ECHILD"})),
])
def test_a_system_error_is_said_in_words(code, said):
    exc = OSError(code, "The system's own English words")
    assert wording.said(os_reason(exc)) == said
    for lang in ("ru", "en"):
        told = os_error_words(exc, lang)
        assert render(os_reason(exc), lang) in told and "own English" not in told, told


def test_companion_run_stopped_by_a_system_error_says_it_in_russian(tmp_path, capsys, monkeypatch):
    from companion.service import TableService

    def broken(self):
        raise OSError(errno.EIO, "Input/output error", str(tmp_path / "games" / "x.sqlite"))

    monkeypatch.setattr(TableService, "start", broken)
    args = build_parser().parse_args(["run", "--sim", "--json", "--game", "skull", "--data-dir", str(tmp_path / "t")])
    assert run._main(args) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("companion run: ") and "Input/output" not in err, err
    assert err == "companion run: " + os_error_words(OSError(errno.EIO, "x", str(tmp_path / "games" / "x.sqlite")), "ru")
