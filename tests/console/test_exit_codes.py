"""One rule for every command's exit status (README, "Exit status"): 0 done; 2 the command line
cannot be used as typed (argparse's refusals, a bad value, an unknown game or option); 1 the
command was understood but could not do its work (a file it names is missing or not what it
reads, a part or device stands in the way)."""

from __future__ import annotations

import pytest

from companion import cli
from companion.i18n import MN, render


@pytest.fixture(autouse=True)
def _data(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))


def _status(argv) -> int:
    try:
        return int(cli.main(argv) or 0)
    except SystemExit as exc:  # argparse's refusal
        return int(exc.code or 0)


@pytest.mark.parametrize("argv", [
    ["run", "--port", "abc"],
    ["run", "--sim", "--json", "--pin", "12"],
    ["run", "--sim", "--json", "--game", "nosuch"],
    ["run", "--sim", "--json", "--game", "skull", "--option", "bogus=1"],
    ["replay"],
    ["scan-note"],
    ["deck", "learn", "bad/name", "."],
])
def test_an_unusable_command_line_exits_2(argv, capsys):
    assert _status(argv) == 2


@pytest.mark.parametrize("argv", [
    ["replay", "/nonexistent/log.jsonl"],
    ["replay", "--json", "/nonexistent/log.jsonl"],
    ["scan-note", "/nonexistent/note.jpg"],
    ["scan-card", "/nonexistent/card.jpg"],
    ["deck", "learn", "forest", "/nonexistent/photos"],
    ["run", "--sim", "--json", "--game", "skull", "--resume", "old.sqlite"],
])
def test_a_missing_file_is_a_failure_exit_1(argv, capsys):
    assert _status(argv) == 1


def test_a_flag_for_another_game_than_the_unfinished_one_exits_2_in_dashboard_too(tmp_path, capsys):
    """``companion dashboard --game skull`` on a table with an unfinished lottery: refused like
    ``companion run``'s same flag — what was typed asks for another game (2)."""
    from companion.table import Table

    folder = tmp_path / "table"
    table = Table(folder, pin="246813", resume=False)
    table.new_game("lottery", ["Аня", "Борис", "Вика", "Глеб"])
    assert table.submit("0 spread 1,2,3,4", "operator").accepted
    table.close()
    assert _status(["dashboard", "--game", "skull", "--data-dir", str(folder), "--port", "0"]) == 2
    conflict = MN("the table has an unfinished %(game)s game (%(seats)s; %(n)s action, table log %(log)s), but %(asked)s "
                  "asks for another: resume it (drop %(flags)s), start the new game with --new (that log stays), or "
                  "another unfinished game with --resume LOG",
                  "the table has an unfinished %(game)s game (%(seats)s; %(n)s actions, table log %(log)s), but %(asked)s "
                  "asks for another: resume it (drop %(flags)s), start the new game with --new (that log stays), or "
                  "another unfinished game with --resume LOG", 1, game="§", seats="§", log="§", asked="§", flags="§")
    assert render(conflict, "ru").split("§")[0] in capsys.readouterr().err  # the resume conflict, in words


def test_club_acl_that_cannot_write_its_files_exits_1(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("x")
    code = _status(["club", "acl", "--club", "night", "--tables", "t1,t2", "--dir", str(blocked / "sub")])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("companion club acl: ") and "Errno" not in err, err


@pytest.mark.parametrize("argv, command, strays", [
    (["run", "--players", "9"], "run", "--players 9"),
    (["run", "--sim", "--seats", "А,Б", "extra"], "run", "extra"),
    (["dashboard", "--bogus"], "dashboard", "--bogus"),
    (["demo", "--players", "9"], "demo", "--players 9"),
    (["club", "--bogus"], "club", "--bogus"),
])
def test_an_unknown_option_is_refused_by_its_command_with_its_usage(argv, command, strays, capsys):
    """A new user typed ``companion run --players 9`` and was shown the top level's usage
    («companion [-h] [--version] [--lang …] КОМАНДА …»), which does not list ``run``'s options:
    the command's own usage and error line, naming what it did not know, exit 2."""
    import argparse

    from companion.cliparser import build_parser

    assert _status(argv) == 2
    err = capsys.readouterr().err
    subs = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert err.startswith(subs.choices[command].format_usage()), err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"companion {command}: ") and last.endswith(strays), err


@pytest.mark.parametrize("command", [["run", "--sim", "--json"], ["dashboard"]])
@pytest.mark.parametrize("port", ["70000", "-1"])
def test_a_port_out_of_range_names_the_flag_it_came_from(command, port, capsys, tmp_path):
    """``--port 70000``: the flag typed, not the settings file's ``port`` (and ``companion
    dashboard`` refuses it too, instead of a traceback from bind())."""
    from companion.i18n import M

    assert _status([*command, "--data-dir", str(tmp_path / "t"), f"--port={port}"]) == 2
    err = capsys.readouterr().err
    told = render(M("a TCP port is 0 to 65535, not %(value)s", value=int(port)), "ru")
    assert "--port" in err and told in err and "'port'" not in err and "Traceback" not in err, err
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("argv", [
    ["deck", "learn", "bad/name", "."],                 # refused before any photo is read
    ["deck", "learn", "forest", "/nonexistent/photos"],  # refused by the learning itself
])
def test_deck_learn_errors_name_the_subcommand(argv, capsys):
    _status(argv)
    err = capsys.readouterr().err
    assert err.startswith("companion deck learn: ") and err.count("\n") == 1, err
