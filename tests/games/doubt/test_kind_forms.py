"""A kind typed in another common form — the way a move is said («выложить 2 гриба», «5 сов»,
"3 owls") — is the kind: nominative singular and plural, genitive singular and plural (what the
counts 2–4 and 5+ take), the accusative singular where it differs, English plurals
(:data:`companion.games.doubt.deck.KIND_FORMS`). A new user's «выложить 2 гриба» was refused."""

from __future__ import annotations

import pytest

from companion.games import new_game
from companion.games.doubt.deck import DEFAULT_DECK, KIND_FORMS


@pytest.mark.parametrize("typed, kind", [
    ("гриб", "mushroom"), ("гриба", "mushroom"), ("Грибы", "mushroom"), ("грибов", "mushroom"),
    ("ягоды", "berry"), ("ягод", "berry"), ("ягоду", "berry"),
    ("жёлудя", "acorn"), ("желуди", "acorn"), ("ЖЕЛУДЕЙ", "acorn"),
    ("листа", "leaf"), ("листья", "leaf"), ("листьев", "leaf"),
    ("ежа", "hedgehog"), ("ежи", "hedgehog"), ("ежей", "hedgehog"),
    ("белки", "squirrel"), ("белок", "squirrel"), ("белку", "squirrel"),
    ("зайца", "hare"), ("зайцы", "hare"), ("зайцев", "hare"),
    ("совы", "owl"), ("сов", "owl"), ("сову", "owl"),
    ("mushrooms", "mushroom"), ("Berries", "berry"), ("leaves", "leaf"), ("owls", "owl"),
])
def test_the_common_forms_of_a_kind_name_are_the_kind(typed, kind):
    for deck in ("forest104", "forest64"):
        assert new_game("doubt", ["А", "Б", "В"], {"deck": deck}).kind_for_name(typed) == kind


@pytest.mark.parametrize("typed", ["лиса", "гриббб", "гр", "совсем", ""])
def test_other_words_are_no_kind(typed):
    assert new_game("doubt", ["А", "Б", "В"]).kind_for_name(typed) is None


def test_every_built_in_kind_has_its_forms_and_no_form_names_two_kinds():
    from companion.sanitise import fold_words

    for k in DEFAULT_DECK["kinds"]:
        assert k["name"] in KIND_FORMS and k["name_en"] in KIND_FORMS, k
    seen: dict[str, str] = {}
    for name, forms in KIND_FORMS.items():
        for form in forms:
            assert seen.setdefault(fold_words(form), name) == name, form


def test_a_tables_own_deck_keeps_its_names_and_takes_the_forms_only_of_a_built_in_name():
    deck = {"kinds": [{"id": "fox", "name": "лиса", "count": 4}, {"id": "mushroom", "name": "гриб", "count": 4}]}
    g = new_game("doubt", ["А", "Б"], {"deck": deck})
    assert g.kind_for_name("лиса") == "fox" and g.kind_for_name("гриба") == "mushroom"
    assert g.kind_for_name("совы") is None  # not a kind of this deck
