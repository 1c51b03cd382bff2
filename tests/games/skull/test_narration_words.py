"""Skull tells its events in Russian that reads right for any name (a first-time tester found
«Открыта купюра Аня», «Чужая купюра в стопке Аня», «Череп (Игрок 2)!» — a name left in the
nominative after a noun; the next one «Череп у игрока Игрок 2!», «Открыта купюра игрока Игрок 4»:
a default name stacked after «игрока»; so a name stands before or after a colon — «кладёт купюру
рубашкой вверх», though a banknote has no «рубашка»
(seed 000: the notes lie «номером вниз»), and «купюр 15» in the end-of-game box while the history
says «15 купюр»).

The words are the golden snapshot tests/i18n/golden/skull-names.<lang>.txt (one rendered check per
language); the checks here are where the name stands and that the count comes first."""

from __future__ import annotations

import pytest

from companion.games.base import Event
from companion.games.skull import describe_event, describe_standings, notes_count
from companion.i18n import render
from tests.wording import golden

SEATS = ["Аня", "Игрок 2", "Вика"]

#: the events whose words name a player, a note, a count
EVENTS = [
    ("flip", {"seat": 1, "serial": "АК2444841", "role": "rose"}),
    ("foreign_note", {"seat": 0, "why": "other_owner"}),
    ("foreign_note", {"seat": 1, "why": "in_bank"}),
    ("outcome", {"outcome": "failure", "skull_owner": 1, "losers": [0], "chooser": 1, "dealer": 0, "bid": 2}),
    ("place", {"seat": 2, "stack": 1}),
    ("game_over", {"winner": 0, "bank": ["x"] * 3, "face_value": None}),
]
BOX = {"over": True, "winner": 0, "bank": {"count": 15, "face_value": 1500, "currency": "RUB"}}


def _told(kind: str, lang: str = "ru", **data) -> str:
    return render(describe_event(Event(kind, data), SEATS), lang)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_words_are_the_golden_ones(lang):
    lines = [f"{kind}: {_told(kind, lang, **data)}" for kind, data in EVENTS]
    lines.append(f"box: {render(describe_standings(BOX, SEATS), lang)}")
    golden(f"skull-names.{lang}.txt", "\n".join(lines) + "\n")


def test_a_name_stands_by_a_colon_never_after_igroka():
    for kind, data in EVENTS[:4]:
        told = _told(kind, **data)
        assert "игрока Игрок" not in told, told
        # the player's name (who flipped, whose stack, whose skull) opens the line or ends a clause
        name = SEATS[data.get("seat", data.get("skull_owner", 0))]
        assert told.startswith(f"{name}:") or f": {name}" in told, told


def test_a_note_goes_down_number_down_as_the_seed_says():
    told = _told("place", seat=2, stack=1)
    assert told.startswith("Вика ") and "рубашк" not in told and told.endswith(" 1)"), told


def test_the_bank_is_counted_number_first_in_the_box_and_the_history_alike():
    assert [render(notes_count(n), "ru") for n in (1, 3, 15, 21)] == ["1 купюра", "3 купюры", "15 купюр", "21 купюра"]
    box = render(describe_standings(BOX, SEATS), "ru")
    assert render(notes_count(15), "ru") in box and "1500 RUB" in box, box
    assert render(notes_count(3), "ru") in _told("game_over", winner=0, bank=["x"] * 3, face_value=None)


def test_the_console_summary_counts_the_bank_number_first():
    from companion.commands.run import format_result

    told = format_result({"winner": 0, "bank": ["x"] * 15}, SEATS, "ru")
    assert render(notes_count(15), "ru") in told, told
    assert render(notes_count(2), "ru") in format_result({"winner": 0, "bank": ["x", "y"]}, SEATS, "ru")
