"""`companion run`'s refusals before the table starts (an unknown game id, an unreadable settings
file, a bad --option, a wrong player list, a --resume log that is not there) speak the console's
language: Russian by default, English with --lang en — like every other console line (they were
English only). The unknown game's line is checked rendered in both languages; the others by
message id and facts (:func:`tests.wording.said`), rendered through the catalogue."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import M, MP, MPN, render

from companion.commands.results import _refusal_message
from companion.commands.run import error_words
from companion.errors import CompanionError, IllegalAction
from companion.games import new_game
from companion.settings import Settings, SettingsError
from tests.wording import said

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path, *args):
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "companion", "run", "--sim", "--json", "--data-dir",
                           str(tmp_path / "data"), *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=env)


def test_an_unknown_game_is_refused_in_russian_by_default_and_in_english_on_request(tmp_path):
    r = _run(tmp_path, "--game", "chess")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    told = M("no game %(game)r; games: %(games)s", game="chess", games="skull, doubt, hoggenheimer, infinity, lottery")
    assert r.stderr.strip() == "companion run: " + render(told, "ru")
    r = _run(tmp_path, "--game", "chess", "--lang", "en")
    assert r.stderr.strip() == "companion run: " + render(told, "en")


def test_an_unreadable_settings_file_is_refused_in_russian(tmp_path):
    r = _run(tmp_path, "--config", str(tmp_path / "nope.toml"))
    assert r.returncode == 2, r.stderr
    told = M("cannot read settings file %(path)s: %(why)s", path=str(tmp_path / "nope.toml"), why=M("no such file"))
    assert r.stderr.strip() == "companion run: " + render(told, "ru")


@pytest.mark.parametrize("text,told", [
    ("game = [\n", M("%(path)s: not valid TOML at the end of the file: something is left unfinished "
                     "(a bracket or quotes not closed?)", path="§")),
    ("game = 'skull'\nseed = = 2\n", M("%(path)s: not valid TOML at line %(line)s, column %(column)s", path="§",
                                        line=2, column=8)),
])
def test_a_settings_file_that_is_not_toml_is_told_where_in_one_language(tmp_path, text, told):
    """tomllib's English («Invalid value (at end of document)») is not put in a Russian line: the
    line and column it names, in the run's language; its words go to the log (-v)."""
    f = tmp_path / "bad.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(SettingsError) as e:
        Settings.load(f)
    assert said(e.value.message) == said(M(told.id, **{**told.facts, "path": str(f)}))
    r = _run(tmp_path, "--config", str(f))
    assert r.returncode == 2, r.stderr
    assert r.stderr == "companion run: " + render(M(told.id, **{**told.facts, "path": str(f)}), "ru") + "\n", r.stderr
    assert "Invalid" not in r.stderr
    r = _run(tmp_path, "--config", str(f), "-v")
    assert "Invalid value" in r.stderr  # the English detail, in the log


def test_a_bad_option_is_refused_in_russian_naming_the_option(tmp_path):
    r = _run(tmp_path, "--game", "skull", "--option", "notes_per_player=-5")
    assert r.returncode == 2, r.stderr
    exc = _refusal(lambda: new_game("skull", ["Аня", "Борис"], {"notes_per_player": -5}))
    assert said(_refusal_message(exc)) == ("option %(option)s (--option): a number %(span)s, not %(value)s",
                                           {"option": "notes_per_player", "span": "2 to 20", "value": "−5"})
    assert r.stderr.strip() == "companion run: " + error_words(exc, "ru")
    r = _run(tmp_path, "--game", "skull", "--option", "notes")
    assert r.returncode == 2
    assert r.stderr.strip() == "companion run: " + render(M("--option needs KEY=VALUE, got %(pair)r", pair="notes"), "ru")


def _refusal(make):
    with pytest.raises(CompanionError) as e:
        make()
    return e.value


OPTIONS = "currency, last_skull_out, leaver_counts_as, notes_per_player, skull_parity, skulls_per_player"
ONE_OF = "option %(option)s (--option): one of %(choices)s, not %(value)r"
COUNT = "this game needs %(min)s to %(max)s players, %(given)s given (--seats)"
TWICE = "the name %(name)r is given twice (--seats): each player needs a name of their own"


@pytest.mark.parametrize("make, id, facts", [
    (lambda: new_game("skull", ["Аня", "Борис"], {"colour": 1}),
     "unknown option(s) (--option): %(unknown)s; this game's options: %(known)s", {"unknown": "colour", "known": OPTIONS}),
    (lambda: new_game("skull", ["Аня"]),
     "this game needs %(min)s to %(max)s players, %(given)s given (--seats)", {"min": 2, "max": 8, "given": 1}),
    (lambda: new_game("doubt", ["Аня", "Аня", "Борис"]), TWICE, {"name": "Аня"}),
    # the tester's `--option currency=RUR`: the allowed values, not the engine's English
    (lambda: new_game("skull", ["Аня", "Борис"], {"currency": "RUR"}),
     ONE_OF, {"option": "currency", "choices": "RUB, EUR, USD, INR, KRW, JPY", "value": "RUR"}),
    (lambda: new_game("skull", ["Аня", "Борис"], {"skull_parity": "blue"}),
     ONE_OF, {"option": "skull_parity", "choices": "odd, even", "value": "blue"}),
    # a deck profile that is not built in: the built-in ones, not "one of the rules has a bad value"
    (lambda: new_game("doubt", ["Аня", "Борис"], {"deck": "small"}),
     ONE_OF, {"option": "deck", "choices": "forest104, forest64", "value": "small"}),
    # skulls among 4 notes: both options, and the range the game computes from notes_per_player
    (lambda: new_game("skull", ["Аня", "Борис"], {"skulls_per_player": 4}),
     "options %(options)s (--option): %(rule)s",
     {"options": "skulls_per_player, notes_per_player",
      "rule": "“Skulls per player” must be fewer than “Notes per player” (4): a number from 1 to 3."}),
    # the same name in another case, with spaces around it, is the same player (README)
    (lambda: new_game("skull", ["Аня", " аня ", "Борис"]), TWICE, {"name": "аня"}),
    (lambda: Settings.load(None, port=70000), "setting 'port' %(port)s is not a TCP port", {"port": 70000}),
    (lambda: Settings.load(None, seed="x"), "setting %(name)r must be %(type)s, got %(value)r",
     {"name": "seed", "type": "setting type|int", "value": "x"}),
])
def test_refusals_in_both_languages(make, id, facts):
    exc = _refusal(make)
    msg = _refusal_message(exc) if isinstance(exc, IllegalAction) else exc.message
    assert said(msg) == (id, facts)
    assert (error_words(exc, "ru"), error_words(exc, "en")) == (render(msg, "ru"), render(msg, "en"))


def test_a_refusal_without_russian_words_falls_back_to_english_and_a_game_refusal_to_its_sentence():
    assert error_words(CompanionError("something broke"), "ru") == "something broke"
    exc = _refusal(lambda: new_game("doubt", ["А", "Б", "В"], {"max_cards": "x"}))
    assert isinstance(exc, IllegalAction)
    assert error_words(exc, "ru") == render(M("option %(option)s (--option): a whole number is needed, not %(value)r",
                                              option="max_cards", value="x"), "ru")
    exc = _refusal(lambda: new_game("lottery", ["А", "Б", "В"]))  # the real range, then the game's why
    assert error_words(exc, "ru", Settings(game="lottery")) == render(M(
        "%(count)s. %(why)s", count=M(COUNT, min=4, max=20, given=3),
        why=MP("lottery", "This number of players does not suit the game.")), "ru")
    assert isinstance(_refusal(lambda: Settings.load(None, pin="12")), SettingsError)


@pytest.mark.parametrize("pin", ["1", "12", "12345"])
def test_a_short_pin_is_refused_counting_its_digits_in_words(pin):
    """The count of digits given is a plural message (the Russian object's three forms: «задана 1
    цифра», «задано 2 цифры», «задано 5 цифр» — the catalogue's)."""
    from companion.sessions import pin_refusal

    msg = pin_refusal(pin)
    given = MPN("pin digits given", "%(n)s digit", "%(n)s digits", len(pin))
    assert said(msg)[0].endswith("not %(given)s") and msg.facts["given"] == given
    for lang in ("ru", "en"):
        assert render(msg, lang).endswith(render(given, lang))


@pytest.mark.parametrize("seats", ["А", "А,Б"])
def test_too_few_lottery_players_are_told_the_real_range(tmp_path, seats):
    """The lottery with its default options needs 4 players (its banker and dealer hold no
    cards): the line says 4–20, the figure the new-game form shows, and why (a new user's
    finding: «от 2 до 20» for `--seats А`)."""
    r = _run(tmp_path, "--game", "lottery", "--seats", seats, "--until-end")
    assert r.returncode == 2, r.stderr
    exc = _refusal(lambda: new_game("lottery", seats.split(",")))
    msg = _refusal_message(exc, "lottery")
    assert said(msg) == ("%(count)s. %(why)s", {
        "count": render(M(COUNT, min=4, max=20, given=len(seats.split(","))), "en"),
        "why": "lottery|This number of players does not suit the game."})
    assert r.stderr.strip() == "companion run: " + render(msg, "ru")
    assert "от 4 до 20" in r.stderr


@pytest.mark.parametrize("game, seats, options, names", [
    ("lottery", ["А", "Б", "В", "Г"], {"entry_stake": 1}, "entry_stake, box"),
    ("hoggenheimer", ["Аня", "Борис"], {"min_stake": 10, "max_stake": 5}, "min_stake, max_stake"),
])
def test_options_bound_by_a_rule_are_named_with_the_rule(game, seats, options, names):
    from companion.games.optionwords import rule_words

    exc = _refusal(lambda: new_game(game, seats, options))
    msg = _refusal_message(exc, game)
    assert said(msg) == ("options %(options)s (--option): %(rule)s",
                         {"options": names, "rule": render(rule_words(exc.facts, game), "en")})
    assert error_words(exc, "ru", Settings(game=game)) == render(msg, "ru")


def test_too_many_lottery_players_are_told_the_most_not_why_it_needs_four():
    """`companion run --game lottery --seats` with 21 names explained why the lottery needs at
    least 4 players (its banker and dealer hold no cards): the limit broken is the most, 20."""
    names = [f"P{i}" for i in range(21)]
    exc = _refusal(lambda: new_game("lottery", names))
    msg = _refusal_message(exc, "lottery")
    assert said(msg) == ("too many players: %(given)s given, this game takes at most %(max)s (--seats)",
                         {"given": 21, "max": 20})
    assert error_words(exc, "ru", Settings(game="lottery")) == render(msg, "ru")
    assert render(MP("lottery", "This number of players does not suit the game."), "ru") not in render(msg, "ru")
