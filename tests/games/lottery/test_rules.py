"""Scenario tests for ``lottery``, one rule each. Seed paragraphs are numbered as in
``docs/rules/lottery.md`` (seed ``004_*`` ¶1-¶14); RULINGS §5 / §0 are the product rulings."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.games.lottery import (SUIT_FINES, LotteryGame, find_spread, rank_index, suit_of)
from companion.games.lottery.sim import LotterySim
from tests import gamekit
from tests.gamekit import kinds, rejects

NAMES = ["Банкир", "Сдающий", "Аня", "Борис", "Вера", "Глеб", "Дина", "Егор"]


def game(n=4, **opts):
    return LotteryGame(NAMES[:n], opts)


def chips_conserved(g):
    assert g.chips_total() == g.start_chips_total


def run(g, *actions):
    return gamekit.run(g, *actions, after=chips_conserved)


rejected = rejects  # illegal: the reason code, and snapshot_bytes() unchanged


def first_draw(g):
    """Spread 4,3,2,1; Аня gets QH,10S,2C, Борис AD,5S,7H; prizes QH, QS, 10S, 9C turned."""
    run(g, "0 spread 4,3,2,1", "table cards 2 QH,10S,2C", "table cards 3 AD,5S,7H")
    return run(g, "table prize 0 QH", "table prize 1 QS", "table prize 2 10S", "table prize 3 9C")


def to_playoff(seed, n=4, **opts):
    g = game(n, **opts)
    sim = LotterySim(g, seed, void_rate=0)
    while g.s["phase"] != "playoff" and not g.is_over():
        a, _ = sim.next_action()
        g.apply(a)
        sim.applied(a)
    return g, sim


def finish(g, sim):
    while not g.is_over():
        a, _ = sim.next_action()
        g.apply(a)
        sim.applied(a)
        assert g.chips_total() == g.start_chips_total


# ---------------------------------------------------------------- set-up (¶3-¶7)
def test_entry_stakes_go_into_the_box():
    """¶6 "Каждый игрок обязан внести в общую кассу условленное их количество"; banker and dealer
    hold no cards by default (RULINGS §5), so they pay no entry."""
    g = game(4, chips=30, entry_stake=5)
    v = g.view(None)
    assert v["players"] == [2, 3] and v["balances"] == [30, 30, 25, 25] and v["box"] == 10
    assert g.chips_total() == 120 and g.current_seats() == [0]


def test_officials_play_option():
    """RULINGS §5: "the banker and dealer ... may also hold cards (option; default they don't)"."""
    g = game(3, officials_play=True)
    assert g.players == [0, 1, 2] and g.view(None)["balances"] == [25, 25, 25]
    assert g.deal_order() == [2, 0, 1]  # from the dealer's left; the dealer last


def test_first_spread_puts_the_box_on_four_prizes_all_different():
    """¶7 "укладывает собранные с игроков фишки так, чтобы на всех картах было различное их количество"."""
    g = game(4)
    rejected(g, "2 spread 1,2,3,4", "not_your_turn")
    rejected(g, "0 spread 1,2,3", "bad_spread")
    rejected(g, "0 spread -1,2,4,5", "bad_spread")
    rejected(g, "0 spread 1,2,3,5", "wrong_total")
    rejected(g, "0 spread 2,2,3,3", "amounts_must_differ")
    rejected(g, "0 spread 0,1,2,7", "prize_empty")
    rejected(g, "table cards 2 QH,10S,2C", "wrong_phase")
    ev = run(g, "0 spread 4,3,2,1")
    assert kinds(ev) == ["spread", "deal"]
    v = g.view(None)
    assert v["box"] == 0 and [p["chips"] for p in v["prizes"]] == [4, 3, 2, 1]
    assert all(not p["face_up"] and p["card"] is None for p in v["prizes"])
    assert v["expect"] == {"2": 3, "3": 3} and v["banker_deck"] == 48


# ---------------------------------------------------------------- a draw (¶8-¶10)
def test_players_get_three_cards_read_face_up_by_the_camera():
    """¶8 "Сдающий сдает игрокам по 3 карты. Они их открывают"."""
    g = game(4)
    run(g, "0 spread 4,3,2,1")
    rejected(g, "table prize 0 QH", "cards_not_read")
    rejected(g, "table cards 2 QH,10S", "wrong_count")
    rejected(g, "table cards 0 QH,10S,2C", "not_a_player")
    rejected(g, "2 cards 2 QH,10S,2C", "not_your_turn")
    rejected(g, "table cards 2 QH,QH,2C", "duplicate_card")
    rejected(g, "table cards 2 QH,11S,2C", "bad_card")
    run(g, "table cards 2 qh,10s,2c")
    assert g.view(None)["current"] == {"2": ["QH", "10S", "2C"]}
    rejected(g, "table cards 2 AD,5S,7H", "already_read")
    rejected(g, "table cards 3 AD,5S,QH", "card_already_dealt")
    run(g, "table cards 3 AD,5S,7H")
    assert g.s["phase"] == "draw" and g.view(None)["dealer_deck"] == 46


def test_the_identical_card_wins_the_prize_and_both_cards_are_set_aside():
    """¶8 "Игроки, чьи карты совпадают с разыгрываемыми, выигрывают положенные на них фишки.
    Разыгранную карту банкир откладывает. То же делает и игрок"; RULINGS §5 rank and suit."""
    g = game(4)
    run(g, "0 spread 4,3,2,1", "table cards 2 QH,10S,2C", "table cards 3 AD,5S,7H")
    rejected(g, "table prize 4 QH", "no_such_slot")
    ev = run(g, "table prize 0 QH")
    assert [e.data for e in ev if e.kind == "prize_won"] == [{"slot": 0, "card": "QH", "seat": 2, "chips": 4}]
    rejected(g, "table prize 0 KH", "no_such_slot")
    rejected(g, "table prize 1 QH", "prize_already_drawn")
    ev = run(g, "table prize 1 QS")                       # same rank, other suit: no win
    assert "prize_won" not in kinds(ev)
    run(g, "table prize 2 10S", "table prize 3 9C")
    r = g.view(None)
    assert [w["card"] for w in r["won"]] == ["QH", "10S"] and r["last_winner"] == 2
    assert r["aside"] == {"2": ["2C"], "3": ["AD", "5S", "7H"]}   # matched cards left play


def test_each_card_that_won_nothing_pays_a_stake_and_won_prizes_are_replaced():
    """¶9 "Карты, не взявшие ничего... за каждую играющие делают новый взнос фишек, которые
    помещаются банкиром на карту, которой он заменил из своей колоды выигравшую карту"."""
    g = game(4, card_stake=1)
    ev = first_draw(g)
    stakes = [e.data for e in ev if e.kind == "stake_paid"]
    assert stakes == [{"seat": 2, "cards": 1, "chips": 1}, {"seat": 3, "cards": 3, "chips": 3}]
    assert [e.data["slot"] for e in ev if e.kind == "prize_replaced"] == [0, 2]
    v = g.view(None)
    assert v["balances"] == [30, 30, 25 + 4 + 2 - 1, 25 - 3] and v["stakes"] == 4
    assert v["phase"] == "spread" and v["to_spread"] == 4 and v["banker_deck"] == 46
    assert [(p["face_up"], p["card"], p["chips"]) for p in v["prizes"]] == \
        [(False, None, 0), (True, "QS", 3), (False, None, 0), (True, "9C", 1)]
    # the new stakes keep every amount different
    rejected(g, "0 spread 2,0,2,0", "amounts_must_differ")
    rejected(g, "0 spread 0,4,0,0", "amounts_must_differ")   # replacement slots both 0
    rejected(g, "0 spread 1,1,1,0", "wrong_total")
    run(g, "0 spread 4,0,0,0")
    assert [p["chips"] for p in g.view(None)["prizes"]] == [4, 3, 0, 1]   # 0: allowed after the first spread


def test_an_unmatched_prize_stays_face_up_and_can_be_won_in_a_later_draw():
    """RULINGS §5 "A prize nobody matched stays on the table, face up, with its chips"."""
    g = game(4)
    first_draw(g)
    run(g, "0 spread 4,0,0,0", "table cards 2 KD,3C,4C")
    ev = run(g, "table cards 3 QS,6D,8H")            # QS lies face up with 3 chips: won at once
    assert [e.data for e in ev if e.kind == "prize_won"] == [{"slot": 1, "card": "QS", "seat": 3, "chips": 3}]
    assert g.s["phase"] == "draw"                     # slots 0 and 2 still to turn


def test_only_cards_in_hand_are_paid_not_the_ones_lying_aside():
    """¶10 "банкир оплачивает только те, которые находятся на руках"; RULINGS §5 "Only the current
    three cards take part in a draw; earlier ones lie aside"."""
    g = game(4)
    first_draw(g)                                     # Борис's AD lies aside now
    run(g, "0 spread 4,0,0,0", "table cards 2 KD,3C,4C", "table cards 3 QD,6D,8H")
    ev = run(g, "table prize 0 AD", "table prize 2 KD")
    won = [e.data for e in ev if e.kind == "prize_won"]
    assert won == [{"slot": 2, "card": "KD", "seat": 2, "chips": 0}]
    assert g.view(None)["prizes"][0] == {"slot": 0, "face_up": True, "card": "AD", "chips": 4}


def test_last_deal_is_short_from_the_dealers_left():
    """RULINGS §5 "The last deal of the dealer's deck is short: cards go round one at a time from
    the dealer's left until the deck is empty" (52 = 3 x 15 + 7 for five players)."""
    g = game(7)
    sim = LotterySim(g, 4, void_rate=0)
    seen = []
    while g.s["phase"] != "playoff" and not g.is_over():
        if g.s["phase"] == "deal" and not g.s["current"]:
            seen.append(dict(g.s["expect"]))
        a, _ = sim.next_action()
        g.apply(a)
        sim.applied(a)
    assert seen[:3] == [{str(s): 3 for s in range(2, 7)}] * 3
    assert seen[3] == {"2": 2, "3": 2, "4": 1, "5": 1, "6": 1}
    assert len(seen) == 4 and g.view(None)["dealer_deck"] == 0
    g2 = game(4)
    assert g2.deal_order() == [2, 3]
    g2.s["dealt"] = ["x"] * 48
    assert g2._expected_counts() == {"2": 2, "3": 2}


# ---------------------------------------------------------------- play-off (¶11-¶14)
def test_playoff_starts_with_the_last_prize_winner_and_prizes_go_to_the_box():
    """¶11 "игрок, взявший последний выигрыш, ходит..."; RULINGS §5: unwon prizes' chips are not
    paid out: they go to the box with the last stakes (docs)."""
    g, sim = to_playoff(1)
    s = g.s
    assert s["po"]["leader"] == s["won"][-1]["seat"]
    assert all(sl is None for sl in s["slots"]) and s["stakes"] == 0
    assert g.current_seats() == [s["po"]["leader"]]
    assert g.chips_total() == g.start_chips_total


def test_playoff_variant_1_cover_or_take():
    """¶11 "ходит какой-нибудь карты к своему соседу слева. Тот кроет и ходит..."; RULINGS §5
    "covers it with a higher card of the same suit (both leave play) and leads on, or takes it"."""
    for seed in range(40):
        g, sim = to_playoff(seed, 6)
        po = g.s["po"]
        leader = po["leader"]
        defender = g._next_player(leader, g._holders() - {leader})
        hand, other = list(po["hands"][str(leader)]), po["hands"][str(defender)]
        coverable = [c for c in hand if any(suit_of(o) == suit_of(c) and rank_index(o) > rank_index(c) for o in other)]
        if coverable and len(other) >= 2:
            break
    rejected(g, f"{defender} lead {other[0]}", "not_your_turn")
    rejected(g, f"{leader} take", "nothing_to_cover")
    missing = next(c for c in ("2S", "3S", "4S", "5S", "6S", "2H", "3H") if c not in hand)
    rejected(g, f"{leader} lead {missing}", "not_in_hand")
    led = coverable[0]
    run(g, f"{leader} lead {led}")
    assert g.current_seats() == [defender] and g.view(None)["playoff"]["attack"] == led
    bad = [c for c in other if suit_of(c) != suit_of(led) or rank_index(c) <= rank_index(led)]
    if bad:
        rejected(g, f"{defender} cover {bad[0]}", "cannot_cover")
    cover = next(c for c in other if suit_of(c) == suit_of(led) and rank_index(c) > rank_index(led))
    n_before = len(other)
    ev = run(g, f"{defender} cover {cover}")
    assert kinds(ev)[0] == "covered"
    assert led not in po["hands"][str(defender)] and len(po["hands"][str(defender)]) == n_before - 1
    assert po["discard"][-2:] == [led, cover] and po["leader"] == defender
    # now the defender leads on; its neighbour takes
    nxt = g._next_player(defender, g._holders() - {defender})
    card = po["hands"][str(defender)][0]
    size = len(po["hands"][str(nxt)])
    ev = run(g, f"{defender} lead {card}", f"{nxt} take")
    assert kinds(ev)[-1] == "taken" and card in po["hands"][str(nxt)]
    assert len(po["hands"][str(nxt)]) == size + 1 and po["leader"] == nxt and po["stall"] == 1


def test_playoff_variant_1_last_holder_pays_the_fine_per_card():
    """¶11 "Тот, у кого на руках остались карты, платит за них определенный штраф фишками"."""
    for seed in range(60):
        g, sim = to_playoff(seed, 5, fine_per_card=3)
        box0 = g.s["box"]
        finish(g, sim)
        if not g.result()["playoff_stalled"]:
            break
    holders = {k: v for k, v in g.s["po"]["hands"].items() if v}
    assert len(holders) == 1
    (seat, hand), = holders.items()
    assert g.result()["fines"][NAMES[int(seat)]] == 3 * len(hand)
    assert g.s["box"] == box0 + 3 * len(hand)
    assert g.result()["box"] == g.s["box"] and g.chips_total() == g.start_chips_total
    rejected(g, "table void", "game_over")
    assert g.legal_actions(None) == [] and g.current_seats() == []


def test_playoff_variant_1_stall_rule_ends_it_and_every_holder_pays():
    """House rule ``stall_limit``: leads taken this many times in a row end the play-off."""
    g, sim = to_playoff(2, 5, stall_limit=1)
    po = g.s["po"]
    leader = po["leader"]
    holders_before = {k: len(v) for k, v in po["hands"].items() if v}
    defender = g._next_player(leader, g._holders() - {leader})
    ev = run(g, f"{leader} lead {po['hands'][str(leader)][0]}", f"{defender} take")
    assert g.is_over() and g.result()["playoff_stalled"]
    fines = [e.data for e in ev if e.kind == "fine_paid"]
    assert len(fines) == len([k for k, v in po["hands"].items() if v]) >= 2
    assert all(f["chips"] == 2 * len(f["cards"]) for f in fines)
    assert sum(holders_before.values()) == sum(len(f["cards"]) for f in fines)


def test_playoff_variant_2_first_lead_follow_suit_lowest_takes():
    """¶13 "ходит с младшей карты своей самой старшей масти. Другие игроки кладут ту же масть,
    если масти нет, то любую карту. Игрок, у которого самая младшая карта этой масти, берет
    взятку и ходит с любой карты"; RULINGS §5 ♥ > ♣ > ♦ > ♠."""
    order = {"H": 4, "C": 3, "D": 2, "S": 1}
    g, sim = to_playoff(3, 6, playoff=2)
    po = g.s["po"]
    leader = po["leader"]
    hand = po["hands"][str(leader)]
    top = max(order[suit_of(c)] for c in hand)
    forced = min((c for c in hand if order[suit_of(c)] == top), key=rank_index)
    assert g.forced_first_lead(leader) == forced
    others = [c for c in hand if c != forced]
    if others:
        rejected(g, f"{leader} play {others[0]}", "must_lead_lowest_of_highest_suit")
    rejected(g, f"{leader} lead {forced}", "wrong_phase")
    run(g, f"{leader} play {forced}")
    led = suit_of(forced)
    trick = [(leader, forced)]
    checked_follow = False
    while po["trick"]:
        seat = po["turn"]
        h = po["hands"][str(seat)]
        same = [c for c in h if suit_of(c) == led]
        off = [c for c in h if suit_of(c) != led]
        if same and off and not checked_follow:
            rejected(g, f"{seat} play {off[0]}", "must_follow_suit")
            checked_follow = True
        card = same[-1] if same else h[0]
        trick.append((seat, card))
        ev = run(g, f"{seat} play {card}")
    taken = [e.data for e in ev if e.kind == "trick_taken"][0]
    lowest = min((p for p in trick if suit_of(p[1]) == led), key=lambda p: rank_index(p[1]))
    assert taken["seat"] == lowest[0] and taken["cards"] == [c for _, c in trick]
    if not g.is_over():
        holders = g._holders()
        exp = lowest[0] if lowest[0] in holders else g._next_player(lowest[0], holders)
        assert po["leader"] == exp and po["first"] is False


def test_playoff_variant_2_fines_by_suit():
    """¶14 "платит в общую кассу согласно достоинству мастей: черви — 4 фишки за каждую карту,
    трефы — 3, бубны — 2, пики — 1"."""
    assert SUIT_FINES == {"H": 4, "C": 3, "D": 2, "S": 1}
    for seed in range(30):
        g, sim = to_playoff(seed, 5, playoff=2)
        box0 = g.s["box"]
        finish(g, sim)
        left = {k: v for k, v in g.s["po"]["hands"].items() if v}
        if left:
            break
    (seat, hand), = left.items()
    due = sum(SUIT_FINES[suit_of(c)] for c in hand)
    assert g.result()["fines"][NAMES[int(seat)]] == due and g.s["box"] == box0 + due


def test_box_is_carried_over_into_the_next_game():
    """RULINGS §5 "The box carries over to the next game; the engine keeps every chip accounted for"."""
    g, sim = to_playoff(5, 4, box=7)
    finish(g, sim)
    r = g.result()
    assert r["box_carried_in"] == 7 and r["chips_total"] == 4 * 30 + 7
    nxt = LotteryGame(NAMES[:4], {"box": r["box"]})
    assert nxt.view(None)["box"] == r["box"] + 10
    pool = nxt.spread_pool()
    sp = find_spread([0, 0, 0, 0], pool, 1)
    run(nxt, f"0 spread {','.join(map(str, sp))}")
    assert sum(p["chips"] for p in nxt.view(None)["prizes"]) == r["box"] + 10


# ---------------------------------------------------------------- options, void, helpers
@pytest.mark.parametrize("opts,reason", [
    ({"banker": 1, "dealer": 1}, "bad_option"), ({"playoff": 3}, "bad_option"),
    ({"entry_stake": 1}, "bad_option"), ({"banker": 9}, "bad_seats"), ({"chips": -1}, "bad_option"),
    ({"officials_play": 1}, "bad_option"), ({"stall_limit": 0}, "bad_option"), ({"x": 1}, "bad_option")])
def test_bad_options(opts, reason):
    with pytest.raises(IllegalAction) as e:
        game(4, **opts)
    assert e.value.reason == reason


def test_needs_two_card_holders():
    with pytest.raises(IllegalAction) as e:
        game(3)
    assert e.value.reason == "bad_seats"


def test_void_returns_the_draw():
    """RULINGS §0 "void the round (everything returned, no payments)": the current draw."""
    g = game(4)
    rejected(g, "table void", "nothing_to_void")
    run(g, "0 spread 4,3,2,1")
    mark = g.snapshot()["s"]
    run(g, "table cards 2 QH,10S,2C", "table cards 3 AD,5S,7H", "table prize 0 QH")
    assert g.view(None)["balances"][2] == 29
    ev = run(g, "table void")
    assert kinds(ev) == ["voided"] and g.snapshot()["s"] == dict(mark, voids=1)
    run(g, "table cards 2 KH,10S,2C")           # the deck was shuffled again: new cards
    rejected(g, "0 spread 1,1,1,1", "wrong_phase")


def test_find_spread():
    assert find_spread([0, 0, 0, 0], 10, 1) == (1, 2, 3, 4)
    assert find_spread([0, 0, 0, 0], 9, 1) is None
    assert find_spread([0, 0, None, None], 0, 0) is None        # two empty prizes, no chips
    assert find_spread([3, None, 0, 1], 4, 0) is not None
    assert find_spread([None] * 4, 0, 0) == (0, 0, 0, 0)


def test_ties_are_accepted_when_no_spread_can_make_amounts_differ():
    """House reading of RULINGS §5: "so all amounts stay different" — when impossible (e.g. no
    stakes and two fresh prizes), the banker's spread is accepted as it is."""
    g = game(4)
    first_draw(g)
    g.s["stakes"] = 0      # as if every card had won: nothing to spread (not reachable cheaply)
    g.s["balances"][3] += 4
    assert find_spread(g.spread_bases(), 0, 0) is None
    run(g, "0 spread 0,0,0,0")
    assert g.s["phase"] == "deal"


def test_legal_actions():
    g = game(4)
    assert [a.text() for a in g.legal_actions(0)] == ["0 spread 1,2,3,4"]
    assert g.legal_actions(2) == [] and g.legal_actions(None) == []
    run(g, "0 spread 1,2,3,4")
    assert [a.text() for a in g.legal_actions(None)] == ["table cards 2 ?", "table cards 3 ?", "table void"]


@pytest.mark.parametrize("seed", [3, 8])
def test_balances_by_draw_tell_each_seats_chips_after_every_draw(seed):
    """The public view keeps each seat's chips at the start and after each draw (the result
    screen's chart, #22); the page view adds the play-off's end; a voided draw leaves no row."""
    from companion.dashboard.model import page_view
    from companion.games.simulator import play_random_game

    g, _ = play_random_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"], None, seed=seed)
    v = g.view(None)
    rows = v["balances_by_draw"]
    o = g.options
    assert rows[0] == [o.chips - (o.entry_stake if i in g.players else 0) for i in range(4)]
    assert len(rows) == v["draw"] + 1  # the start, then one row per draw
    won = {}
    for w in v["won"]:
        won.setdefault(w["draw"], []).append(w)
    for d in range(1, len(rows)):  # a draw gains a seat its prizes at most, and only a winner gains
        for p in range(4):
            gained = sum(w["chips"] for w in won.get(d, []) if w["seat"] == p)
            assert rows[d][p] - rows[d - 1][p] <= gained
    assert any(rows[d] != rows[d - 1] for d in range(1, len(rows)))
    chart = page_view("lottery", v, g.seats)["chips_by_draw"]
    assert chart[:len(rows)] == rows and chart[-1] == v["balances"]
    g = LotteryGame(["Банкир", "Сдающий", "Аня", "Борис"])
    sim = LotterySim(g, seed, void_rate=0)
    while g.view(None)["phase"] != "draw":
        a, _ = sim.next_action()
        g.apply(a)
        sim.applied(a)
    g.apply(g.parse_action("table void"))
    assert g.view(None)["balances_by_draw"] == [rows[0]]
