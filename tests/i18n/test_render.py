"""The renderer: ids and facts into Russian or English, plural forms, contexts, nested words."""

from __future__ import annotations

import pytest

from companion.i18n import M, MP, MPN, both, render
from companion.games.words import chips, names_and, notes, suit


@pytest.mark.parametrize("n, ru", [(1, "1 фишка"), (2, "2 фишки"), (5, "5 фишек"), (11, "11 фишек"),
                                   (21, "21 фишка"), (22, "22 фишки"), (112, "112 фишек"), (0, "0 фишек")])
def test_russian_plural_forms_come_from_the_catalogue(n, ru):
    assert render(chips(n), "ru") == ru
    assert render(chips(n), "en") == (f"{n} chip" if n == 1 else f"{n} chips")


def test_context_chooses_the_form():
    assert render(chips(1, acc=True), "ru") == "1 фишку"
    assert render(MPN("object", "%(n)s chip", "%(n)s chips", 3), "ru") == "3 фишки"
    assert render(MP("one card", "Check: turned up %(kinds)s — %(told)s; %(end)s", kinds=["гриб"],
                     told=M("true"), end=M("the pile (%(pile)s) is discarded", pile=4)), "ru") == \
        "Проверка: открыта карта «гриб» — правда; стопка (4) в биту"


def test_facts_that_are_words_are_rendered_in_the_same_language():
    msg = M("%(who)s: %(what)s", who=M("Waiting for the operator"), what=suit("QH"))
    assert render(msg, "ru") == "Ждём оператора: черви ♥"
    assert render(msg, "en") == "Waiting for the operator: hearts ♥"
    assert both(names_and(["Аня", "Борис", "Вика"])) == {"ru": "Аня, Борис и Вика", "en": "Аня, Борис and Вика"}
    assert render(M("%(n)s of %(of)s", n={"ru": "гриб", "en": "mushroom"}, of=notes(3)), "en") == "mushroom of 3 notes"


def test_plain_text_and_none_pass_through():
    assert render("as it is", "ru") == "as it is"
    assert render(None, "en") is None
    assert both(None) is None


def test_a_text_whose_facts_do_not_fit_falls_back_without_raising(caplog):
    assert render(M("%(name)s leads"), "ru") == "Ходит %(name)s"  # no facts: the text as it is
    assert render(M("%(name)s leads", other=1), "en") == "%(name)s leads"
    assert "does not fit" in caplog.text


def test_english_has_english_quotes_and_data_keeps_its_own():
    """Some ids are written with «…» (their Russian keeps them); an English line or page showed
    them too. English text has “…”; a fact that is data (a name) is left as it was typed."""
    from companion.i18n import M, render

    twice = M("The name «%(name)s» is entered twice: each player needs a name of their own.", name="«Аня»")
    assert render(twice, "en") == "The name \u201c«Аня»\u201d is entered twice: each player needs a name of their own."
    assert render(twice, "ru").startswith("Имя ««Аня»»")
    assert render(M("«%(text)s»", text=M("Deal")), "en") == "\u201cDeal\u201d"


def test_english_pages_have_english_quotes(tmp_path):
    """The pages' own words (Flask-Babel) read the same way: the operator's refusal in English."""
    import re

    from companion.dashboard import create_app
    from companion.table import Table
    from tests.dashboard.helpers import operator_client

    table = Table(tmp_path, pin="246810")
    try:
        app = create_app(table, testing=True)
        c, csrf = operator_client(app, table)
        c.set_cookie("lang", "en")
        r = c.post("/operator/new", data={"game": "skull", "seats": "Аня\nАня", "csrf_token": csrf})
        alert = re.search(r'<p class="error" role="alert"[^>]*>([^<]*)</p>', r.get_data(as_text=True)).group(1)
        assert alert == "The name \u201cАня\u201d is entered twice: each player needs a name of their own.", alert
        js = app.test_client()
        js.set_cookie("lang", "en")
        page = js.get("/").get_data(as_text=True)  # the script's words ride in the page's boot data
        assert '"quoted": "\u201c%(text)s\u201d"' in page and "«" not in page
        app.extensions["companion"]["hub"].close()
    finally:
        table.close()


def test_a_decimal_fact_is_written_with_the_languages_decimal_sign():
    from companion.i18n import M, decimal, render

    # (an id without a catalogue entry: the sentence as it is, the number in each language's way)
    assert render(M("%(n)s", n=decimal(12.345)), "ru") == "12,3"
    assert render(M("%(n)s", n=decimal(12.345)), "en") == "12.3"
    assert render(M("%(n)s", n=decimal(7, 2)), "ru") == "7,00" and render(M("%(n)s", n=decimal(7, 0)), "en") == "7"
