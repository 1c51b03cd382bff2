"""A ``companion run`` the table refuses — an unknown game, bad players or options, a ``--resume``
log that is not there — leaves nothing behind on a data folder that did not exist: no folder, no
lock, no operator PIN, no key (the start is checked before they are made). The refusal is the one
line it always was, in the console's language, exit status 2 for what was typed (a game, players,
an option: README "Exit status"), 1 for a ``--resume`` log that is not there.
"""

from __future__ import annotations

import pytest

from companion.cli import build_parser


def _run(argv: list[str]) -> int:
    from companion.commands import run

    return run._main(build_parser().parse_args(argv))


@pytest.mark.parametrize("extra,says,status", [
    (["--game", "nosuch"], "игры 'nosuch' нет; игры: skull", 2),
    (["--game", "skull", "--option", "bogus=1"], "неизвестное правило (--option): bogus", 2),
    (["--game", "skull", "--seats", "Аня"], "нужно от 2 до 8 игроков, а задано 1 (--seats)", 2),
    (["--game", "skull", "--resume", "old.sqlite"], "журнала стола old.sqlite нет", 1),
    (["--game", "doubt", "--option", "first_dealer=9", "--seats", "А,Б,В"], "номер места от 1 до 3", 2),
])
def test_a_refused_run_makes_no_data_folder(tmp_path, capsys, extra, says, status):
    data = tmp_path / "table"
    code = _run(["run", "--sim", "--json", "--data-dir", str(data), *extra])
    err = capsys.readouterr().err
    assert code == status and says in err, err
    assert err.startswith("companion run: ") and len(err.strip().splitlines()) == 1, err
    assert not data.exists(), sorted(p.name for p in data.rglob("*"))


def test_the_same_refusal_on_an_existing_folder_still_refuses(tmp_path, capsys):
    data = tmp_path / "table"
    (data / "sim").mkdir(parents=True)
    assert _run(["run", "--sim", "--json", "--data-dir", str(data), "--game", "nosuch", "--lang", "en"]) == 2
    assert "no game 'nosuch'; games: skull" in capsys.readouterr().err
