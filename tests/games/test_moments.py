"""The moments the table display (/tv) shows large come from each game's presenter
(``Presenter.moment``): the page knows no game's events by name. A skull turned up, «ХОЙ!», a prize
won, the joker — with whose it is where the table knows, and nothing for any other event."""

from __future__ import annotations

import pytest

from companion.dashboard import model as M
from companion.games import registry
from companion.games.base import Event
from companion.i18n import both
from tests.wording import said

SEATS = ["Аня", "Борис", "Вика"]


@pytest.mark.parametrize("game_id, event, style, words", [
    ("skull", Event("flip", {"seat": 1, "serial": "АК2444841", "role": "skull"}), "skull",
     ("Skull — %(name)s", {"name": "Борис"})),
    ("infinity", Event("hoy", {"seat": 2, "card": "INF"}), "hoy", ("«HOY!» — %(name)s", {"name": "Вика"})),
    ("hoggenheimer", Event("joker", {"turned": 3}), "joker", ("Joker", {})),
])
def test_a_games_moment_is_its_presenters(game_id, event, style, words):
    moment = registry.get(game_id).presenter.moment(event, SEATS)
    assert moment.style == style and said(moment.words) == words


def test_a_prize_won_is_shown_in_the_historys_words():
    presenter = registry.get("lottery").presenter
    won = Event("prize_won", {"slot": 0, "card": "QH", "seat": 1, "chips": 3})
    moment = presenter.moment(won, SEATS)
    assert moment.style == "prize" and moment.words == presenter.event(won, SEATS)


def test_other_events_and_a_rose_are_no_moments():
    assert registry.get("skull").presenter.moment(Event("flip", {"seat": 0, "role": "rose"}), SEATS) is None
    assert all(spec.presenter.moment(Event("game_over", {}), SEATS) is None for spec in registry.specs())


def test_the_public_history_carries_the_moment_for_the_display():
    flip = Event("flip", {"seat": 1, "serial": "АК2444841", "role": "skull"})
    outcome = type("O", (), {"events": [flip], "action": "table flip 1 АК2444841", "source": "camera"})()
    item = M.history_entry(M.PUBLIC, 4, outcome, M.narrator("skull", SEATS))["items"][0]
    assert item["moment"] == {"style": "skull", "text": both(registry.get("skull").presenter.moment(flip, SEATS).words)}
