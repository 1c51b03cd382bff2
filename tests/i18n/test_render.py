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
