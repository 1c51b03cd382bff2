"""Scenario tests, one per rule of "Верю — не верю" (seed ``001_*`` paragraphs ¶1–¶12 as numbered
in ``docs/rules/doubt.md``; RULINGS §0, §2)."""

from __future__ import annotations

import json

import pytest

from companion.errors import IllegalAction
from companion.games import new_game
from companion.games.doubt import (DEFAULT_DECK, REASONS, Add, Believe, Deal, Doubt, DoubtGame, Place,
                                   Reveal, Void, normalize_deck)
from tests import gamekit

SMALL = {"name": "small", "kinds": {"a": 6, "b": 6, "c": 6}}  # 18 cards


def game(n=3, deck=SMALL, **opts) -> DoubtGame:
    g = DoubtGame([f"P{i}" for i in range(n)], {"deck": deck, **opts})
    g.apply(f"{g.dealer} deal")
    return g


def rejects(g, text, reason):
    return gamekit.rejects(g, text, reason, REASONS)


def cards_total(g):
    return sum(g.hands) + g.pile_size() + g.discard


# ---------------------------------------------------------------- ¶1 deck, players
def test_default_deck_is_104_eight_kinds_of_13():
    """¶1 + RULINGS §2: 104 cards, 8 kinds × 13, kinds have Russian names."""
    d = normalize_deck(None)
    assert len(d["kinds"]) == 8 and all(k["count"] == 13 for k in d["kinds"])
    assert sum(k["count"] for k in d["kinds"]) == 104
    assert {k["id"]: k["name"] for k in d["kinds"]}["mushroom"] == "гриб"
    g = DoubtGame(["A", "B"])
    assert g.deck_size == 104 and g.deck == normalize_deck(DEFAULT_DECK)


def test_players_two_to_eight():
    """¶1: "Играть можно от 2 до 8 человек"."""
    with pytest.raises(IllegalAction, match="bad_seats"):
        DoubtGame(["A"])
    with pytest.raises(IllegalAction, match="bad_seats"):
        DoubtGame([str(i) for i in range(9)])
    DoubtGame([str(i) for i in range(8)])


def test_deck_profile_from_card_reader_and_bad_profiles():
    """RULINGS §2: a table registers its own deck (kinds, names, counts)."""
    learned = {"name": "learned", "kinds": [{"id": "cat", "name": "кот", "count": 5},
                                             {"id": "dog", "name": "пёс", "count": 7}]}
    g = game(2, learned)
    assert g.deck_size == 12 and g.hands == [6, 6]
    assert g.view(None)["deck"]["kinds"][0] == {"id": "cat", "name": "кот", "name_en": "кот", "count": 5}
    for bad in ({"kinds": {"a": 3}}, {"kinds": {"A b": 2, "c": 1}}, {"kinds": {"a": 0, "b": 1}},
                {"kinds": [{"id": "a"}, {"id": "a"}]}, {"nokinds": 1}, "forest", 12):
        with pytest.raises(IllegalAction) as e:
            DoubtGame(["A", "B"], {"deck": bad})
        assert e.value.reason == "bad_option"
    with pytest.raises(IllegalAction, match="bad_option"):
        DoubtGame(["A", "B", "C"], {"deck": {"kinds": {"a": 1, "b": 1}}})  # fewer cards than players
    for bad_opt in ({"games": True}, {"max_cards": 0}, {"first_dealer": 2, "deck": None}, {"games": "2"}):
        with pytest.raises(IllegalAction, match="bad_option"):
            DoubtGame(["A", "B"], bad_opt)
    g64 = game(3, "forest64")  # the other reading of "8 видов по 8"
    assert g64.deck_size == 64 and g64.hands == [21, 22, 21]


# ---------------------------------------------------------------- ¶2 deal
def test_deal_all_cards_uneven_split_nearest_dealer_left_get_more():
    """¶2 + RULINGS §2: all cards dealt; the remainder goes one each to the seats on the dealer's left."""
    g = DoubtGame(["A", "B", "C"], {"first_dealer": 1})  # 104 = 3 × 34 + 2
    g.apply("1 deal")
    assert g.hands == [35, 34, 35]  # seats 2 and 0 are the dealer's left
    assert sum(g.hands) == 104
    g5 = DoubtGame(list("ABCDE"))
    g5.apply("0 deal")
    assert g5.hands == [20, 21, 21, 21, 21]


def test_only_the_dealer_deals_and_the_dealer_leads():
    """¶2-¶3 + RULINGS §2: the dealer leads the first pile."""
    g = DoubtGame(["A", "B", "C"], {"first_dealer": 2})
    rejects(g, "0 deal", "not_dealer")
    rejects(g, "2 place 1 mushroom", "wrong_phase")
    g.apply("2 deal")
    assert g.phase == "lead" and g.current_seats() == [2]
    rejects(g, "0 place 1 mushroom", "not_your_turn")
    rejects(g, "2 deal", "wrong_phase")


# ---------------------------------------------------------------- ¶3 placement
def test_placement_is_one_to_eight_cards_of_a_claimed_kind():
    """¶3: 1 to 8 cards face down with a claim "3 гриба"."""
    g = game(2, {"kinds": {"a": 10, "b": 10}})
    rejects(g, "0 place 0 a", "bad_count")
    rejects(g, "0 place 9 a", "bad_count")
    rejects(g, "0 place 2 zzz", "unknown_kind")
    rejects(g, "table place 2 a", "seat_only")
    ev = g.apply("0 place 8 a")
    assert ev[0].kind == "placed" and ev[0].data == {"seat": 0, "count": 8, "kind": "a", "pile": 8}
    assert g.hands == [2, 10] and g.turn == 1 and g.phase == "answer"


def test_cannot_place_more_than_held():
    """¶3: a player places cards from his hand (hand size known from the deal)."""
    g = game(3, {"kinds": {"a": 2, "b": 2}})  # 4 cards: dealer 0 gets 1
    assert g.hands == [1, 2, 1]
    rejects(g, "0 place 2 a", "not_enough_cards")


# ---------------------------------------------------------------- ¶4-¶5 the three answers
def test_the_next_player_on_the_left_answers_with_three_options():
    """¶3-¶4: the next player (left) believes, doubts or adds."""
    g = game(3)
    g.apply("0 place 2 a")
    verbs = {a.VERB for a in g.legal_actions(1)}
    assert verbs == {"believe", "doubt", "add"}
    assert g.legal_actions(2) == [] and g.current_seats() == [1]
    rejects(g, "2 believe", "not_your_turn")
    rejects(g, "1 place 1 a", "wrong_phase")


def test_add_passes_the_turn_and_keeps_the_claimed_kind():
    """¶5 + RULINGS §2 option 3: "ещё 5 грибов — от меня"; the next player answers."""
    g = game(3)
    g.apply("0 place 2 a")
    rejects(g, "1 add 0", "bad_count")
    rejects(g, "1 add 9", "bad_count")
    ev = g.apply("1 add 3")
    assert ev[0].data["kind"] == "a" and g.claim == "a"
    assert g.pile == [[0, 2], [1, 3]] and g.turn == 2 and g.hands == [4, 3, 6]
    g.apply("2 add 1")
    assert g.turn == 0  # round the table back to the first placer
    g.apply("0 doubt")
    rejects(g, "table reveal a,a", "reveal_count_mismatch")  # only the last placement (1 card)
    g.apply("table reveal a")


def test_a_check_reveals_only_the_last_placement():
    """¶5 + RULINGS §2: a lie under a later addition is not checked."""
    g = game(3)
    g.apply("0 place 2 a")   # (a lie, say)
    g.apply("1 add 1")       # truthful
    g.apply("2 doubt")
    rejects(g, "table reveal b,b", "reveal_count_mismatch")
    g.apply("table reveal a")  # the last placement is true -> doubt_wrong
    assert g.last_check["outcome"] == "doubt_wrong" and g.last_check["taker"] == 2
    assert g.hands[2] == 6 + 3


def test_reveal_is_the_tables_and_comes_after_an_answer():
    """RULINGS §0: card faces only from the camera/operator (table observation)."""
    g = game(3)
    rejects(g, "table reveal a", "wrong_phase")
    g.apply("0 place 1 a")
    rejects(g, "table reveal a", "wrong_phase")
    g.apply("1 believe")
    rejects(g, "1 reveal a", "table_only")
    rejects(g, "table reveal q", "unknown_kind")
    rejects(g, "table reveal ?", "unreadable_card")  # "not sure, rescan": nothing changes
    rejects(g, "1 believe", "wrong_phase")
    assert g.current_seats() == [] and [a.VERB for a in g.legal_actions(None)] == ["reveal", "void"]


# ---------------------------------------------------------------- ¶7-¶10 the four outcomes
def test_believe_right_pile_discarded_guesser_leads():
    """¶7: "Верю" and right: the pile is discarded (бита), the guesser leads."""
    g = game(3)
    g.apply("0 place 2 a")
    g.apply("1 add 1")
    g.apply("2 believe")
    ev = g.apply("table reveal a")
    assert g.last_check["outcome"] == "believe_right" and g.last_check["taker"] is None
    assert g.discard == 3 and g.pile == [] and g.turn == 2 and g.phase == "lead"
    assert g.hands == [4, 5, 6] and cards_total(g) == 18
    assert [e.kind for e in ev] == ["checked", "lead"]


def test_believe_wrong_believer_takes_pile_his_left_leads():
    """¶8: "Верю" and wrong: the believer takes the pile; the player on his left leads."""
    g = game(3)
    g.apply("0 place 2 a")
    g.apply("1 believe")
    g.apply("table reveal a,b")
    assert g.last_check["outcome"] == "believe_wrong" and g.last_check["true"] is False
    assert g.hands == [4, 8, 6] and g.turn == 2 and g.discard == 0


def test_doubt_right_liar_takes_pile_guesser_leads():
    """¶9: "Не верю" and the claim was false: the placer takes the pile; the guesser leads."""
    g = game(3)
    g.apply("0 place 2 a")
    g.apply("1 add 2")
    g.apply("2 doubt")
    g.apply("table reveal c,a")
    assert g.last_check["outcome"] == "doubt_right" and g.last_check["taker"] == 1
    assert g.hands == [4, 8, 6] and g.turn == 2


def test_doubt_wrong_doubter_takes_pile_his_left_leads():
    """¶10: "Не верю" and the claim was true: the doubter takes the pile; his left leads."""
    g = game(3)
    g.apply("0 place 2 a")
    g.apply("1 doubt")
    g.apply("table reveal a,a")
    assert g.last_check["outcome"] == "doubt_wrong"
    assert g.hands == [4, 8, 6] and g.turn == 2


def test_impossible_reveal_against_known_discards():
    """RULINGS §0: the engine never accepts more cards of a kind than the deck holds."""
    g = game(2, {"kinds": {"a": 3, "b": 5}})  # 4 each
    g.apply("0 place 3 a")
    g.apply("1 believe")
    g.apply("table reveal a,a,a")  # discarded: 3 a, all of them
    g.apply("1 place 1 a")
    g.apply("0 doubt")
    rejects(g, "table reveal a", "impossible_cards")
    g.apply("table reveal b")


# ---------------------------------------------------------------- players without cards, ¶11
def test_player_without_cards_must_believe_or_doubt():
    """RULINGS §2: a player who cannot add (no cards) must believe or disbelieve."""
    g = game(2, {"kinds": {"a": 2, "b": 2}})  # 2 each
    g.apply("0 place 1 a")
    g.apply("1 add 2")  # seat 1 placed his last cards
    g.apply("0 add 1")  # seat 0 too
    assert g.hands == [0, 0] and g.turn == 1
    rejects(g, "1 add 1", "no_cards")
    assert {a.VERB for a in g.legal_actions(1)} == {"believe", "doubt"}


def test_last_cards_announced_player_stays_until_checked():
    """¶11: placing the last cards is announced; the player is still in until the check."""
    g = game(3, {"kinds": {"a": 3, "b": 3}})  # 2 each
    ev = g.apply("0 place 2 a")
    assert [e.kind for e in ev] == ["placed", "last_cards"]
    assert g.in_game[0] and g.view(None)["seats"][0]["last_cards"]
    g.apply("1 add 1")
    g.apply("2 add 1")
    assert g.turn == 0  # with no cards he still answers
    g.apply("0 doubt")
    g.apply("table reveal a")  # seat 2 told the truth: the doubter (0) takes the pile
    assert g.in_game[0] and g.hands[0] == 4 and g.turn == 1


def test_last_cards_player_leaves_when_checked_and_not_taking():
    """¶11 + RULINGS §2: out when his placement is checked and he did not take the pile."""
    g = game(3, {"kinds": {"a": 3, "b": 3}})
    g.apply("0 place 2 a")
    ev = g.apply("1 believe")
    ev = g.apply("table reveal a,a")
    assert not g.in_game[0] and g.out_order == [0]
    assert "player_out" in [e.kind for e in ev]
    assert g.turn == 1  # the right guesser leads
    rejects(g, "0 place 1 a", "player_out")


def test_last_cards_player_caught_lying_stays_in():
    """¶11: "велика вероятность ... останется в игре" — caught, he takes the pile back."""
    g = game(3, {"kinds": {"a": 3, "b": 3}})
    g.apply("0 place 2 a")
    g.apply("1 doubt")
    g.apply("table reveal a,b")
    assert g.in_game[0] and g.hands[0] == 2 and g.turn == 1


def test_covered_last_cards_leave_when_the_pile_goes_elsewhere():
    """RULINGS §2 as implemented (docs: "covered last cards"): a seat whose last cards lie under a
    later addition leaves when the pile is resolved and he does not take it."""
    g = game(3, {"kinds": {"a": 3, "b": 3}})
    g.apply("0 place 2 a")  # 0 has none left
    g.apply("1 add 1")
    g.apply("2 doubt")
    g.apply("table reveal b")  # seat 1 lied: seat 1 takes the pile; seat 0 leaves
    assert not g.in_game[0] and g.hands == [0, 4, 2]
    assert g.turn == 2


def test_answer_skips_players_who_left():
    """RULINGS §0 "left" = next seat clockwise still in the game."""
    g = game(3, {"kinds": {"a": 3, "b": 3}})
    g.apply("0 place 2 a")
    g.apply("1 believe")
    g.apply("table reveal a,a")  # seat 0 out, seat 1 leads
    g.apply("1 place 1 b")
    assert g.turn == 2
    g.apply("2 add 1")
    assert g.turn == 1  # seat 0 is skipped


# ---------------------------------------------------------------- ¶12 end, next game
def test_last_player_holding_cards_loses_and_deals_next():
    """¶12 + ¶2: the last player still in loses; he deals the next game."""
    g = game(2, {"kinds": {"a": 2, "b": 2}}, games=2)
    g.apply("0 place 2 a")
    g.apply("1 believe")
    ev = g.apply("table reveal a,a")
    assert [e.kind for e in ev][-1] == "game_over"
    assert ev[-1].data["loser"] == 1 and g.phase == "deal" and g.dealer == 1 and not g.is_over()
    rejects(g, "0 deal", "not_dealer")
    g.apply("1 deal")
    assert g.hands == [2, 2] and g.turn == 1
    g.apply("1 place 2 b")
    g.apply("0 doubt")
    g.apply("table reveal b,a")  # 1 lied: takes 2 back; game goes on
    g.apply("0 place 2 a")
    g.apply("1 doubt")
    g.apply("table reveal a,a")  # 0 out, 1 takes -> 1 loses again
    assert g.is_over()
    r = g.result()
    assert r["loser"] == 1 and r["loser_name"] == "P1" and r["losses"] == [0, 2] and r["games"] == 2
    assert r["next_dealer"] == 1
    rejects(g, "1 place 1 a", "game_over")
    json.dumps(r)


def test_nobody_left_holding_is_a_draw():
    """Edge case (docs): both players' last cards end in the discard — no loser; the next
    dealer is the dealer's left neighbour."""
    g = game(2, {"kinds": {"a": 2, "b": 2}}, games=2)
    g.apply("0 place 2 a")
    g.apply("1 add 2")
    g.apply("0 believe")
    g.apply("table reveal a,a")
    assert g.games_log[-1]["loser"] is None and g.dealer == 1 and g.phase == "deal"


# ---------------------------------------------------------------- operator, errors, views
def test_void_returns_each_placement_to_its_placer():
    """RULINGS §0: "void the round" — everything returned, the first placer leads again."""
    g = game(3)
    rejects(g, "table void", "nothing_to_void")
    g.apply("0 place 2 a")
    g.apply("1 add 3")
    g.apply("2 doubt")
    rejects(g, "1 void", "table_only")
    ev = g.apply("table void")
    assert ev[0].kind == "round_void" and g.hands == [6, 6, 6] and g.turn == 0 and g.phase == "lead"


def test_unknown_seat_and_bad_text():
    g = game(3)
    rejects(g, "5 place 1 a", "unknown_seat")
    for text, reason in [("0 place a 1", "bad_syntax"), ("0 fly", "unknown_action"), ("x deal", "bad_syntax"),
                         ("0 place 1", "bad_syntax")]:
        rejects(g, text, reason)


def test_action_text_round_trips():
    for a in [Deal(0), Place(1, 3, "mushroom"), Add(2, 5), Believe(3), Doubt(4), Reveal(None, ("owl", "fox")),
              Void(None)]:
        assert DoubtGame.parse_action(a.text()) == a
    assert Place(1, 3, "mushroom").text() == "1 place 3 mushroom"
    assert Reveal(None, ("owl", "owl")).text() == "table reveal owl,owl"


def test_views_hold_counts_and_claims_and_registry():
    g = new_game("doubt", ["Аня", "Борис", "Вера"])
    g.apply("0 deal")
    g.apply("0 place 3 mushroom")
    v = g.view(None)
    assert v["pile"] == {"claim": "mushroom", "claim_name": "гриб", "placements": [{"seat": 0, "count": 3}],
                         "cards": 3}
    assert [s["cards"] for s in v["seats"]] == [31, 35, 35]
    mine = g.view(1)
    assert mine["you"]["to_act"] and mine["you"]["verbs"] == ["add", "believe", "doubt"]
    json.dumps(v, ensure_ascii=False)
    assert g.result() is None


def test_docs_list_every_reason_code_and_option():
    """docs/rules/doubt.md lists every reason code and every house-rule option (GUIDE: errors are
    part of the product)."""
    gamekit.docs_list_everything("doubt")
