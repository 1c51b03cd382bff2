"""``companion scan-note`` and ``companion scan-card`` treat bad files and folders alike.

A missing or corrupt file gets one clear error line and the other images are still read; the exit
status is 0 unless an argument was unusable (2). A folder stands for the images in it.
"""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main
from companion.vision import render_cards as R


@pytest.fixture
def files(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "b_bad.JPG").write_bytes(b"\xff\xd8 broken")
    (photos / "readme.txt").write_text("not an image", encoding="utf-8")
    img, _ = R.scatter_scene(["QH", "10S"], seed=8)
    cv2.imwrite(str(photos / "a_cards.png"), img)
    empty = tmp_path / "empty"
    empty.mkdir()
    return {"missing": str(tmp_path / "missing.jpg"), "photos": photos, "empty": str(empty)}


@pytest.mark.parametrize("command", ["scan-note", "scan-card"])
def test_bad_files_exit_0_with_one_clear_line_each(command, files, capsys):
    rc = main([command, files["missing"], files["empty"]])
    captured = capsys.readouterr()
    assert rc == 0
    err = captured.err.splitlines()
    assert len(err) == 2, captured
    assert err[0].startswith(files["missing"] + ": error: ")
    assert "no such file" in err[0]
    assert err[0].count(files["missing"]) == 1  # the path once, not "x: error: x: no such file"
    assert err[1] == files["empty"] + ": error: no images in the folder (.jpg .jpeg .png .bmp .tif .tiff .webp)"


@pytest.mark.parametrize("command", ["scan-note", "scan-card"])
def test_a_folder_is_read_image_by_image(command, files, capsys):
    rc = main([command, "--json", str(files["photos"])])
    assert rc == 0
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
        main(["scan-card", "--alphabet", "klingon", "x.jpg"])
    assert e.value.code == 2
    assert main(["scan-card", "--deck", "nosuchdeck", "x.jpg"]) == 2
