"""What the table shows people: prompts in each screen's own language, seat names as typed but never reversed."""

from __future__ import annotations

from companion.i18n import M
from companion.table import Table
from companion.i18n import both


def test_a_prompt_message_is_kept_in_each_language_and_shown_in_one(tmp_path):
    table = Table(tmp_path, pin="246810", resume=False)
    try:
        table.add_prompt(M("Show %(name)s's notes to the camera", name="Аня"), kind="scan", seat=0)
        (p,) = table.prompts()
        assert p["words"] == both(M("Show %(name)s's notes to the camera", name="Аня"))
        assert p["text"] == p["words"]["ru"]  # Russian first for a reader that knows no words field
        assert all("/" not in w for w in p["words"].values())
    finally:
        table.close()


def test_a_typed_prompt_is_shown_as_typed_on_every_screen(tmp_path):
    table = Table(tmp_path, pin="246810", resume=False)
    try:
        table.add_prompt("Аня, покажите вторую купюру", kind="info")
        (p,) = table.prompts()
        assert p["words"] == {"ru": "Аня, покажите вторую купюру", "en": "Аня, покажите вторую купюру"}
    finally:
        table.close()



def test_direction_controls_are_dropped_from_a_seat_name(tmp_path):
    """A name with a right-to-left override would show reversed («сироБ») on every screen."""
    table = Table(tmp_path, pin="246810", resume=False)
    try:
        ref = table.new_game("doubt", ["Аня", "\u202eБорис\u202c", "Ви\u2067ка\u2069"])
        assert ref.game.seats == ("Аня", "Борис", "Вика")
    finally:
        table.close()
