"""``companion deck learn`` on a folder with several photos of each face (the shared Vosloo set:
144 photos of a 24-card deck, ``10C_00`` … ``10C_12``) learned «144 лица» without a word. Photos
whose names differ only by a repeat number and whose pictures agree are one face, said in a note
that names them and how many faces were learned (companion.vision.deck_repeats); a deck of one
photo per face, or a mere naming scheme (``card_1`` … ``card_24``), is learned as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.i18n import MN, render
from companion.vision.deck_repeats import face_of
from companion.vision.decks import DeckProfile

VOSLOO = "Vosloo__playing-cards-detection"
NOTE = ("note: %(n)s face was photographed several times and is learned as one face (%(photos)s photos, "
        "%(faces)s faces in all): %(list)s",
        "note: %(n)s faces were photographed several times, each learned as one face (%(photos)s photos, "
        "%(faces)s faces in all): %(list)s")


@pytest.fixture
def vosloo(real_data) -> Path:
    return real_data / "cards" / VOSLOO


def _linked(tmp_path: Path, photos: dict[str, Path]) -> Path:
    """A folder of links to the shared photos under new names (the photos are read in place)."""
    folder = tmp_path / "photos"
    folder.mkdir()
    for name, src in photos.items():
        (folder / name).symlink_to(src)
    return folder


@pytest.mark.parametrize("label, face", [("10C_00", "10C"), ("гриб-2", "гриб"), ("гриб (3)", "гриб"),
                                         ("333", "333"), ("QH", "QH"), ("IMG_0001", "IMG_0001"), ("-5", "-5")])
def test_a_repeat_number_is_taken_off_a_label(label, face):
    assert face_of(label) == face


def test_six_photos_of_each_face_are_24_faces_and_said(vosloo, tmp_path, capsys):
    root = tmp_path / "decks"
    assert main(["deck", "--root", str(root), "learn", "vosloo", str(vosloo)]) == 0
    prof = DeckProfile.load("vosloo", root)
    assert len(prof.faces) == 24 and all("_" not in f.label for f in prof.faces)
    assert len(prof.feature_labels) == 2 * 144  # every photo's views kept, both ways up
    merged = prof.meta["merged_photos"]
    assert sorted(merged) == sorted(f.label for f in prof.faces) and all(len(v) == 6 for v in merged.values())
    assert merged["10C"] == ["10C_00", "10C_01", "10C_02", "10C_10", "10C_11", "10C_12"]
    out = capsys.readouterr()
    note = MN(*NOTE, 24, photos=144, faces=24, list=", ".join(f"{k} ×6" for k in merged))
    assert render(note, "ru") in out.err.splitlines(), out.err
    assert "24" in out.out.splitlines()[0]
    # the merged profile reads its own photos as the shared face
    from companion.vision.decks import _largest_card
    from companion.vision.images import load_image

    assert prof.match(_largest_card(load_image(vosloo / "QH_11.jpg")))[0] == "QH"


def test_one_photo_per_face_and_a_naming_scheme_stay_as_they_are(vosloo, tmp_path, capsys):
    firsts = sorted(p for p in vosloo.glob("*_00.jpg"))
    root = tmp_path / "decks"
    one = _linked(tmp_path, {p.name: p for p in firsts})
    assert main(["deck", "--root", str(root), "learn", "one", str(one)]) == 0
    prof = DeckProfile.load("one", root)
    assert len(prof.faces) == 24 and "merged_photos" not in prof.meta
    scheme = tmp_path / "scheme"
    scheme.mkdir()
    for i, p in enumerate(firsts, 1):  # 24 different cards named card_1 … card_24
        (scheme / f"card_{i}.jpg").symlink_to(p)
    assert main(["deck", "--root", str(root), "learn", "scheme", str(scheme)]) == 0
    assert len(DeckProfile.load("scheme", root).faces) == 24
    assert "примечание" not in capsys.readouterr().err


def test_a_standard_deck_named_with_repeat_numbers_learns_its_codes(vosloo, tmp_path):
    """A standard deck's labels are card codes: ``10C_00`` is the code ``10C`` photographed again,
    not «not a card code»."""
    root = tmp_path / "decks"
    assert main(["deck", "--root", str(root), "learn", "std", str(vosloo), "--kind", "standard",
                 "--deck-size", "32"]) == 0
    prof = DeckProfile.load("std", root)
    assert prof.kind == "standard" and len(prof.faces) == 24 and {f.label for f in prof.faces} >= {"10C", "AS"}
