"""One rule for every command's exit status (README, "Exit status"): 0 done; 2 the command line
cannot be used as typed (argparse's refusals, a bad value, an unknown game or option); 1 the
command was understood but could not do its work (a file it names is missing or not what it
reads, a part or device stands in the way)."""

from __future__ import annotations

import pytest

from companion import cli


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
