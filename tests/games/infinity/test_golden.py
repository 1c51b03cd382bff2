"""Golden playthroughs of whole ``infinity`` games, replayed from JSON Lines table logs through
the registry (the path ``companion replay`` takes).

* ``kept_4p.jsonl`` is written by hand (seed ¶9 ХОЙ, ¶10 kept cards); its result is worked out by
  hand in the comments of the log.
* ``sim_*.jsonl`` were recorded from the simulated table (regenerate with
  ``PYTHONPATH=. python tests/games/infinity/test_golden.py`` from the repository root); their results were checked against the rules when
  recorded and pin the engine's behaviour since.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.log import LogRecord, read_jsonl, replay
from tests.gamekit import record_sim_cases, replay_golden, replay_recorded

HERE = Path(__file__).parent / "golden"
SIM_CASES = {
    "sim_2p_3deals": (["Аня", "Борис"], {"deals": 3}, 11),
    "sim_5p_simplified": (["Аня", "Борис", "Вера", "Глеб", "Дина"], {"deals": 2, "simplified_scoring": True}, 12),
    "sim_8p_free_leader": ([f"P{i}" for i in range(1, 9)], {"deals": 1, "deal_leader": "free"}, 13),
}


def test_hand_written_game_with_hoy_and_kept_cards():
    header, records, res = replay_golden(HERE / "kept_4p.jsonl")
    assert not res.rejected
    r = res.game.result()
    assert r["totals"] == [1400, 0, 1400, 1000]
    assert r["winners"] == [0, 2] and r["winner"] is None and r["hoys"] == 2
    assert r["scores"] == {"Аня": 1400, "Борис": 0, "Вера": 1400, "Глеб": 1000}
    summary = res.game.replay_summary()   # what ``companion replay --json`` prints
    assert summary["over"] and summary["rounds"] == 1 and summary["winner"] is None
    assert [x["points"] for x in summary["seats"]] == [1400, 0, 1400, 1000]
    json.dumps(summary)


@pytest.mark.parametrize("name", sorted(SIM_CASES))
def test_recorded_sim_games_replay_to_the_same_result(name):
    header, records, res, expected = replay_recorded(HERE / f"{name}.jsonl", "infinity")
    assert res.game.result() == expected
    assert {r.source for r in records} >= {"camera", "operator"}


def test_undo_in_a_log_rebuilds_the_state():
    header, records, _ = read_jsonl(HERE / "kept_4p.jsonl")
    extra = records[:3] + [LogRecord(99, "table undo", "operator", line=99)] + records[2:]
    res = replay(header, extra)
    assert not res.rejected and res.game.result()["totals"] == [1400, 0, 1400, 1000]


if __name__ == "__main__":  # pragma: no cover - a maintenance tool
    record_sim_cases(HERE, "infinity", SIM_CASES)
