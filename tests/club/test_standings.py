"""Each finished game's result read from its public view (companion.club.standings.result_rows)
agrees with the engine's own full result, and the night's standings add it up by player."""

from __future__ import annotations

import pytest

from companion.club.standings import name_key, resolve, result_rows, standings
from companion.sim import play_random_game


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("game_id, n", [("skull", 3), ("doubt", 4), ("hoggenheimer", 4), ("infinity", 3),
                                        ("lottery", 5)])
def test_rows_from_the_public_view_agree_with_the_engines_result(game_id, n, seed):
    game, _ = play_random_game(game_id, n, seed=seed)
    res, seats = game.result(), list(game.seats)
    rows = {r["name"]: r for r in result_rows(game_id, game.view(None), seats)}
    assert list(rows) == seats
    if game_id == "skull":
        winner = res["winner_name"]
        assert [k for k, r in rows.items() if r["win"]] == [winner]
        assert rows[winner]["bank_notes"] == len(res["bank"]) and rows[winner]["bank_value"] == res["face_value"]
        assert "serials" not in str(rows) and not any(s in str(rows) for s in res["bank"])
    elif game_id == "doubt":
        assert [k for k, r in rows.items() if r["win"]] == [res["winner"]]
        assert [k for k, r in rows.items() if r["lost"]] == [res["loser_name"]]
    elif game_id == "infinity":
        assert {k: r["points"] for k, r in rows.items()} == res["scores"]
        assert {k for k, r in rows.items() if r["win"]} == set(res["winner_names"])
    else:
        assert {k: r["chips"] for k, r in rows.items()} == res["net"]
        wins = {seats[w] if isinstance(w, int) else w for w in res["winners"]}
        assert {k for k, r in rows.items() if r["win"]} == wins


def test_names_match_whatever_the_case_spaces_or_yo():
    assert name_key("  Алёна  Петрова ") == name_key("алена петрова")
    assert name_key("Boris") != name_key("Borys")


def test_merges_follow_chains_and_stop_at_a_loop():
    assert resolve("a", {"a": "b", "b": "c"}) == "c"
    assert resolve("a", {"a": "b", "b": "a"}) in ("a", "b")


def test_standings_add_up_games_by_player_best_first():
    results = [
        {"table": "t1", "rows": [{"name": "Аня", "win": True, "points": 6000}, {"name": "Боря", "win": False, "points": 900}]},
        {"table": "t2", "rows": [{"name": "аня", "win": False, "chips": -5}, {"name": "Борис", "win": True, "chips": 5}]},
        {"table": "t3", "rows": [{"name": "Борис", "win": True, "bank_notes": 4, "bank_value": 2000, "currency": "RUB"},
                                 {"name": "Вика", "win": False}]},
    ]
    rows = standings(results)
    assert [r["name"] for r in rows] == ["Борис", "Аня", "Боря", "Вика"]
    assert rows[1] == {**rows[1], "games": 2, "wins": 1, "points": 6000, "point_games": 1, "chips": -5,
                       "chip_games": 1, "spellings": ["Аня", "аня"], "tables": ["t1", "t2"]}
    assert rows[0]["banks"] == 1 and rows[0]["bank_value"] == {"RUB": 2000}
    merged = standings(results, {name_key("Боря"): name_key("Борис")})
    boris = next(r for r in merged if r["name"] == "Борис")
    assert boris["games"] == 3 and boris["points"] == 900 and boris["spellings"] == ["Боря", "Борис"]
    assert "Боря" not in [r["name"] for r in merged]
