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
])
def test_names_that_look_the_same_are_one_player(a, b):
    assert name_key(a) == name_key(b)
    assert repeated_name([a, "Борис", b]) == b


def test_different_names_stay_different():
    assert repeated_name(["Аня", "Аня2", "Ани", "Anya"]) is None


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_game_refuses_a_look_alike_or_invisible_name(game_id):
    spec = registry.get(game_id)
    extra = ["Вика", "Гена"]  # four players: every game, the lottery's banker and dealer included
    with pytest.raises(IllegalAction) as err:
        spec.engine(["Аня", "Аня\u200b", *extra])
    assert err.value.reason == "bad_seats"
    with pytest.raises(IllegalAction) as err:
        spec.engine(["Аня", "\u200b\u200d", *extra])
    assert err.value.reason == "bad_seats"
    assert spec.engine(["Аня", "Борис", *extra]).seats[:2] == ("Аня", "Борис")
