"""A text too long for its field says its length as Russian counts it: «101 символ», «22 символа»,
«25 символов» (a plural message, ``ngettext``), never «101 символов»; English says "characters"."""

from __future__ import annotations

import pytest

from companion.dashboard.reasons import facts_words, http_message, long_name_words
from companion.games.seats import MAX_SEAT_NAME
from companion.i18n import render

FORMS = [(101, "символ"), (21, "символ"), (22, "символа"), (1004, "символа"), (25, "символов"), (111, "символов"),
         (12, "символов")]

WHAT = {"pin": "Слишком длинный ПИН", "code": "Слишком длинный код", "seats": "Слишком длинный список имён",
        "name": "Слишком длинное имя", "": "Слишком длинный текст", "other": "Слишком длинный текст"}


@pytest.mark.parametrize("field", sorted(WHAT))
@pytest.mark.parametrize("n, word", FORMS)
def test_a_field_too_long_counts_its_characters_in_russian(field, n, word):
    said = http_message(400, "ru", f"bad_text: too_long: {field}: {n}: 10")
    assert said == f"{WHAT[field]}: {n} {word}, не больше 10.", said


@pytest.mark.parametrize("n, word", [(1, "character"), (21, "characters"), (101, "characters")])
def test_english_counts_characters_too(n, word):
    assert http_message(400, "en", f"bad_text: too_long: pin: {n}: 10") == f"The PIN is too long: {n} {word}, at most 10."


@pytest.mark.parametrize("n, word", FORMS)
def test_a_player_name_too_long_counts_its_characters(n, word):
    said = render(long_name_words("Я" * n), "ru")
    assert said.startswith(f"Слишком длинное имя: {n} {word}, не больше {MAX_SEAT_NAME} («"), said
    # the same count from the refusal's facts (``--seats``, the new-game check)
    told = facts_words("bad_seats", {"too_long": "Я", "length": n, "most": MAX_SEAT_NAME, "given": 3, "max": 8})
    assert told is not None
    assert render(told, "ru").startswith(f"Слишком длинное имя: {n} {word}, не больше {MAX_SEAT_NAME} («Я»)")
    assert render(told, "en").startswith(f"The name is too long: {n} character"), render(told, "en")


@pytest.mark.parametrize("lang, said", [("ru", "Слишком длинный код: 41 символ, не больше 32. Введите код места ещё раз."),
                                        ("en", "The code is too long: 41 characters, at most 32. Type the seat's code again.")])
def test_a_seat_code_too_long_counts_its_characters(tmp_path, lang, said):
    from markupsafe import escape

    from companion.dashboard import create_app
    from companion.table import Table

    table = Table(tmp_path / "t", pin="246810")
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    app = create_app(table, testing=True)
    try:
        c = app.test_client()
        if lang == "en":
            c.get("/lang/en")
        r = c.get("/join", query_string={"code": "1" * 41})
        assert r.status_code == 400
        assert str(escape(said)) in r.get_data(as_text=True)
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()
