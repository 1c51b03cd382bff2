"""The README's console examples (its ```` ```console ```` blocks) are what the commands print.

The new user's report: the README's replay example showed ``банк: 9 купюр = 4500 RUB`` while
``companion replay companion/examples/skull-game.jsonl`` prints ``банк: 9 купюр = 4 500 ₽``.

Each ``$ companion …`` line of a block is run in-process (``companion.cli.main``, Russian unless the
line says ``--lang en``, from the repository's root), and each line shown after it must be found in
what it printed (stdout and stderr), in order. A ``…`` in a shown line stands for text left out;
runs of white space (argparse's wrapping, the non-breaking space of «4 500») count as one space.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion import cli

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def _examples() -> list[tuple[str, list[str]]]:
    """``[(command line, [shown lines])]`` of the README's console blocks."""
    blocks = re.findall(r"^```console\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
    examples: list[tuple[str, list[str]]] = []
    for block in blocks:
        for line in block.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            elif line.strip() and examples:
                examples[-1][1].append(line)
    return examples


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _pattern(shown: str) -> str:
    return ".*?".join(re.escape(part) for part in _flat(shown).split("…"))


def test_the_readme_has_console_examples():
    commands = [command for command, _shown in _examples()]
    assert "companion replay companion/examples/skull-game.jsonl" in commands, commands


@pytest.mark.parametrize("command, shown", _examples(), ids=[c for c, _s in _examples()])
def test_a_readme_console_example_is_what_the_command_prints(command, shown, capsys, monkeypatch, tmp_path):
    for name in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "companion", command
    try:
        cli.main(argv[1:])
    except SystemExit:  # argparse's refusal, as the example shows
        pass
    captured = capsys.readouterr()
    printed = _flat(captured.out + "\n" + captured.err)
    at = 0
    for line in shown:
        found = re.compile(_pattern(line)).search(printed, at)
        assert found, f"README shows {line!r} for `{command}`; the command printed:\n{captured.out}{captured.err}"
        at = found.end()
