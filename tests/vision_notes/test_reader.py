"""The note reader on real photos (shared/data/real/banknotes) and on rendered notes.

Real OpenCV, real RapidOCR models from the wheel, real Tesseract. Thresholds are floors well below
the measured figures (bench/notes.py prints those); wrong parities must be zero everywhere.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from companion.errors import VisionError
from companion.vision import render_notes as RN
from companion.vision import serials as S
from companion.vision.notes import REASONS, NoteRead, NoteVoter, is_strip, load_image

CROPS = "ejeong93__SNRdataset"


def manifest(folder):
    rows = []
    for line in (folder / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        name, label = line.split("\t")[:2]
        rows.append((name, label))
    return sorted(rows)


def test_real_crops_exact_and_never_a_wrong_parity(real_data, reader_for):
    folder = real_data / "banknotes" / CROPS
    rows = manifest(folder)
    assert len(rows) >= 90
    rows = rows[1::2]            # the held-out half (bench/notes.py reports both halves)
    ok = wrong_parity = decided = 0
    for name, label in rows:
        img = load_image(folder / name)
        assert is_strip(img), name
        r = reader_for(name[:3]).read(img)
        decided += r.decided
        ok += r.serial == label
        if r.decided and S.parity(r.serial) != S.parity(label):
            wrong_parity += 1
    assert wrong_parity == 0
    assert ok >= 0.75 * len(rows), f"exact {ok}/{len(rows)}"
    assert decided - ok <= 2, f"{decided - ok} wrong serials decided"


def test_russian_cluttered_scenes_abstain(real_data, reader_for):
    folder = real_data / "banknotes" / "format37__tfodModelBanknotes"
    rows = manifest(folder)
    assert rows
    for name, label in rows[::2]:
        assert label == "unreadable"
        r = reader_for("auto").read(load_image(folder / name))
        assert not r.decided, (name, r)
        assert r.reason and r.parity is None


def test_usd_scans_read_both_copies(real_data, reader_for):
    folder = real_data / "banknotes" / "ptbarros__dollar-bill-processor"
    rows = manifest(folder)
    assert len(rows) >= 30
    ok = 0
    for name, label in rows:
        r = reader_for("USD").read(load_image(folder / name))
        if r.decided:
            assert r.serial == label, name
        ok += r.serial == label
    # measured: 27 of 34 with the seed-28 recogniser (23 with the seed-18 one; docs/vision-notes.md,
    # nineteenth session); every sixth scan alone was too small a sample for a floor (3 to 4 of 6)
    assert ok >= 0.7 * len(rows), f"{ok}/{len(rows)}"


def test_real_rub_note_is_never_misread(real_data, reader_for):
    folder = real_data / "banknotes" / "dysff__unique_banknote_code_ocr"
    for name, label in manifest(folder):
        r = reader_for("RUB").read(load_image(folder / name))
        assert r.serial in (None, S.canonical(label))
        assert r.candidate is None or S.last_digit(r.candidate) == S.last_digit(S.canonical(label))


@pytest.mark.parametrize("seed", range(6))
def test_rendered_rub_notes_any_angle(seed, reader_for):
    rng = random.Random(seed)
    serial = RN.random_serial("RUB", rng, parity=("even", "odd")[seed % 2])
    note = RN.render_note(serial, "RUB", seed=seed)
    scene = RN.render_scene([note], background=("felt", "wood", "cloth")[seed % 3], seed=seed,
                            angle=rng.uniform(0, 360), blur=0.6, glare=0.2 * (seed % 2), jpeg=80)
    r = reader_for("RUB").read(scene.image)
    if r.decided:
        # digits (hence parity) exact; the Cyrillic letters are exact when confirmed
        assert r.serial[2:] == serial[2:], (serial, r)
        if r.letters_confirmed:
            assert r.serial == serial
    else:
        assert r.reason in REASONS


def test_rendered_notes_decided_share(reader_for):
    rng = random.Random(7)
    n = decided = 0
    for i, cur in enumerate(("RUB", "EUR", "USD", "KRW", "JPY", "INR", "RUB", "EUR")):
        serial = RN.random_serial(cur, rng)
        scene = RN.render_scene([RN.render_note(serial, cur, seed=40 + i)], seed=40 + i)
        r = reader_for(cur).read(scene.image)
        n += 1
        decided += r.decided
        if r.decided:
            assert r.serial[-7:] == serial[-7:], (cur, serial, r)
            assert r.serial == serial or (cur == "RUB" and not r.letters_confirmed)
    assert decided >= n - 1, f"decided {decided}/{n}"


def test_copies_that_disagree_abstain(reader_for):
    rng = random.Random(3)
    a = RN.random_serial("RUB", rng, "even")
    b = a[:-1] + str((int(a[-1]) + 1) % 10)
    note = RN.render_note(a, "RUB", seed=3, vertical_serial=b)
    assert note.serial is None
    scene = RN.render_scene([note], seed=3, angle=10, tilt=0.05)
    r = reader_for("RUB").read(scene.image)
    assert not r.decided


def test_hard_negatives_abstain(reader_for):
    rng = random.Random(5)
    back = RN.render_scene([RN.render_note(None, "RUB", seed=5, side="back")], seed=5)
    assert reader_for("RUB").read(back.image).reason == "no_serial"
    fake = RN.random_serial("EUR", rng)
    fake = fake[:-1] + str((int(fake[-1]) + 1) % 10)           # breaks the EUR check rule
    bad = RN.render_scene([RN.render_note(None, "EUR", seed=6, fake_text=fake)], seed=6, angle=5)
    assert not reader_for("EUR").read(bad.image).decided
    two = RN.render_scene([RN.render_note(RN.random_serial("RUB", rng, "even"), "RUB", seed=8),
                           RN.render_note(RN.random_serial("RUB", rng, "odd"), "RUB", seed=9)],
                          seed=8, angle=0, tilt=0.0)
    assert not reader_for("RUB").read(two.image).decided
    table = RN.make_background("wood", (640, 480), seed=1)
    assert reader_for("auto").read(table).reason == "no_serial"


def test_bad_images_raise_vision_error(tmp_path, reader_for):
    with pytest.raises(VisionError):
        load_image(tmp_path / "missing.jpg")
    (tmp_path / "bad.png").write_bytes(b"\x89PNG broken")
    with pytest.raises(VisionError):
        load_image(tmp_path / "bad.png")
    with pytest.raises(VisionError):
        reader_for("auto").read(np.zeros((10, 10, 3), np.float32))


def test_voter_commits_only_on_agreement():
    def nr(serial):
        return NoteRead(serial, "RUB" if serial else None, 0.99 if serial else 0.0,
                        None if serial else "low_confidence")

    v = NoteVoter(need=3, window=5)
    assert v.add(nr("АК2444841")) is None
    assert v.add(nr(None)) is None                   # abstentions do not count
    assert v.add(nr("АК2444841")) is None
    assert v.add(nr("АК2444841")) == "АК2444841"
    v.reset()
    for s in ("АК2444841", "АК2444842", "АК2444841", "АК2444841"):
        out = v.add(nr(s))
    assert out is None                               # a disagreeing frame in the window blocks
    with pytest.raises(ValueError):
        NoteVoter(need=0)


def test_one_tesseract_process_per_photo_at_most(reader_for, monkeypatch):
    reader = reader_for("RUB")
    calls = []
    tess = reader.tesseract
    assert tess is not None
    real = type(tess).read_lines
    monkeypatch.setattr(type(tess), "read_lines",
                        lambda self, lines: calls.append(len(lines)) or real(self, lines))
    rng = random.Random(4)
    for seed in (21, 22, 23):
        calls.clear()
        serial = RN.random_serial("RUB", rng)
        scene = RN.render_scene([RN.render_note(serial, "RUB", seed=seed)], seed=seed)
        reader.read(scene.image)
        assert len(calls) <= 1, calls


def test_growing_glyphs_are_evened():
    from companion.vision.note_lines import even_glyph_heights

    heights = [0.7 + 0.6 * i / 9 for i in range(10)]
    alpha = RN._text_layer("Ак 2444841", 40, heights)
    line = np.full(alpha.shape + (3,), 230, np.uint8)
    line[alpha > 128] = (40, 40, 170)
    line = np.pad(line, ((8, 8), (8, 8), (0, 0)), constant_values=230)
    out = even_glyph_heights(line)
    gray = out[..., 0] if out.ndim == 3 else out
    ink = gray < 128
    cols = np.flatnonzero(ink.any(axis=0))
    assert cols.size
    # every glyph column run now spans (nearly) the same rows
    spans = []
    runs = np.split(cols, np.flatnonzero(np.diff(cols) > 1) + 1)
    for run in runs:
        rows = np.flatnonzero(ink[:, run].any(axis=1))
        spans.append(rows[-1] - rows[0] + 1)
    assert len(runs) >= 8
    assert max(spans) - min(spans) <= 0.2 * max(spans), spans


def test_angle_classifier_turns_lines(reader_for):
    rng = random.Random(9)
    serial = RN.random_serial("EUR", rng)
    scene = RN.render_scene([RN.render_note(serial, "EUR", seed=9)], seed=9, angle=0, tilt=0)
    eng = reader_for("EUR").engine
    lines = reader_for("EUR").candidate_lines(scene.image)
    texts = [r.text for r in eng.read_lines(lines)]
    line = lines[[k for k, t in enumerate(texts) if S.canonical(t) == serial][0]]
    turned = np.ascontiguousarray(line[::-1, ::-1])
    (a, _), (b, _) = eng.upside_down([line, turned])
    assert (a, b) == (False, True)


def test_a_note_of_another_currency_is_not_read_into_the_tables_format(reader_for):
    """Rendered euro notes read by a USD table (a realistic mistake) and a misread euro serial
    (check fails) read under auto: never a decided serial with another last digit."""
    import random as _random

    from companion.vision import render_notes as _RN

    rng = _random.Random(31)
    for i in range(4):
        serial = _RN.random_serial("EUR", rng)
        bad = serial[:-1] + str((int(serial[-1]) + 1) % 10)  # fails the euro check
        for shown, cur in ((serial, "USD"), (bad, "auto")):
            note = _RN.render_note(None, "EUR", seed=3100 + i, fake_text=shown)
            frame = _RN.render_scene([note], seed=3200 + i).image
            r = reader_for(cur).read(frame)
            assert not r.decided or r.last_digit == int(shown[-1]), (shown, cur, r.serial)
