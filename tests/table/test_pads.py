"""Pads: the four buttons of a seat reach every seat action of every landed game, and back."""

from __future__ import annotations

import pytest

from companion.games import available_games, new_game
from companion.pads import Pads, normalize_button, pad_menu, presses_for
from companion.games.simulator import get_sim_class

GAMES = [g for g in available_games()]


def _has_sim(gid: str) -> bool:
    try:
        get_sim_class(gid)
    except Exception:
        return False
    return True


@pytest.mark.parametrize("game_id", [g for g in GAMES if _has_sim(g)])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_button_action_round_trips_through_the_pads(game_id, seed):
    """Whole bot games: each seat action the bots take by button is reached by pad presses that
    the Pads turn back into exactly that action; pending counts show the bid being counted."""
    game = new_game(game_id, ["A", "B", "C", "D"])
    sim = get_sim_class(game_id)(game, seed)
    pads = Pads()
    shown = []
    pads.on_pending = lambda seat, count: shown.append((seat, count))
    pressed = 0
    while not game.is_over():
        text, source = sim.next_action()
        if source == "button":
            action = game.parse_action(text)
            if action not in game.legal_actions(action.seat):
                # not enumerated by the engine (a Hoggenheimer stake, a lottery spread): taken on
                # the phone's seat view, which the simulated table does too
                assert action.seat is not None
                game.apply(text)
                sim.applied(text)
                continue
            presses = presses_for(game, action)
            results = [pads.press(game, action.seat, b) for b in presses]
            pressed += 1
            assert results[-1].kind == "submit", (text, presses, results)
            assert results[-1].action == action.text()
            for r in results[:-1]:
                assert r.kind == "pending" and r.count > 0
        game.apply(text)
        sim.applied(text)
    assert pressed >= 3


def test_skull_pad_semantics():
    """Skull auction: yes = agree, no = pass, + counts the raise from the lowest legal bid, no
    cancels a pending count, ok confirms; a press for a seat not at the table is an error."""
    from companion.games.simulator import play_random_game

    if not _has_sim("skull"):
        pytest.skip("skull's simulated table (branch skull) is not merged yet")
    game, actions = play_random_game("skull", 3, None, 3)
    # replay until the first auction turn
    g = new_game("skull", game.seats)
    for text, _ in actions:
        if g.phase == "auction":
            break
        g.apply(text)
    assert g.phase == "auction"
    seat = g.current_seats()[0]
    m = pad_menu(g, seat)
    assert m.yes.VERB == "agree" and m.no.VERB == "pass"
    pads = Pads()
    r = pads.press(g, seat, "plus")
    assert r.kind == "pending" and r.count == g.bid + 1
    r = pads.press(g, seat, "+")
    assert r.count == g.bid + 2 or r.count == g.bid + 1  # wraps when only one raise is legal
    assert pads.press(g, seat, "no").kind == "cancel"
    assert pads.press(g, seat, "yes").action == f"{seat} agree"
    assert pads.press(g, seat, "ok", kind="release").kind == "ignored"
    other = next(s for s in range(3) if s not in g.current_seats())
    r = pads.press(g, other, "yes")
    assert r.kind == "ignored" and r.reason == "no_yes_action"  # not his turn: nothing submitted
    with pytest.raises(ValueError):
        pads.press(g, 7, "yes")
    with pytest.raises(ValueError):
        normalize_button("jump")


def test_pending_count_expires_when_the_game_moves_on():
    game = new_game("doubt", ["A", "B", "C"])
    sim = get_sim_class("doubt")(game, 5)
    while game.current_seats() == [] or not pad_menu(game, game.current_seats()[0]).menu:
        t, _ = sim.next_action()
        game.apply(t)
        sim.applied(t)
    seat = game.current_seats()[0]
    pads = Pads()
    assert pads.press(game, seat, "plus").kind == "pending"
    t, _ = sim.next_action()
    game.apply(t)
    sim.applied(t)
    assert pads.pending_count(game, seat) == 0
