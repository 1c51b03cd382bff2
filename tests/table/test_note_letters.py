"""The table never logs a guessed serial: a note read whose Cyrillic letters are not confirmed
is an abstention for the camera loop (rescan, then the operator), its digits notwithstanding."""

from __future__ import annotations

import numpy as np

import companion.vision.notes as notes_mod
from companion import parts
from companion.settings import Settings
from companion.vision.notes import REASONS, NoteRead


class _Reader:
    """Stands in for NoteReader: returns a prepared verdict for every frame."""

    verdict: NoteRead

    def __init__(self, currency="auto", **_kw):
        self.currency = currency

    def read_stream(self, frame):
        return self.verdict


def _read_with(monkeypatch, verdict: NoteRead):
    _Reader.verdict = verdict
    monkeypatch.setattr(notes_mod, "NoteReader", _Reader)
    read = parts._note_reader(Settings(game="skull", sim=True))
    return read(np.zeros((720, 1280, 3), np.uint8))


def test_unconfirmed_letters_are_an_abstention(monkeypatch):
    [item] = _read_with(monkeypatch, NoteRead("ЗЕ8230090", "RUB", 0.97, None, letters_confirmed=False))
    assert item.value is None and item.reason == "letters_unconfirmed" and item.reason in REASONS


def test_confirmed_letters_are_logged(monkeypatch):
    [item] = _read_with(monkeypatch, NoteRead("ЭЕ8230090", "RUB", 0.97, None, letters_confirmed=True))
    assert item.value == "ЭЕ8230090" and item.reason is None
