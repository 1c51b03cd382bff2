"""A ``companion run`` the table refuses — an unknown game, bad players or options, a ``--resume``
log that is not there — leaves nothing behind on a data folder that did not exist: no folder, no
lock, no operator PIN, no key (the start is checked before they are made). The refusal is the one
line it always was, in the console's language, exit status 2 for what was typed (a game, players,
an option: README "Exit status"), 1 for a ``--resume`` log that is not there.
"""

from __future__ import annotations

import pytest

from companion.cli import build_parser
from companion.i18n import M, render


def _run(argv: list[str]) -> int:
    from companion.commands import run

    return run._main(build_parser().parse_args(argv))


@pytest.mark.parametrize("extra,says,status", [
    (["--game", "nosuch"], M("no game %(game)r; games: %(games)s", game="nosuch", games="§"), 2),
    (["--game", "skull", "--option", "bogus=1"],
     M("unknown option(s) (--option): %(unknown)s; this game's options: %(known)s", unknown="bogus", known="§"), 2),
    (["--game", "skull", "--seats", "Аня"],
     M("this game needs %(min)s to %(max)s players, %(given)s given (--seats)", min=2, max=8, given=1), 2),
    (["--game", "skull", "--resume", "old.sqlite"],
     M("no table log %(log)s (looked for it as a path and in %(games)s); `ls %(games)s` lists the games, newest last",
       log="old.sqlite", games="§"), 1),
    (["--game", "doubt", "--option", "first_dealer=9", "--seats", "А,Б,В"],
     M("option %(name)s: a seat number from 1 to %(n)s (seats count from 1, clockwise), got %(value)r",
       name="first_dealer", n=3, value=9), 2),
])
def test_a_refused_run_makes_no_data_folder(tmp_path, capsys, extra, says, status):
    """The refusal's words in the run's language (Russian): the message with its facts, up to a
    fact the run fills in itself (§: the list of games, the data folder, the value typed)."""
    data = tmp_path / "table"
    code = _run(["run", "--sim", "--json", "--data-dir", str(data), *extra])
    err = capsys.readouterr().err
    assert code == status and render(says, "ru").split("§")[0] in err, err
    assert err.startswith("companion run: ") and len(err.strip().splitlines()) == 1, err
    assert not data.exists(), sorted(p.name for p in data.rglob("*"))


def test_the_same_refusal_on_an_existing_folder_still_refuses(tmp_path, capsys):
    data = tmp_path / "table"
    (data / "sim").mkdir(parents=True)
    assert _run(["run", "--sim", "--json", "--data-dir", str(data), "--game", "nosuch", "--lang", "en"]) == 2
    assert "no game 'nosuch'; games: skull" in capsys.readouterr().err


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("length", [25, 101])
def test_a_name_too_long_is_refused_as_the_other_seats_errors_say_theirs(tmp_path, capsys, lang, length):
    """``--seats`` takes names as long as the new-game form does (``MAX_SEAT_NAME``), and a longer
    one is refused in the style of the other ``--seats`` lines (lower case, naming --seats) — its
    length, the most, the name shortened — never as a wrong number of players, nor with the reason
    code and the whole name, nor with the web form's advice («Пишите каждое имя на своей строке»)."""
    from companion.dashboard.reasons import name_too_long
    from companion.games.seats import MAX_SEAT_NAME, shortened_name

    name = "Я" * length
    data = tmp_path / "table"
    code = _run(["run", "--sim", "--json", "--data-dir", str(data), "--game", "skull", "--seats", f"{name},Б,В",
                 "--lang", lang])
    err = capsys.readouterr().err
    short = shortened_name(name)
    told = {"ru": f"имя «{short}» слишком длинное (--seats): {length} символ{'' if length == 101 else 'ов'}, "
                  f"не больше {MAX_SEAT_NAME}",
            "en": f"the name “{short}” is too long (--seats): {length} characters, at most {MAX_SEAT_NAME}"}[lang]
    assert code == 2 and err == f"companion run: {told}\n", err
    # the form's sentence stays the form's
    form = render(name_too_long(length, MAX_SEAT_NAME, short), lang)
    assert form not in err and "строке" not in err and "own line" not in err
    assert "bad_seats" not in err and "Я" * 49 not in err and not data.exists()


def test_a_name_as_long_as_the_form_takes_is_taken(tmp_path):
    from companion.games.seats import MAX_SEAT_NAME
    from companion.service import TableService
    from companion.settings import Settings

    TableService.check_start(Settings(game="skull", seats=["Я" * MAX_SEAT_NAME, "Б", "В"], data_dir=tmp_path / "t"))


BAD_CHAR = ("the name %(name)s of player %(seat)s holds a character that cannot be shown (character %(position)s: "
            "%(char)s) (--seats): type the name without it")


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("seats, seat, name, position, char", [
    ("Ann\x07,Bob,Cid", 1, "Ann\x07", 4, "U+0007"),
    ("Аня,Бо\x1b[31mрис,Вика", 2, "Бо\x1b[31mрис", 3, "U+001B"),
])
def test_a_name_with_a_control_character_is_refused_naming_it(tmp_path, capsys, lang, seats, seat, name, position,
                                                               char):
    """A ``--seats`` name holding a character no screen can show (a bell, an escape pasted with it)
    is refused for what it is — which player, the name with the character written out, where it
    is and its code point — never as a wrong number of players, nor with the reason code; the
    character itself never reaches the terminal."""
    data = tmp_path / "table"
    code = _run(["run", "--sim", "--json", "--data-dir", str(data), "--game", "skull", "--seats", seats,
                 "--lang", lang])
    err = capsys.readouterr().err
    told = render(M(BAD_CHAR, name=repr(name), seat=seat, position=position, char=char), lang)
    assert code == 2 and err == f"companion run: {told}\n", err
    assert repr(name) in err and char in err and name not in err and "bad_seats" not in err
    assert render(M("This number of players does not suit the game."), lang) not in err
    assert not data.exists()
