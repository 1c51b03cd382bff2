"""End to end: a whole skull game on the simulated table — bots press buttons on the virtual box
through a real pty, the scene renderer shows notes to the camera and the real note reader reads
them, the referee rules, the dashboard streams it — and the final bank seen on the public stream
matches the table log."""

from __future__ import annotations

import json
import threading
import time
import urllib.request

import pytest

from companion.dashboard.model import apply_diff
from companion.log import TableLog, replay
from companion.service import TableService, choose_backends
from companion.settings import Settings


def _read_stream(url: str, out: list, stop: threading.Event) -> None:
    """Collect ``(event, data)`` SSE messages from ``url`` until ``stop``."""
    with urllib.request.urlopen(url, timeout=120) as resp:
        event, data = None, []
        for raw in resp:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "" and event:
                out.append((event, json.loads("\n".join(data))))
                event, data = None, []
            if stop.is_set():
                return


@pytest.mark.slow
def test_whole_skull_game_through_pty_vision_and_stream(tmp_path, real_data):
    settings = Settings(game="skull", seats=["Аня", "Борис"], options={"notes_per_player": 2}, sim=True,
                        seed=5, data_dir=tmp_path, host="127.0.0.1", port=0, pin="246802")
    plan = choose_backends(settings)
    assert plan.sim and plan.buttons == "virtual" and plan.camera == "scene"
    messages: list = []
    stop = threading.Event()
    with TableService(settings, plan, dashboard=True) as svc:
        assert svc.vbox.device.startswith("/dev/pts/"), svc.vbox.device
        reader = threading.Thread(target=_read_stream, args=(svc.server.url + "stream?view=public", messages, stop),
                                  daemon=True)
        reader.start()
        deadline = time.monotonic() + 20
        while not messages and time.monotonic() < deadline:
            time.sleep(0.05)
        assert messages and messages[0][0] == "snapshot"
        t0 = time.monotonic()
        svc.run_bots()
        while not svc.over:
            assert svc.simtable.error is None, svc.simtable.error
            assert time.monotonic() - t0 < 240, "the simulated game did not end in 4 minutes"
            time.sleep(0.1)
        summary = svc.summary()
        stats = svc.simtable.stats
        log_path = svc.table.referee.log.path
        time.sleep(0.5)  # let the last delta reach the stream
        stop.set()
    # the log: buttons and camera both played, and it replays to the same end
    with TableLog.open(log_path) as tl:
        records = tl.records()
        result = replay(tl.header, records)
    sources = {r.source for r in records}
    assert "button" in sources and "camera" in sources, sources
    assert not result.rejected
    final = result.game.result()
    assert final is not None and summary["over"] and summary["bank"] == final["bank"]
    assert stats.presses > 0 and stats.observations > 0 and stats.reads >= stats.observations
    # the public stream: rebuild the model from the snapshot and deltas; it ends with that bank
    model = None
    for event, data in messages:
        if event == "snapshot":
            model = data["model"]
        elif event == "delta" and model is not None:
            model = apply_diff(model, data.get("set", []), data.get("del", []))
    assert model is not None
    text = json.dumps(model, ensure_ascii=False)
    for serial in final["bank"]:
        assert serial in text, f"bank serial {serial} not on the public dashboard"
    # the sim's truth check caught every wrong read (none reached the log): the log's serials are
    # the ones the bots registered
    registered = {x for r in records if r.action.startswith("table register")
                  for x in r.action.split()[3].split(",")}
    assert set(final["bank"]) <= registered
