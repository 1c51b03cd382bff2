"""doubt through the real referee path: the simulated table submits every action (buttons, camera,
operator) to the Referee, which logs it durably; a power cut halfway (close, resume from the
SQLite log) loses nothing and the game ends exactly as an uninterrupted one."""

from __future__ import annotations

from companion.referee import Referee
from companion.sim import get_sim_class, play_random_game

GAME = "doubt"


def _drive(ref, sim, stop_after=None):
    n = 0
    while not ref.game.is_over():
        if stop_after is not None and n >= stop_after:
            return n
        text, source = sim.next_action()
        out = ref.submit(text, source)
        assert out.accepted, (text, out.reason, out.detail)
        sim.applied(text)
        n += 1
    return n


def test_whole_game_through_the_referee_with_a_power_cut(tmp_path):
    seats = ["Аня", "Борис", "Вера", "Глеб"]
    options = {"games": 2} if GAME == "doubt" else {"rounds": 2}
    expected, actions = play_random_game(GAME, seats, options, seed=12)
    path = tmp_path / "table.sqlite"
    ref = Referee.start(path, GAME, seats, options)
    sim = get_sim_class(GAME)(ref.game, 12)
    with ref:
        _drive(ref, sim, stop_after=len(actions) // 2)
    ref.close()  # power cut: only the log survives
    again = Referee.resume(path)
    sim.game = again.game  # the physical table is still there; the engine is rebuilt from the log
    with again:
        _drive(again, sim)
        assert again.game.snapshot() == expected.snapshot()
        assert again.game.result() == expected.result()
        assert [r.action for r in again.log.records()] == [t for t, _ in actions]
        public = again.view(None)
        assert public["phase"] == "over" and public["result"] == expected.result()
    again.close()
