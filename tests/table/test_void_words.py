"""A voided round, deal or draw is told without «оператором»: the `table void` that voids it may
be the operator's button or the simulated table's stand-in for it (`companion run --sim`, whose
bots void a lottery draw now and then), and the event cannot tell which — so the line is neutral
(a tester saw «Тираж 5 аннулирован оператором» in a demo no operator touched). Reasons the
engine knows (skull: the dealer left) are still said."""

from __future__ import annotations

import pytest

from companion.games import hoggenheimer, infinity, lottery, skull
from companion.games.base import Event
from companion.games.simulator import play_random_game
from companion.i18n import render
from tests.wording import said

NAMES = ["Аня", "Борис", "Вика"]

CASES = [
    (lottery, Event("voided", {"what": "deal", "draw": 5}), "Draw %(draw)s void: everything is as before the deal",
     {"draw": 5}),
    (lottery, Event("voided", {"what": "playoff", "draw": 9}),
     "The play-off is void: the cards went back, it is played again", {}),
    (hoggenheimer, Event("deal_void", {"returned": [{"id": 1, "seat": 1, "stake": 5}, {"id": 2, "seat": 2, "stake": 3}],
                                       "banker": 0}),
     "Deal void: %(back)s; %(banker)s deals again", {"back": "2 stakes returned", "banker": "Аня"}),
    (infinity, Event("deal_voided", {"deal": 2}), "Deal %(deal)s void: the cards are gathered and dealt again",
     {"deal": 2}),
    (skull, Event("round_void", {"round": 3, "why": "operator"}), "Round %(round)s void: every note returned",
     {"round": 3}),
]


def _no_operator(msg) -> None:
    assert "operator" not in render(msg, "en") and "оператор" not in render(msg, "ru"), msg


@pytest.mark.parametrize("module, event, msgid, facts", CASES, ids=[c[1].kind + str(i) for i, c in enumerate(CASES)])
def test_a_void_is_told_without_naming_an_operator(module, event, msgid, facts):
    msg = module.describe_event(event, NAMES)
    assert said(msg) == (msgid, facts)
    _no_operator(msg)


def test_an_engine_reason_for_a_void_is_still_said():
    msg = skull.describe_event(Event("round_void", {"round": 2, "why": "dealer_left"}), NAMES)
    assert said(msg) == ("Round %(round)s void (%(why)s): every note returned", {"round": 2, "why": "the dealer left"})


def test_the_simulated_tables_own_void_is_not_told_as_the_operators():
    """The lottery's bots void a draw in seed 0 (as `companion run --sim --game lottery` does)."""
    game, actions = play_random_game("lottery", 4, seed=0)
    assert "table void" in [a for a, _ in actions]
    from companion.games import new_game
    g = new_game("lottery", game.seats, None)
    lines = []
    for text, _ in actions:
        lines += [lottery.describe_event(e, g.seats) for e in g.apply(text) if e.kind == "voided"]
    assert lines
    for msg in lines:
        _no_operator(msg)
