"""Golden whole-game playthroughs.

1. The bundled game (``companion/examples/skull-game.jsonl``) told in words must match the checked-in
   transcript ``golden/skull-game.en.txt`` line for line (any change of rules or narration shows up).
2. A short two-player game scripted by hand, with the state checked after every step: set-up, a
   success, a failure on the opponent's skull, automatic elimination, the bank handed over.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from companion.commands.demo import example_path, tell
from companion.games.skull import SkullGame

from skull_helpers import rose, skull

GOLDEN = Path(__file__).resolve().parent / "golden" / "skull-game.en.txt"


def test_bundled_game_matches_golden_transcript():
    buf = io.StringIO()
    with example_path().open("r", encoding="utf-8") as fh:
        assert tell(fh, "en", buf) == 0
    assert buf.getvalue().splitlines() == GOLDEN.read_text(encoding="utf-8").splitlines()


def test_two_player_game_by_hand():
    """Аня and Борис, 3 notes each (2 roses + 1 skull), face values recorded."""
    g = SkullGame(["Аня", "Борис"], {"notes_per_player": 3})
    g.apply(f"table register 0 {rose(0)},{rose(0, 1)},{skull(0)} 100,100,100")
    g.apply(f"table register 1 {rose(1)},{rose(1, 1)},{skull(1)} 500,500,500")
    g.apply("table dealer 1")
    # Round 1: Борис deals. Both put a rose down; Борис adds a second rose and bids 2.
    g.apply("0 place")
    g.apply("1 place")
    assert g.phase == "stage2" and g.current_seats() == [1]
    g.apply("1 place")
    g.apply("0 place")
    g.apply("1 bid 3")
    ev = g.apply("0 pass")
    assert [e.kind for e in ev] == ["pass", "reveal_start"]
    g.apply(f"table flip 1 {rose(1, 1)}")
    g.apply(f"table flip 1 {rose(1)}")
    ev = g.apply(f"table flip 0 {rose(0)}")
    assert ev[-1].data == {"outcome": "success", "dealer": 1, "bid": 3, "skull_owner": None,
                           "chooser": 1, "losers": [0]}
    ev = g.apply(f"table deposit 0 {rose(0, 1)}")
    assert [e.kind for e in ev if e.private_to is None] == ["note_to_bank", "round_end", "round_start"]
    assert g.round == 2 and g.dealer == 0 and g.view(None)["seats"][0]["notes"] == 2
    assert g.view(0)["you"]["lost"] == [rose(0, 1)]
    # Round 2: Аня deals; Борис bluffs with his skull; Аня bids 2 and flips her rose, then his skull.
    g.apply("1 place")
    g.apply("0 place")
    g.apply("0 bid 2")
    g.apply("1 pass")
    g.apply(f"table flip 0 {rose(0)}")
    ev = g.apply(f"table flip 1 {skull(1)}")
    assert g.outcome == "failure" and g.owed == [0] and g.chooser == 1
    # Борис picks blindly among Аня's two notes: her last rose. Her last note is a skull: out.
    ev = g.apply(f"table deposit 0 {rose(0)}")
    kinds = [e.kind for e in ev if e.private_to is None]
    assert kinds == ["note_to_bank", "note_to_bank", "out", "round_end", "game_over"]
    assert g.is_over() and g.winner == 1
    res = g.result()
    assert res["bank"] == [rose(0, 1), rose(0), skull(0)] and res["face_value"] == 300
    assert res["notes"] == {"Аня": [], "Борис": [rose(1), rose(1, 1), skull(1)]}
    assert g.replay_summary() == {
        "game": "skull", "over": True, "winner": "Борис", "rounds": 2,
        "bank": [rose(0, 1), rose(0), skull(0)],
        "seats": [{"name": "Аня", "notes": [], "out": True},
                  {"name": "Борис", "notes": [rose(1), rose(1, 1), skull(1)], "out": False}],
    }
    assert json.loads(json.dumps(g.view(None)))["bank"]["serials"] == res["bank"]
