"""`companion run`'s refusals before the table starts (an unknown game id, an unreadable settings
file, a bad --option, a wrong player list, a --resume log that is not there) speak the console's
language: Russian by default, English with --lang en — like every other console line (they were
English only)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import M, render

from companion.commands.run import error_words
from companion.errors import CompanionError, IllegalAction
from companion.games import new_game
from companion.settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path, *args):
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "companion", "run", "--sim", "--json", "--data-dir",
                           str(tmp_path / "data"), *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=env)


def test_an_unknown_game_is_refused_in_russian_by_default_and_in_english_on_request(tmp_path):
    r = _run(tmp_path, "--game", "chess")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip() == "companion run: игры 'chess' нет; игры: skull, doubt, hoggenheimer, infinity, lottery"
    r = _run(tmp_path, "--game", "chess", "--lang", "en")
    assert r.stderr.strip() == "companion run: no game 'chess'; games: skull, doubt, hoggenheimer, infinity, lottery"


def test_an_unreadable_settings_file_is_refused_in_russian(tmp_path):
    r = _run(tmp_path, "--config", str(tmp_path / "nope.toml"))
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == f"companion run: не удаётся прочитать файл настроек {tmp_path / 'nope.toml'}: нет такого файла"


def test_a_bad_option_is_refused_in_russian_naming_the_option(tmp_path):
    r = _run(tmp_path, "--game", "skull", "--option", "notes_per_player=-5")
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip() == "companion run: правило notes_per_player (--option): число от 2 до 20, а задано −5"
    r = _run(tmp_path, "--game", "skull", "--option", "notes")
    assert r.returncode == 2
    assert r.stderr.strip() == ("companion run: --option задаётся как ПРАВИЛО=ЗНАЧЕНИЕ (например --option chips=50), "
                                "а задано 'notes'")


def _refusal(make):
    with pytest.raises(CompanionError) as e:
        make()
    return e.value


@pytest.mark.parametrize("make, ru, en", [
    (lambda: new_game("skull", ["Аня", "Борис"], {"colour": 1}),
     "неизвестное правило (--option): colour; правила этой игры: currency, last_skull_out, leaver_counts_as, "
     "notes_per_player, skull_parity, skulls_per_player",
     "unknown option(s) (--option): colour; this game's options: currency, last_skull_out, leaver_counts_as, "
     "notes_per_player, skull_parity, skulls_per_player"),
    (lambda: new_game("skull", ["Аня"]),
     "для этой игры нужно от 2 до 8 игроков, а задано 1 (--seats)", "this game needs 2 to 8 players, 1 given (--seats)"),
    (lambda: new_game("doubt", ["Аня", "Аня", "Борис"]),
     "имя 'Аня' указано дважды (--seats): у каждого игрока своё имя",
     "the name 'Аня' is given twice (--seats): each player needs a name of their own"),
    # the tester's `--option currency=RUR`: the allowed values, not the engine's English
    (lambda: new_game("skull", ["Аня", "Борис"], {"currency": "RUR"}),
     "правило currency (--option): одно из значений RUB, EUR, USD, INR, KRW, JPY, а задано 'RUR'",
     "option currency (--option): one of RUB, EUR, USD, INR, KRW, JPY, not 'RUR'"),
    (lambda: new_game("skull", ["Аня", "Борис"], {"skull_parity": "blue"}),
     "правило skull_parity (--option): одно из значений odd, even, а задано 'blue'",
     "option skull_parity (--option): one of odd, even, not 'blue'"),
    # skulls among 4 notes: the range the game computes from notes_per_player
    (lambda: new_game("skull", ["Аня", "Борис"], {"skulls_per_player": 4}),
     "правило skulls_per_player (--option): число от 1 до 3, а задано 4",
     "option skulls_per_player (--option): a number 1 to 3, not 4"),
    # the same name in another case, with spaces around it, is the same player (README)
    (lambda: new_game("skull", ["Аня", " аня ", "Борис"]),
     "имя 'аня' указано дважды (--seats): у каждого игрока своё имя",
     "the name 'аня' is given twice (--seats): each player needs a name of their own"),
    (lambda: Settings.load(None, port=70000), "порт 70000 (настройка 'port') — не порт TCP: нужен от 0 до 65535",
     "setting 'port' 70000 is not a TCP port"),
    (lambda: Settings.load(None, seed="x"), "настройка 'seed' должна быть целым числом, а задано 'x'",
     "setting 'seed' must be int, got 'x'"),
])
def test_refusals_in_both_languages(make, ru, en):
    exc = _refusal(make)
    assert error_words(exc, "ru") == ru
    assert error_words(exc, "en") == en


def test_a_refusal_without_russian_words_falls_back_to_english_and_a_game_refusal_to_its_sentence():
    assert error_words(CompanionError("something broke"), "ru") == "something broke"
    exc = _refusal(lambda: new_game("doubt", ["А", "Б", "В"], {"max_cards": "x"}))
    assert isinstance(exc, IllegalAction)
    assert error_words(exc, "ru") == render(M("option %(option)s (--option): a whole number is needed, not %(value)r",
                                              option="max_cards", value="x"), "ru")
    exc = _refusal(lambda: new_game("lottery", ["А", "Б", "В"]))
    assert error_words(exc, "ru", Settings(game="lottery")).startswith("Нужно не меньше двух игроков с картами")
    assert isinstance(_refusal(lambda: Settings.load(None, pin="12")), SettingsError)


@pytest.mark.parametrize("pin,ru,en", [("1", "а задана 1 цифра", "not 1 digit"),
                                        ("12", "а задано 2 цифры", "not 2 digits"),
                                        ("12345", "а задано 5 цифр", "not 5 digits")])
def test_a_short_pin_is_refused_counting_its_digits_in_words(pin, ru, en):
    from companion.sessions import pin_refusal

    said_ru, said_en = render(pin_refusal(pin), "ru"), render(pin_refusal(pin), "en")
    assert said_ru.endswith(ru), said_ru
    assert said_en.endswith(en), said_en
