"""Golden playthroughs of whole ``lottery`` games, replayed from JSON Lines table logs through the
registry (the path ``companion replay`` takes).

``sim_*.jsonl`` were recorded from the simulated table (regenerate with
``PYTHONPATH=. python tests/games/lottery/test_golden.py`` from the repository root); they pin the
engine's behaviour. ``first_draw.jsonl`` is written by hand and its chip movements are worked out
in its comments.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from companion.i18n import render

from tests.gamekit import record_sim_cases, replay_golden, replay_recorded

HERE = Path(__file__).parent / "golden"
SIM_CASES = {
    "sim_v1_4p": (["Банкир", "Сдающий", "Аня", "Борис"], {"playoff": 1}, 21),
    "sim_v2_7p_box": (["Банкир", "Сдающий", "Аня", "Борис", "Вера", "Глеб", "Дина"],
                      {"playoff": 2, "box": 12, "card_stake": 2}, 22),
    "sim_v1_officials_play": (["Банкир", "Сдающий", "Аня"], {"officials_play": True, "fine_per_card": 1}, 23),
}


def test_hand_written_first_draw_and_void():
    header, records, res = replay_golden(HERE / "first_draw.jsonl")
    assert [r.reason for r in res.rejected] == ["amounts_must_differ"]
    g = res.game
    v = g.view(None)
    assert v["balances"] == [30, 30, 30, 22] and v["box"] == 0
    assert [p["chips"] if p else None for p in v["prizes"]] == [4, 3, 0, 1]
    assert v["phase"] == "deal" and g.s["voids"] == 1 and g.chips_total() == 120
    summary = g.replay_summary()   # what ``companion replay --json`` prints
    assert not summary["over"] and summary["rounds"] == 1 and summary["result"] is None
    assert [(x["role"], x["balance"]) for x in summary["seats"]] == \
        [("banker", 30), ("dealer", 30), ("player", 30), ("player", 22)]


@pytest.mark.parametrize("name", sorted(SIM_CASES))
def test_recorded_sim_games_replay_to_the_same_result(name):
    header, records, res, expected = replay_recorded(HERE / f"{name}.jsonl", "lottery")
    assert res.game.result() == expected
    assert expected["chips_total"] == 30 * len(header.seats) + header.options.get("box", 0)
    summary = res.game.replay_summary()
    assert summary["winner"] == expected["winner"] and summary["box"] == expected["box"]
    assert sum(x["balance"] for x in summary["seats"]) + summary["box"] == expected["chips_total"]


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    record_sim_cases(HERE, "lottery", SIM_CASES)


def test_the_game_over_line_counts_the_banker_and_the_dealer_too():
    """The banker and the dealer hold no cards by default but win or lose chips: the history's
    last line names them with their net beside the players' standings (a tester read only the
    players' losses, «Лучший итог … −16», and wondered where the chips went)."""
    from companion.games.lottery import describe_event
    from companion.games.base import Event

    header, records, res, expected = replay_recorded(HERE / "sim_v1_4p.jsonl", "lottery")
    result = res.game.result()
    line = render(describe_event(Event("game_over", result), header.seats), "ru")
    assert f"банкир {result['banker']} " in line and f"сдающий {result['dealer']} " in line
    en = render(describe_event(Event("game_over", result), header.seats), "en")
    assert f"banker {result['banker']} " in en and f"dealer {result['dealer']} " in en
