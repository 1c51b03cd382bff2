"""The operator's move field takes a seat's move in the words of its buttons, in either language
(companion.dashboard.movewords): «Раздача», «Не верю», "Bid 3" are the moves the seat's page
sends. Real code path: the Flask app over a :class:`companion.table.Table` playing the real game."""

from __future__ import annotations

import pytest

from companion.dashboard.movewords import fold, typed_move, verb_words


@pytest.mark.parametrize("game, typed, move", [
    ("skull", "Ставка 3", "bid 3"), ("skull", "ПАС", "pass"), ("skull", "bid 3", "bid 3"),
    ("skull", "Bid 4", "bid 4"), ("skull", "согласен", "agree"),
    ("doubt", "не  верю", "doubt"), ("doubt", "«Верю»", "believe"), ("doubt", "I doubt it", "doubt"),
    ("doubt", "выложить карты 2 сова", "place 2 сова"), ("doubt", "Раздача", "deal"),
    # a label's first word when it is the verb («Выложить карты», «Снять ставку»), as a move is said
    ("doubt", "выложить 2 гриба", "place 2 гриба"), ("doubt", "Добавить 1", "add 1"),
    ("skull", "выложить", "place"), ("hoggenheimer", "снять 3", "withdraw 3"),
    # the keyboard left on the Latin layout: the Russian keys meant («Dth.» is «Верю»), when the
    # Latin words name no verb themselves; what follows stays as typed (a card code is Latin)
    ("doubt", "Dth.", "believe"), ("doubt", "Yt dth.", "doubt"), ("doubt", "dskj;bnm 2 uhb,", "place 2 uhb,"),
    ("skull", "Cnfdrf 3", "bid 3"), ("hoggenheimer", "Cnfdrf 5 QH", "bet 5 QH"), ("doubt", "add 1", "add 1"),
    ("hoggenheimer", "Ставка 5 QH", "bet 5 QH"), ("hoggenheimer", "снять ставку 3", "withdraw 3"),
    ("infinity", "Сыграть Д♥", "play Д♥"),
    # the whole form the README documents: the move after ``table as N`` in its buttons' words
    ("skull", "table as 3 Согласен", "table as 3 agree"), ("skull", "table as 1 пас", "table as 1 pass"),
    ("doubt", "table  as 2 не верю", "table as 2 doubt"),
])
def test_a_move_in_its_buttons_words_is_the_move_its_page_sends(game, typed, move):
    assert typed_move(game, typed) == move


@pytest.mark.parametrize("game, typed", [
    ("skull", "table bot 2"), ("skull", "table as 2 ставки"), ("doubt", "не"), ("doubt", "i"), ("skull", "table as x пас"), ("skull", "ставки"), ("skull", "банк 3"), ("nosuchgame", "Ставка 3"),
    (None, "Ставка 3"), ("skull", ""),
])
def test_anything_else_is_left_as_typed_for_the_engine_to_judge(game, typed):
    assert typed_move(game, typed) == typed


def test_words_two_verbs_share_name_neither_and_every_verb_keeps_its_own_name():
    for game in ("skull", "doubt", "hoggenheimer", "infinity", "lottery"):
        words = verb_words(game)
        from companion.games import registry
        for verb in registry.get(game).engine._verbs():
            assert words[fold(verb)] == verb
    # doubt's «Верю · I believe» label gives both of its parts
    assert verb_words("doubt")["верю"] == "believe" and verb_words("doubt")["i believe"] == "believe"
    assert fold("«Не  Вёрю!»") == "не верю"


def test_the_console_plays_a_seat_by_its_buttons_words(console):
    table, op, h = console("doubt", ["Аня", "Борис", "Вика"])
    assert op.post("/api/operator/action", json={"action": "console", "seat": 1}, headers=h).get_json()["accepted"]
    r = op.post("/api/operator/action", json={"action": "Раздача", "seat": 1}, headers=h)
    assert r.status_code == 200 and r.get_json()["accepted"] and r.get_json()["action"] == "0 deal", r.get_json()
    r = op.post("/api/operator/action", json={"action": "Выложить карты 2 гриб", "seat": 1}, headers=h)
    assert r.status_code == 200 and r.get_json()["accepted"], r.get_json()
    assert r.get_json()["action"] == "0 place 2 mushroom"
    # a word that is no button is the engine's to refuse, in words, and nothing is played
    version = table.referee.version
    r = op.post("/api/operator/action", json={"action": "Поставить всё", "seat": 2}, headers=h)
    assert not r.get_json()["accepted"] and r.get_json().get("message"), r.get_json()
    assert table.referee.version == version
    # the same move typed whole, in the move field and in the table-action field
    r = op.post("/api/operator/action", json={"action": "table as 1 Не верю"}, headers=h)
    # (read as seat 1's «Не верю»: the engine's turn rule answers, not an unknown word)
    assert (r.get_json()["action"], r.get_json()["reason"]) == ("0 doubt", "not_your_turn"), r.get_json()


def test_a_console_move_names_cards_as_the_pages_show_them(console):
    table, op, h = console("hoggenheimer", ["Аня", "Борис", "Вика"])
    legal = table.views()[3]
    seat = next(s for s in legal if isinstance(s, int) and any(" bet " in t for t in legal[s]))
    assert op.post("/api/operator/action", json={"action": "console", "seat": seat + 1}, headers=h).get_json()["accepted"]
    bet = next(t for t in legal[seat] if " bet " in t).split()  # "<seat> bet <stake> <target>"
    r = op.post("/api/operator/action", json={"action": f"ставка {bet[2]} Д♥", "seat": seat + 1}, headers=h)
    body = r.get_json()
    assert body["action"] == f"{seat} bet {bet[2]} QH", body


def test_a_move_said_with_an_inflected_kind_is_played(console):
    """A new user typed «выложить 2 гриба» (the verb alone, the kind in the genitive) and was told
    «В этой игре нет такого действия»."""
    table, op, h = console("doubt", ["Аня", "Борис", "Вика"])
    assert op.post("/api/operator/action", json={"action": "console", "seat": 1}, headers=h).get_json()["accepted"]
    assert op.post("/api/operator/action", json={"action": "Раздача", "seat": 1}, headers=h).get_json()["accepted"]
    r = op.post("/api/operator/action", json={"action": "выложить 2 гриба", "seat": 1}, headers=h)
    assert r.status_code == 200 and r.get_json()["accepted"], r.get_json()
    assert r.get_json()["action"] == "0 place 2 mushroom"


def test_a_move_not_understood_lists_the_moves_the_seat_can_make(console):
    """A move the engine cannot read at all («поставить всё», a verb without its count) is refused
    naming what was typed and the seat's possible moves now, by their buttons' words."""
    from companion.i18n import M, render

    table, op, h = console("doubt", ["Аня", "Борис", "Вика"])
    for seat in (1, 2):
        assert op.post("/api/operator/action", json={"action": "console", "seat": seat}, headers=h).get_json()["accepted"]
    assert op.post("/api/operator/action", json={"action": "Раздача", "seat": 1}, headers=h).get_json()["accepted"]
    version = table.referee.version
    r = op.post("/api/operator/action", json={"action": "поставить  всё", "seat": 1}, headers=h)
    body = r.get_json()
    assert r.status_code == 409 and body["reason"] == "unknown_action", body
    told = M("The move «%(typed)s» was not understood. %(player)s can now: %(moves)s.", typed="поставить всё",
             player="Аня", moves=[M("«%(text)s»", text=M("Lay cards"))])
    assert body["message"] == render(told, "ru"), body
    assert op.post("/api/operator/action", json={"action": "выложить 2 гриба", "seat": 1}, headers=h).get_json()["accepted"]
    version = table.referee.version
    # Борис answers: «Верю», «Не верю» or adds; a verb without its count is not understood either
    r = op.post("/api/operator/action", json={"action": "table as 2 добавить"}, headers=h)
    body = r.get_json()
    assert body["reason"] == "bad_syntax", body
    told = M("The move «%(typed)s» was not understood. %(player)s can now: %(moves)s.", typed="добавить",
             player="Борис", moves=[M("«%(text)s»", text=M(w)) for w in ("Верю · I believe", "Не верю · I doubt it", "Add")])
    assert body["message"] == render(told, "ru"), body
    # Аня, whose turn it is not, is told so
    r = op.post("/api/operator/action", json={"action": "поставить всё", "seat": 1}, headers=h)
    told = M("The move «%(typed)s» was not understood, and %(player)s has no move to make now.", typed="поставить всё",
             player="Аня")
    assert r.get_json()["message"] == render(told, "ru"), r.get_json()
    assert table.referee.version == version


def test_a_kind_typed_on_the_latin_layout_is_the_kind(console):
    """«uhb,» is «гриб» typed with the keyboard on the Latin layout; a Latin word that is a name
    itself ("owl") stays that name."""
    table, op, h = console("doubt", ["Аня", "Борис", "Вика"])
    assert op.post("/api/operator/action", json={"action": "console", "seat": 1}, headers=h).get_json()["accepted"]
    assert op.post("/api/operator/action", json={"action": "Раздача", "seat": 1}, headers=h).get_json()["accepted"]
    r = op.post("/api/operator/action", json={"action": "dskj;bnm 2 uhb,", "seat": 1}, headers=h)
    assert r.status_code == 200 and r.get_json()["action"] == "0 place 2 mushroom", r.get_json()
