"""``companion scan-note`` end to end (real files, real engines).

The text lines are checked against the command's message ids with the facts of the JSON read
(:func:`said`, rendered through the catalogue), not against pinned sentences; one real photo's
line keeps its rendered Russian and English words."""

from __future__ import annotations

import json
import re

import cv2

from companion.cli import main
from companion.i18n import M, MN, MP, decimal, render
from companion.vision import render_notes as RN
from companion.vision.notes import REASONS

#: the command's message ids (companion/commands/scan_note.py)
DECIDED = "%(path)s: %(serial)s (%(currency)s) last digit %(digit)s %(parity)s — confidence %(confidence)s"
NO_DECISION = "%(path)s: no decision — %(why)s (confidence %(confidence)s)"
SET_OK = "set: ok (%(notes)s: %(roses)s, %(skulls)s)"
SET_UNREAD = "set: %(unread)s — rescan %(images)s"


def said(id: str, lang: str, **facts) -> str:
    """The line message ``id`` with ``facts`` makes in ``lang``."""
    return render(M(id, **facts), lang)


def decided(lang: str, path, read: dict, currency: str) -> str:
    """The line of a decided JSON ``read`` of ``path`` (a note in ``currency``)."""
    return said(DECIDED, lang, path=str(path), serial=read["serial"], currency=currency,
                digit=read["last_digit"], parity=MP("parity", read["parity"]), confidence=decimal(read['confidence'], 2))


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
        assert (read["serial"], read["last_digit"], read["parity"]) == (serial, 0, "even")
        assert [ru, en] == [decided(lang, path, read, "RUB") + "\n" for lang in ("ru", "en")]
    else:
        code = next(k for k, v in REASONS.items() if v == read["reason"])
        assert [ru, en] == [said(NO_DECISION, lang, path=str(path), why=M(REASONS[code]),
                                 confidence=decimal(read['confidence'], 2)) + "\n" for lang in ("ru", "en")]


def test_scan_note_text_in_both_languages_on_real_photos(real_data, tmp_path, capsys):
    """The text lines, Russian by default and English with ``--lang en``, on a real serial crop
    (read: serial, last digit, parity) and a real photo where no serial shows (not sure: the
    reason in words, rescan)."""
    crop = real_data / "banknotes" / "ejeong93__SNRdataset" / "EUR005XBA_109_TR_ZB5458244919.bmp"
    scene = real_data / "banknotes" / "format37__tfodModelBanknotes" / "img03.JPG"
    assert main(["scan-note", str(crop), str(scene)]) == 0
    ru = capsys.readouterr().out.splitlines()
    assert main(["scan-note", "--lang", "en", str(crop), str(scene)]) == 0
    en = capsys.readouterr().out.splitlines()
    # the rendered words of a read line, once per language (the rest check ids and facts)
    assert ru[0].startswith(f"{crop}: серийный номер ZB5458244919 (EUR), последняя цифра 9 — нечётная, "
                            "уверенность "), ru[0]
    assert en[0].startswith(f"{crop}: ZB5458244919 (EUR) last digit 9 odd — confidence "), en[0]
    # the confidence with the language's decimal sign: «уверенность 0,97» / "confidence 0.97"
    assert re.fullmatch(r"[01],\d\d", ru[0].rsplit(" ", 1)[1]) and re.fullmatch(r"[01]\.\d\d", en[0].rsplit(" ", 1)[1])
    assert main(["scan-note", "--json", str(scene)]) == 0
    reason = json.loads(capsys.readouterr().out)["reason"]
    code = next(k for k, v in REASONS.items() if v == reason)
    assert [ru[1], en[1]] == [said(NO_DECISION, lang, path=str(scene), why=M(REASONS[code]), confidence=decimal(0.0, 2))
                              for lang in ("ru", "en")]
    assert ru[1].endswith("0,00)") and en[1].endswith("(confidence 0.00)"), (ru[1], en[1])
    assert "пересканируйте" in ru[1] or "--currency" in ru[1]


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
        assert [ru, en] == [said(SET_OK, lang, notes=MN("%(n)s note", "%(n)s notes", 4),
                                 roses=MN("%(n)s rose", "%(n)s roses", 3), skulls=MN("%(n)s skull", "%(n)s skulls", 1))
                            for lang in ("ru", "en")]
    else:
        unread = [l["image"] for l in lines[:-1] if not l["serial"]]
        assert [ru, en] == [said(SET_UNREAD, lang, unread=MN("%(n)s note not read", "%(n)s notes not read", len(unread)),
                                 images=", ".join(unread)) for lang in ("ru", "en")]
    assert main(["scan-note", "--json", "--set", "--currency", "EUR", paths[0], paths[0]]) == 0
    out = capsys.readouterr().out.splitlines()
    verdict = json.loads(out[-1])
    assert verdict["ok"] is False
    reasons = {p["reason"] for p in verdict["problems"]}
    assert reasons & {"duplicate_serial", "unread_note"}
    assert main(["scan-note", "--set", "--currency", "EUR", paths[0], paths[0]]) == 0
    ru = capsys.readouterr().out.splitlines()[2:]
    assert len(ru) == len(verdict["problems"])
    start = said("set: %(problem)s", "ru", problem="")
    if "duplicate_serial" in reasons:
        # the problems in the skull engine's order, each with its facts: the serial, the counts
        first = json.loads(out[0])["serial"]
        assert [p["reason"] for p in verdict["problems"]][:2] == ["duplicate_serial", "wrong_note_count"]
        assert ru[0].startswith(f"{start}{first} — ")
        each = lower(said("A player's set has the wrong number of notes: each player registers %(n)s.", "ru", n=4))
        assert ru[1] == start + said("%(words)s (%(n)s read)", "ru", words=each.rstrip("."), n=2)
    assert all(line.startswith(start) for line in ru)


def lower(words: str) -> str:
    """A sentence inside a line: its first letter lower-case (as ``set_words`` puts it)."""
    return words[:1].lower() + words[1:]


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


#: the ``--set`` lines of notes read as different currencies (companion/commands/scan_note.py)
SET_MIXED = ("set: not checked — the notes are in different currencies (%(currencies)s), but all of a player's "
             "notes are in one currency: give it with --currency")
SET_CURRENCY = "set: %(currency)s — %(notes)s"


def rendered_notes(tmp_path, notes) -> list[tuple[str, str, str]]:
    """Photos of rendered notes ``[(currency, parity)]``: ``[(path, serial, currency)]``."""
    import random

    rng = random.Random(21)
    made = []
    for i, (currency, parity) in enumerate(notes):
        serial = RN.random_serial(currency, rng, parity)
        scene = RN.render_scene([RN.render_note(serial, currency, seed=60 + i)], seed=60 + i, angle=8)
        path = tmp_path / f"n{i}-{currency}.jpg"
        cv2.imwrite(str(path), scene.image)
        made.append((str(path), serial, currency))
    return made


def test_scan_note_set_in_two_currencies_says_which_note_is_which(tmp_path, capsys):
    """``--set`` with ``--currency auto`` (the default) on notes read as two currencies: the bug was
    an uncaught ``bad_option`` (the set checked against currency "auto") and a traceback. Now the
    set is not judged: the last lines name the currencies and which image holds which note, in
    Russian by default and in English, the JSON says ``mixed_currency`` with the same, and the exit
    status is 1."""
    made = rendered_notes(tmp_path, [("RUB", "even"), ("EUR", "even"), ("RUB", "even"), ("EUR", "odd")])
    paths = [p for p, _s, _c in made]
    assert main(["scan-note", "--json", "--set", "--currency", "auto", *paths]) == 1
    out = capsys.readouterr()
    assert out.err == ""
    lines = [json.loads(line) for line in out.out.splitlines()]
    reads, verdict = lines[:-1], lines[-1]
    # the notes as read: a decided read is the rendered note, its currency the one it was made in
    groups: dict[str, list[tuple[str, str]]] = {}
    for (path, serial, currency), read in zip(made, reads):
        assert read["image"] == path and read["serial"] in (serial, None), read
        if read["serial"]:
            groups.setdefault(currency, []).append((path, serial))
    unread = [r["image"] for r in reads if not r["serial"]]
    assert list(groups) == ["RUB", "EUR"], reads  # both currencies read
    assert verdict["ok"] is False and verdict["set"] == [s for r in reads if (s := r["serial"])]
    assert [p["reason"] for p in verdict["problems"]] == ["mixed_currency"] + (["unread_note"] if unread else [])
    assert verdict["problems"][0]["currencies"] == {
        c: [{"image": p, "serial": s} for p, s in notes] for c, notes in groups.items()}
    # in words: the currencies, then each currency with its images and serials
    assert main(["scan-note", "--set", *paths]) == 1
    ru = capsys.readouterr()
    assert main(["scan-note", "--set", "--lang", "en", *paths]) == 1
    en = capsys.readouterr()
    assert ru.err == en.err == ""  # no traceback, no error line
    for lang, out in (("ru", ru), ("en", en)):
        want = [said(SET_MIXED, lang, currencies=["RUB", "EUR"])] + [
            said(SET_CURRENCY, lang, currency=c, notes=[M("%(image)s (%(serial)s)", image=p, serial=s) for p, s in notes])
            for c, notes in groups.items()]
        if unread:
            want.append(said(SET_UNREAD, lang, unread=MN("%(n)s note not read", "%(n)s notes not read", len(unread)),
                             images=", ".join(unread)))
        assert out.out.splitlines()[len(made):] == want
    # the rendered words, once per language
    ru_lines, en_lines = ru.out.splitlines()[len(made):], en.out.splitlines()[len(made):]
    assert ru_lines[0] == ("набор: не проверен — купюры в разных валютах (RUB, EUR), а все купюры игрока — "
                           "в одной валюте: укажите её через --currency"), ru_lines[0]
    assert en_lines[0] == ("set: not checked — the notes are in different currencies (RUB, EUR), but all of a "
                           "player's notes are in one currency: give it with --currency"), en_lines[0]
    path, serial = groups["EUR"][0]
    assert ru_lines[2].startswith(f"набор: EUR — {path} ({serial})") and en_lines[2].startswith(f"set: EUR — {path} ({serial})")


def test_scan_note_set_in_one_currency_with_auto_is_checked_in_it(tmp_path, capsys):
    """``--set`` with ``--currency auto`` on euro notes: checked as a euro set (the skull options'
    default currency is RUB, whose serial shape no euro serial fits): a good set is ok."""
    made = rendered_notes(tmp_path, [("EUR", "even"), ("EUR", "even"), ("EUR", "even"), ("EUR", "odd")])
    paths = [p for p, _s, _c in made]
    assert main(["scan-note", "--json", "--set", "--currency", "auto", *paths]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["serial"] for r in lines[:-1]] == [s for _p, s, _c in made]
    assert lines[-1] == {"set": [s for _p, s, _c in made], "ok": True, "problems": []}
    for lang in ("ru", "en"):
        assert main(["scan-note", "--set", "--lang", lang, *paths]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == said(
            SET_OK, lang, notes=MN("%(n)s note", "%(n)s notes", 4), roses=MN("%(n)s rose", "%(n)s roses", 3),
            skulls=MN("%(n)s skull", "%(n)s skulls", 1))
