"""``--seats`` names, separated by commas or semicolons (a new user typed «Аня;Борис;Вика» and was
told «задано 1»): companion run and companion dashboard read them alike."""

from __future__ import annotations

import pytest

from companion.cliparser import seat_names
from companion.commands import run


@pytest.mark.parametrize("typed, names", [
    ("Аня,Борис,Вика", ["Аня", "Борис", "Вика"]), ("Аня; Борис ;Вика", ["Аня", "Борис", "Вика"]),
    ("Аня, Борис; Вика", ["Аня", "Борис", "Вика"]), ("Аня,,Борис", ["Аня", "", "Борис"]),  # kept: refused by name
    ("Аня", ["Аня"]),
])
def test_seat_names(typed, names):
    assert seat_names(typed) == names


def test_companion_run_takes_semicolons(tmp_path):
    from companion.cliparser import build_parser

    args = build_parser().parse_args(["run", "--sim", "--game", "skull", "--seats", "Аня;Борис;Вика",
                                      "--data-dir", str(tmp_path)])
    assert run.build_settings(args).seats == ["Аня", "Борис", "Вика"]
