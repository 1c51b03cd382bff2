"""Random playouts (Hypothesis) and golden whole games of "Верю — не верю".

Properties (DESIGN.md "Tests"): only legal actions are accepted (an action is accepted exactly
when ``legal_actions`` lists it), a rejected action leaves ``snapshot_bytes()`` unchanged, cards
are conserved (hands + pile + discard = deck), every game ends, and the public view never carries
a face-down card (the kinds of the sim's face-down cards never appear in it).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import new_game
from companion.games.doubt import Add, Believe, Deal, Doubt, Place, Reveal, Void
from companion.games.simulator import play_random_game
from companion.games.doubt.sim import DoubtSim
from tests.gamekit import attempt, shows_none, replay_recorded, replay_through_sqlite, until_over

DECKS = [None, {"name": "tiny", "kinds": {"a": 3, "b": 2, "c": 4}},
         {"name": "mid", "kinds": {"x": 7, "y": 7, "z": 7, "w": 7}},
         {"name": "odd", "kinds": [{"id": "k1", "count": 1}, {"id": "k2", "count": 13}, {"id": "k3", "count": 5}]}]

GOLDEN = Path(__file__).parent / "golden"


def _probe(g, rng: random.Random):
    n = len(g.seats)
    s = rng.randrange(n + 1)  # n = an unknown seat
    kinds = list(g.kind_count) + ["nope"]
    r = rng.random()
    if r < 0.03 and g.pile:
        return Void(None)
    if r < 0.1:
        return Reveal(None, tuple(rng.choice(kinds) for _ in range(rng.randint(0, 9))))
    return rng.choice([Deal(s), Place(s, rng.randint(0, 9), rng.choice(kinds)), Add(s, rng.randint(0, 9)),
                       Believe(s), Doubt(s)])


def _public_leak_free(g, sim: DoubtSim) -> None:
    v = g.view(None)
    json.dumps(v, ensure_ascii=False)
    checked = set(v["last_check"]["kinds"]) if v["last_check"] else set()
    facts = dict(v)
    for key in ("deck", "last_check", "result"):
        facts.pop(key, None)
    facts["pile"] = {k: x for k, x in v["pile"].items() if k not in ("claim", "claim_name")}
    face_down = {c for h in sim.hands for c, k in h.items() if k} | {c for p in sim.pile if not p["face_up"] for c in p["cards"]}
    shows_none(facts, face_down)
    if v["last_check"]:  # what the public saw turned over is exactly the check's cards
        assert checked <= set(g.kind_count)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8), deck=st.sampled_from(DECKS),
       games=st.integers(1, 2))
def test_random_playout_properties(seed, n, deck, games):
    g = new_game("doubt", [f"P{i}" for i in range(n)], {"deck": deck, "games": games})
    sim = DoubtSim(g, seed)
    rng = random.Random(seed ^ 0x5EED)
    for steps in until_over(g, 20_000):
        if steps % 3 == 0:
            probe = _probe(g, rng)
            if probe.seat is None:
                legal = (isinstance(probe, Void) and bool(g.pile)) or (
                    isinstance(probe, Reveal) and g.phase == "check" and len(probe.kinds) == g.pile[-1][1]
                    and all(k in g.kind_count for k in probe.kinds))
            else:
                legal = probe.seat < n and probe in g.legal_actions(probe.seat)
            if attempt(g, probe) is None:
                assert legal, probe
                sim.applied(probe.text())
                continue
            if probe.seat is not None:
                assert not legal, probe
        text, source = sim.next_action()
        assert source in ("button", "camera", "manual", "operator")
        g.apply(text)
        sim.applied(text)
        if g.phase != "deal":
            assert sum(g.hands) + g.pile_size() + g.discard == g.deck_size
            assert [sum(h.values()) for h in sim.hands] == g.hands
            assert all(c >= 0 for h in sim.hands for c in h.values())
        if steps % 5 == 0:
            _public_leak_free(g, sim)
    r = g.result()
    assert r["games"] == games and len(r["per_game"]) == games
    json.dumps(r)


def _golden_cases():
    return sorted(GOLDEN.glob("*.jsonl"))


@pytest.mark.parametrize("path", _golden_cases(), ids=lambda p: p.stem)
def test_golden_game_replays_to_its_recorded_result(path):
    """Golden whole games (recorded from the simulated table, checked in): replaying the log gives
    the recorded loser, order and final snapshot digest."""
    _, _, res, expected = replay_recorded(path, "doubt")
    assert res.game.result() == expected["result"]
    assert len(res.applied) == expected["actions"]


def test_golden_scripted_three_player_game():
    """A whole scripted game (18-card deck, 3 players) through every outcome, checked step by step."""
    g = new_game("doubt", ["Аня", "Борис", "Вера"], {"deck": {"kinds": {"a": 6, "b": 6, "c": 6}}, "first_dealer": 2})
    script = [
        ("2 deal", dict(hands=[6, 6, 6], turn=2)),
        ("2 place 3 a", dict(hands=[6, 6, 3], turn=0)),
        ("0 add 2", dict(hands=[4, 6, 3], turn=1)),
        ("1 doubt", dict(phase="check")),
        ("table reveal a,c", dict(hands=[9, 6, 3], turn=1, discard=0)),        # ¶9 liar 0 takes 5
        ("1 place 4 b", dict(hands=[9, 2, 3], turn=2)),
        ("2 believe", dict(phase="check")),
        ("table reveal b,b,b,b", dict(hands=[9, 2, 3], turn=2, discard=4)),   # ¶7 бита, 2 leads
        ("2 place 3 c", dict(hands=[9, 2, 0], turn=0)),                        # ¶11 last cards
        ("0 believe", dict(phase="check")),
        ("table reveal c,c,a", dict(hands=[12, 2, 0], turn=1)),                # ¶8 naive 0 takes; 2 stays? no:
    ]
    for text, want in script:
        g.apply(text)
        for k, v in want.items():
            assert getattr(g, k) == v, (text, k, getattr(g, k))
    # seat 2's last cards were checked and he did not take the pile -> out (¶11)
    assert g.in_game == [True, True, False] and g.out_order == [2]
    for text in ["1 place 2 b", "0 doubt", "table reveal b,b"]:  # ¶10: doubter 0 takes; 1 is out
        g.apply(text)
    assert g.is_over()
    r = g.result()
    assert r["loser"] == 0 and r["loser_name"] == "Аня" and r["order"] == [2, 1] and r["winners"] == ["Вера", "Борис"]
    assert g.hands == [14, 0, 0] and g.discard == 4


def test_sim_game_logged_and_replayed_from_sqlite(tmp_path):
    """The table log path: a simulated game written to SQLite, exported to JSONL, replayed."""
    _, records, res = replay_through_sqlite(tmp_path, "doubt", 5, {"games": 2}, seed=2024)
    assert {r.source for r in records} >= {"button", "camera"}
    assert res.game.result()["games"] == 2


def write_golden(seed: int, seats: int, options: dict | None, name: str) -> None:  # pragma: no cover
    """Record a golden game: run ``PYTHONPATH=. python tests/games/doubt/test_playouts.py`` from the
    repository root (this file's ``__main__``)."""
    from tests.gamekit import record_sim_log

    g, actions = record_sim_log(GOLDEN / f"{name}.jsonl", "doubt", seats, options, seed, "golden")
    (GOLDEN / f"{name}.result.json").write_text(
        json.dumps({"actions": len(actions), "result": g.result()}, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    write_golden(3, 4, None, "four_players_default_deck")
    write_golden(7, 4, None, "four_players_void_and_manual_read")
    write_golden(17, 2, {"games": 3}, "two_players_three_games")
    write_golden(5, 8, {"deck": {"name": "learned", "kinds": {"cat": 9, "dog": 9, "owl": 9, "fox": 9}}},
                 "eight_players_learned_deck")


def test_result_and_replay_summary_are_informative():
    """``companion replay`` reads ``replay_summary()`` (or ``result()``): winner, loser, rounds."""
    g, _ = play_random_game("doubt", 4, None, seed=3)
    r = g.result()
    s = g.replay_summary()
    assert s["over"] and s["loser"] == r["loser_name"] and s["winner"] == r["winners"][0]
    assert s["rounds"] == r["rounds"] > 0 and len(s["seats"]) == 4
    assert [x["in_game"] for x in s["seats"]].count(True) == 1
    json.dumps(s, ensure_ascii=False)


def test_camera_reads_what_lies_face_up_at_a_check():
    """The simulated camera reports exactly the cards turned over (the last placement, face up in
    the physical truth); earlier placements stay face down."""
    g = new_game("doubt", ["A", "B", "C"])
    sim = DoubtSim(g, seed=77, void_rate=0.0)
    checks = 0
    while not g.is_over():
        text, source = sim.next_action()
        if g.phase == "check":
            checks += 1
            assert sim.pile[-1]["face_up"] and not any(p["face_up"] for p in sim.pile[:-1])
            assert source in ("camera", "manual")
            assert text == "table reveal " + ",".join(sim.pile[-1]["cards"])
        g.apply(text)
        sim.applied(text)
        if text.startswith("table reveal"):
            assert sim.truth["last_revealed"]["cards"] == g.last_check["kinds"]
    assert checks > 10


def test_replay_text_names_the_loser(tmp_path):
    """``companion replay`` of a finished «Верю — не верю» names its loser — the game's real
    result (seed 001: the last one holding cards loses) — not only the first out."""
    from companion.commands.replay import format_text

    _, _records, res = replay_through_sqlite(tmp_path, "doubt", 3, {}, seed=11)
    loser = res.game.result()["loser_name"]
    assert f"проигравший: {loser}" in format_text(res, res.game.replay_summary())  # Russian by default
    text = format_text(res, res.game.replay_summary(), "en")
    assert f"loser: {loser}" in text, text
