"""The game pages show the table in words: each game's page view (``page_view``) and game-over
words (``result_text``), checked on the page model the dashboard sends (no browser)."""

from __future__ import annotations

import json
import re

import pytest

from companion.dashboard import model as M
from companion.games import doubt, hoggenheimer, lottery, skull
from companion.games.base import Event
from companion.games.simulator import play_random_game
from companion.i18n import M as Msg, both, render
from tests.wording import said

CARD_CODE = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9AKQJ])[SHDC](?![\w])")
NAMES5 = ["Аня", "Борис", "Вика", "Гоша", "Дима"]


def _model(game, viewer=M.PUBLIC):
    views = {None: game.view(None), **{i: game.view(i) for i in range(len(game.seats))}}
    info = {"id": game.GAME_ID, "seats": list(game.seats), "options": {}}
    return M.view_for(viewer, epoch=1, version=1, game_info=info, views=views, legal={}, turn=[],
                      over=game.is_over(), result=None, history=[])


def _lottery_mid():
    from companion.games import new_game
    from companion.games.simulator import get_sim_class

    g = new_game("lottery", NAMES5, None)
    sim = get_sim_class("lottery")(g, 7)
    for _ in range(12):
        text, _src = sim.next_action()
        g.apply(g.parse_action(text))
        sim.applied(text)
    return g


def test_lottery_page_view_names_chips_prizes_from_one_and_card_signs():
    g = _lottery_mid()
    raw = g.view(None)
    assert raw["prizes"][0]["slot"] == 0  # the engine counts slots from 0 (its log too)
    v = _model(g)["view"]
    assert "balances" not in v and "expect" not in v and "current_seats" not in v
    # each player's chips on his seat card
    assert [r["chips"] for r in v["seats"]] == raw["balances"]
    assert [r["name"] for r in v["seats"]] == NAMES5
    assert v["seats"][raw["banker"]]["role"] == {"ru": "банкир", "en": "banker"}
    # prizes as people count them, no «место» column beside a seat's
    assert [p["prize"] for p in v["prizes"]] == [1, 2, 3, 4]
    assert all("slot" not in p for p in v["prizes"]) and all("slot" not in w for w in v.get("won", []))
    assert all("seat" not in w and w["name"] in NAMES5 for w in v.get("won", []))
    # cards aside by player name, never by a seat index from 0
    assert v["aside"] and all(row["name"] in NAMES5 for row in v["aside"])
    text = json.dumps({k: v[k] for k in ("prizes", "aside", "won", "seats") if k in v}, ensure_ascii=False)
    assert not CARD_CODE.search(text), text
    assert "♥" in text or "♠" in text or "♦" in text or "♣" in text
    # a seat's page has no «you: 1» (the lottery has nothing private)
    assert "you" not in _model(g, 1)["view"]


def test_lottery_game_over_box_is_words_not_a_field_dump():
    g, _ = play_random_game("lottery", NAMES5, None, seed=3)
    m = _model(g)
    words = m["result_text"]
    best = g.result()["winner"] or g.seats[g.result()["winners"][0]]
    for lang in ("ru", "en"):
        assert best in words[lang]
        for dump in ("chips_total", "playoff_variant", "касса из прошлой игры", "вариант розыгрыша"):
            assert dump not in words[lang]
    head = both(Msg("Game over"))
    assert not any(words[lang].startswith(head[lang]) for lang in ("ru", "en"))  # the box's heading says it
    standing = lottery.describe_standings(g.view(None), g.seats)  # the box's words: the box carries over
    assert "the box holds %(box)s and carries over" in said(standing)[0] and standing.facts["box"] == g.view(None)["box"]


def test_doubt_page_view_claim_once_deck_names_in_both_languages():
    g = doubt.DoubtGame(["Аня", "Борис", "Вика"])
    for t in ("0 deal", "0 place 3 mushroom"):
        g.apply(g.parse_action(t))
    v = _model(g)["view"]
    pile = v["pile"]
    assert pile["claim"] == {"ru": "гриб", "en": "mushroom"} and "claim_name" not in pile
    assert pile["placements"] == [{"name": "Аня", "count": 3}]
    kinds = v["deck"]["kinds"]
    assert kinds[0] == {"card": {"ru": "гриб", "en": "mushroom"}, "count": 13}
    assert all("id" not in k and "name" not in k for k in kinds)
    assert "you" not in _model(g, 1)["view"]


@pytest.mark.parametrize("count, ru, en", [(1, "1 ёж", "1 hedgehog"), (4, "4 ежа", "4 hedgehogs"),
                                           (5, "5 ежей", "5 hedgehogs"), (2, "2 ежа", "2 hedgehogs")])
def test_doubt_claim_in_words_agrees_with_its_count(count, ru, en):
    """The board's claim is the count and the kind in words, in the catalogue's plural («4 ежа»), and
    the last check's claim too."""
    g = doubt.DoubtGame(["Аня", "Борис", "Вика"])
    g.apply(g.parse_action("0 deal"))
    g.apply(g.parse_action(f"0 place {count} hedgehog"))
    assert _model(g)["view"]["pile"]["claim_words"] == {"ru": ru, "en": en}
    g.apply(g.parse_action("1 doubt"))
    g.apply(g.parse_action(f"table reveal {','.join(['hedgehog'] * count)}"))
    assert _model(g)["view"]["last_check"]["claim"] == {"ru": ru, "en": en}


def test_doubt_claim_of_a_deck_of_its_own_keeps_the_decks_name():
    from companion.games.doubt.presenter import claim_words

    assert claim_words("cheese", {"ru": "сыр", "en": "cheese"}, 3) == {"ru": "3 × сыр", "en": "3 × cheese"}
    # a default kind renamed by the table's deck: its name, not the default deck's plural
    assert claim_words("mushroom", {"ru": "груздь", "en": "milk cap"}, 2) == {"ru": "2 × груздь", "en": "2 × milk cap"}
    assert claim_words("mushroom", None, 21) == {"ru": "21 гриб", "en": "21 mushrooms"}


def test_doubt_result_words_per_name_and_answer_line_in_nominative():
    g, _ = play_random_game("doubt", ["Аня", "Борис", "Вика"], {"games": 2}, seed=5)
    r = g.result()
    words = _model(g)["result_text"]
    assert r["loser_name"] in words["ru"] and r["loser_name"] in words["en"]
    told = doubt.PRESENTER.standings(g.view(None), g.seats)
    assert said(told)[0] == "%(head)s. Losses in the match: %(told)s" and words["ru"].endswith(render(told, "ru")[-20:])
    for i, n in enumerate(g.seats):  # the match's losses told per name, not by position
        assert f"{n} {r['losses'][i]}" in words["ru"]
    assert "loser name" not in words["en"] and "claim true" not in words["en"]
    ev = Event("answered", {"seat": 1, "placer": 0, "answer": "doubt"})
    assert said(doubt.describe_event(ev, ["Аня", "Борис", "Вика"])) == (
        "%(name)s answers the claim of %(placer)s: %(answer)s", {"name": "Борис", "placer": "Аня", "answer": "“I doubt it”"})


def test_hoggenheimer_odds_in_words():
    g = hoggenheimer.HoggenheimerGame(["Аня", "Борис", "Вика"])
    v = _model(g)["view"]
    card = next(o for o in v["odds"] if o["shape"] == "card")
    assert card == {"shape": "card", "payout": "1:1", "chance": {"ru": "1 из 2 (50\u00a0%)", "en": "1 in 2 (50%)"}}
    assert all("k" not in o and "p" not in o for o in v["odds"])
    assert "you" not in _model(g, 1)["view"]
    assert sum(1 for r in v["seats"] if "role" in r) == 1


def test_skull_private_lines_and_box_in_words():
    ev = Event("your_notes", {"seat": 1, "serials": ["АК2444841", "АК2444842"], "roles": ["rose", "skull"]},
               private_to=1)
    describe = M.narrator("skull", ["Аня", "Борис"])
    msg = skull.describe_private_event(ev, ["Аня", "Борис"])
    assert said(msg) == ("Your notes: %(told)s", {"told": ["АК2444841 — rose", "АК2444842 — skull"]})
    assert describe(ev) == both(msg)
    entry = M.history_entry(1, 3, type("O", (), {"events": [ev], "action": "table register 1 ?", "source": "camera"})(),
                            describe)
    assert entry["items"][0]["text"] == both(msg)
    assert M.history_entry(0, 3, type("O", (), {"events": [ev], "action": "table register 1 ?",
                                                "source": "camera"})(), describe)["items"][0]["kind"] == "table_action"
    ok = Event("outcome", {"outcome": "success", "dealer": 0, "bid": 1, "losers": [1], "chooser": 0})
    assert "turned up 1 rose." in render(skull.describe_event(ok, ["Аня", "Борис"]), "en")


def test_english_game_name_of_doubt(tmp_path):
    from companion.dashboard import create_app
    from companion.dashboard.i18n import js_words
    from companion.table import Table

    table = Table(tmp_path, pin="314159")
    try:
        app = create_app(table)
        with app.test_request_context(headers={"Cookie": "lang=en"}):
            assert js_words()["game_doubt"] == "Believe it or not"
            # the buttons keep the game's words, with their meaning for a guest
            assert js_words()["v_believe"] == "Верю · I believe"
            assert js_words()["v_disbelieve"] == "Не верю · I doubt it"
        with app.test_request_context():
            assert js_words()["game_doubt"] == "Верю — не верю"
            assert (js_words()["v_believe"], js_words()["v_disbelieve"]) == ("Верю", "Не верю")
    finally:
        table.close()


def test_lottery_cards_aside_are_not_listed_once_they_are_play_off_hands():
    """The end screen listed «В стороне» cards that had become play-off hands or were already
    played (a second fresh user): once the play-off starts, the hands are the truth."""
    g, _ = play_random_game("lottery", NAMES5, None, seed=3)
    assert g.is_over() and g.view(None).get("aside")  # the engine keeps its list as history
    assert "aside" not in _model(g)["view"]
    mid = _lottery_mid()  # before the play-off the cards aside are shown, by name
    assert mid.view(None)["phase"] == "spread" and any(mid.view(None)["aside"].values())
    assert [a["name"] for a in _model(mid)["view"]["aside"]] == ["Вика", "Гоша", "Дима"]
