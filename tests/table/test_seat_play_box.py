"""Who plays a seat says the phone when the button box is missing or faulty: with no box plugged
in the seat list said «играет игрок: кнопки и телефон» for every seat while the status chip said
«Кнопки: неисправность»."""

from __future__ import annotations

from companion.i18n import both
from companion.table import Table
from companion.table.control import PLAYED_BY


def test_a_missing_or_faulty_box_leaves_each_seat_to_its_phone(fast_dir):
    table = Table(fast_dir, pin="246810", resume=False)
    told = []
    table.subscribe(lambda kind, payload: told.append(kind))
    try:
        table.new_game("skull", ["Аня", "Борис", "Вика"])
        table.pads = 8
        table.set_status("buttons", {"state": "error", "detail": "/dev/ttyACM0"})  # never found
        play = table.seat_play()["seats"]
        assert [s["by"] for s in play] == ["no_box"] * 3
        assert all(s["words"] == both(PLAYED_BY["no_box"]) for s in play)
        assert "кнопки" not in play[0]["words"]["ru"]
        table.set_status("buttons", {"state": "warn", "detail": "/dev/ttyACM0"})  # connected, silent
        assert [table.played_by(s) for s in range(3)] == ["no_box"] * 3
        told.clear()
        table.set_status("buttons", {"state": "ok", "detail": "/dev/ttyACM0"})  # plugged in
        assert [table.played_by(s) for s in range(3)] == ["pad"] * 3
        assert "control" in told  # the pages hear who plays each seat now
        table.pads = 2
        table.set_status("buttons", {"state": "error", "detail": "/dev/ttyACM0"})
        assert [table.played_by(s) for s in range(3)] == ["no_box"] * 3
        assert table.submit("table console 1", "operator").accepted
        assert table.played_by(0) == "console"
    finally:
        table.close()
