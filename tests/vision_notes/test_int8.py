"""The int8 copy of the text detector (``companion/vision/models``, ``tools/quantize_models.py``).

* It is loaded only for the wheel model it was made from (SHA-256 recorded in ``int8.json``);
  ``COMPANION_OCR_INT8=0`` and a wheel model with another hash keep the float model.
* By default only on an x86-64 CPU with VNNI; ``COMPANION_OCR_INT8=1`` forces it anywhere.
* On rendered notes of every currency it finds the serial lines the float detector finds, and
  the reader's verdicts are the same with either.

Real onnxruntime sessions on the real model files; rendered notes (seeded, not the test set the
copy was calibrated on: calibration used seeds 70000+, these use 5000+).
"""

from __future__ import annotations

import json
import random
import shutil

import cv2
import numpy as np
import pytest

from companion.vision import ocr_models
from companion.vision import render_notes as RN
from companion.vision.notes import NoteReader
from companion.vision.rapid_engine import RapidEngine


def _wheel_det():
    import rapidocr
    from pathlib import Path

    return sorted((Path(rapidocr.__file__).parent / "models").glob("*det*.onnx"))[0]


@pytest.fixture()
def fresh_cache(monkeypatch):
    monkeypatch.setattr(ocr_models, "_INT8_CACHE", {})


def test_copy_is_used_only_for_its_source(fresh_cache, monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_OCR_INT8", "1")
    index = json.loads((ocr_models.MODELS_DIR / "int8.json").read_text())
    assert "det" in index
    src = _wheel_det()
    if ocr_models._sha256(src) != index["det"]["source_sha256"]:
        pytest.skip(f"the installed rapidocr's {src.name} is not the one the int8 copy was made "
                    "from (the reader then runs the float model)")
    assert ocr_models.int8_model(src) == ocr_models.MODELS_DIR / index["det"]["file"]
    # the same file name with other bytes (another rapidocr release): float model
    other = tmp_path / src.name
    shutil.copy(src, other)
    with open(other, "ab") as f:
        f.write(b"\0")
    assert ocr_models.int8_model(other) is None
    # switched off
    monkeypatch.setenv("COMPANION_OCR_INT8", "0")
    assert ocr_models.int8_model(src) is None
    monkeypatch.setenv("COMPANION_OCR_INT8", "cls")
    assert ocr_models.int8_model(src) is None
    monkeypatch.setenv("COMPANION_OCR_INT8", "det,cls")
    assert ocr_models.int8_model(src) == ocr_models.MODELS_DIR / index["det"]["file"]


def test_auto_runs_the_copies_only_on_a_cpu_with_vnni(fresh_cache, monkeypatch):
    src = _wheel_det()
    index = json.loads((ocr_models.MODELS_DIR / "int8.json").read_text())
    if ocr_models._sha256(src) != index["det"]["source_sha256"]:
        pytest.skip("the installed rapidocr's detector is not the one the int8 copy was made from")
    copy = ocr_models.MODELS_DIR / index["det"]["file"]
    monkeypatch.setattr("platform.machine", lambda: "x86_64")
    # AVX2 without VNNI (this build machine's AMD EPYC): uint8 × int8 kernels saturate
    monkeypatch.setattr(ocr_models, "cpu_flags", lambda: frozenset({"sse4_2", "avx2", "fma"}))
    for flag in (None, "auto", ""):
        if flag is None:
            monkeypatch.delenv("COMPANION_OCR_INT8", raising=False)
        else:
            monkeypatch.setenv("COMPANION_OCR_INT8", flag)
        assert ocr_models.int8_model(src) is None, flag
    monkeypatch.setenv("COMPANION_OCR_INT8", "1")  # forced: any CPU
    assert ocr_models.int8_model(src) == copy
    for flags in ({"avx2", "avx512_vnni"}, {"avx2", "avx_vnni"}):
        monkeypatch.setattr(ocr_models, "cpu_flags", lambda flags=flags: frozenset(flags))
        monkeypatch.delenv("COMPANION_OCR_INT8", raising=False)
        assert ocr_models.int8_model(src) == copy, flags
    # another architecture (a Raspberry Pi): not measured there, float models
    monkeypatch.setattr("platform.machine", lambda: "aarch64")
    assert ocr_models.int8_model(src) is None


def test_cpu_flags_are_read_from_the_machine():
    flags = ocr_models.cpu_flags()
    assert isinstance(flags, frozenset)
    import platform

    if platform.machine() == "x86_64":
        assert "sse2" in flags  # every x86-64 CPU has it: the parse found the flags line


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    ra = cv2.boundingRect(a.astype(np.float32))
    rb = cv2.boundingRect(b.astype(np.float32))
    x0, y0 = max(ra[0], rb[0]), max(ra[1], rb[1])
    x1, y1 = min(ra[0] + ra[2], rb[0] + rb[2]), min(ra[1] + ra[3], rb[1] + rb[3])
    inter = max(0, x1 - x0) * max(0, y1 - y0)
    return inter / float(ra[2] * ra[3] + rb[2] * rb[3] - inter)


def test_int8_detector_finds_the_float_detectors_serial_lines(fresh_cache, monkeypatch):
    src = _wheel_det()
    monkeypatch.setenv("COMPANION_OCR_INT8", "1")
    if ocr_models.int8_model(src) is None:
        pytest.skip("no int8 copy for the installed rapidocr's detector")
    monkeypatch.setenv("COMPANION_OCR_INT8", "0")
    flt = RapidEngine()
    flt._models()
    monkeypatch.setenv("COMPANION_OCR_INT8", "1")
    q8 = RapidEngine()
    q8._models()
    assert any(f.endswith(".int8.onnx") for f in q8.model_files)
    assert not any(f.endswith(".int8.onnx") for f in flt.model_files)
    rng = random.Random(5)
    same = 0
    for i, cur in enumerate(("RUB", "EUR", "USD", "INR", "KRW", "JPY")):
        serial = RN.random_serial(cur, rng)
        note = RN.render_note(serial, cur, seed=5000 + i)
        frame = RN.render_scene([note], background=("felt", "wood", "cloth")[i % 3],
                                seed=5100 + i).image
        a = NoteReader(currency=cur, engine=flt, second_opinion=False, recogniser="ppocr")
        b = NoteReader(currency=cur, engine=q8, second_opinion=False, recogniser="ppocr")
        fa, fb = a._candidates(frame, 384), b._candidates(frame, 384)
        # the lines the float reader's verdict rests on are found by the int8 detector too
        ra = a._read_lines(fa)
        assert ra.decided, (cur, ra.reason)
        for c in a._last_lines:
            assert max(_iou(c.quad, d.quad) for d in fb) > 0.5, cur
        rb = b._read_lines(fb)
        same += (ra.serial, ra.reason) == (rb.serial, rb.reason)
        assert not rb.decided or rb.serial[-7:] == serial[-7:] or cur != "RUB", cur
        assert not rb.decided or cur == "RUB" or rb.serial == serial, cur
    assert same >= 5


def test_doctor_says_why_the_detector_runs_in_float(fresh_cache, monkeypatch):
    from companion.commands import doctor

    monkeypatch.delenv("COMPANION_OCR_INT8", raising=False)
    monkeypatch.setattr("platform.machine", lambda: "x86_64")
    monkeypatch.setattr(ocr_models, "cpu_flags", lambda: frozenset({"avx2"}))
    c = doctor.check_rapidocr()
    assert c.state == "ok"
    speed = c.said.facts["speed"]
    assert "no VNNI" in speed.id, speed.id
    assert "VNNI" in doctor.check_line(c, "ru")[0]
    monkeypatch.setenv("COMPANION_OCR_INT8", "0")
    assert "COMPANION_OCR_INT8=0" in doctor.check_rapidocr().said.facts["speed"].id
