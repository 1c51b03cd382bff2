"""``companion run``'s console tells the end of a game once, in words (not a Python dict)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import time
import sys
from pathlib import Path

import pytest

from companion.commands.run import Console
from companion.sim import play_random_game
from companion.table import Table

ROOT = Path(__file__).resolve().parents[2]
DICT_SYNTAX = re.compile(r"[{}\[\]]|'\w+': |\"\w+\": ")


def _console_lines(tmp_path, game_id, seats, seed):
    game, actions = play_random_game(game_id, seats, None, seed)
    assert game.is_over()
    table = Table(tmp_path / game_id, pin="1234", resume=False)
    out = io.StringIO()
    console = Console(out)
    console.game_id, console.seats = game_id, list(game.seats)
    table.new_game(game_id, list(game.seats), None)
    done = []
    table.subscribe(lambda kind, payload: (console.on_table(kind, payload),
                                           done.append(1) if kind == "action" and payload.over else None))
    try:
        for text, source in actions:
            assert table.submit(text, source).accepted
        deadline = time.monotonic() + 10
        while not done and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        table.close()
    return [l.split("] ", 1)[1] for l in out.getvalue().splitlines()], game


@pytest.mark.parametrize("game_id,seats,seed", [("lottery", 4, 1), ("skull", 3, 2), ("infinity", 3, 1)])
def test_game_over_told_once_in_words(tmp_path, game_id, seats, seed):
    lines, game = _console_lines(tmp_path, game_id, seats, seed)
    ends = [l for l in lines if "game over" in l.lower() or "игра окончена" in l.lower() or "game_over" in l]
    assert len(ends) == 1, lines
    end = ends[0]
    assert not DICT_SYNTAX.search(end), end
    winner = game.result().get("winner_name") or game.result().get("winner")
    if isinstance(winner, str):
        assert winner in end
    for line in lines:
        assert not DICT_SYNTAX.search(line), line  # no raw dicts on any progress line either


def test_format_result_lottery_words():
    from companion.commands.run import format_result

    result = {"game": "lottery", "balances": {"Аня": 30, "Борис": 18}, "net": {"Аня": 0, "Борис": -12},
              "box": 12, "prizes_won": [{"draw": 4, "seat": 1}], "winners": [0], "winner": "Аня", "rounds": 7}
    assert format_result(result, ["Аня", "Борис"], "en") == (
        "game over — winner: Аня · net: Аня 0, Борис -12 · balances: Аня 30, Борис 18 · rounds: 7")
    tie = dict(result, winner=None, winners=[0, 1])
    assert format_result(tie, ["Аня", "Борис"], "en").startswith("game over — winners (tie): Аня, Борис · ")


@pytest.mark.slow
def test_lottery_run_json_prints_the_summary_once(tmp_path):
    r = subprocess.run([sys.executable, "-m", "companion", "run", "--sim", "--game", "lottery", "--seed", "1",
                        "--json", "--data-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                       timeout=240)
    assert r.returncode == 0, r.stderr
    out = r.stdout.strip().splitlines()
    assert len(out) == 1
    summary = json.loads(out[0])
    assert summary["game"] == "lottery" and summary["over"] is True
    assert "balances" not in r.stderr
