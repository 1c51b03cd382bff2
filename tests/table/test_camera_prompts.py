"""The camera's prompts close once what they ask for is accepted — whatever the source (camera,
manual entry without the prompt's id, a button) — and the "no camera" notice is one at a time,
not one per prompt (a newcomer's skull table with no camera: six prompts stayed for the whole game)."""

from __future__ import annotations

import tempfile

from companion.i18n import M, both
from companion.observe import CameraWatcher
from companion.table import Table
from companion.vision.camera import RetryingSource
from tests.table.test_missing_camera import Plug

NOTES = ["АА1000002,АА1000004,АА1000006,АА1000001", "АА1000012,АА1000014,АА1000016,АА1000011",
         "АА1000022,АА1000024,АА1000026,АА1000021"]


def _texts(table):
    return sorted(p["words"]["en"] for p in table.prompts())


def test_registration_prompts_close_once_each_entry_is_typed_by_hand():
    table = Table(tempfile.mkdtemp(prefix="f16a"), pin="246810", resume=False)
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    cam = RetryingSource("opencv:7", opener=Plug().open, delays=(5, 5))
    try:
        watcher = CameraWatcher(table, cam, {"note": lambda frame: []}, start=False)
        for seat, (name, notes) in enumerate(zip(["Аня", "Борис", "Вика"], NOTES)):
            watcher.step()
            watcher.step()
            assert _texts(table) == sorted([both(M("No camera: enter it by hand"))["en"],
                                            both(M("Show %(name)s's notes to the camera", name=name))["en"]])
            assert all(p["action"].startswith(f"table register {seat} ") for p in table.prompts())
            # typed on the console's form without the prompt's id
            assert table.manual_entry(f"table register {seat} {notes} ?").accepted
        watcher.step()
        watcher.step()
        assert table.prompts() == []  # nothing left to show the camera
    finally:
        cam.close()
        table.close()


def test_a_prompt_answered_with_its_id_does_not_come_back_and_an_operator_prompt_stays():
    table = Table(tempfile.mkdtemp(prefix="f16a"), pin="246810", resume=False)
    table.new_game("skull", ["Аня", "Борис"])
    cam = RetryingSource("opencv:7", opener=Plug().open, delays=(5, 5))
    try:
        watcher = CameraWatcher(table, cam, {"note": lambda frame: []}, start=False)
        mine = table.add_prompt("Проверьте свет", kind="info")
        watcher.step()
        manual = next(p for p in table.prompts() if p["kind"] == "manual")
        assert table.manual_entry(f"table register 0 {NOTES[0]} ?", manual["id"]).accepted
        for _ in range(3):
            watcher.step()
        assert [p["seat"] for p in table.prompts() if p["kind"] == "scan"] == [1]
        assert len([p for p in table.prompts() if p["kind"] == "manual"]) == 1
        assert mine in [p["id"] for p in table.prompts()]  # not the camera's to close
    finally:
        cam.close()
        table.close()
