"""Golden snapshots of the words people read, one per page and language: for each game, the words
of its public page and of seat 1's page (the page view, the history lines, what the seat waits
for, the standing) after the first actions of a seeded playout; and the console transcript of
``companion demo`` in both languages.

A changed word shows up as a diff. The files are regenerated only on purpose:
``COMPANION_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/i18n/test_golden_words.py`` (then read
the diff before committing it).
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from companion.commands.demo import example_path, tell
from companion.dashboard import model
from companion.dashboard.waiting import waiting_words
from companion.games import new_game, registry
from companion.games.simulator import play_random_game
from companion.i18n import render

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("COMPANION_UPDATE_GOLDEN") == "1"
SEATS = {"skull": ["Аня", "Борис", "Вика"], "doubt": ["Аня", "Борис", "Вика"], "infinity": ["Аня", "Борис", "Вика"],
         "lottery": ["Аня", "Борис", "Вика", "Гоша"], "hoggenheimer": ["Аня", "Борис", "Вика"]}
STEPS = 40


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: COMPANION_UPDATE_GOLDEN=1 makes it"
    assert text.splitlines() == path.read_text(encoding="utf-8").splitlines(), name


def _pick(value, lang: str):
    """A page view with its ``{"ru", "en"}`` words in ``lang`` only."""
    if isinstance(value, dict):
        if set(value) == {"ru", "en"}:
            return value[lang]
        return {k: _pick(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [_pick(v, lang) for v in value]
    return value


def _pages(game_id: str, lang: str) -> str:
    seats = SEATS[game_id]
    _game, actions = play_random_game(game_id, seats, seed=1)
    game = new_game(game_id, seats)
    spec = registry.get(game_id)
    history = []
    for text, _source in actions[:STEPS]:
        for ev in game.apply(text):
            told = spec.presenter.event(ev, seats) if ev.private_to is None else spec.presenter.private_event(ev, seats)
            if told:
                history.append(("seat %d: " % (ev.private_to + 1) if ev.private_to is not None else "") + render(told, lang))
    legal = {None: [a.text() for a in game.legal_actions(None)]}
    legal.update({s: [a.text() for a in game.legal_actions(s)] for s in range(len(seats))})
    public = {"page": _pick(model.page_view(game_id, game.view(None), seats), lang),
              "standing": render(spec.presenter.standings(game.view(None), seats), lang),
              "history": history}
    page = _pick(model.page_view(game_id, game.view(0), seats), lang)
    if isinstance(page.get("targets"), dict):  # the joker game's 117 bet targets: the first few say it
        page["targets"] = dict(sorted(page["targets"].items())[:6])
    seat = {"page": page,
            "waiting": _pick(waiting_words(game_id, 0, game.view(0), legal, seats), lang)}
    return json.dumps({"public": public, "seat 1": seat}, ensure_ascii=False, indent=1, default=str) + "\n"


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_page_words(game_id, lang):
    _check(f"pages-{game_id}.{lang}.json", _pages(game_id, lang))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_console_transcript(lang):
    buf = io.StringIO()
    with example_path().open("r", encoding="utf-8") as fh:
        assert tell(fh, lang, buf) == 0
    _check(f"console-demo.{lang}.txt", buf.getvalue())
