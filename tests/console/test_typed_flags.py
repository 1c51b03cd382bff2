"""What ``companion run`` and ``companion dashboard`` take as typed: ``--seats`` names separated by
commas or semicolons (a new user typed «Аня;Борис;Вика» and was told «задано 1»), ``--game`` by
its id in any case or by its title («череп»)."""

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


@pytest.mark.parametrize("typed, game", [
    ("Skull", "skull"), ("SKULL", "skull"), ("череп", "skull"), ("Череп и розы (на купюрах)", "skull"),
    ("Верю — не верю", "doubt"), ("верю", "doubt"), ("Хоггенгеймер", "hoggenheimer"), ("бесконечность", "infinity"),
    ("6100", "infinity"), ("лотерея", "lottery"), ("Card lottery", "lottery"),
])
def test_a_game_by_its_id_in_any_case_or_by_its_title(typed, game):
    from companion.cliparser import build_parser

    assert build_parser().parse_args(["run", "--game", typed]).game == game
    assert build_parser().parse_args(["dashboard", "--game", typed]).game == game


@pytest.mark.parametrize("typed, game", [
    ("Верю – не верю", "doubt"), ("Верю - не верю", "doubt"), ("Верю-не-верю", "doubt"),
    ("верю не верю", "doubt"), ("ВЕРЮ—НЕ—ВЕРЮ", "doubt"), ("ｓｋｕｌｌ", "skull"), ("Ｓｋｕｌｌ", "skull"),
    ("Card-lottery", "lottery"), ("череп и розы  (на купюрах)", "skull"),
])
def test_a_title_typed_with_another_dash_hyphens_or_full_width_letters(typed, game):
    """A new user typed «Верю – не верю» (an en dash, the title has an em dash), «Верю-не-верю» and
    «ｓｋｕｌｌ» and was told the game does not exist."""
    from companion.cliparser import build_parser

    assert build_parser().parse_args(["run", "--game", typed]).game == game


@pytest.mark.parametrize("typed", ["poker", "не верю", "", "верю-верю", "ｐｏｋｅｒ"])
def test_anything_else_stays_as_typed_for_its_refusal(typed):
    from companion.cliparser import game_arg

    assert game_arg(typed) == typed
