"""The page's words come from the shared table and the registered games' packages
(``GameSpec.page_words``, ``GameSpec.option_labels``; docs/architecture.md, "The page's words"):
every built-in game's words are served under their own keys — no two of them word one key two
ways — every option on the new-game form has its game's label, and a game's words come and go
with its registration."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.dashboard import i18n
from companion.dashboard.newgame import game_specs
from companion.games import registry
from companion.i18n import Message, render
from companion.table import Table

BUILTIN = [registry.find(gid) for gid in registry.BUILTIN]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    table = Table(tmp_path_factory.mktemp("t"), pin="246810")
    app = create_app(table, testing=True)
    yield app
    app.extensions["companion"]["hub"].close()
    table.close()


def _words(app, lang):
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        from flask_babel import refresh

        refresh()
        return i18n.js_words()


def _text(word, lang) -> str:
    return render(word if isinstance(word, (Message, dict)) else Message(word), lang)


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("spec", BUILTIN, ids=lambda s: s.id)
def test_a_games_words_are_served_under_their_own_keys(app, spec, lang):
    words = _words(app, lang)
    own = {**spec.page_words, **{f"opt_{k}": v for k, v in spec.option_labels.items()}}
    assert own, spec.id
    for key, word in own.items():
        assert words[key] == _text(word, lang), (spec.id, key)
        # no key is worded two ways among the built-in games and the shared words
        assert f"{spec.id}:{key}" not in words or key in spec.terms, (spec.id, key)


def test_no_game_word_is_also_a_shared_word_or_another_games():
    shared = set(i18n._WORDS) | {f"t_{k}" for k in i18n._TERMS}
    seen: dict[str, str] = {}
    for spec in BUILTIN:
        for key in spec.page_words:
            assert key not in shared, (spec.id, key)  # a word of one game lives in its package only
            assert key not in seen, (spec.id, key, seen.get(key))  # several games' words are shared
            seen[key] = spec.id


def test_every_option_on_the_new_game_form_has_its_games_label(app):
    with app.test_request_context("/", headers={"Cookie": "lang=ru"}):
        for g in game_specs():
            labels = registry.find(g["id"]).option_labels
            for opt in g["options"]:
                assert opt["name"] in labels, (g["id"], opt["name"])
                assert i18n.option_label(opt["name"], g["id"]) == _text(labels[opt["name"]], "ru")


def test_a_games_words_come_and_go_with_it(app):
    from tests.games.nim import SPEC

    assert "opt_most" not in _words(app, "ru")
    registry.register(SPEC)
    try:
        assert _words(app, "ru")["opt_most"] == "Больше всего за ход"
    finally:
        registry.unregister("nim")
    assert "opt_most" not in _words(app, "ru") and "nim:pile" not in _words(app, "ru")
