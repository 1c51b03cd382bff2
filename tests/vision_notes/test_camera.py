"""Camera sources: folder, single image, rendered/pushed frames, OpenCV on a video file."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.errors import CameraError
from companion.vision import camera as C


def _write(path, color):
    img = np.zeros((40, 60, 3), np.uint8)
    img[:] = color
    cv2.imwrite(str(path), img)
    return img


def test_folder_source_reads_in_order_then_ends(tmp_path):
    _write(tmp_path / "b.png", (0, 0, 255))
    _write(tmp_path / "a.png", (255, 0, 0))
    (tmp_path / "notes.txt").write_text("not an image")
    with C.FolderSource(tmp_path) as src:
        assert "2 images" in repr(src)
        f1 = src.read()
        assert f1.shape == (40, 60, 3) and f1.dtype == np.uint8
        assert tuple(f1[0, 0]) == (255, 0, 0)            # a.png first, BGR order kept
        assert tuple(src.read()[0, 0]) == (0, 0, 255)
        with pytest.raises(CameraError):
            src.read()
    with pytest.raises(CameraError):
        src.read()                                       # closed


def test_folder_source_loops_and_iterates(tmp_path):
    _write(tmp_path / "a.png", (1, 2, 3))
    src = C.FolderSource(tmp_path, loop=True)
    assert all(tuple(src.read()[0, 0]) == (1, 2, 3) for _ in range(3))
    assert len(list(C.FolderSource(tmp_path))) == 1


def test_bad_specs_raise_camera_error(tmp_path):
    with pytest.raises(CameraError):
        C.FolderSource(tmp_path / "missing")
    with pytest.raises(CameraError):
        C.FolderSource(tmp_path)                          # empty
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    with pytest.raises(CameraError):
        C.ImageSource(bad)
    with pytest.raises(CameraError):
        C.open_source(str(tmp_path / "nothing-here"))


def test_image_source_and_open_source(tmp_path):
    img = _write(tmp_path / "one.png", (9, 8, 7))
    with C.open_source(str(tmp_path / "one.png")) as src:
        assert isinstance(src, C.ImageSource)
        a, b = src.read(), src.read()
        assert np.array_equal(a, img) and a is not b
    assert isinstance(C.open_source(str(tmp_path)), C.FolderSource)


def test_rendered_source_push_and_callable():
    calls = []

    def render():
        calls.append(1)
        return np.full((10, 20, 3), 7, np.uint8)

    src = C.RenderedSource(render)
    src.push(np.zeros((10, 20), np.uint8))               # grey is expanded to BGR
    assert src.read().shape == (10, 20, 3) and not calls
    assert src.read()[0, 0, 0] == 7 and calls
    with pytest.raises(CameraError):
        src.push(np.zeros((10, 20, 3), np.float32))
    src.close()
    with pytest.raises(CameraError):
        src.read()
    with pytest.raises(CameraError):
        C.RenderedSource().read()                        # nothing pushed, no renderer


def test_opencv_camera_on_a_video_file(tmp_path):
    path = tmp_path / "clip.avi"
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    if not vw.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(3):
        vw.write(np.full((48, 64, 3), 60 * i, np.uint8))
    vw.release()
    with C.open_source(str(path)) as cam:
        assert isinstance(cam, C.OpenCVCamera)
        frames = list(cam)
    assert len(frames) == 3 and frames[0].shape == (48, 64, 3)
    with pytest.raises(CameraError):
        C.OpenCVCamera(str(tmp_path / "none.avi"))


def test_picamera_absent_here_raises_camera_error():
    try:
        import picamera2  # noqa: F401
        pytest.skip("picamera2 is installed: this test is for machines without it")
    except ImportError:
        pass
    with pytest.raises(CameraError, match="picamera2"):
        C.PiCamera()


class _FakePicamera2:
    """Stands in for the device only: records the documented calls picamera2 would receive."""

    calls: list = []

    def __init__(self):
        self.calls.append("init")

    def create_video_configuration(self, main):
        self.calls.append(("video", main))
        return {"main": main}

    def create_still_configuration(self, main):
        self.calls.append(("still", main))
        return {"main": main}

    def configure(self, config):
        self.calls.append(("configure", config))
        self.size = config["main"]["size"]

    def start(self):
        self.calls.append("start")

    def capture_array(self):
        w, h = self.size
        frame = np.zeros((h, w, 3), np.uint8)
        frame[..., 0] = 200                      # RGB888 arrays are B, G, R ordered
        return frame

    def stop(self):
        self.calls.append("stop")

    def close(self):
        self.calls.append("close")


def test_picamera_layer_uses_rgb888_and_releases(monkeypatch):
    import sys
    import types

    mod = types.ModuleType("picamera2")
    mod.Picamera2 = _FakePicamera2
    _FakePicamera2.calls = []
    monkeypatch.setitem(sys.modules, "picamera2", mod)
    with C.PiCamera(size=(64, 48)) as cam:
        frame = cam.read()
        assert frame.shape == (48, 64, 3) and frame[0, 0, 0] == 200
        assert "64" in repr(cam)
    calls = _FakePicamera2.calls
    assert ("video", {"format": "RGB888", "size": (64, 48)}) in calls
    assert calls.index("start") < calls.index("stop") < calls.index("close")
    with pytest.raises(CameraError):
        cam.read()


def test_one_camera_spec_syntax(tmp_path):
    """``companion run --camera``, the settings file and open_source share parse_spec: prefixed
    and bare forms name the same source; a spec naming nothing says which forms exist."""
    img = _write(tmp_path / "one.png", (1, 2, 3))
    assert C.parse_spec("scene") == ("scene", "")
    assert C.parse_spec("picamera") == C.parse_spec("picamera2") == ("picamera2", "")
    assert C.parse_spec("opencv:0") == C.parse_spec("0") == C.parse_spec(0) == ("opencv", "0")
    assert C.parse_spec("rtsp://cam/1") == C.parse_spec("opencv:rtsp://cam/1") == ("opencv", "rtsp://cam/1")
    assert C.parse_spec(str(tmp_path)) == ("folder", str(tmp_path))
    assert C.parse_spec(f"folder:{tmp_path}") == ("folder", str(tmp_path))
    assert C.parse_spec(str(tmp_path / "one.png")) == ("image", str(tmp_path / "one.png"))
    with C.open_source(f"image:{tmp_path / 'one.png'}") as src:
        assert np.array_equal(src.read(), img)
    assert isinstance(C.open_source(f"folder:{tmp_path}"), C.FolderSource)
    assert isinstance(C.open_source("scene"), C.RenderedSource)
    for bad in ("webcam", "", "folder:", str(tmp_path / "nothing-here")):
        with pytest.raises(CameraError, match="folder:PATH"):
            C.parse_spec(bad)


def test_load_image_names_what_is_wrong(tmp_path):
    """A missing path, a folder or device, and a corrupt file each get their own words; OpenCV's
    own log lines stay silent (the message says it)."""
    from companion.errors import VisionError
    from companion.vision.images import load_image

    with pytest.raises(VisionError, match="no such file"):
        load_image(tmp_path / "missing.png")
    with pytest.raises(VisionError, match="not an image file"):
        load_image(tmp_path)
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"junk" * 10)
    with pytest.raises(VisionError, match="not a readable image"):
        load_image(bad)
