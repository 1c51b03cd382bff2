"""One function turns a seat number people type (from 1) into the engine's index (from 0):
``companion.games.base.seat_from_one``, used by the operator's new-game form and by
``companion run --option`` alike (review debt: the two used to convert on their own)."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.dashboard.operator import FormError, _parse_options, game_specs
from companion.games import base
from companion.settings import Settings
from companion.table import Table


def test_seat_from_one_converts_and_refuses():
    from companion.games.base import seat_from_one

    assert [seat_from_one(v) for v in (1, 2, 8)] == [0, 1, 7]
    assert seat_from_one(3, seat_count=3) == 2
    for bad in (0, -1, True, "2", 2.0, None):
        with pytest.raises(ValueError):
            seat_from_one(bad)
    with pytest.raises(ValueError, match="3 seats"):
        seat_from_one(4, seat_count=3)


@pytest.fixture
def spy(monkeypatch):
    """Every call of ``seat_from_one`` from the two callers, as ``(value, seat_count)``."""
    calls = []
    real = base.seat_from_one

    def recording(value, seat_count=None):
        calls.append((value, seat_count))
        return real(value, seat_count)

    monkeypatch.setattr(base, "seat_from_one", recording)
    import companion.dashboard.newgame as newgame  # the new-game form's checks

    monkeypatch.setattr(newgame, "seat_from_one", recording)
    return calls


def test_the_new_game_form_converts_with_it(spy, fast_dir):
    table = Table(fast_dir, pin="246810")
    app = create_app(table, testing=True)
    try:
        spec = next(s for s in game_specs() if s["id"] == "lottery")
        with app.test_request_context("/operator/new"):
            out = _parse_options(spec, {"opt_lottery_banker": "3", "opt_lottery_dealer": "1"})
            assert (out["banker"], out["dealer"]) == (2, 0)
            assert sorted(spy) == [(1, None), (3, None)]
            with pytest.raises(FormError, match="seats are numbered from 1"):
                _parse_options(spec, {"opt_lottery_banker": "0"})
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()


def test_companion_run_converts_with_it(spy, tmp_path):
    from companion.service import TableService, choose_backends

    s = Settings(game="hoggenheimer", seats=["Аня", "Борис", "Вера"], sim=True, seed=1, data_dir=tmp_path,
                 host="127.0.0.1", port=0, pin="246802", options={"first_banker": 3})
    svc = TableService(s, choose_backends(s), dashboard=False, new=True).start()
    try:
        assert svc.table.referee.game.options.first_banker == 2  # Вера
    finally:
        svc.stop()
    assert spy == [(3, 3)]
