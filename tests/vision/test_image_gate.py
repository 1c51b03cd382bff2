"""The one input-size gate (issue #20 item 2): every image path refuses an image bomb in words
before any of it is decoded — files (scan-note, scan-card, deck learn, the folder: and image:
camera sources) from their header, arrays (camera frames, frames pushed in) from their shape —
while real photos and serial strips pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import CameraError, VisionError
from companion.vision import images
from companion.vision.camera import FolderSource, ImageSource, RenderedSource
from companion.vision.images import MAX_ASPECT, check_size, load_image, to_bgr
from tests.vision.bombs import png_bomb

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_decode(monkeypatch):
    """Fail the test if OpenCV is asked to decode: a refusal must come before."""
    def boom(*_a, **_k):
        raise AssertionError("cv2.imdecode was called on an image the gate should refuse")

    monkeypatch.setattr(images.cv2, "imdecode", boom)


@pytest.mark.parametrize("w,h,kw,code", [
    (1, 20000, {}, "too_thin"),                                   # the strip bomb of the issue
    (20000, 1, {}, "too_thin"),
    (20000, 20000, {}, "too_many_pixels"),                        # 1.1 MB on disk, 2.4 GB decoded
    (30000, 30000, {"colour": 3}, "too_many_pixels"),             # a palette
    (17000, 1000, {}, "too_long_side"),
    (7000, 7000, {"bit_depth": 16, "colour": 6}, "too_many_bytes"),  # 16-bit RGBA: 374 MB decoded
])
def test_a_bomb_file_is_refused_from_its_header(tmp_path, no_decode, w, h, kw, code):
    path = png_bomb(tmp_path / f"bomb-{w}x{h}.png", w, h, rows=2, **kw)
    assert path.stat().st_size < 2_000_000
    with pytest.raises(VisionError) as err:
        load_image(path)
    assert err.value.code == code, err.value
    assert f"{w}×{h}" in str(err.value) and f"{w}×{h}" in err.value.words("ru") and str(path) in str(err.value)


def test_camera_sources_refuse_a_bomb_file_in_words(tmp_path, no_decode):
    bomb = png_bomb(tmp_path / "big.png", 1, 20000, rows=1)
    with pytest.raises(CameraError) as err:
        ImageSource(bomb)
    assert err.value.code == "too_thin" and "вытянут" in err.value.words("ru")
    folder = FolderSource(tmp_path)
    with pytest.raises(CameraError):
        folder.read()


@pytest.mark.parametrize("shape", [(1, 20000, 3), (20000, 1), (9000, 9000, 3), (8, 200, 4)])
def test_a_bomb_array_is_refused_before_any_conversion(shape, monkeypatch):
    frame = np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), shape=shape, strides=(0,) * len(shape))
    monkeypatch.setattr(images.cv2, "cvtColor", lambda *a: (_ for _ in ()).throw(AssertionError("converted")))
    with pytest.raises(VisionError) as err:
        to_bgr(frame, "frame")
    assert err.value.code in ("too_thin", "too_many_pixels")
    src = RenderedSource()
    with pytest.raises(CameraError) as err:
        src.push(frame)  # a frame pushed in from outside
    assert err.value.code in ("too_thin", "too_many_pixels") and err.value.words("ru")


def test_real_photos_and_strips_pass(real_data):
    for path in sorted((real_data / "banknotes").rglob("*.bmp"))[:5] + sorted((real_data / "cards").rglob("*.jpg"))[:5]:
        img = load_image(path)
        assert img.ndim == 3 and img.shape[2] == 3
    check_size(400, 40)       # a serial strip, 1:10
    check_size(8000, 6000)    # a 48 MP phone photo
    check_size(MAX_ASPECT, 1)


def test_truncated_and_odd_files_are_unreadable_not_a_traceback(tmp_path):
    good = tmp_path / "ok.png"
    cv2.imwrite(str(good), np.full((60, 80, 3), 120, np.uint8))
    data = good.read_bytes()
    cases = {"trunc.png": data[: len(data) // 2], "head.png": data[:30], "zero.png": b"",
             "noise.jpg": os.urandom(5000), "text.png": b"hello"}
    for name, raw in cases.items():
        (tmp_path / name).write_bytes(raw)
        try:
            img = load_image(tmp_path / name)
        except VisionError as exc:
            assert exc.words("ru") and exc.words("ru") != str(exc), name
        else:  # OpenCV may decode what it can of a cut-off file: an image, never a crash
            assert img.ndim == 3, name
    assert load_image(good).shape == (60, 80, 3)


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, env=env,
                          cwd=str(ROOT), timeout=120)


def test_scan_note_and_scan_card_refuse_the_strip_bomb_in_words(tmp_path):
    """The bug: scan-note on a 1×20000 px PNG grew to 23.5 GB before it was killed."""
    bomb = png_bomb(tmp_path / "strip.png", 20000, 1)
    r = _cli("scan-note", str(bomb))
    assert "вытянут" in r.stderr and "20000×1" in r.stderr and "Traceback" not in r.stderr, r.stderr
    r = _cli("scan-card", "--json", "--lang", "en", str(bomb))
    assert '"error": "unreadable_file"' in r.stdout and "too long and thin" in r.stdout, r.stdout
    big = png_bomb(tmp_path / "big.png", 20000, 20000)
    r = _cli("scan-note", "--lang", "en", str(big))
    assert "too large: 20000×20000 px (400.0 MP); at most 50 MP" in r.stderr, r.stderr


def test_deck_learn_refuses_a_bomb_in_words(tmp_path):
    folder = tmp_path / "faces"
    folder.mkdir()
    png_bomb(folder / "AS.png", 20000, 20000, rows=1)
    png_bomb(folder / "KS.png", 20000, 20000, rows=1)  # two faces: a deck, as far as counting goes
    env = dict(os.environ, PYTHONPATH=str(ROOT), COMPANION_DATA=str(tmp_path / "data"))
    r = subprocess.run([sys.executable, "-m", "companion", "deck", "learn", "forest", str(folder)],
                       capture_output=True, text=True, env=env, cwd=str(ROOT), timeout=120)
    assert "Traceback" not in r.stderr and "20000×20000" in (r.stderr + r.stdout), (r.stdout, r.stderr)


def test_the_megapixels_are_written_with_the_languages_decimal_sign():
    """«400,0 Мп» in Russian, "400.0 MP" in English: a decimal fact (``companion.i18n.decimal``),
    written by the renderer, not a Python ``f"{x:.1f}"`` that puts a point in a Russian line."""
    with pytest.raises(VisionError) as err:
        check_size(20000, 20000, what="huge.png")
    assert err.value.code == "too_many_pixels" and err.value.facts["mp"] == 400.0
    assert "(400,0 " in err.value.words("ru") and "400.0" not in err.value.words("ru"), err.value.words("ru")
    assert "(400.0 MP)" in err.value.words("en"), err.value.words("en")
