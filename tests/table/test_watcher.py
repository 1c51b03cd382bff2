"""The real table's camera loop (CameraWatcher) on frames from a camera source: the set-up scan
of a skull game — each player's notes shown one at a time, read by the real note reader, voted
over frames and registered; a frame with no note prompts the operator after a while."""

from __future__ import annotations

import itertools

import pytest

from companion import parts
from companion.observe import CameraWatcher
from companion.settings import Settings
from companion.table import Table
from companion.vision.scene import SceneRenderer
from companion.i18n import M, both

SETS = {0: ["ЕВ4177763", "СИ2830388"], 1: ["КТ0837783", "АС8288360"]}  # one skull (odd), one rose each


class Frames:
    """A camera source that shows what the test puts in front of it, frame after frame."""

    def __init__(self) -> None:
        self.frames = iter(())

    def show(self, frames) -> None:
        self.frames = itertools.cycle(frames)

    def read(self):
        return next(self.frames)


@pytest.mark.slow
def test_setup_scan_through_the_camera_watcher(tmp_path, real_data):
    table = Table(tmp_path, pin="135792", resume=False)
    table.new_game("skull", ["Аня", "Борис"], {"notes_per_player": 2})
    settings = Settings(currency="RUB")
    readers = {"note": parts.reader("note", settings, table.referee.game)}
    render = SceneRenderer("skull", seed=2, context=False)
    camera = Frames()
    watcher = CameraWatcher(table, camera, readers, votes=2, patience=5, interval=0, start=False)
    try:
        for seat, serials in SETS.items():
            camera.show([render.render([("note", s)], attempt=0) for s in serials])
            for _ in range(12):
                if watcher.step():
                    break
            else:
                pytest.fail(f"seat {seat}'s notes were not registered: {watcher._seen}")
            prompts = [p for p in table.prompts() if p["kind"] == "scan" and p["seat"] == seat]
            assert prompts, "the operator was told whose notes to show"
            name = ["Аня", "Борис"][seat]  # one language a line: each screen shows its own
            assert prompts[-1]["words"] == both(M("Show %(name)s's notes to the camera", name=name))
        records = table.referee.log.records()
        assert [r.source for r in records] == ["camera", "camera"]
        assert records[0].action.startswith("table register 0 ") and set(SETS[0]) <= set(records[0].action.replace(",", " ").split())
        # nothing to read now but the dealer choice (an operator action): the watcher idles
        assert not watcher.step()
    finally:
        watcher.stop()
        table.close()


def test_camera_without_a_note_prompts_for_manual_entry(tmp_path):
    import numpy as np

    table = Table(tmp_path, pin="135792", resume=False)
    table.new_game("skull", ["Аня", "Борис"], {"notes_per_player": 2})
    camera = Frames()
    camera.show([np.zeros((720, 1280, 3), np.uint8)])
    from companion.observe import Item

    watcher = CameraWatcher(table, camera, {"note": lambda frame: [Item(None, 0.0, 0.0, "no_serial")]},
                            votes=2, patience=3, interval=0, start=False)
    try:
        for _ in range(4):
            assert not watcher.step()
        kinds = [p["kind"] for p in table.prompts()]
        assert "manual" in kinds and "scan" in kinds
        assert table.referee.log.records() == []
    finally:
        watcher.stop()
        table.close()
