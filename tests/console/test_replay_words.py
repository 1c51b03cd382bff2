"""``companion replay``'s text report words every game through its presenter: how far it went in
the game's own unit (rounds, games of a match, deals, draws) and one line per seat (cards, chips,
points; skull's audit names the notes), and an unfinished game's log says how the table let it go
(ended by the operator, replaced by another game, set aside by ``--new``).

Real code path: ``companion replay`` (in-process CLI) on table logs the table wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main as cli_main
from companion.table import Table

ROOT = Path(__file__).resolve().parents[2]
INPUTS = ROOT / "tests" / "table" / "data" / "inputs"
SEATS = ["Игрок 1", "Игрок 2", "Игрок 3", "Игрок 4"]


def _first(tmp_path, game: str, n: int) -> Path:
    """The header and the first ``n`` actions of a recorded simulated game."""
    lines = (INPUTS / f"sim-{game}-seed7.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / f"{game}-{n}.jsonl"
    path.write_text("\n".join(lines[:n + 1]) + "\n", encoding="utf-8")
    return path


def _replay(capsys, *argv) -> str:
    assert cli_main(["replay", *map(str, argv)]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("game, progress", [
    ("skull", "раундов: 2"), ("doubt", "партия 1 из 1"), ("hoggenheimer", "сдача 2 из 4"),
    ("infinity", "партия 1 из 3"), ("lottery", "тираж 9"),
])
def test_the_report_counts_in_the_games_own_unit_and_tells_each_seat(tmp_path, capsys, game, progress):
    out = _replay(capsys, _first(tmp_path, game, 36))
    assert out.splitlines()[1] == f"применено 36 действий; {progress}", out  # infinity said «раундов: 0»
    seat_lines = [line for line in out.splitlines() if line.startswith("  Игрок ")]
    assert [line.split(":")[0].strip() for line in seat_lines] == SEATS, out  # one line a seat, every game
    assert all(line.split(":", 1)[1].strip() for line in seat_lines), out


def test_the_seat_lines_say_what_each_game_counts(tmp_path, capsys):
    assert "  Игрок 2: 113 фишек, банкомет" in _replay(capsys, _first(tmp_path, "hoggenheimer", 36))
    assert "  Игрок 2: 0 очков; в неоконченной партии 745 очков" in _replay(capsys, _first(tmp_path, "infinity", 36))
    assert "  Игрок 1: 9 карт" in _replay(capsys, _first(tmp_path, "doubt", 36))
    assert "  Игрок 1: 30 фишек, банкир" in _replay(capsys, _first(tmp_path, "lottery", 36))
    assert cli_main(["replay", "--lang", "en", str(_first(tmp_path, "infinity", 36))]) == 0
    en = capsys.readouterr().out
    assert "applied 36 action(s); deal 1 of 3" in en and "  Игрок 4: 0 points; in the unfinished deal 788 points" in en


def test_an_unfinished_games_log_says_how_the_table_let_it_go(fast_dir, capsys):
    table = Table(fast_dir, pin="246810")
    first = table.new_game("doubt", ["Аня", "Борис", "Вика"]).log.path
    second = table.new_game("skull", ["Аня", "Борис", "Вика"]).log.path  # «Начать другую игру»
    out = _replay(capsys, first)
    assert f"окончена: нет — оператор начал вместо неё другую игру ({second.name}, " in out, out
    assert "ещё идёт" not in out
    assert cli_main(["replay", "--json", str(first)]) == 0
    stopped = json.loads(capsys.readouterr().out)["stopped"]
    assert (stopped["how"], stopped["by"]) == ("replaced", second.name)
    table.end_game()  # «Завершить игру»
    assert "окончена: нет — оператор завершил игру (" in _replay(capsys, second)
    table.resume_game(first.name)  # taken up again: as it is, resumable
    out = _replay(capsys, first)
    assert "окончена: нет (игра ещё идёт)" in out, out
    assert cli_main(["replay", "--json", str(first)]) == 0
    assert "stopped" not in json.loads(capsys.readouterr().out)
    table.close()
    left = Table(fast_dir, pin="246810", resume=False)  # companion dashboard --new: no game in its place
    left.leave_aside()
    left.close()
    assert "окончена: нет — отложена запуском с --new (" in _replay(capsys, first)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_log_of_a_game_not_installed_is_told_as_run_tells_it(tmp_path, capsys, lang):
    """A header naming a game this table lacks: the words ``run --game chess`` gives, in the run's
    language, never the reason code with the English detail."""
    from companion.games import ids
    from companion.i18n import M, render

    src = (ROOT / "companion" / "examples" / "skull-game.jsonl").read_text(encoding="utf-8")
    log = tmp_path / "chess.jsonl"
    log.write_text(src.replace('"game": "skull"', '"game": "chess"', 1), encoding="utf-8")
    assert cli_main(["replay", str(log), "--lang", lang]) == 1
    err = capsys.readouterr().err
    told = render(M("no game %(game)r; games: %(games)s", game="chess", games=", ".join(ids())), lang)
    assert err == f"companion replay: {told}\n", err


def test_a_games_declared_audit_lines_take_the_seat_lines_place(tmp_path, capsys, monkeypatch):
    """The report knows no game: a game's own audit lines come from its spec
    (``GameSpec.replay_lines``, given the replayed engine) and stand where the presenter's seat
    lines would; skull's bank and notes are such lines (``tests/games/skull/test_replay_lines.py``)."""
    import dataclasses

    from companion.games import registry
    from companion.i18n import M

    log = _first(tmp_path, "lottery", 36)
    assert "  Игрок 1: 30 фишек, банкир" in _replay(capsys, log)  # no audit lines: the seat lines
    spec, engines = registry.find("lottery"), []
    audited = dataclasses.replace(spec, replay_lines=lambda game: engines.append(game) or [
        M("  %(name)s: %(standing)s", name=name, standing="audit") for name in game.seats])
    monkeypatch.setattr(registry, "find", lambda gid: audited if gid == "lottery" else spec)
    out = _replay(capsys, log).splitlines()
    assert out[-4:] == [f"  {name}: audit" for name in SEATS], out
    assert len(engines) == 1 and engines[0].GAME_ID == "lottery" and not any("фишек" in line for line in out)
