"""Scenario tests for ``infinity``, one rule each. Seed paragraphs are numbered as in
``docs/rules/infinity.md`` (seed ``003_*`` ¶1-¶11); RULINGS §4 / §0 are the product rulings."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.games.infinity import DEFAULT_DECK, INF, InfinityGame, Play, card_rank
from tests.gamekit import kinds, rejects, run

rejected = rejects  # illegal: the reason code, and snapshot_bytes() unchanged

NAMES = ["Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Зоя"]


def game(n=3, **opts):
    return InfinityGame(NAMES[:n], opts)


# ---------------------------------------------------------------- the deck (¶1, RULINGS §4)
def test_default_deck_is_36_cards_6100_points_with_one_infinity():
    """¶1 "36 карт с общим количеством 6100 игровых очков"; RULINGS §4 default profile."""
    g = game(2)
    assert sum(g.deck.values()) == 36
    assert sum(int(c) * k for c, k in g.deck.items() if c != INF) == 6100
    assert g.deck[INF] == 1 and g.deck == dict(sorted(DEFAULT_DECK.items(), key=lambda kv: card_rank(kv[0])))
    assert all(card_rank(INF) > card_rank(c) for c in g.deck if c != INF)


def test_table_registers_its_own_deck_and_it_is_validated():
    """RULINGS §4: the profile is replaceable by the real deck; the engine checks 36 cards/6100."""
    real = {"10": 6, "40": 1, "36": 4, "100": 4, "106": 4, "200": 4, "225": 4, "333": 4, "500": 4, "inf": 1}
    g = game(2, deck=real)
    assert g.deck[INF] == 1
    other = {"50": 10, "100": 10, "300": 5, "400": 5, "275": 4, "INF": 2}  # 36 cards, 6100 points
    assert sum(int(k) * v for k, v in other.items() if k != "INF") == 6100
    assert sum(game(3, deck=other).deck.values()) == 36
    for bad in ({"100": 36}, {**real, "10": 7}, {k: v for k, v in real.items() if k != "inf"} | {"10": 7},
                {"abc": 36}, {"100": 0}, {"100": "4"}, []):
        with pytest.raises(IllegalAction) as e:
            game(2, deck=bad)
        assert e.value.reason == "bad_option"
    # a home-made deck is allowed with deck_check off
    home = game(2, deck={"100": 6, "200": 6, "INF": 1}, deck_check=False)
    assert sum(home.deck.values()) == 13


@pytest.mark.parametrize("opts", [{"deals": 0}, {"deals": "3"}, {"deal_leader": "left"},
                                  {"infinity_points": -1}, {"simplified_scoring": "yes"}, {"nope": 1}])
def test_bad_options_rejected(opts):
    with pytest.raises(IllegalAction) as e:
        game(3, **opts)
    assert e.value.reason == "bad_option"


def test_seat_limits():
    with pytest.raises(IllegalAction, match="bad_seats"):
        InfinityGame(["A"])
    with pytest.raises(IllegalAction, match="bad_seats"):
        InfinityGame([f"P{i}" for i in range(9)])


# ---------------------------------------------------------------- dealing (¶1, RULINGS §4)
def test_two_players_get_9_plus_9_twice_per_deal():
    """¶1 "Для игры вдвоем колода раздается за 2 раза, по 9 карт"."""
    g = game(2)
    run(g, "table deal 0")
    v = g.view(None)
    assert v["hand_counts"] == [9, 9] and v["stock"] == 18 and v["half"] == 1
    # play the first half out: seat 0 always leads 10s... use any legal faces
    faces = [c for c, k in g.deck.items() for _ in range(k)]
    half1 = faces[:18]
    while g.s["phase"] == "play":
        g.apply(Play(g.s["turn"], half1.pop()))
    if g.s["phase"] == "kept":
        seat = g.s["kept_seat"]
        g.apply(f"table kept {seat} {','.join(half1[:g.s['hands'][seat]])}")
    assert g.s["phase"] == "deal" and g.s["half"] == 1 and g.view(None)["stock"] == 18
    run(g, "table deal ?")
    assert g.view(None)["hand_counts"] == [9, 9] and g.view(None)["stock"] == 0


@pytest.mark.parametrize("n,share,aside", [(3, 12, 0), (4, 9, 0), (5, 7, 1), (6, 6, 0), (7, 5, 1), (8, 4, 4)])
def test_three_or_more_get_equal_shares_remainder_aside(n, share, aside):
    """¶1 "вся колода раздается сразу - всем поровну"; RULINGS §4 remainder set aside, unscored."""
    g = game(n)
    run(g, "table deal 0")
    v = g.view(None)
    assert v["hand_counts"] == [share] * n and v["aside"] == aside


# ---------------------------------------------------------------- tricks (¶2-¶5)
def test_any_card_may_be_played_at_any_time():
    """¶2 "любой игрок может положить любую карту, никаких ограничений"."""
    g = game(3)
    run(g, "table deal 0", "0 play 10", f"1 play {INF}", "2 play 36")
    assert g.s["last_winner"] == 1


def test_highest_card_wins_and_the_winner_leads():
    """¶3 "побеждает тот, чья карта старше... КТО ЗАБРАЛ ВЗЯТКУ - ТОТ И НАЧИНАЕТ"."""
    g = game(3)
    ev = run(g, "table deal 0", "0 play 100", "1 play 333", "2 play 200")
    won = [e for e in ev if e.kind == "trick_won"][0]
    assert won.data == {"seat": 1, "cards": ["100", "333", "200"], "points": 633}
    assert g.s["turn"] == 1 and g.s["leader"] == 1
    assert g.view(None)["points"] == [0, 633, 0]


def test_infinity_beats_everything():
    """¶3 "Карта «Бесконечность» самая старшая"."""
    g = game(3)
    run(g, "table deal 0", f"0 play {INF}", "1 play 500", "2 play 333")
    assert g.s["last_winner"] == 0 and g.view(None)["points"][0] == 833  # Infinity scores 0


def test_highest_card_wins_whenever_it_was_played():
    """¶4 "Не важно, когда старшая карта легла на стол, в начале или конце хода"."""
    g = game(4)
    run(g, "table deal 0", "0 play 500", "1 play 10", "2 play 36", "3 play 100")
    assert g.s["last_winner"] == 0


def test_equal_highest_cards_the_later_wins():
    """¶5 "Если старшие карты хода одинаковые... выигрывает тот, кто положил карту последним"."""
    g = game(4)
    run(g, "table deal 0", "0 play 500", "1 play 10", "2 play 500", "3 play 100")
    assert g.s["last_winner"] == 2


def test_won_trick_goes_face_down_points_counted():
    """¶4 "Взятка хода уходит в банк игрока, ложится рубашкой вверх": the trick leaves the table."""
    g = game(3)
    run(g, "table deal 0", "0 play 100", "1 play 106", "2 play 200")
    v = g.view(None)
    assert v["trick"] == [] and v["tricks"] == [0, 0, 1] and v["points"] == [0, 0, 406]


# ---------------------------------------------------------------- the token and ХОЙ (¶7-¶9)
def test_play_goes_round_clockwise_from_the_leader():
    """¶7 "игроки ходят по кругу - начинает первый - заканчивает последний"."""
    g = game(4)
    run(g, "table deal 2")
    order = []
    for card in ("10", "36", "100", "200"):
        order.append(g.s["turn"])
        g.apply(Play(g.s["turn"], card))
    assert order == [2, 3, 0, 1]


def test_token_starts_with_the_player_to_the_leaders_right():
    """¶8 "Фишка вначале раунда достается последнему, решающему игроку"; RULINGS §4."""
    g = game(4)
    run(g, "table deal 2")
    assert g.view(None)["token"] == 1
    rejected(g, "1 play 100", "not_your_turn")


def test_hoy_moves_the_token_and_everyone_else_plays_again():
    """¶9 "говорит ХОЙ! и забирает фишку... остальные игроки ОБЯЗАНЫ ходить еще раз"."""
    g = game(4)
    ev = run(g, "table deal 0", "0 play 100", "1 play 100")
    assert [e.kind for e in ev].count("hoy") == 1
    assert g.view(None)["token"] == 1 and g.s["turn"] == 2
    # seats 2, 3 and 0 must play again; seat 1 (token owner) closes
    run(g, "2 play 10", "3 play 36", "0 play 200")
    assert g.s["turn"] == 1 and g.s["trick"]
    ev = run(g, "1 play 36")
    won = [e for e in ev if e.kind == "trick_won"][0].data
    assert won["seat"] == 0 and won["cards"] == ["100", "100", "10", "36", "200", "36"]
    assert g.s["leader"] == 0 and g.view(None)["hand_counts"] == [7, 7, 8, 8]


def test_another_player_can_take_the_token_back():
    """¶9 "Другие игроки всегда могут перехватить круг на себя, положив одинаковую с предыдущей"."""
    g = game(4)
    run(g, "table deal 0", "0 play 100", "1 play 100", "2 play 225", "3 play 225")
    assert g.view(None)["token"] == 3 and g.s["turn"] == 0
    run(g, "0 play 10", "1 play 10", "2 play 36")  # 1's 10 matches 0's 10: ХОЙ, token to 1
    assert g.view(None)["token"] == 1
    run(g, "3 play 36", "0 play 36")  # 3's 36 matches 2's 36 -> token 3; 0 matches 3 -> token 0
    assert g.view(None)["token"] == 0 and g.s["turn"] == 1


def test_token_owners_matching_closing_card_is_a_new_hoy():
    """RULINGS §4: the token owner's card ends the trick "unless it matches the card before it"."""
    g = game(3)
    run(g, "table deal 0", "0 play 100", "1 play 200")
    assert g.view(None)["token"] == 2
    ev = run(g, "2 play 200")
    assert "hoy" in [e.kind for e in ev] and g.s["turn"] == 0 and g.s["trick"]
    ev = run(g, "0 play 10", "1 play 36", "2 play 106")
    assert [e for e in ev if e.kind == "trick_won"][0].data["seat"] == 2


def test_two_player_carousel_first_player_must_play_again():
    """¶6 "если второй игрок кладет такую же карту, как и первый (карусель), то первый ОБЯЗАН
    ходить еще раз... Второй игрок решает забрать, слить взятку или увеличить банк"."""
    g = game(2)
    run(g, "table deal 0", "0 play 333", "1 play 333")
    assert g.s["turn"] == 0 and g.view(None)["token"] == 1
    run(g, "0 play 500")
    assert g.s["turn"] == 1
    run(g, "1 play 500")              # raise the bank: another carousel
    assert g.s["turn"] == 0
    run(g, "0 play 10", "1 play 36")  # dump ("слить"): 1 closes, 0's 500... 1's later 500 wins
    assert g.s["last_winner"] == 1 and g.view(None)["points"] == [0, 333 * 2 + 1000 + 46]


def _first_trick_leaves_hands_1_2_2():
    """3 players x 4 cards of a 12-card deck; trick 1 (three ХОЙ calls) leaves hands [1, 2, 2]."""
    g = game(3, deck={"100": 4, "200": 4, "300": 3, "INF": 1}, deck_check=False, deals=1)
    run(g, "table deal 0", "0 play 100", "1 play 100", "2 play 100", "0 play 100",  # ХОЙ x3: token 0
        "1 play 200", "2 play 300", "0 play 200")                                  # 0 closes; 2 wins
    assert g.view(None)["hand_counts"] == [1, 2, 2] and g.s["last_winner"] == 2
    assert g.s["leader"] == 2 and g.view(None)["token"] == 1
    return g


def test_players_without_cards_are_skipped():
    """RULINGS §4 "Players without cards are skipped"."""
    g = _first_trick_leaves_hands_1_2_2()
    run(g, "2 play 200", "0 play 200")      # 0's 200 = ХОЙ: token 0; 0 is now out of cards
    assert g.view(None)["token"] == 0 and g.view(None)["hand_counts"][0] == 0 and g.s["turn"] == 1
    run(g, "1 play 300", "2 play 300")      # 2's ХОЙ: token 2; everyone else plays again
    assert g.s["turn"] == 1                 # seat 0 (no cards) skipped
    rejected(g, "0 play 300", "not_your_turn")


def test_token_owner_without_cards_ends_the_trick_when_his_turn_comes():
    """RULINGS §4 "a token owner without cards ends the trick when his turn comes"."""
    g = _first_trick_leaves_hands_1_2_2()
    run(g, "2 play 200", "0 play 200", "1 play 300", "2 play 300")
    assert g.view(None)["token"] == 2 and g.view(None)["hand_counts"] == [0, 1, 0]
    ev = run(g, f"1 play {INF}")            # the turn reaches token owner 2, who has no cards
    won = [e for e in ev if e.kind == "trick_won"][0].data
    assert won["seat"] == 1 and won["cards"] == ["200", "200", "300", "300", INF]
    assert g.is_over() and g.result()["totals"] == [0, 1000, 100 * 4 + 200 + 300 + 200]


def test_hoy_when_nobody_else_holds_cards_the_token_owner_plays_on():
    """RULINGS §4 read literally: after a «ХОЙ!» the turn goes round to the token owner; when
    nobody else holds cards it comes straight back and he plays the closing card."""
    g = game(3, deck={"100": 4, "200": 4, "300": 3, "INF": 1}, deck_check=False, deals=1)
    run(g, "table deal 0", "0 play 100", "1 play 200", f"2 play {INF}",      # 2 wins
        "2 play 300", "0 play 300", "1 play 200", "2 play 300", "0 play 200",  # 2 wins again
        "2 play 100", "0 play 100")                                           # 0: ХОЙ
    assert g.view(None)["hand_counts"] == [0, 2, 0]
    ev = run(g, "1 play 100")                                                 # 1: ХОЙ
    assert "hoy" in kinds(ev) and g.view(None)["token"] == 1
    assert g.s["turn"] == 1 and g.current_seats() == [1] and g.view(None)["hand_counts"] == [0, 1, 0]
    ev = run(g, "1 play 200")
    assert [e.data["seat"] for e in ev if e.kind == "trick_won"] == [1] and g.is_over()


def test_winner_without_cards_passes_the_lead_clockwise():
    """¶3 the winner leads; if he has no cards the next seat clockwise holding cards leads and
    the token goes to the nearest holder on his right (docs/rules/infinity.md)."""
    g = game(4, deck={"10": 3, "100": 3, "200": 3, "300": 2, "INF": 1}, deck_check=False)  # 3 each
    run(g, "table deal 0", "0 play 100", "1 play 100", "2 play 10", "3 play 200", f"0 play {INF}",
        "1 play 10")                         # 1 (token after ХОЙ) closes; 0 wins with Infinity
    assert g.view(None)["hand_counts"] == [1, 1, 2, 2] and g.s["leader"] == 0
    run(g, "0 play 300", "1 play 200", "2 play 10", "3 play 100")
    assert g.s["last_winner"] == 0 and g.view(None)["hand_counts"] == [0, 0, 1, 1]
    assert g.s["leader"] == 2 and g.s["turn"] == 2 and g.view(None)["token"] == 3


def test_two_player_second_half_is_led_by_the_last_trick_winner():
    """¶1 "После того, как первая раздача сыграна, раздается вторая половина карт"; ¶3 the
    trick winner leads on (docs: the second half continues the deal)."""
    g = game(2, deck={"100": 4, "200": 4, "INF": 1, "10": 3}, deck_check=False, deals=1)  # 3+3 twice
    run(g, "table deal 0", "0 play 100", "1 play 100", "0 play 200", "1 play 200")  # two carousels
    assert g.view(None)["hand_counts"] == [1, 1] and g.s["turn"] == 0
    run(g, "0 play 10", "1 play 10")   # a third: seat 0 has no card left, token owner 1 neither
    assert g.s["last_winner"] == 1 and g.s["phase"] == "deal" and g.s["half"] == 1
    assert g.view(None)["points"] == [0, 620]
    rejected(g, "table deal 0", "wrong_leader")
    run(g, "table deal ?")
    assert g.s["leader"] == 1 and g.view(None)["hand_counts"] == [3, 3]
    run(g, "1 play 100", "0 play 100", "1 play 200", "0 play 200", "1 play 10", f"0 play {INF}")
    assert g.is_over() and g.result()["totals"] == [610, 620]   # 0's Infinity took 610
    assert g.result()["winner"] == "Борис" and g.result()["winners"] == [1]


def test_last_holder_keeps_his_cards_read_by_the_camera():
    """¶10 "Если у всех игроков кончились карты а у одного осталось одна или несколько карт...
    он оставляет их себе в банк"; RULINGS §0: their faces come from the camera, validated."""
    g = game(4, deck={"100": 3, "200": 3, "300": 3, "500": 2, "INF": 1}, deck_check=False,
             deals=1, infinity_points=1000)                       # 3 cards each
    run(g, "table deal 0", "0 play 100", "1 play 100",            # ХОЙ: token 1
        "2 play 200", "3 play 300", "0 play 500", "1 play 200")   # 1 closes; 0 wins 1400
    assert g.view(None)["hand_counts"] == [1, 1, 2, 2] and g.s["leader"] == 0
    run(g, "0 play 100", "1 play 300", "2 play 300",             # 2's ХОЙ: token 2
        "3 play 200", "2 play 500")                               # 0, 1 skipped; 2 closes, wins
    assert g.view(None)["hand_counts"] == [0, 0, 0, 1] and g.s["phase"] == "kept"
    assert g.current_seats() == [] and [a.text() for a in g.legal_actions(None)][0] == "table kept 3 ?"
    rejected(g, "table kept 0 INF", "wrong_seat")
    rejected(g, "table kept 3 INF,500", "wrong_count")
    rejected(g, "table kept 3 500", "card_exhausted")
    rejected(g, "table kept 3 7", "unknown_card")
    rejected(g, "table kept 3 x", "bad_card")
    ev = run(g, "table kept 3 INF")
    assert [e for e in ev if e.kind == "cards_kept"][0].data == {"seat": 3, "cards": [INF], "points": 1000}
    assert g.is_over() and g.result()["totals"] == [1400, 0, 1400, 1000]


# ---------------------------------------------------------------- scoring (¶1, ¶11)
def _play_out(g, seed=1, sim=None):
    from companion.games.infinity.sim import InfinitySim
    sim = sim or InfinitySim(g, seed, void_rate=0)
    while not g.is_over():
        a, _ = sim.next_action()
        g.apply(a)
        sim.applied(a)
    return sim


@pytest.mark.parametrize("deals", [3, 6, 10])
def test_points_are_summed_over_the_agreed_number_of_deals(deals):
    """¶1 "играют оговоренное количество партий (3-6-10) и складывают общий результат"."""
    g = game(3, deals=deals)
    _play_out(g)
    r = g.result()
    assert len(r["deal_scores"]) == deals
    assert all(sum(d) == 6100 for d in r["deal_scores"])  # 36 = 3 x 12: nothing aside
    assert r["totals"] == [sum(d[i] for d in r["deal_scores"]) for i in range(3)]
    assert r["winner_names"] == [NAMES[i] for i in r["winners"]]
    assert max(r["totals"]) == r["totals"][r["winners"][0]]


def test_simplified_scoring_rounds_down_to_hundreds():
    """¶11 "округлять значения всех цифр, 333 = 300, 225 = 200, 106=100... не считать 10 и 40"."""
    g = game(3, simplified_scoring=True)
    assert [g.points_of(c) for c in ("333", "225", "106", "10", "40", "36", "500", INF)] == \
        [300, 200, 100, 0, 0, 0, 500, 0]
    run(g, "table deal 0", "0 play 333", "1 play 225", "2 play 106")
    assert g.view(None)["points"][0] == 600
    g2 = game(4, simplified_scoring=True, deals=1)
    _play_out(g2)
    assert sum(g2.result()["totals"]) == 5600  # 4 x (100+100+200+200+300+500); see the docs' note


def test_infinity_points_option():
    """RULINGS §4: Infinity scores 0 by default; option infinity_points."""
    g = game(3, infinity_points=1000)
    run(g, "table deal 0", f"0 play {INF}", "1 play 10", "2 play 36")
    assert g.view(None)["points"][0] == 1046


def test_remainder_aside_is_unscored():
    """RULINGS §4: with 5 players one card lies aside and scores for nobody."""
    g = game(5, deals=1)
    sim = _play_out(g, seed=3)
    aside_points = sum(g.points_of(c) for c in sim.truth["aside"])
    assert sum(g.result()["totals"]) == 6100 - aside_points


# ---------------------------------------------------------------- plays and the camera
def test_declared_play_waits_for_the_cameras_read():
    """Design: the seat's decision (``0 play ?``) and the camera's read (``table face``) are both
    honoured; nothing else is accepted meanwhile."""
    g = game(3)
    run(g, "table deal 0")
    ev = run(g, "0 play ?")
    assert ev[0].kind == "play_declared" and g.current_seats() == []
    assert g.view(None)["pending"] == 0
    rejected(g, "1 play 100", "face_pending")
    rejected(g, "0 play 100", "face_pending")
    rejected(g, "table face 7", "unknown_card")
    rejected(g, "table face x", "bad_card")
    run(g, "table face 500")
    assert g.view(None)["trick"] == [{"seat": 0, "card": "500"}] and g.s["turn"] == 1
    rejected(g, "table face 500", "no_pending_play")


def test_a_face_that_cannot_exist_is_rejected():
    """¶1 deck profile: a fifth 500 or a second Infinity cannot be on the table."""
    g = game(4)
    run(g, "table deal 0", "0 play 500", "1 play 500", "2 play 500", "3 play 500")
    rejected(g, f"{g.s['turn']} play 500", "card_exhausted")
    run(g, f"{g.s['turn']} play {INF}")
    rejected(g, f"{g.s['turn']} play inf", "card_exhausted")


def test_rejections_have_reason_codes_and_change_nothing():
    g = game(3)
    rejected(g, "0 play 100", "wrong_phase")
    rejected(g, "table void", "nothing_to_void")
    rejected(g, "table face 100", "no_pending_play")
    rejected(g, "0 deal 0", "not_your_turn")
    rejected(g, "table deal 5", "unknown_seat")
    rejected(g, "table kept 0 100", "wrong_phase")
    rejected(g, "3 play 100", "unknown_seat")
    rejected(g, "0 fly", "unknown_action")
    rejected(g, "0 play 1 2", "bad_syntax")
    run(g, "table deal 1")
    rejected(g, "table deal 1", "wrong_phase")
    rejected(g, "0 play 100", "not_your_turn")
    rejected(g, "table play 100", "not_your_turn")
    rejected(g, "1 play 0", "bad_card")
    rejected(g, "1 play 99", "unknown_card")
    g2 = game(2, deals=1)
    _play_out(g2)
    rejected(g2, "table deal ?", "game_over")


def test_legal_actions_and_current_seats():
    g = game(3)
    assert g.current_seats() == []
    assert "table deal ?" in [a.text() for a in g.legal_actions(None)]
    run(g, "table deal 1")
    assert g.current_seats() == [1] and [a.text() for a in g.legal_actions(1)] == ["1 play ?"]
    assert g.legal_actions(0) == [] and [a.text() for a in g.legal_actions(None)] == ["table void"]


# ---------------------------------------------------------------- leaders of later deals
def test_next_deal_is_led_by_the_seat_left_of_the_previous_first_leader():
    """¶2 "Кто первый - решите сами" for the first deal; option deal_leader=rotate after that."""
    g = game(3, deals=2)
    run(g, "table deal 2")
    from companion.games.infinity.sim import InfinitySim
    sim = InfinitySim(g, 5, void_rate=0)
    sim.applied("table deal 2")
    while g.s["deal"] == 0:
        a, _ = sim.next_action()
        g.apply(a)
        sim.applied(a)
    rejected(g, "table deal 2", "wrong_leader")
    run(g, "table deal 0")
    assert g.s["leader"] == 0
    g2 = game(3, deals=2, deal_leader="free")
    assert len(g2.legal_actions(None)) == 4


# ---------------------------------------------------------------- void (RULINGS §0)
def test_void_returns_the_deal_and_it_is_dealt_again():
    """RULINGS §0: operator "void the round": everything returned, no points."""
    g = game(2, deals=1)
    before = g.snapshot()["s"]
    run(g, "table deal 1", "1 play 500", "0 play 333", "1 play 100", "0 play ?")
    ev = run(g, "table void")
    assert ev[0].kind == "deal_voided"
    after = g.snapshot()["s"]
    assert after == dict(before, voids=1)
    from companion.games.infinity.sim import InfinitySim
    sim = InfinitySim(g, 1, void_rate=0)
    run(g, "table deal 0")
    sim.applied("table deal 0")
    assert g.s["leader"] == 0
    _play_out(g, sim=sim)
    assert g.result()["voided_deals"] == 1 and sum(g.result()["totals"]) == 6100
