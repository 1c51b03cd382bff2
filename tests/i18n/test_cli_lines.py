"""The lines the CLI commands print for a refused argument or a failure are in one language: the
run's (Russian by default, English with ``--lang en``) — no English words on a Russian line (the
typed values, paths and flag names aside), no Cyrillic on an English one; and the words come from
the catalogue (message ids), not from an exception's English text."""

from __future__ import annotations

import json
import re

import pytest

from companion import cli
from companion.commands import scan_note
from companion.i18n import M, MN, cli as words, render

#: Latin words a Russian line may hold: flags and values as typed, names of things and formats
TECH = {"companion", "run", "deck", "learn", "replay", "say", "option", "seed", "json", "jsonl", "true", "false",
        "espeak", "ng", "aplay", "wav", "seats", "options", "companion_log", "force", "lang", "en", "ru"}

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def latin_words(line: str, *facts: str) -> set[str]:
    """The Latin words of ``line`` that are neither one of ``facts`` (what was typed) nor TECH."""
    for f in sorted(facts, key=len, reverse=True):
        line = line.replace(f, " ")
    return {w for w in re.findall(r"[A-Za-z][A-Za-z_]+", line) if w.lower() not in TECH}


@pytest.fixture(autouse=True)
def _restore(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    yield
    words.use("ru")


def _run(argv, capsys) -> tuple[int, str]:
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse's refusal
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, (out.err + out.out).strip().splitlines()[-1]


@pytest.mark.parametrize("argv,facts", [
    (["run", "--seed", "abc"], ("abc",)),
    (["run", "--seed", "-1"], ("-1",)),
    (["run", "--sim", "--json", "--game", "skull", "--option", "notes_per_player=abc"], ("notes_per_player", "abc")),
    (["run", "--sim", "--json", "--game", "skull", "--option", "notes_per_player=1.5"], ("notes_per_player",)),
    (["run", "--sim", "--json", "--game", "skull", "--option", "last_skull_out=7"], ("last_skull_out",)),
    (["run", "--sim", "--json", "--game", "doubt", "--option", "deck=5"], ("deck",)),
])
def test_run_refusals_in_one_language(argv, facts, capsys):
    code, ru = _run(argv, capsys)
    assert code == 2 or code == 1
    assert CYRILLIC.search(ru) and not latin_words(ru, *facts), ru
    code_en, en = _run(argv + ["--lang", "en"], capsys)
    assert code_en == code and not CYRILLIC.search(en), en


def test_camera_refusal_in_one_language(capsys):
    code, ru = _run(["run", "--sim", "--json", "--camera", "x:y"], capsys)
    assert code == 2 and CYRILLIC.search(ru)
    assert not latin_words(ru, "x:y", "auto", "picamera2", "opencv:INDEX|URL|VIDEO", "folder:PATH", "image:PATH",
                           "scene"), ru
    _, en = _run(["run", "--sim", "--json", "--camera", "x:y", "--lang", "en"], capsys)
    assert not CYRILLIC.search(en), en


def test_deck_learn_refusals_in_one_language(tmp_path, capsys):
    empty = tmp_path / "photos"
    empty.mkdir()
    for argv, facts in ((["deck", "learn", "bad/name", str(empty)], ("bad/name",)),
                        (["deck", "learn", "forest", str(empty)], (str(empty), "bmp", "jpeg", "jpg", "png", "tif",
                                                                   "tiff", "webp"))):
        code, ru = _run(argv + ["--root", str(tmp_path / "decks")] if False else argv, capsys)
        assert code in (1, 2) and CYRILLIC.search(ru) and not latin_words(ru, *facts), ru
        _, en = _run(argv + ["--lang", "en"], capsys)
        assert not CYRILLIC.search(en), en


def test_replay_bad_header_in_one_language(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("garbage\n", encoding="utf-8")
    code, ru = _run(["replay", str(bad)], capsys)
    assert code == 1 and CYRILLIC.search(ru) and not latin_words(ru, str(bad)), ru
    _, en = _run(["replay", str(bad), "--lang", "en"], capsys)
    assert not CYRILLIC.search(en), en


def test_replay_rejected_lines_in_russian(tmp_path, capsys):
    log = tmp_path / "t.jsonl"
    log.write_text(json.dumps({"game": "skull", "seats": ["Аня", "Борис", "Вика"]}) + "\nnot json\n", encoding="utf-8")
    code, _ = _run(["replay", str(log)], capsys)
    cli.main(["replay", str(log)])
    lines = [x for x in capsys.readouterr().out.splitlines() if x.strip().startswith("строка")]
    assert code == 0 and lines and not latin_words(lines[0]), lines


def test_say_wav_write_error_in_one_language(capsys):
    code, ru = _run(["say", "--wav", "/nonexistent/dir/x.wav", "Череп"], capsys)
    assert code != 0 and CYRILLIC.search(ru) and not latin_words(ru, "/nonexistent/dir/x.wav", "/nonexistent/dir"), ru
    code_en, en = _run(["say", "--wav", "/nonexistent/dir/x.wav", "skull", "--lang", "en"], capsys)
    assert code_en != 0 and not CYRILLIC.search(en), en


@pytest.mark.parametrize("n", [1, 2, 5, 21])
def test_scan_note_unread_set_plural(n):
    unread = [f"p{i}.jpg" for i in range(n)]
    problems = [("unread_note", "english detail")]
    ru = scan_note.set_words([], unread, problems, lang="ru")[0]
    assert render(MN("%(n)s note not read", "%(n)s notes not read", n), "ru") in ru
    assert not latin_words(ru, *unread), ru
    en = scan_note.set_words([], unread, problems, lang="en")[0]
    assert "unread_note" not in en and not CYRILLIC.search(en), en


def test_scan_note_unread_plural_agrees():
    one, two, five = (render(MN("%(n)s note not read", "%(n)s notes not read", n), "ru") for n in (1, 2, 5))
    assert one.split()[1] != two.split()[1]  # «прочитана 1 купюра», «прочитано 2 купюры»
    assert len({one.split()[-1], two.split()[-1], five.split()[-1]}) == 3  # купюра, купюры, купюр


def test_scan_note_set_problems_english_words_not_codes():
    serials = ["АБ1234560", "АБ1234562"]
    from companion.games.skull import validate_note_set

    problems = validate_note_set(serials, {"currency": "RUB"})
    assert problems
    en = scan_note.set_words(serials, [], problems, lang="en")
    for (reason, _), line in zip(problems, en):
        assert reason not in line and not CYRILLIC.search(line), line
    ru = scan_note.set_words(serials, [], problems, lang="ru")
    for line in ru:
        assert CYRILLIC.search(line) and not latin_words(line, *serials), line


SETS = [(["АБ1234560", "АБ1234560"], "EUR"), (["ab 12", "АБ1234562"], "RUB"),
        (["АБ1234560", "АБ1234562", "АБ1234564", "АБ1234566"], "RUB"), (["АБ1234560", "АБ1234562"], "RUB")]


@pytest.mark.parametrize("serials, currency", SETS)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_scan_note_set_problems_are_worded_by_the_sets_currency_and_counts(monkeypatch, serials, currency, lang):
    """``scan-note --set``'s problems are the registration refusals' sentences for what the set is
    checked against — the notes' currency (its serial shape), the notes and skulls a set holds —
    whatever games the table has registered (the command looks no game up by its id)."""
    from companion.dashboard.reasons import reason_words
    from companion.games import registry
    from companion.games.skull import SERIAL_SHAPES, SkullOptions, validate_note_set

    options = SkullOptions.from_dict({"currency": currency})
    problems = validate_note_set(serials, options)
    assert problems
    lines = scan_note.set_words(serials, [], problems, currency, lang)
    # the words the dashboard gives the same codes for a table of that currency
    for (reason, _), line in zip(problems, lines):
        words = render(reason_words(reason, "skull", options), lang).rstrip(".")
        assert words[:1].lower() + words[1:] in line, (reason, line)
    if any(reason == "serial_format" for reason, _ in problems):
        shape = render(M(SERIAL_SHAPES[currency][0]), lang)
        assert any(f"{currency}" in line and shape in line for line in lines), lines  # the set's currency's shape
    monkeypatch.setattr(registry, "find", lambda game_id: None)  # no game found by any id
    assert scan_note.set_words(serials, [], problems, currency, lang) == lines
