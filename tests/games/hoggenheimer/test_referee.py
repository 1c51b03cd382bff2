"""hoggenheimer through the real referee path: the simulated table submits every action (buttons, camera,
operator) to the Referee, which logs it durably; a power cut halfway (close, resume from the
SQLite log) loses nothing and the game ends exactly as an uninterrupted one."""

from __future__ import annotations

from tests.gamekit import power_cut_whole_game


def test_whole_game_through_the_referee_with_a_power_cut(tmp_path):
    power_cut_whole_game(tmp_path, "hoggenheimer", ["Аня", "Борис", "Вера", "Глеб"], {"rounds": 2}, seed=12)
