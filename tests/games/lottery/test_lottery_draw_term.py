"""The lottery calls its numbered round «Тираж» everywhere: the page's badge (``draw`` →
«тираж»), the history and the operator's standing line. «Розыгрыш» is kept for the play-off of
the cards left (a tester saw «Тираж 1» on the badge beside «Розыгрыш 1» in the history)."""

from __future__ import annotations

from companion.dashboard import model as M
from companion.games.base import Event
from companion.games import lottery
from companion.i18n import M as Msg, both, render
from tests.wording import said


def test_history_and_badge_name_the_round_alike():
    describe = M.narrator("lottery", ["Аня", "Борис", "Вера", "Глеб"])
    deal = describe(Event("deal", {"draw": 2, "cards": {"1": 3, "2": 3}}))
    void = describe(Event("voided", {"what": "draw", "draw": 2}))
    playoff = describe(Event("voided", {"what": "playoff", "draw": 2}))
    text = lambda told: told["ru"] if isinstance(told, dict) else told  # noqa: E731
    assert text(deal).startswith("Тираж 2:"), deal
    assert void == both(Msg("Draw %(draw)s void: everything is as before the deal", draw=2)), void
    assert playoff == both(Msg("The play-off is void: the cards went back, it is played again")), playoff


def test_standing_line_names_the_draw():
    msg = lottery.describe_standings({"seats": ["Аня", "Борис"], "balances": [31, 24], "players": [0, 1],
                                      "box": 6, "prizes": [], "draw": 3}, ["Аня", "Борис"])
    assert said(msg)[0].endswith("; draw %(draw)s") and msg.facts["draw"] == 3, msg
    assert render(msg, "ru").endswith("; тираж 3")  # the lottery's own term for a round
