"""Seat names are compared as people read them (companion.games.base.name_key): names that look
the same on a screen are one player, and a name nobody can see is no name."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.games import registry
from companion.games.base import name_key, repeated_name


@pytest.mark.parametrize("a, b", [
    ("Аня", "аня"),
    ("Аня", " Аня "),
    ("Аня", "Аня\u200b"),          # zero-width space
    ("Аня", "\u200eАня"),          # left-to-right mark
    ("Ａnna", "Anna"),             # full-width A
    ("A\u0301", "\u00c1"),         # decomposed and composed Á
    ("Алёна", "Алена"),
    ("Анна  Мария", "Анна Мария"),
    ("Аня", "Aня"),                # a Latin A
    ("ВИКА", "BИKA"),              # Latin B and K among Cyrillic capitals
    ("Олег", "\u039fлег"),          # a Greek capital omicron
    ("Tom", "TOM"),                # case still folds in a Latin name
    ("Ivan", "\u0406van"),          # a Ukrainian І
])
def test_names_that_look_the_same_are_one_player(a, b):
    assert name_key(a) == name_key(b)
    assert repeated_name([a, "Борис", b]) == b


def test_different_names_stay_different():
    assert repeated_name(["Аня", "Аня2", "Ани", "Anya"]) is None
    assert repeated_name(["Ольга", "Olga", "\u039f\u03bb\u03b3\u03b1"]) is None  # «l» and «λ» are not «л»


def test_a_look_alike_name_stays_as_typed():
    """Only the comparison folds alphabets: the seat keeps the letters the operator typed."""
    game = registry.get("skull").engine(["Aня", "Борис"])
    assert game.seats == ("Aня", "Борис") and game.seats[0][0] == "A"


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_game_refuses_a_look_alike_or_invisible_name(game_id):
    spec = registry.get(game_id)
    extra = ["Вика", "Гена"]  # four players: every game, the lottery's banker and dealer included
    with pytest.raises(IllegalAction) as err:
        spec.engine(["Аня", "Аня\u200b", *extra])
    assert err.value.reason == "bad_seats"
    with pytest.raises(IllegalAction) as err:
        spec.engine(["Аня", "Aня", *extra])  # the second with a Latin A
    assert err.value.reason == "bad_seats" and err.value.facts["repeated"] == "Aня"
    with pytest.raises(IllegalAction) as err:
        spec.engine(["Аня", "\u200b\u200d", *extra])
    assert err.value.reason == "bad_seats"
    assert spec.engine(["Аня", "Борис", *extra]).seats[:2] == ("Аня", "Борис")


EMPTY = "player %(seat)s has an empty name (--seats): each player needs a name"


@pytest.mark.parametrize("seats, seat", [
    (["Аня", "Борис", ""], 3),             # `--seats "Аня,Борис, "`: the blank after the last comma
    (["Аня", "\u200b", "Борис"], 2),       # a name of only a zero-width space
])
def test_a_blank_name_is_said_as_a_blank_name_at_its_place(seats, seat):
    """Not «this number of players does not suit the game»: the count is fine, a name is missing."""
    from companion.commands.results import _refusal_message
    from companion.commands.run import error_words
    from companion.i18n import render
    from tests.wording import said

    with pytest.raises(IllegalAction) as err:
        registry.get("skull").engine(seats)
    assert err.value.reason == "bad_seats" and err.value.facts == {"empty": seat}
    msg = _refusal_message(err.value, "skull")
    assert said(msg) == (EMPTY, {"seat": seat})
    assert error_words(err.value, "ru") == render(msg, "ru")
