"""The game through the real referee and SQLite table log: a power cut mid-game loses nothing
(the resumed referee holds the same state) and the game finishes from there."""

from __future__ import annotations

import pytest

from tests.gamekit import power_cut_and_resume


@pytest.mark.parametrize("game_id,seats,options", [
    ("lottery", ["Банкир", "Сдающий", "Аня", "Борис", "Вера"], {"playoff": 2}),
])
def test_power_cut_and_resume(tmp_path, game_id, seats, options):
    power_cut_and_resume(tmp_path, game_id, seats, options, seed=7, before_cut=60)
