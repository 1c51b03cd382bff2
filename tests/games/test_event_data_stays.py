"""An event's data is what happened when it happened: a later action never changes it (the
lottery's «Вика получает: Q♥, 10♠, 2♣» read «10♠, 2♣» after a restart, because the event held
the hand itself and Q♥ later won a prize; a second fresh user found it). Checked for every game
over whole simulated games: each event's data, copied when it was made, equals the event object's
data at the end."""

from __future__ import annotations

import copy

import pytest

from companion.games import get_game_class
from companion.games.registry import BUILTIN
from companion.games.simulator import play_random_game


@pytest.mark.parametrize("game_id", BUILTIN)
@pytest.mark.parametrize("seed", [1, 2])
def test_event_data_is_not_changed_by_later_actions(game_id, seed):
    seats = ["Аня", "Борис", "Вика", "Гена"]
    played, actions = play_random_game(game_id, seats, None, seed)
    game = get_game_class(game_id)(list(played.seats), played.options)
    kept = []
    for text, _source in actions:
        for ev in game.apply(text):
            kept.append((ev, copy.deepcopy(ev.data)))
    assert game.is_over()
    changed = [(ev.kind, then, ev.data) for ev, then in kept if ev.data != then]
    assert not changed, changed[:3]
