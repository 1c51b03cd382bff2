"""``companion deck learn`` refuses a bad profile name first — one line, exit 2 — before it reads
any photo (loading and learning a deck's photos is the slow part), and an existing profile
without ``--force`` before the photos too."""

from __future__ import annotations

import pytest

from companion.i18n import M, render

from companion.cli import main
from companion.vision import decks


def _unreadable_photos(folder):
    """A folder whose only 'photo' is not an image: reading it fails, so any error about the
    photo proves the photos were read before the name was looked at."""
    folder.mkdir()
    (folder / "A.jpg").write_bytes(b"not a jpeg")
    (folder / "B.jpg").write_bytes(b"not a jpeg either")  # two faces: a deck, as far as counting goes
    return folder


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "x" * 65, "two words"])
def test_a_bad_name_is_refused_before_the_photos(name, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DECKS", str(tmp_path / "decks"))
    loaded = []
    monkeypatch.setattr(decks, "load_image", lambda p, *a, **k: loaded.append(p))
    photos = _unreadable_photos(tmp_path / "photos")
    assert main(["deck", "learn", name, str(photos)]) == 2
    err = capsys.readouterr().err
    told = render(M("bad deck name %(name)r: 1-64 letters, digits, '_', '.' or '-' (not only dots)", name=name), "ru")
    assert err.count("\n") == 1 and told in err and repr(name) in err, err
    assert "A.jpg" not in err and not loaded
    assert not (tmp_path / "decks").exists()
    # the library function says the same, also before any photo
    with pytest.raises(ValueError, match="bad deck name"):
        decks.learn(name, photos, root=tmp_path / "decks")
    assert not loaded


def test_an_existing_profile_is_refused_before_the_photos(tmp_path, monkeypatch):
    (tmp_path / "decks" / "doubt").mkdir(parents=True)
    loaded = []
    monkeypatch.setattr(decks, "load_image", lambda p, *a, **k: loaded.append(p))
    with pytest.raises(FileExistsError, match="--force"):
        decks.learn("doubt", _unreadable_photos(tmp_path / "photos"), root=tmp_path / "decks")
    assert not loaded


def test_a_good_name_still_reaches_the_photos(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COMPANION_DECKS", str(tmp_path / "decks"))
    photos = _unreadable_photos(tmp_path / "photos")
    assert main(["deck", "learn", "Грибы-2", str(photos)]) == 1
    assert "A.jpg" in capsys.readouterr().err  # the photo's own error, now that the name is fine
