"""``companion scan-note`` and ``companion scan-card`` treat bad files and folders alike.

A missing or corrupt file gets one clear error line and the other images are still read; the exit
status is then 1 (an argument could not be used at all), 0 when every image was read, 2 for an
unusable command line. A folder stands for the images in it.
"""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main
from companion.vision import render_scenes as RS


@pytest.fixture
def files(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "b_bad.JPG").write_bytes(b"\xff\xd8 broken")
    (photos / "readme.txt").write_text("not an image", encoding="utf-8")
    img, _ = RS.scatter_scene(["QH", "10S"], seed=8)
    cv2.imwrite(str(photos / "a_cards.png"), img)
    empty = tmp_path / "empty"
    empty.mkdir()
    return {"missing": str(tmp_path / "missing.jpg"), "photos": photos, "empty": str(empty)}


@pytest.mark.parametrize("command", ["scan-note", "scan-card"])
def test_bad_files_exit_1_with_one_clear_line_each(command, files, capsys):
    rc = main([command, "--lang", "en", files["missing"], files["empty"]])
    captured = capsys.readouterr()
    assert rc == 1
    err = captured.err.splitlines()
    assert len(err) == 2, captured
    assert err[0].startswith(files["missing"] + ": error: ")
    assert "no such file" in err[0]
    assert err[0].count(files["missing"]) == 1  # the path once, not "x: error: x: no such file"
    assert err[1] == files["empty"] + ": error: no images in the folder (.jpg .jpeg .png .bmp .tif .tiff .webp)"


@pytest.mark.parametrize("command", ["scan-note", "scan-card"])
def test_bad_files_in_russian_by_default(command, files, capsys):
    """The operator's tools speak the console's language, Russian by default (as ``companion
    run``): the same error lines, in Russian words, the path once."""
    rc = main([command, files["missing"], files["empty"], str(files["photos"] / "b_bad.JPG")])
    captured = capsys.readouterr()
    assert rc == 1
    assert captured.err.splitlines() == [
        files["missing"] + ": ошибка: нет такого файла",
        files["empty"] + ": ошибка: в папке нет снимков (.jpg .jpeg .png .bmp .tif .tiff .webp)",
        str(files["photos"] / "b_bad.JPG") + ": ошибка: снимок не читается (файл повреждён или формат неизвестен)",
    ], captured
    assert captured.out == ""


@pytest.mark.parametrize("command", ["scan-note", "scan-card"])
def test_json_is_the_same_in_both_languages(command, files, capsys):
    """``--lang`` words the lines for people; the JSON for programs keeps its keys, codes and
    English reasons whatever it says."""
    outs = []
    for lang in ("ru", "en"):
        assert main([command, "--json", "--lang", lang, str(files["photos"]), files["missing"]]) == 1
        captured = capsys.readouterr()
        assert captured.err == ""
        outs.append([json.loads(x) for x in captured.out.splitlines()])
    assert outs[0] == outs[1]
    assert outs[0][-1]["reason"] == "no such file" and outs[0][-1]["error"] == "unreadable_file"
    assert "not a readable image" in outs[0][1]["reason"]


@pytest.mark.parametrize("command", ["scan-note", "scan-card"])
def test_a_folder_is_read_image_by_image(command, files, capsys):
    rc = main([command, "--json", str(files["photos"])])
    assert rc == 1  # its b_bad.JPG could not be read
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    names = [x["image"] for x in lines]
    assert names == [str(files["photos"] / "a_cards.png"), str(files["photos"] / "b_bad.JPG")]
    assert "not a readable image" in lines[1]["reason"]
    assert "no such file" not in lines[1]["reason"]
    if command == "scan-card":
        assert [c["card"] for c in lines[0]["cards"]] == ["QH", "10S"]
    else:  # cards, not a note: the note reader abstains rather than calling the file missing
        assert lines[0]["serial"] is None and "no such file" not in lines[0]["reason"]


def test_unusable_argument_still_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["scan-card", "--alphabet", "klingon", "--lang", "en", "x.jpg"])
    assert e.value.code == 2
    assert "error: argument --alphabet: invalid choice: 'klingon'" in capsys.readouterr().err
    assert main(["scan-card", "--deck", "nosuchdeck", "--lang", "en", "x.jpg"]) == 2
    assert "no deck profile 'nosuchdeck'" in capsys.readouterr().err


@pytest.mark.parametrize("argv,words", [
    (["scan-card", "--alphabet", "klingon", "x.jpg"],
     "companion scan-card: ошибка: аргумент --alphabet: недопустимое значение 'klingon' (можно: "),
    (["scan-note", "--currency", "GBP", "x.jpg"],
     "companion scan-note: ошибка: аргумент --currency: недопустимое значение 'GBP' (можно: 'auto', 'RUB'"),
    # quoted as typed, not upper-cased
    (["scan-note", "--currency", "тугрик", "x.jpg"],
     "companion scan-note: ошибка: аргумент --currency: недопустимое значение 'тугрик' (можно: 'auto', 'RUB'"),
    (["scan-note"], "companion scan-note: ошибка: не хватает аргументов: СНИМОК"),
    (["scan-card", "x.jpg", "--bogus"], "companion scan-card: ошибка: неизвестные аргументы: --bogus"),
    (["doctor", "--port", "eighty"], "companion doctor: ошибка: аргумент --port: нужно целое число, а задано 'eighty'"),
])
def test_unusable_argument_in_russian_by_default(argv, words, capsys):
    """argparse's refusals speak the tool's language too (usage line, then the reason), exit 2."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("использование: companion ") and words in err, err
    with pytest.raises(SystemExit) as e:  # the same refusal in English with --lang en
        main(argv + ["--lang", "en"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert ": error: " in err and "ошибка" not in err, err


def test_unknown_deck_in_russian(capsys):
    assert main(["scan-card", "--deck", "nosuchdeck", "x.jpg"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion scan-card: нет выученной колоды 'nosuchdeck'"), err
    assert "companion deck list" in err


@pytest.mark.parametrize("command", ["scan-note", "scan-card"])
def test_a_missing_file_among_good_ones_exits_1_and_the_rest_is_read(command, files, capsys):
    good = str(files["photos"] / "a_cards.png")
    assert main([command, "--json", good]) == 0  # every image read (a "not sure" read is a read)
    capsys.readouterr()
    assert main([command, "--json", files["missing"], good]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["image"] for x in lines] == [files["missing"], good]
    assert lines[0]["error"] == "unreadable_file" and "error" not in lines[1]


@pytest.mark.parametrize("typed, code", [
    ("руб", "RUB"), ("Рубли", "RUB"), ("₽", "RUB"), (" евро ", "EUR"), ("€", "EUR"), ("доллар", "USD"), ("$", "USD"),
    ("рупии", "INR"), ("вона", "KRW"), ("йена", "JPY"), ("Иены", "JPY"), ("eur", "EUR"),
    ("Auto", "auto"), ("gbp", "GBP"),
])
def test_a_currency_by_its_name_or_sign(typed, code):
    from companion.vision.serials import currency_code

    assert currency_code(typed) == code


@pytest.mark.parametrize("command", ["scan-note", "scan-card"])
def test_a_too_small_image_is_refused_alike(command, tmp_path, capsys):
    """The newcomer's report: a 1×1 PNG gave scan-note "no decision … confidence 0.00", exit 0,
    while scan-card refused it. Both refuse it with the one shared check and its words
    (:func:`companion.vision.images.check_min_side`), exit 1, in both languages and in JSON."""
    import numpy as np

    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    assert main([command, str(tiny)]) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"{tiny}: ошибка: снимок слишком мал: 1×1 пикс."], captured
    assert captured.out == ""
    assert main([command, "--lang", "en", str(tiny)]) == 1
    assert capsys.readouterr().err.splitlines() == [f"{tiny}: error: image too small: 1×1 px"]
    assert main([command, "--json", str(tiny)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert (out["error"], out["reason"]) == ("unreadable_file", "image too small: 1×1 px")


def test_the_too_small_refusal_has_its_code_and_facts():
    import numpy as np

    from companion.errors import VisionError
    from companion.vision.notes import NoteReader

    with pytest.raises(VisionError) as caught:
        NoteReader(currency="auto").read(np.zeros((3, 40, 3), np.uint8))
    assert (caught.value.code, caught.value.facts) == ("too_small", {"w": 40, "h": 3})
