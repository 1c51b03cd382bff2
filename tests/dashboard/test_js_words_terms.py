"""The page script's words (``js_words``) for what a page shows raw otherwise: the 6100 deck's
Infinity card as a key of «Подробнее» (never «INF»), and the joker game's odds legend counted
with the plural form of its noun (never «1 cards»)."""

from __future__ import annotations

import re

import pytest

from companion.dashboard import create_app
from companion.dashboard.i18n import js_words
from companion.i18n import MN, MP, render
from companion.table import Table

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


@pytest.fixture
def app(tmp_path):
    table = Table(tmp_path / "t", pin="246810")
    app = create_app(table, testing=True)
    yield app
    app.extensions["companion"]["hub"].close()
    table.close()


def _words(app, lang):
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        from flask_babel import refresh

        refresh()
        return js_words()


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_infinity_card_has_a_word(app, lang):
    from companion.games.infinity.rules import INF

    w = _words(app, lang)
    assert w[f"infinity:{INF}"] == render(MP("infinity", "Infinity"), lang)
    assert bool(CYRILLIC.search(w[f"infinity:{INF}"])) == (lang == "ru")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_odds_legend_counts_cards_with_plurals(app, lang):
    w = _words(app, lang)
    for k in (1, 2, 4, 8):
        assert w[f"n_cards_{k}"] == render(MN("%(n)s card", "%(n)s cards", k), lang)
    assert "1 cards" not in w["n_cards_1"]
