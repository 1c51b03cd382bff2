"""The game through the real referee and SQLite table log: a power cut mid-game loses nothing
(the resumed referee holds the same state) and the game finishes from there."""

from __future__ import annotations

import pytest

from companion.referee import Referee
from companion.sim import get_sim_class


@pytest.mark.parametrize("game_id,seats,options", [
    ("infinity", ["Аня", "Борис", "Вера"], {"deals": 2}),
])
def test_power_cut_and_resume(tmp_path, game_id, seats, options):
    path = tmp_path / f"{game_id}.sqlite"
    ref = Referee.start(path, game_id, seats, options)
    sim = get_sim_class(game_id)(ref.game, 7)
    for _ in range(60):                                   # play part of the game
        text, source = sim.next_action()
        out = ref.submit(text, source)
        assert out.accepted, out
        sim.applied(text)
    assert ref.submit("table fly", "operator").reason == "unknown_action"
    snapshot = ref.game.snapshot_bytes()
    ref.close()                                           # the power goes
    again = Referee.resume(path)
    assert again.game.snapshot_bytes() == snapshot
    sim.game = again.game                                 # the physical table did not change
    while not again.game.is_over():
        text, source = sim.next_action()
        assert again.submit(text, source).accepted
        sim.applied(text)
    assert again.game.result()["rounds"] >= 1
    again.close()
