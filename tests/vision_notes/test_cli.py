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
    assert rc == 0
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
    assert main(["scan-note", "--currency", "RUB", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(str(path))
    assert (serial in out and "even" in out) or "rescan" in out


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
    if all(l["serial"] for l in lines[:-1]):
        assert verdict["ok"] is True and verdict["problems"] == []
    else:
        assert verdict["problems"][0]["reason"] == "unread_note"
    assert main(["scan-note", "--json", "--set", "--currency", "EUR", paths[0], paths[0]]) == 0
    verdict = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert verdict["ok"] is False
    reasons = {p["reason"] for p in verdict["problems"]}
    assert reasons & {"duplicate_serial", "unread_note"}


def test_scan_note_with_a_currency_hints_at_another_currency(real_data, capsys):
    """A euro note scanned with ``--currency RUB`` (a first-time tester): «no serial number found»
    alone never hints that the note may be of another currency; the words say so, the JSON keeps
    its fields and their values."""
    crop = real_data / "banknotes" / "ejeong93__SNRdataset" / "EUR005XBA_109_TR_ZB5458244919.bmp"
    assert main(["scan-note", "--currency", "RUB", str(crop)]) == 0
    out = capsys.readouterr().out
    assert "no decision (no_serial)" in out, out
    assert "or the note is not in RUB (try --currency auto)" in out, out
    assert main(["scan-note", "--currency", "RUB", "--json", str(crop)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert set(line) == {"image", "serial", "last_digit", "parity", "confidence", "reason"}
    assert line["serial"] is None and line["reason"] == REASONS["no_serial"]  # as before
