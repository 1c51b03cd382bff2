"""The joker game's bet targets in words for the seat page's bet grid (``bet_targets``, the seat's
page view's ``targets``); the grid itself is driven in ``test_bet_grid_ui.py``."""

from __future__ import annotations

from companion.dashboard.model import PUBLIC, view_for
from companion.games import hoggenheimer as H
from companion.i18n import both
from tests.wording import said

ROW_D = ",".join(r + "D" for r in H.RANKS)


def test_every_target_is_worded_once_and_keyed_as_the_bet_action_writes_it():
    targets = H.bet_targets()
    assert len(targets) == 117
    game = H.HoggenheimerGame(["Аня", "Борис", "Вера"])
    # the keys are the cards argument of the seat's legal bets, one for one
    legal = {a.text().split()[3] for a in game.legal_actions(1) if isinstance(a, H.Bet)}
    assert legal == set(targets)
    # each target in words: the presenter's message for its shape, with the cards (or rank, suit) as facts
    for key, shape, payout, told in [
            ("KH,QH", "pair", "2:1", ("two touching cards %(cards)s", {"cards": "K♥ Q♥"})),
            ("9H,8H,9D,8D", "square", "4:1", ("the square %(cards)s", {"cards": "9♥ 8♥ 9♦ 8♦"})),
            ("10S,10H,10D,10C", "column", "4:1", ("the column — all %(rank)s", {"rank": "tens"})),
            (ROW_D, "row", "8:1", ("the row — all %(suit)s", {"suit": "diamonds"}))]:
        msg = H.bet_target(shape, key.split(","))
        assert said(msg) == told
        assert targets[key] == {"shape": shape, "payout": payout, "text": both(msg)}
    assert targets["QH"]["payout"] == "1:1"
    assert {t["shape"] for t in targets.values()} == set(H.SHAPES)
    # a fresh dict every time: a page view changed by someone cannot change the next one
    targets["QH"]["text"]["ru"] = "x"
    assert H.bet_targets()["QH"]["text"]["ru"] == "Д♥"


def test_only_a_seat_page_carries_the_targets():
    game = H.HoggenheimerGame(["Аня", "Борис", "Вера"])
    views = {None: game.view(None), **{i: game.view(i) for i in range(3)}}
    info = {"id": "hoggenheimer", "seats": list(game.seats), "options": {}}

    def model(viewer):
        return view_for(viewer, epoch=1, version=1, game_info=info, views=views, legal={}, turn=[],
                        over=False, result=None, history=[])

    assert "targets" not in model(PUBLIC)["view"]
    assert len(model(1)["view"]["targets"]) == 117
    assert model(1)["view"]["targets"] == model(2)["view"]["targets"]  # the same public facts


def test_the_pages_name_the_shapes_as_the_game_does(tmp_path):
    """The view says a bet's shape by its id; the page names it with the game's own terms (the
    seed's «колонка»): a tester saw «колонка» in the grid's words and «столбец» elsewhere."""
    from flask_babel import force_locale

    from companion.dashboard import create_app
    from companion.dashboard.i18n import js_words
    from companion.games.hoggenheimer import SHAPES
    from companion.table import Table

    game = H.HoggenheimerGame(["Аня", "Борис", "Вера"])
    game.apply(H.Bet(1, 5, ("8H", "9H", "8D", "9D")))
    view = game.view(None)  # the engine speaks no language: a shape is its id
    assert [b["shape"] for b in view["bets"]] == ["square"] and [o["shape"] for o in view["odds"]] == list(SHAPES)
    assert not [k for row in view["bets"] + view["odds"] for k in row if k.endswith("_ru")]

    said = {"ru": {"card": "карта", "pair": "пара", "square": "квадрат", "column": "колонка", "row": "ряд"},
            "en": {"card": "card", "pair": "pair", "square": "square", "column": "column", "row": "row"}}
    table = Table(tmp_path, pin="314159")
    try:
        app = create_app(table)
        for lang, names in said.items():
            with app.test_request_context(), force_locale(lang):
                words = js_words()
                assert {s: words["hoggenheimer:shape_" + s] for s in SHAPES} == names
    finally:
        table.close()
