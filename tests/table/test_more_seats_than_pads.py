"""A game with more seats than the button box has pads (the lottery takes 4–20 players; the box
protocol has 8 pads): the table starts, the box covers the first 8 seats and the others play on
their phones' seat view or from the console — on the simulated table (the virtual box) and with a
real box on its serial port (here the virtual box's pty, opened by the host driver as a real
``/dev/ttyACM0`` is).

Real code path: :class:`companion.service.TableService` with its devices, the bots pressing pads
or, for a seat without a pad, acting through the seat view as a phone does."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from companion.devices.protocol import MAX_SEATS
from companion.devices.virtualbox import VirtualButtonBox
from companion.log import TableLog
from companion.service import TableService, choose_backends
from companion.settings import Settings
from tests.waiting import wait_for

NINE = ["А1", "Б2", "В3", "Г4", "Д5", "Е6", "Ж7", "З8", "И9"]


def _sources(path) -> dict[int, set[str]]:
    """``{seat: {sources}}`` of the seats' own actions in a table log."""
    out: dict[int, set[str]] = {}
    with TableLog.open(path, readonly=True) as tl:
        for r in tl.records():
            head = r.action.split()[0]
            if head.isdigit():
                out.setdefault(int(head), set()).add(r.source)
    return out


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_lottery_of_nine_starts_on_the_simulated_table_and_the_ninth_seat_plays_by_its_seat_view(fast_dir):
    s = Settings(game="lottery", seats=list(NINE), sim=True, seed=1, data_dir=fast_dir, host="127.0.0.1",
                 port=0, pin="123456", pace_ms=0)
    svc = TableService(s, choose_backends(s), dashboard=False, follow=True).start()  # was: seats must be 1..8, got 9
    try:
        assert svc.vbox is not None and svc.vbox.seats == MAX_SEATS
        assert svc.table.pads == MAX_SEATS and svc.simtable.pad_seats == MAX_SEATS
        play = svc.table.seat_play()["seats"]  # shown as such: the ninth seat's bots use its seat view
        assert [p["by"] for p in play] == ["bots"] * 9 and [p["pad"] for p in play] == [True] * 8 + [False]
        assert "страницу места" in play[8]["words"]["ru"]
        path = svc.table.referee.log.path
        svc.run_bots()
        assert wait_for(lambda: svc.over or 8 in _sources(path), 300), _sources(path)
        sources = _sources(path)
        # the ninth seat has no pad: its bot acts through the seat view, as a phone does
        assert sources[8] == {"dashboard"}, sources
        assert "button" in set().union(*(sources.get(i, set()) for i in range(MAX_SEATS))), sources
        assert svc.simtable.error is None
    finally:
        svc.stop()


def test_a_real_box_of_eight_pads_serves_a_lottery_of_twelve(tmp_path, caplog):
    import cv2

    felt = tmp_path / "felt.png"
    cv2.imwrite(str(felt), np.full((240, 320, 3), (40, 110, 30), np.uint8))
    twelve = NINE + ["К10", "Л11", "М12"]
    with VirtualButtonBox(seats=MAX_SEATS, press_ms=12, bounce_ms=1) as box:  # the real box on its port
        s = Settings.load(None, game="lottery", seats=twelve, data_dir=tmp_path / "data", pin="246813",
                          camera=f"image:{felt}", buttons=box.port, lights="mock")
        plan = choose_backends(s)
        assert plan.buttons == f"serial:{box.port}" and not plan.sim
        caplog.set_level(logging.WARNING)
        svc = TableService(s, plan, dashboard=False).start()
        try:
            table = svc.table
            assert wait_for(lambda: table.pads == MAX_SEATS, 5), table.pads
            play = table.seat_play()
            assert [p["by"] for p in play["seats"]] == ["pad"] * 8 + ["no_pad"] * 4
            assert "телефон" in play["seats"][8]["words"]["ru"]
            # the lights follow the seats the box has pads for: a turn of seat 10 breaks nothing
            assert svc.lights.signals.seats == MAX_SEATS
            svc.lights.show([2, 10], False)
            svc._update_lights()
            assert not [r for r in caplog.records if "lights update failed" in r.getMessage()], caplog.text
        finally:
            svc.stop()
