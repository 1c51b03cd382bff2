"""Skull tells its events in Russian that reads right for any name (a first-time tester found
«Открыта купюра Аня», «Чужая купюра в стопке Аня», «Череп (Игрок 2)!» — a name left in the
nominative after a noun; the next one «Череп у игрока Игрок 2!», «Открыта купюра игрока Игрок 4»:
a default name stacked after «игрока»; so a name stands before or after a colon — «кладёт купюру
рубашкой вверх», though a banknote has no «рубашка»
(seed 000: the notes lie «номером вниз»), and «купюр 15» in the end-of-game box while the history
says «15 купюр»)."""

from __future__ import annotations

from companion.games.base import Event
from companion.games.skull import describe_event, describe_standings, notes_count
from companion.i18n import render

SEATS = ["Аня", "Игрок 2", "Вика"]


def _ru(kind: str, **data) -> str:
    return describe_event(Event(kind, data), SEATS, "ru")


def test_a_name_stands_by_a_colon_never_after_igroka():
    assert _ru("flip", seat=1, serial="АК2444841", role="rose").startswith("Игрок 2: открыта купюра АК2444841 — ")
    assert _ru("foreign_note", seat=0, why="other_owner").startswith("Аня: в стопке чужая купюра — ")
    told = _ru("outcome", outcome="failure", skull_owner=1, losers=[0], chooser=1, dealer=0, bid=2)
    assert told.startswith("Череп: Игрок 2! В банк платят: Аня; выбирает Игрок 2"), told
    for kind, data in (("flip", {"seat": 1, "serial": "АК2444841", "role": "rose"}),
                       ("foreign_note", {"seat": 1, "why": "in_bank"}),
                       ("outcome", {"outcome": "failure", "skull_owner": 1, "losers": [0], "chooser": 1,
                                    "dealer": 0, "bid": 2})):
        assert "игрока Игрок" not in _ru(kind, **data)


def test_a_note_goes_down_number_down_as_the_seed_says():
    assert _ru("place", seat=2, stack=1) == "Вика кладёт купюру номером вниз (в стопке 1)"


def test_the_bank_is_counted_number_first_in_the_box_and_the_history_alike():
    assert [render(notes_count(n), "ru") for n in (1, 3, 15, 21)] == ["1 купюра", "3 купюры", "15 купюр", "21 купюра"]
    box = describe_standings({"over": True, "winner": 0, "bank": {"count": 15, "face_value": 1500,
                                                                 "currency": "RUB"}}, SEATS, "ru")
    assert box == "Игра окончена! Аня забирает банк: 15 купюр, 1500 RUB", box
    history = _ru("game_over", winner=0, bank=["x"] * 3, face_value=None)
    assert history == "Игра окончена! Аня забирает банк: 3 купюры", history


def test_the_console_summary_counts_the_bank_number_first():
    from companion.commands.run import format_result

    told = format_result({"winner": 0, "bank": ["x"] * 15}, SEATS, "ru")
    assert "банк: 15 купюр" in told, told
    assert "банк: 2 купюры" in format_result({"winner": 0, "bank": ["x", "y"]}, SEATS, "ru")
