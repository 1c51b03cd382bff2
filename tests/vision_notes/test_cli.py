"""``companion scan-note`` end to end (real files, real engines)."""

from __future__ import annotations

import json

import cv2

from companion.cli import main
from companion.vision import render_notes as RN
from companion.vision.notes import REASONS


def test_scan_note_json_lines(real_data, tmp_path, capsys):
    crop = real_data / "banknotes" / "ejeong93__SNRdataset" / "EUR005XBA_109_TR_ZB5458244919.bmp"
    scene = real_data / "banknotes" / "format37__tfodModelBanknotes" / "img03.JPG"
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"garbage")
    rc = main(["scan-note", "--json", str(crop), str(tmp_path / "missing.png"), str(bad), str(scene)])
    assert rc == 1  # two arguments gave no image; the other two were read
    lines = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    assert [l["image"] for l in lines] == [str(crop), str(tmp_path / "missing.png"), str(bad), str(scene)]
    keys = {"image", "serial", "last_digit", "parity", "confidence", "reason"}
    assert all(keys <= set(l) for l in lines)
    first = lines[0]
    assert first["serial"] == "ZB5458244919" and first["last_digit"] == 9 and first["parity"] == "odd"
    assert first["reason"] is None and first["confidence"] >= 0.95
    assert lines[1]["serial"] is None and lines[1]["reason"] == "no such file"
    assert lines[1]["error"] == "unreadable_file"
    assert lines[2]["serial"] is None and "not a readable image" in lines[2]["reason"]
    assert lines[3]["serial"] is None and lines[3]["parity"] is None and lines[3]["reason"]


def test_scan_note_text_and_rub_currency(tmp_path, capsys):
    serial = "АК2444840"
    scene = RN.render_scene([RN.render_note(serial, "RUB", seed=11)], seed=11, angle=25, tilt=0.1)
    path = tmp_path / "note.jpg"
    cv2.imwrite(str(path), scene.image)
    assert main(["scan-note", "--currency", "RUB", "--json", str(path)]) == 0
    read = json.loads(capsys.readouterr().out)
    assert main(["scan-note", "--currency", "RUB", "--lang", "en", str(path)]) == 0
    en = capsys.readouterr().out
    assert main(["scan-note", "--currency", "RUB", str(path)]) == 0  # Russian by default
    ru = capsys.readouterr().out
    assert en.startswith(str(path)) and ru.startswith(str(path))
    if read["serial"]:
        assert read["serial"] == serial
        assert f"{serial} (RUB) last digit 0 even" in en
        assert f"серийный номер {serial} (RUB), последняя цифра 0 — чётная" in ru
    else:
        assert "rescan" in en and "no decision" in en
        assert "пересканируйте" in ru and "нет решения" in ru


def test_scan_note_text_in_both_languages_on_real_photos(real_data, tmp_path, capsys):
    """The text lines, Russian by default and English with ``--lang en``, on a real serial crop
    (read: serial, last digit, parity) and a real photo where no serial shows (not sure: the
    reason in words, rescan)."""
    from companion.i18n import M, render

    crop = real_data / "banknotes" / "ejeong93__SNRdataset" / "EUR005XBA_109_TR_ZB5458244919.bmp"
    scene = real_data / "banknotes" / "format37__tfodModelBanknotes" / "img03.JPG"
    assert main(["scan-note", str(crop), str(scene)]) == 0
    ru = capsys.readouterr().out.splitlines()
    assert main(["scan-note", "--lang", "en", str(crop), str(scene)]) == 0
    en = capsys.readouterr().out.splitlines()
    assert ru[0].startswith(f"{crop}: серийный номер ZB5458244919 (EUR), последняя цифра 9 — нечётная, "
                            "уверенность "), ru[0]
    assert en[0].startswith(f"{crop}: ZB5458244919 (EUR) last digit 9 odd — confidence "), en[0]
    assert main(["scan-note", "--json", str(scene)]) == 0
    reason = json.loads(capsys.readouterr().out)["reason"]
    code = next(k for k, v in REASONS.items() if v == reason)
    assert ru[1] == f"{scene}: нет решения — {render(M(REASONS[code]), 'ru')} (уверенность 0.00)", ru[1]
    assert "пересканируйте" in ru[1] or "--currency" in ru[1]
    assert en[1].startswith(f"{scene}: no decision — {REASONS[code]}"), en[1]


def test_scan_note_unusable_argument_exits_2(capsys):
    try:
        rc = main(["scan-note", "--currency", "GBP", "x.jpg"])
    except SystemExit as exc:
        rc = exc.code
    assert rc == 2


def test_scan_note_set_check(tmp_path, capsys):
    # four rendered EUR notes: three even, one odd → a good set; a fifth copy of one → problems
    import random

    rng = random.Random(21)
    paths = []
    for i, parity in enumerate(("even", "even", "even", "odd")):
        serial = RN.random_serial("EUR", rng, parity)
        scene = RN.render_scene([RN.render_note(serial, "EUR", seed=60 + i)], seed=60 + i, angle=8)
        path = tmp_path / f"n{i}.jpg"
        cv2.imwrite(str(path), scene.image)
        paths.append(str(path))
    assert main(["scan-note", "--json", "--set", "--currency", "EUR", *paths]) == 0
    lines = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    verdict = lines[-1]
    assert set(verdict) == {"set", "ok", "problems"}
    read_all = all(l["serial"] for l in lines[:-1])
    if read_all:
        assert verdict["ok"] is True and verdict["problems"] == []
    else:
        assert verdict["problems"][0]["reason"] == "unread_note"
    # the same verdict in words: Russian by default (roses and skulls), English with --lang en
    assert main(["scan-note", "--set", "--currency", "EUR", *paths]) == 0
    ru = capsys.readouterr().out.splitlines()[-1]
    assert main(["scan-note", "--set", "--currency", "EUR", "--lang", "en", *paths]) == 0
    en = capsys.readouterr().out.splitlines()[-1]
    if read_all:
        assert ru == "набор: в порядке (4 купюры: 3 розы, 1 череп)"
        assert en == "set: ok (4 notes: 3 roses, 1 skull)"
    else:
        unread = [l["image"] for l in lines[:-1] if not l["serial"]]
        assert ru.startswith("набор: не прочитано ") and ru.endswith("пересканируйте " + ", ".join(unread))
        assert en.startswith("set: unread_note: ") and "rescan" in en
    assert main(["scan-note", "--json", "--set", "--currency", "EUR", paths[0], paths[0]]) == 0
    out = capsys.readouterr().out.splitlines()
    verdict = json.loads(out[-1])
    assert verdict["ok"] is False
    reasons = {p["reason"] for p in verdict["problems"]}
    assert reasons & {"duplicate_serial", "unread_note"}
    assert main(["scan-note", "--set", "--currency", "EUR", paths[0], paths[0]]) == 0
    ru = capsys.readouterr().out.splitlines()[2:]
    assert len(ru) == len(verdict["problems"])
    if "duplicate_serial" in reasons:
        first = json.loads(out[0])["serial"]
        assert ru[0] == f"набор: {first} — одна и та же купюра дважды в наборе игрока"
        assert ru[1] == "набор: неверное число купюр у игрока: каждый регистрирует 4 (прочитано 2)"
    assert all(line.startswith("набор: ") for line in ru)


def test_scan_note_with_a_currency_hints_at_another_currency(real_data, capsys):
    """A euro note scanned with ``--currency RUB`` (a first-time tester): «no serial number found»
    alone never hints that the note may be of another currency; the words say so (in Russian by
    default), the JSON keeps its fields and their values."""
    crop = real_data / "banknotes" / "ejeong93__SNRdataset" / "EUR005XBA_109_TR_ZB5458244919.bmp"
    assert main(["scan-note", "--currency", "RUB", "--lang", "en", str(crop)]) == 0
    out = capsys.readouterr().out
    assert "no decision — " in out and "no_serial" not in out, out  # words, not the reason code
    assert "or the note is not in RUB (try --currency auto)" in out, out
    assert main(["scan-note", "--currency", "RUB", str(crop)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{crop}: нет решения — серийный номер не найден"), out
    assert "; или купюра не в RUB (попробуйте --currency auto)" in out, out
    for lang in ("ru", "en"):
        assert main(["scan-note", "--currency", "RUB", "--json", "--lang", lang, str(crop)]) == 0
        line = json.loads(capsys.readouterr().out)
        assert set(line) == {"image", "serial", "last_digit", "parity", "confidence", "reason"}
        assert line["serial"] is None and line["reason"] == REASONS["no_serial"]  # as before
