"""Each game the simulated table's bots take up in one run deals differently (``make demo``).

The newcomer's report: after the first game, a new game started from the operator console and
taken up by the bots played exactly like the first (same deal, same outcome) — every game's
simulated table was seeded with the same ``settings.seed``. Now the first game keeps that seed and
each later one gets its own (:func:`companion.tablebots.game_seed`), recorded in
``sim-seeds.json``, so a restart resumes it with the seed it was dealt with.

Real code path: TableService on the simulated table with ``follow`` as ``companion run --sim``
sets it (virtual box on a pty, scene camera, the real note reader); the new game is started the
way the operator console's «Новая игра» does (``Table.new_game``).
"""

from __future__ import annotations

import json

import pytest

from companion.games.simulator import play_random_game
from companion.log import TableLog
from companion.service import TableService, choose_backends
from companion.settings import Settings
from companion.tablebots import game_seed
from tests.waiting import wait_for as _wait

SEATS = ["Аня", "Борис", "Вика"]


def _start(data_dir) -> TableService:
    s = Settings(game="skull", seats=list(SEATS), sim=True, seed=0, data_dir=data_dir, host="127.0.0.1",
                 port=0, pin="123456", pace_ms=0)
    return TableService(s, choose_backends(s), dashboard=False, follow=True).start()


def _records(path) -> list[str]:
    with TableLog.open(path, readonly=True) as tl:
        return [r.action for r in tl.records()]


def _seeds(data_dir) -> dict:
    return json.loads((data_dir / "sim-seeds.json").read_text(encoding="utf-8"))


def test_game_seed_is_the_base_for_the_first_game_and_stable_after():
    assert game_seed(0, 0) == 0 and game_seed(7, 0) == 7
    later = [game_seed(0, n) for n in range(1, 6)]
    assert len(set(later)) == 5 and 0 not in later
    assert all(0 <= s < 2**31 for s in later)
    assert later == [game_seed(0, n) for n in range(1, 6)]  # no per-process hash()
    assert game_seed(0, 1) != game_seed(1, 1)


@pytest.mark.timeout(600)  # two starts and camera reads; minutes on a loaded machine
def test_a_second_game_taken_up_by_the_bots_deals_anew_and_resumes_with_its_seed(fast_dir):
    svc = _start(fast_dir)
    try:
        first = svc.table.referee.log.path
        assert svc.simtable.seed == 0 and _seeds(fast_dir) == {first.name: 0}
        # the operator starts another skull game from the console; the bots take it up
        second = svc.table.new_game("skull", SEATS, None).log.path
        assert _wait(lambda: svc.simtable.owned == second, 60), svc.simtable.owned
        seeds = _seeds(fast_dir)
        seed = seeds[second.name]
        assert seeds[first.name] == 0  # the first game's seed is unchanged
        assert seed == game_seed(0, 1) != 0 and svc.simtable.seed == seed
        svc.run_bots()
        assert _wait(lambda: svc.simtable.error is not None or len(_records(second)) >= 1, 180), "the bots did not play"
        assert svc.simtable.error is None, svc.simtable.error
        dealt = [a for a, _src in play_random_game("skull", SEATS, None, seed=seed)[1]]
        played = _records(second)
        assert played == dealt[:len(played)]  # the bots deal the second game with its own seed ...
        assert played[0] != play_random_game("skull", SEATS, None, seed=0)[1][0][0]  # ... not the first's
    finally:
        svc.stop()
    # a restart resumes the second game with its recorded seed, and the bots follow its log
    svc = _start(fast_dir)
    try:
        assert svc.resumed and svc.table.referee.log.path == second
        assert svc.settings.seed == seed and svc.simtable.seed == seed and svc.simtable.released is None
        assert _seeds(fast_dir) == {first.name: 0, second.name: seed}
        n = len(_records(second))
        svc.run_bots()
        assert _wait(lambda: svc.simtable.error is not None or len(_records(second)) > n, 180), "the bots did not go on"
        assert svc.simtable.error is None, svc.simtable.error
        played = _records(second)
        assert played == dealt[:len(played)]  # as the uninterrupted game would have gone on
    finally:
        svc.stop()
