"""The skull engine and sim through the real referee path (queue, SQLite table log, undo, resume)."""

from __future__ import annotations

from companion.referee import Referee
from companion.games.skull.sim import SkullSim


def test_sim_game_through_referee_with_undo_and_resume(tmp_path):
    path = tmp_path / "table.sqlite"
    ref = Referee.start(path, "skull", ["Аня", "Борис", "Вера"], {"currency": "RUB"})
    sim = SkullSim(ref.game, 4)
    undone = rejected = False
    while not ref.game.is_over():
        text, source = sim.next_action()
        if not rejected and ref.game.phase == "reveal":
            # A camera misread that is no registered serial: rejected with its code, nothing logged.
            out = ref.submit(f"table flip {ref.game.dealer} ЖЖ0000002", "camera")
            assert not out.accepted and out.reason == "unregistered_serial"
            rejected = True
        out = ref.submit(text, source)
        assert out.accepted, (text, out.reason, out.detail)
        if not undone and ref.game.phase == "stage2" and text.endswith("place"):
            # The operator undoes the last placement and the camera sees it again.
            before = ref.game.snapshot_bytes()
            assert ref.submit("table undo", "operator").accepted
            assert ref.submit(text, source).accepted
            assert ref.game.snapshot_bytes() == before  # undo + the same read: same state
            undone = True
        sim.game = ref.game  # the referee rebuilds its game on undo; the sim follows it
        sim.applied(text)
    assert undone and rejected
    final = ref.game.snapshot_bytes()
    result = ref.game.result()
    ref.close()
    again = Referee.resume(path)
    assert again.game.snapshot_bytes() == final
    assert again.game.result() == result and result["face_value"] is not None
    again.close()
