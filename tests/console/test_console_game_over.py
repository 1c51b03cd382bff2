"""``companion run``'s console tells the end of a game once, in words (not a Python dict)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.gamekit import console_lines

ROOT = Path(__file__).resolve().parents[2]
DICT_SYNTAX = re.compile(r"[{}\[\]]|'\w+': |\"\w+\": ")


def _console_lines(tmp_path, game_id, seats, seed):
    return console_lines(tmp_path, game_id, seats, seed)


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
