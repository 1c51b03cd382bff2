"""Scenario tests, one per rule of the joker banking game (seed ``002_*``, cited by its section
headings; RULINGS §0, §3)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.errors import IllegalAction
from companion.games import new_game
from companion.games.hoggenheimer import (CARDS, POS, REASONS, RANKS, SUITS, Bet, Close, HoggenheimerGame,
                                          Turn, Void, Withdraw, all_bet_targets, parse_bet, win_probability)
from tests import gamekit


def game(n=3, **opts) -> HoggenheimerGame:
    return HoggenheimerGame([f"P{i}" for i in range(n)], opts)


def rejects(g, text, reason):
    return gamekit.rejects(g, text, reason, REASONS)


def chips(g):
    return g.chips_in_play()


def run_chain(g, cards):
    """Turn ``cards`` (each put on its own slot), then the joker."""
    for c in cards:
        g.apply(f"table turn {c} {c}")
    return g.apply("table turn JK ?")


# ---------------------------------------------------------------- deck and layout
def test_layout_rows_and_columns():
    """§"Игровые принадлежности" + §"Прием ставок" + RULINGS §3: 32 cards A K Q J 10 9 8 7 ×
    ♠ ♥ ♦ ♣; rows ♠ ♥ ♦ ♣ top to bottom; aces far left, sevens far right."""
    assert len(CARDS) == 32 and len(set(CARDS)) == 32
    assert SUITS == ("S", "H", "D", "C") and RANKS == ("A", "K", "Q", "J", "10", "9", "8", "7")
    assert POS["AS"] == (0, 0) and POS["7S"] == (0, 7) and POS["JH"] == (1, 3) and POS["7C"] == (3, 7)
    v = game().view(None)
    assert v["rows"] == ["♠", "♥", "♦", "♣"] and v["columns"][0] == "A" and v["columns"][-1] == "7"
    assert [cell["slot"] for cell in v["layout"][2]] == ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D"]
    assert all(cell["card"] is None for row in v["layout"] for cell in row) and v["aside"] == "face_down"


# ---------------------------------------------------------------- bet shapes (seed figure а–ж)
@pytest.mark.parametrize("target,shape,k", [
    ("JH", "card", 1),                 # а) валет червей
    ("KD", "card", 1),                 # б) король бубен
    ("7S,7H", "pair", 2),              # в) 7 пик и червей (vertical)
    ("9S,10S", "pair", 2),             # г) 9 и 10 пик (horizontal)
    ("8H,9H,8D,9D", "square", 4),      # д) квадрат 8-9 червей и бубен
    ("col:10", "column", 4),           # е) все 10
    ("10S,10H,10D,10C", "column", 4),
    ("row:D", "row", 8),               # ж) все бубны
    ("AD,KD,QD,JD,10D,9D,8D,7D", "row", 8),
])
def test_bet_shapes_and_payouts(target, shape, k):
    """§"Прием ставок" а–ж + §"Расчет по ставкам": 1:1, 2:1, 4:1, 4:1, 8:1 (RULINGS §3)."""
    s, cards = parse_bet(tuple(target.split(",")))
    assert s == shape and len(cards) == k
    g = game()
    g.apply(f"1 bet 5 {target}")
    b = g.bets[-1]
    assert b["k"] == k and b["shape"] == shape
    assert g.view(None)["bets"][-1]["payout"] == f"{k}:1"


@pytest.mark.parametrize("target,reason", [
    ("AS,KH", "bad_bet_shape"),        # diagonal (RULINGS §3: no diagonals)
    ("AS,QS", "bad_bet_shape"),        # not touching
    ("7S,AS", "bad_bet_shape"),        # no wrap-around
    ("AS,KS,QS", "bad_bet_shape"),     # three cards
    ("AS,KS,AH,QH", "bad_bet_shape"),  # not a square
    ("AS,AH,AD,KC", "bad_bet_shape"),
    ("8H,9H,8C,9C", "bad_bet_shape"),  # rows not touching
    ("6S", "bad_card"), ("JK", "bad_card"), ("AS,AS", "bad_card"), ("col:6", "bad_card"), ("row:X", "bad_card"),
])
def test_bad_bet_targets(target, reason):
    """RULINGS §3: only a card, two touching cards, a 2×2 square, a column or a row."""
    rejects(game(), f"1 bet 5 {target}", reason)


def test_117_distinct_targets():
    targets = all_bet_targets()
    assert len(targets) == 117 and len({t for _, t in targets}) == 117
    for shape, cards in targets:
        assert parse_bet(cards) == (shape, cards)


# ---------------------------------------------------------------- stakes and bettors
def test_stakes_within_table_limits_and_chips():
    """§"Пределы ставок": agreed in advance (options min_stake / max_stake)."""
    g = game(min_stake=2, max_stake=10, starting_chips=12)
    rejects(g, "1 bet 1 AS", "stake_below_min")
    rejects(g, "1 bet 11 AS", "stake_above_max")
    g.apply("1 bet 10 AS")
    rejects(g, "1 bet 3 KS", "insufficient_chips")
    with pytest.raises(IllegalAction, match="bad_option"):
        game(min_stake=5, max_stake=4)


def test_banker_does_not_bet_and_several_players_share_cards():
    """§"Прием ставок": every player except the banker bets any number of bets; RULINGS §3:
    several players may bet on the same cards."""
    g = game(4, first_banker=2)
    rejects(g, "2 bet 1 AS", "banker_cannot_bet")
    for text in ["0 bet 3 AS", "1 bet 4 AS", "3 bet 5 AS", "0 bet 2 AS"]:
        g.apply(text)
    assert [b["seat"] for b in g.bets] == [0, 1, 3, 0]
    assert g.current_seats() == [0, 1, 2, 3]


def test_banker_exposure_shown_before_the_deal_and_enforced():
    """Issue 7 / RULINGS §3: the banker's worst case (Σ k × stake) is shown before the deal; with
    ``bank_must_cover`` (default) a bet he could not pay is refused."""
    g = game(3, starting_chips=40, max_stake=20)
    rejects(g, "1 bet 10 row:S", "bank_exposure")
    g.apply("1 bet 5 col:A")       # 20
    g.apply("2 bet 10 AS,KS")      # +20 = 40
    e = g.view(None)["exposure"]
    assert e == {"max_payout": 40, "banker_chips": 40, "covered": True, "stakes": 15}
    rejects(g, "2 bet 1 QS", "bank_exposure")
    g2 = game(3, starting_chips=40, max_stake=20, bank_must_cover=False)
    g2.apply("1 bet 10 row:S")
    assert g2.view(None)["exposure"]["covered"] is False


def test_withdraw_own_bet_before_close():
    g = game()
    g.apply("1 bet 5 AS")
    rejects(g, "2 withdraw 1", "not_your_bet")
    rejects(g, "1 withdraw 9", "no_such_bet")
    g.apply("1 withdraw 1")
    assert g.bets == [] and g.balances == [100, 100, 100]


def test_probability_shown_for_each_bet():
    """RULINGS §3: each bet's probability 1/(k+1) is shown."""
    g = game()
    for t in ["AS", "AS,KS", "col:7", "row:C"]:
        g.apply(f"1 bet 1 {t}")
    assert [b["probability"] for b in g.view(None)["bets"]] == ["1/2", "1/3", "1/5", "1/9"]
    assert win_probability(8) == Fraction(1, 9)
    odds = {o["shape"]: o["probability"] for o in game().view(None)["odds"]}  # shown before any bet
    assert odds == {"card": "1/2", "pair": "1/3", "square": "1/5", "column": "1/5", "row": "1/9"}


# ---------------------------------------------------------------- the chain
def test_only_the_banker_closes_and_then_cards_are_turned():
    """§"Правила игры": after the bets the banker turns the 33rd card."""
    g = game()
    rejects(g, "table turn AS AS", "wrong_phase")
    rejects(g, "1 close", "not_banker")
    g.apply("1 bet 5 AS")
    g.apply("0 close")
    rejects(g, "1 bet 5 KS", "wrong_phase")
    rejects(g, "0 turn AS AS", "table_only")
    assert g.current_seats() == [] and [a.VERB for a in g.legal_actions(None)] == ["turn", "void"]


def test_turned_card_must_go_on_its_own_slot():
    """§"Правила игры" + RULINGS §3: the camera checks each turned card is put on its own place."""
    g = game()
    g.apply("0 close")
    rejects(g, "table turn QH 10S", "wrong_slot")
    rejects(g, "table turn QH ?", "slot_missing")
    rejects(g, "table turn QH XX", "bad_slot")
    rejects(g, "table turn 6H 6H", "bad_card")
    rejects(g, "table turn ? QH", "unreadable_card")  # "not sure, rescan": nothing changes
    rejects(g, "table turn JK AS", "joker_has_no_slot")
    g.apply("table turn QH QH")
    rejects(g, "table turn QH QH", "card_already_turned")
    g.apply("table turn 9C 9C")
    v = g.view(None)
    assert v["layout"][1][2]["card"] == "QH" and v["layout"][3][5]["card"] == "9C" and v["aside"] == "turned"
    assert v["chain"] == ["QH", "9C"]


def test_joker_first_banker_takes_all_and_redeal():
    """§"Правила игры": the 33rd card is the joker — the banker takes all stakes; RULINGS §3 redeal,
    the bank passes (default)."""
    g = game(3)
    g.apply("1 bet 5 AS")
    g.apply("2 bet 7 row:H")
    g.apply("0 close")
    ev = g.apply("table turn JK ?")
    assert g.balances == [112, 95, 93] and chips(g) == 300
    assert ev[1].data["joker_first"] and g.phase == "betting" and g.banker == 1 and g.deal_no == 1


def test_joker_first_same_banker_option():
    g = game(3, joker_first_same_banker=True)
    g.apply("1 bet 5 AS")
    g.apply("0 close")
    g.apply("table turn JK ?")
    assert g.banker == 0 and g.deal_no == 0 and g.balances == [105, 95, 100]


def test_seed_figure_settlement():
    """§"Расчет по ставкам": in the figure bets а, в, г win; б, д, е, ж lose. A bet wins when all its
    cards are face up when the joker appears; 1:1, 2:1, 4:1, 8:1 with the stake back."""
    g = game(3, max_stake=10, starting_chips=1000)
    bets = ["1 bet 10 JH", "1 bet 10 KD", "2 bet 10 7S,7H", "2 bet 10 9S,10S", "1 bet 10 8H,9H,8D,9D",
            "2 bet 10 col:10", "1 bet 10 row:D"]
    for b in bets:
        g.apply(b)
    g.apply("0 close")
    ev = run_chain(g, ["JH", "7S", "9S", "10S", "7H", "8H", "9H", "8D", "10H", "AD", "KC"])
    won = {b["id"]: b["won"] for b in ev[1].data["bets"]}
    assert won == {1: True, 2: False, 3: True, 4: True, 5: False, 6: False, 7: False}
    # seat 1: +10 (а) -10 (б) -10 (д) -10 (ж) = -20; seat 2: +20 (в) +20 (г) -10 (е) = +30
    assert g.balances == [990, 980, 1030] and chips(g) == 3000
    assert ev[1].data["banker_net"] == -10


def test_all_cards_before_joker_every_bet_wins():
    g = game(2, starting_chips=200, max_stake=10)
    g.apply("1 bet 10 row:C")
    g.apply("0 close")
    run_chain(g, list(CARDS))
    assert g.balances == [120, 280]


def test_bank_passes_left_and_game_ends_after_rounds():
    """§"Продолжение игры": the bank and the deal pass one player left; the game lasts
    ``rounds × seats`` deals; the result names balances and the winner."""
    g = game(3, rounds=1, first_banker=1)
    bankers = []
    for chain in (["AS"], ["AS"], ["KS"]):
        bankers.append(g.banker)
        g.apply(f"{(g.banker + 1) % 3} bet 2 AS")
        g.apply(f"{g.banker} close")
        run_chain(g, chain)
    assert bankers == [1, 2, 0] and g.is_over()
    r = g.result()
    assert r["deals"] == 3 and sum(r["balances"].values()) == 300
    assert r["balances"] == {"P0": 104, "P1": 96, "P2": 100} and r["winners"] == ["P0"]
    assert r["net"]["P1"] == -4
    rejects(g, "1 bet 1 AS", "game_over")
    json.dumps(r)


def test_void_returns_all_stakes_same_banker():
    """RULINGS §0: void the round — everything returned, no payments."""
    g = game(3)
    rejects(g, "table void", "nothing_to_void")
    g.apply("1 bet 5 AS")
    g.apply("0 close")
    g.apply("table turn AS AS")
    rejects(g, "1 void", "table_only")
    ev = g.apply("table void")
    assert ev[0].kind == "deal_void" and g.balances == [100, 100, 100] and g.banker == 0 and g.phase == "betting"
    assert g.chain == [] and g.deal_no == 0


def test_text_forms_round_trip():
    for a in [Bet(1, 5, ("QH",)), Bet(2, 5, ("col:10",)), Withdraw(1, 3), Close(0), Turn(None, "10S", "10S"),
              Turn(None, "JK", None), Void(None)]:
        assert HoggenheimerGame.parse_action(a.text()) == a
    assert Turn(None, "JK", None).text() == "table turn JK ?"


def test_registry_and_options():
    g = new_game("hoggenheimer", ["Аня", "Борис"], {"starting_chips": 50})
    assert g.balances == [50, 50] and g.deals_total == 2
    with pytest.raises(IllegalAction, match="bad_option"):
        new_game("hoggenheimer", ["A", "B"], {"first_banker": 2})
    for bad in ({"rounds": 0}, {"bank_must_cover": 1}, {"starting_chips": -1}, {"min_stake": 0},
                {"max_stake": "5"}, {"tip": 1}):
        with pytest.raises(IllegalAction, match="bad_option"):
            new_game("hoggenheimer", ["A", "B"], bad)
    assert g.view(0)["you"]["verbs"] == ["close"]
    assert "bet" in g.view(1)["you"]["verbs"]


def test_docs_list_every_reason_code_and_option():
    """docs/rules/hoggenheimer.md lists every reason code and every house-rule option (GUIDE: errors are
    part of the product)."""
    gamekit.docs_list_everything("hoggenheimer")
