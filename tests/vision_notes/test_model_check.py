"""`companion doctor`'s check of the serial recogniser's model file
(companion.vision.serialnet.check_model, companion/commands/doctor.py check_note_model)."""

from __future__ import annotations

from companion.commands import doctor
from companion.vision import serialnet as SN


def test_the_shipped_model_passes():
    code, facts = SN.check_model()
    assert code == "ok", facts
    assert facts["input"][1:3] == [1, SN.HEIGHT] and facts["classes"] == len(SN.CHARSET) + 1
    c = doctor.check_note_model()
    assert c.state == "ok" and "serialnet.onnx" in c.detail
    assert doctor.check_line(c, "ru")[0].startswith("[ок")


def test_doctor_says_the_models_size_with_the_languages_decimal_sign():
    """«1,04 МБ» in Russian, "1.04 MB" in English (an i18n decimal fact, never a Python float)."""
    _code, facts = SN.check_model()
    mb = f"{facts['mb']:.2f}"
    c = doctor.check_note_model()
    assert f": {mb.replace('.', ',')} МБ," in doctor.check_line(c, "ru")[0], doctor.check_line(c, "ru")
    assert f": {mb} MB," in doctor.check_line(c, "en")[0] and f": {mb} MB," in c.detail


def test_a_missing_damaged_or_foreign_model_fails_with_a_fix(tmp_path):
    assert SN.check_model(tmp_path / "none.onnx")[0] == "missing"
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model" * 100)
    code, facts = SN.check_model(bad)
    assert code == "unloadable" and facts["error"]
    # another model of the project (the card reader's): loads, but has the wrong shapes
    code, facts = SN.check_model(SN.MODEL_FILE.parent / "card_index.onnx")
    assert code == "wrong_shape", facts
    assert facts["input"] == ["n", 3, 48, 32]


def test_doctor_says_a_missing_model_in_both_languages(monkeypatch, tmp_path):
    monkeypatch.setattr(SN, "MODEL_FILE", tmp_path / "serialnet.onnx")
    c = doctor.check_note_model()
    assert c.state == "fail" and "missing" in c.detail and c.fix
    ru = doctor.check_line(c, "ru")
    assert ru[0].startswith("[СБОЙ") and "нет модели" in ru[0] and "что сделать" in ru[1]
    assert doctor.check_line(c, "en")[0].startswith("[FAIL")


def test_doctor_says_the_model_shapes_in_words_not_as_a_python_list(monkeypatch, tmp_path):
    c = doctor.check_note_model()
    ru, en = doctor.check_line(c, "ru")[0], doctor.check_line(c, "en")[0]
    assert "[" not in ru.split("]", 1)[1] and "'n'" not in ru, ru
    assert f"1 канал, {SN.HEIGHT} пикс. в высоту, ширина любая" in ru, ru
    assert f"1 channel, {SN.HEIGHT} px high, width any" in en, en
    monkeypatch.setattr(SN, "MODEL_FILE", SN.MODEL_FILE.parent / "card_index.onnx")
    wrong = doctor.check_line(doctor.check_note_model(), "ru")[0]
    assert "['n'" not in wrong and "3 канала, 48 пикс. в высоту, ширина 32" in wrong, wrong
