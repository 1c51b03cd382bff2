"""``companion deck learn`` on a folder whose photos do not look like a deck — one stray image in
``/tmp``, half a standard deck — refuses in one line that says how many face photos it found
against how many the deck needs, and which files it skipped and why (exit status 1: the folder is
not what the command reads). Nothing is learned."""

from __future__ import annotations

import cv2
import numpy as np

from companion.cli import main


def _folder(tmp_path, photos: int):
    folder = tmp_path / "photos"
    (folder / "sub").mkdir(parents=True)
    (folder / "notes.txt").write_text("x")
    (folder / ".hidden").write_text("x")
    for i in range(photos):
        cv2.imwrite(str(folder / f"card{i}.png"), np.full((120, 80, 3), 200, np.uint8))
    return folder


def test_one_stray_image_is_not_a_deck(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DECKS", str(tmp_path / "decks"))
    folder = _folder(tmp_path, 1)
    assert main(["deck", "learn", "forest", str(folder)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    assert "не похожа на колоду: найден 1 снимок карты, а нужно хотя бы 2" in err, err
    assert "пропущено: 1 файл — не снимок (notes.txt), 1 скрытый файл (.hidden), 1 папка (sub)" in err, err
    assert not (tmp_path / "decks" / "forest").exists()
    assert main(["deck", "learn", "forest", str(folder), "--lang", "en"]) == 1
    en = capsys.readouterr().err
    assert "1 face photo found, a deck needs at least 2" in en and "1 file that is not a photo (notes.txt)" in en, en


def test_a_standard_deck_needs_a_photo_of_each_face(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DECKS", str(tmp_path / "decks"))
    folder = _folder(tmp_path, 3)
    assert main(["deck", "learn", "std", str(folder), "--kind", "standard", "--deck-size", "36", "--lang", "en"]) == 1
    en = capsys.readouterr().err
    assert "3 face photos found, a 36-card deck needs 36 (one photo per face)" in en, en
    assert not (tmp_path / "decks" / "std").exists()
