"""A missing camera never stops the table (issue #20 item 4): ``companion run --camera opencv:7``
starts, says the camera is missing on the console and every page, asks the operator to type what
the camera would read, and picks the camera up when it appears (as the button box reconnects)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from companion import statuswords as W
from companion.errors import CameraError, CameraMissing
from companion.i18n import M, both, render
from companion.vision.camera import RenderedSource, RetryingSource
from tests.wording import said

ROOT = Path(__file__).resolve().parents[2]
FRAME = np.full((120, 160, 3), 90, np.uint8)


def wait_for(pred, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.01)
    return pred()


class Plug:
    """A camera that appears when ``plugged`` is set, and can be pulled out again."""

    def __init__(self):
        self.plugged = threading.Event()
        self.opened = 0

    def open(self, spec):
        if not self.plugged.is_set():
            raise CameraError(f"cannot open camera {spec!r}")
        self.opened += 1
        plug = self

        class Device(RenderedSource):
            def read(self):
                if not plug.plugged.is_set():
                    raise CameraError("no frame (device unplugged)")
                return FRAME

        return Device()


def test_a_missing_camera_is_picked_up_when_it_appears_and_after_an_unplug():
    plug, seen = Plug(), []
    cam = RetryingSource("opencv:7", opener=plug.open, on_status=lambda ok, err: seen.append(ok), delays=(0.02, 0.1))
    try:
        assert not cam.connected and seen == [False]
        with pytest.raises(CameraMissing) as err:
            cam.read()
        assert said(err.value.message)[0] == "camera %(camera)s is not connected (%(error)s); retrying"
        assert err.value.message.facts["camera"] == "opencv:7"
        plug.plugged.set()
        assert wait_for(lambda: cam.connected)
        assert cam.read() is FRAME and seen == [False, True]
        plug.plugged.clear()  # unplugged mid-game
        with pytest.raises(CameraMissing):
            cam.read()
        assert seen == [False, True, False]
        plug.plugged.set()
        assert wait_for(lambda: cam.connected) and cam.read() is FRAME and plug.opened == 2
    finally:
        cam.close()


def test_the_watcher_asks_for_manual_entry_at_once_without_a_camera(tmp_path):
    from companion.observe import CameraWatcher
    from companion.table import Table

    table = Table(tmp_path, pin="246810", resume=False)
    table.new_game("skull", ["Аня", "Борис"])
    cam = RetryingSource("opencv:7", opener=Plug().open, delays=(5, 5))
    try:
        watcher = CameraWatcher(table, cam, {"note": lambda frame: []}, start=False)
        assert watcher.step() is False
        manual = [p for p in table.prompts() if p["kind"] == "manual"]
        assert len(manual) == 1 and manual[0]["words"] == both(M("No camera: enter it by hand"))
        assert manual[0]["action"].startswith("table register")
        watcher.step()
        assert len([p for p in table.prompts() if p["kind"] == "manual"]) == 1  # asked once, not every frame
    finally:
        cam.close()
        table.close()


def test_companion_run_starts_without_its_camera(tmp_path):
    """The bug: `companion run --camera opencv:7` exited 1 ("cannot open camera 7") — under the
    unit's Restart=always a restart loop with no dashboard."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "companion", "run", "--json", "--new", "--game", "skull",
                          "--seats", "Аня,Борис", "--camera", "opencv:7", "--buttons", str(tmp_path / "ttyNOPE"),
                          "--lights", "mock", "--data-dir", str(tmp_path), "--port", "0", "--lang", "en"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        seen = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "Camera" not in seen:
            line = p.stderr.readline()
            if not line:
                break
            seen += line
        assert "Camera: fault — USB camera 7: not connected — the operator enters observations by hand" in seen, seen
        time.sleep(0.5)
        assert p.poll() is None, "the table runs without its camera"
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 143 and "Traceback" not in err, err[-2000:]


def test_every_page_shows_the_camera_missing(tmp_path):
    from companion.dashboard import create_app
    from companion.statuswords import with_words
    from companion.table import Table

    table = Table(tmp_path, pin="246810", resume=False)
    try:
        table.set_status("camera", {"state": "error", "detail": "opencv:7", "missing": True, "error": "x"})
        words = with_words(table.status())["camera"]["words"]
        missing = W.detail_message("camera", table.status()["camera"])
        assert said(missing) == ("%(camera)s: not connected — the operator enters observations by hand; the camera is "
                                 "picked up when it appears", {"camera": "USB camera 7"})
        assert words == {lang: {"part": W.part_name("camera", lang), "state": render(M("fault"), lang),
                                "detail": render(missing, lang)} for lang in ("ru", "en")}
        app = create_app(table, testing=True)
        state = app.test_client().get("/api/state").json
        assert state["status"]["camera"]["words"] == words  # the pages get the same words
        app.extensions["companion"]["hub"].close()
    finally:
        table.close()
