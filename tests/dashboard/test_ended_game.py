"""«Завершить игру» on an unfinished game: the public page, the operator console and the console of
``companion run`` say that the operator ended it and how it stood — the chips of the joker game and
the lottery, the points of "6100", the notes of skull, the cards of «Верю — не верю» — built from
the game's public view only. Before, the pages went straight to «Игры пока нет» and the standing of
the game was nowhere to be seen.

The words are checked as message ids with the facts of the game's state (:func:`told`); the
console's line keeps its rendered Russian once."""

from __future__ import annotations

import io
import json

import pytest

from companion.commands.run import Console
from companion.dashboard import create_app
from companion.dashboard.model import OPERATOR, PUBLIC
from companion.dashboard.i18n import game_title
from companion.games.cardnames import card_words
from companion.i18n import M, render
from companion.games.simulator import get_sim_class
from companion.table import Table

from tests.dashboard.helpers import operator_client

NAMES = ["Аня", "Борис", "Вика", "Гена"]
ENDED = "The operator ended the game before its end"


def told(standing=None) -> dict:
    """``{"ru", "en"}``: an unfinished game ended by the operator, with how it stood (a message)."""
    msg = M("%(head)s. %(standing)s", head=M(ENDED), standing=standing) if standing is not None else M(ENDED)
    return {lang: render(msg, lang) for lang in ("ru", "en")}


def head(lang: str = "ru") -> str:
    """The ended game's first words, before how it stood."""
    return render(M(ENDED), lang) + ". "


def best_first(values) -> str:
    """``name points`` pairs, the most first (ties in seat order), as the standings list them."""
    items = list(values)
    order = sorted(range(len(items)), key=lambda i: (-items[i][1], i))
    return ", ".join(f"{items[i][0]} {items[i][1]}" for i in order)


@pytest.fixture
def op(tmp_path):
    made = []

    def make(game_id, names, options=None):
        table = Table(tmp_path / str(len(made)), pin="246810")
        table.new_game(game_id, names, options)
        app = create_app(table, testing=True)
        c, csrf = operator_client(app, table)
        made.append((table, app))
        return table, app, c, {"X-CSRF-Token": csrf}

    yield make
    for table, app in made:
        app.extensions["companion"]["hub"].close()
        table.close()


def _play(table, sim, until, limit=3000) -> None:
    game = table.referee.game
    for _ in range(limit):
        if until(game):
            return
        text, source = sim.next_action()
        out = table.submit(text, source)
        assert out.accepted, (text, out.reason)
        sim.applied(text)
    raise AssertionError("the game never reached the wanted state")


def _public_text(app) -> str:
    """The public page's model as the phones get it (the state endpoint = the stream's snapshot)."""
    return json.dumps(app.test_client().get("/api/state").json, ensure_ascii=False)


def test_ending_the_joker_game_mid_way_shows_everyones_chips(op):
    table, app, c, h = op("hoggenheimer", NAMES[:3], {"rounds": 2})
    sim = get_sim_class("hoggenheimer")(table.referee.game, 5)
    # one deal settled, bets lying on the layout of the next one
    _play(table, sim, lambda g: g.deal_no >= 1 and g.bets and g.phase == "betting")
    game = table.referee.game
    chips = dict(zip(game.seats, game.balances))
    staked = {game.seats[b["seat"]]: 0 for b in game.bets}
    for b in game.bets:
        staked[game.seats[b["seat"]]] += b["stake"]

    r = c.post("/api/operator/end", json={}, headers=h)
    assert r.status_code == 200 and r.json["ended"] is True
    ru = r.json["text"]["ru"]
    # everyone's chips, the richest first, what lies on the layout after them; the deal of the six
    order = sorted(chips, key=lambda name: -(chips[name] + staked.get(name, 0)))
    parts = [M("%(row)s (+%(staked)s on the layout)", row=f"{name} {chips[name]}", staked=staked[name])
             if name in staked else f"{name} {chips[name]}" for name in order]
    assert r.json["text"] == told(M("Chips: %(parts)s; deal %(deal)s of %(of)s", parts=parts, deal=2, of=6))

    for viewer in (PUBLIC, OPERATOR):
        m = app.extensions["companion"]["hub"].model(viewer)
        assert m["game"] is None
        assert m["ended"]["game"] == "hoggenheimer" and m["ended"]["over"] is False
        assert m["ended"]["text"]["ru"] == ru
    assert ru in _public_text(app)
    # the page itself carries it (boot JSON of GET /), in the page's script's hands
    assert ru in app.test_client().get("/").get_data(as_text=True)


def test_ending_infinity_mid_deal_shows_the_points(op):
    table, app, c, h = op("infinity", NAMES[:3], {"deals": 3})
    sim = get_sim_class("infinity")(table.referee.game, 2)
    _play(table, sim, lambda g: len(g.s["deal_scores"]) == 1 and g.s["phase"] == "play" and any(g.s["points"]))
    s = table.referee.game.s
    totals, current = list(s["totals"]), list(s["points"])
    text = c.post("/api/operator/end", json={}, headers=h).json["text"]
    played = M("Points of the deals played (%(played)s of %(deals)s): %(told)s", played=1, deals=3,
               told=best_first(zip(NAMES, totals)))
    assert text == told(M("%(head)s; in the unfinished deal: %(told)s", head=played, told=best_first(zip(NAMES, current))))


def test_ending_the_lottery_shows_chips_but_no_face_down_prize(op):
    table, app, c, h = op("lottery", NAMES, None)
    sim = get_sim_class("lottery")(table.referee.game, 3)
    # a draw under way: some prizes still face down on the table
    _play(table, sim, lambda g: g.s["draw"] >= 2 and g.s["phase"] == "draw")
    g = table.referee.game
    face_down = [sim.slot_cards[i] for i, sl in enumerate(g.s["slots"]) if sl is not None and not sl["face_up"]]
    assert face_down
    balances = {g.seats[p]: g.s["balances"][p] for p in g.players}
    text = c.post("/api/operator/end", json={}, headers=h).json["text"]
    ru = text["ru"]
    on_prizes = sum(sl["chips"] for sl in g.s["slots"] if sl)
    assert g.s["stakes"] == 0  # (else the sentence with the stakes to spread)
    assert text == told(M("Chips: %(told)s; the box holds %(box)s, the prizes %(prizes)s; draw %(draw)s",
                          told=best_first(balances.items()), box=g.s["box"], prizes=on_prizes, draw=g.s["draw"] + 1))  # the draw under way (s["draw"]: draws completed)
    page = _public_text(app)
    for card in face_down:
        assert card_words(card, "ru") not in ru
        assert f'"{card}"' not in page  # the page never carries a face-down prize (the engine never knew it)


@pytest.mark.parametrize("game_id,words", [("skull", "Notes left: "), ("doubt", "Cards in hand: ")])
def test_the_other_games_say_how_they_stood_too(op, game_id, words):
    table, app, c, h = op(game_id, NAMES[:3])
    sim = get_sim_class(game_id)(table.referee.game, 1)
    _play(table, sim, lambda g: g.version >= 40)
    game = table.referee.game
    serials = [x for r in getattr(game, "registered", []) if r for x in r]
    text = c.post("/api/operator/end", json={}, headers=h).json["text"]
    ru = text["ru"]
    assert ru.startswith(head()) and text["en"].startswith(head("en") + words), text
    assert all(name in ru for name in NAMES[:3]), ru
    page = _public_text(app)
    for serial in serials:  # skull: counts only, not one serial of a note in play
        assert serial not in ru and serial not in page
    assert game_id != "skull" or serials


def test_ending_a_finished_game_keeps_its_result_on_the_page(op):
    table, app, c, h = op("infinity", NAMES[:2], {"deals": 1})
    sim = get_sim_class("infinity")(table.referee.game, 1)
    _play(table, sim, lambda g: g.is_over())
    winner = table.referee.game.result()["winner_names"][0]
    text = c.post("/api/operator/end", json={}, headers=h).json["text"]
    # the game's own last words (its result), not the operator's ending
    assert not text["ru"].startswith(head()) and text["en"].startswith(f"Game over! The winner is {winner}: "), text
    assert winner in text["ru"]
    assert app.extensions["companion"]["hub"].model(PUBLIC)["ended"]["over"] is True


def test_a_new_game_clears_the_ended_word(op):
    table, app, c, h = op("lottery", NAMES, None)
    c.post("/api/operator/end", json={}, headers=h)
    assert table.last_ended is not None
    table.new_game("skull", NAMES[:2])
    assert table.last_ended is None
    assert "ended" not in app.extensions["companion"]["hub"].model(PUBLIC)


def test_the_console_says_the_game_was_ended(tmp_path):
    table = Table(tmp_path, pin="246802")
    try:
        table.new_game("hoggenheimer", NAMES[:3], None)
        out = io.StringIO()
        console = Console(out)
        console.table = table
        table.subscribe(console.on_table)
        assert table.submit("1 bet 5 QH", "button").accepted
        table.end_game()
        lines = [line.split("] ", 1)[1] for line in out.getvalue().splitlines()]
        # the console's words, once rendered (the dashboard checks above assert ids and facts)
        assert lines == ["Игра завершена оператором до конца. Фишки: Аня 100, Борис 95 (+5 на столе), Вика 100; "
                         "сдача 1 из 3"], lines
        table.new_game("skull", NAMES[:2])  # a new game is not an ended one: it is announced as new
        text = out.getvalue()
        assert text.count(render(M(ENDED), "ru")) == 1, text
        title = M("Table Companion — %(game)s, %(n)s seats: %(seats)s", game=game_title("skull", "ru"), n=2,
                  seats="Аня, Борис")
        new = M("new game, started from the operator console; table log %(path)s", path=str(table.referee.log.path))
        assert render(title, "ru") in text and render(new, "ru") in text, text
    finally:
        table.close()
