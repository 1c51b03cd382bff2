"""``companion dashboard`` and a restart: the game and the phones' seats survive a power cut."""

from __future__ import annotations

import io
import json
import threading
import time
import urllib.request

from companion.cli import build_parser
from companion.commands import dashboard as cmd
from companion.dashboard import create_app
from companion.games import ids
from companion.i18n import M, MP, render
from companion.resumeflags import conflict
from companion.table import Table

from tests.dashboard.helpers import seat_client
from tests.wording import said


def test_print_pin_prints_pin_url_and_qr():
    out = io.StringIO()
    cmd.print_pin("482913", "http://10.0.0.5:8000", out, lang="en")
    text = out.getvalue()
    assert "Operator PIN: 482913" in text and "http://10.0.0.5:8000/operator?pin=482913" in text
    assert text.count("\n") > 15  # the QR code's rows


def test_command_serves_a_game_and_stops(fast_dir, capsys):
    args = build_parser().parse_args(["dashboard", "--game", "skull", "--seats", "Аня,Борис",
                                      "--data", str(fast_dir), "--port", "0", "--host", "127.0.0.1",
                                      "--pin", "246802"])
    stop = threading.Event()
    result = {}
    port = {}
    real = cmd.print_pin

    def spy(pin, url, out=None, lang="ru"):
        port["url"] = url
        real(pin, url, out, lang)

    cmd.print_pin = spy
    try:
        t = threading.Thread(target=lambda: result.setdefault("rc", cmd.run(args, stop)))
        t.start()
        deadline = time.monotonic() + 10
        while "url" not in port and time.monotonic() < deadline:
            time.sleep(0.05)
        state = json.load(urllib.request.urlopen(port["url"] + "/api/state", timeout=5))
        assert state["model"]["game"]["seats"] == ["Аня", "Борис"]
        assert state["status"]["camera"]["state"] == "unused"  # no camera on purpose: not a fault
        assert state["status"]["buttons"]["words"]["ru"]["state"] == render(MP("buttons", "not used"), "ru")
        stop.set()
        t.join(10)
    finally:
        cmd.print_pin = real
    assert result["rc"] == 0
    out = capsys.readouterr().out
    assert render(M("Operator PIN: %(pin)s", pin="246802"), "ru") in out
    assert render(M("Seat %(n)s (%(name)s): code %(code)s", n=1, name="Аня", code="§"), "ru").split("§")[0] in out
    assert "Operator" not in out and "Dashboard" not in out  # one language: Russian by default


def test_command_rejects_bad_game(fast_dir, capsys):
    args = build_parser().parse_args(["dashboard", "--game", "chess", "--data", str(fast_dir), "--port", "0"])
    assert cmd.run(args) == 2
    told = render(M("no game %(game)r; games: %(games)s", game="chess", games=", ".join(ids())), "ru")
    assert told in capsys.readouterr().err  # the console's language: Russian by default
    args = build_parser().parse_args(["dashboard", "--pin", "12ab", "--data", str(fast_dir)])
    assert cmd.run(args) == 2


def test_restart_keeps_game_and_phone_seat(fast_dir):
    table = Table(fast_dir, pin="135792")
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    app = create_app(table, testing=True)
    phone, csrf = seat_client(app, table, 1)
    assert phone.get("/api/seat/state").json["model"]["viewer"]["seat"] == 1
    version = table.referee.version
    app.extensions["companion"]["hub"].close()
    table.close()  # power cut: a new process starts on the same data folder
    again = Table(fast_dir)
    app2 = create_app(again, testing=True)
    browser = app2.test_client()  # the same phone: its session cookie, a new server process
    browser.set_cookie("session", phone.get_cookie("session").value)
    state = browser.get("/api/seat/state")
    assert state.status_code == 200 and state.json["model"]["viewer"]["seat"] == 1
    assert state.json["model"]["version"] == version
    assert app2.test_client().get("/api/seat/state").status_code == 403  # a cookie-less phone is not seated
    app2.extensions["companion"]["hub"].close()
    again.close()


def test_restart_keeps_the_round_history(fast_dir):
    """A power cut must not erase what the table saw: after a restart the public history is
    rebuilt from the table log, and it still carries no face-down serial."""
    table = Table(fast_dir, pin="135792")
    table.new_game("skull", ["Аня", "Борис"])
    app = create_app(table, testing=True)  # live: the history grows from the referee's events
    serials = {0: "АА1234562,АА1234564,АА1234566,АА1234561", 1: "ББ1234562,ББ1234564,ББ1234566,ББ1234563"}
    for seat, notes in serials.items():
        assert table.submit(f"table register {seat} {notes} ?", "camera").accepted
    assert table.submit("table dealer 0", "operator").accepted
    deadline = time.monotonic() + 10
    while True:
        before = app.test_client().get("/api/state").json["model"]["history"]
        if len(before) == 3 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    app.extensions["companion"]["hub"].close()
    table.close()  # power cut
    again = Table(fast_dir)
    app2 = create_app(again, testing=True)
    after = app2.test_client().get("/api/state").json["model"]["history"]
    assert len(before) == 3 and after == before
    assert "АА1234562" not in json.dumps(after, ensure_ascii=False)
    app2.extensions["companion"]["hub"].close()
    again.close()


def test_command_refuses_flags_for_another_game_than_the_unfinished_one(fast_dir, capsys):
    table = Table(fast_dir, pin="135792")
    table.new_game("doubt", ["Аня", "Борис", "Вика"])
    log = table.referee.log.path
    table.close()
    games = sorted((fast_dir / "games").glob("*.sqlite"))

    def start(*flags):
        args = build_parser().parse_args(["dashboard", *flags, "--data", str(fast_dir), "--port", "0",
                                          "--host", "127.0.0.1"])
        stop = threading.Event()
        stop.set()  # serve, then stop at once
        return cmd.run(args, stop)

    assert start("--game", "skull", "--seats", "Аня,Борис") == 2  # what was typed asks for another game (README, "Exit status")
    err = capsys.readouterr().err.strip()
    with Table(fast_dir) as again:  # the refusal's message: the unfinished game, its log, the flags that ask
        refusal = conflict(again, "skull", ["Аня", "Борис"])
    assert refusal is not None and refusal.message.facts["log"] == log.name
    assert said(refusal.message)[1]["asked"] == "--game skull and --seats Аня,Борис"
    assert err == "companion dashboard: " + refusal.words("ru"), err
    assert start("--seats", "Аня,Борис", "--lang", "en") == 2
    err = capsys.readouterr().err
    assert "unfinished" in err and "drop --seats" in err and "неоконченная" not in err, err
    assert sorted((fast_dir / "games").glob("*.sqlite")) == games  # nothing started

    # the flags naming the unfinished game resume it, and say so
    assert start("--game", "doubt", "--seats", "Аня,Борис,Вика") == 0
    out = capsys.readouterr().out
    assert "продолжается" in out and "Место 3 (Вика)" in out
    # --new starts the game asked for
    assert start("--game", "skull", "--seats", "Аня,Борис", "--new") == 0
    assert "Место 2 (Борис)" in capsys.readouterr().out and log.exists()


def test_command_gives_the_callers_sigterm_handler_back(fast_dir, capsys):
    """An in-process run (the tests) leaves SIGTERM as it found it: it once left its own handler
    behind, setting an event nobody waited for, and the test process then ignored SIGTERM (a
    `timeout` could not stop the suite)."""
    import signal

    def mine(*_):
        pass

    before = signal.signal(signal.SIGTERM, mine)
    try:
        stop = threading.Event()
        stop.set()  # serve, then stop at once
        args = build_parser().parse_args(["dashboard", "--data", str(fast_dir), "--port", "0", "--host", "127.0.0.1"])
        assert cmd.run(args, stop) == 0
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, before)


def _start(folder, *flags):
    """``companion dashboard`` on ``folder`` with ``flags``: serves, then stops at once."""
    args = build_parser().parse_args(["dashboard", *flags, "--data", str(folder), "--port", "0", "--host", "127.0.0.1"])
    stop = threading.Event()
    stop.set()
    return cmd.run(args, stop)


def test_the_start_says_the_game_and_its_table_log_as_companion_run_does(fast_dir, capsys):
    """The new user's report: ``companion run`` says the game and its table log at the start,
    ``companion dashboard`` did not. Both say them with one function (``game_lines``), before
    the PIN."""
    from companion.games import registry

    assert _start(fast_dir, "--game", "skull", "--seats", "Аня,Борис,Вика") == 0
    out = capsys.readouterr().out
    [log] = sorted((fast_dir / "games").glob("*.sqlite"))
    title = render(M("Table Companion — %(game)s, %(n)s seats: %(seats)s", game=registry.console_name("skull"), n=3,
                     seats="Аня, Борис, Вика"), "ru")
    new = render(M("new game, table log %(path)s", path=str(log)), "ru")
    assert f"{title}\n{new}\n" in out, out
    assert out.index(new) < out.index(render(M("Operator PIN: %(pin)s", pin="§"), "ru").split("§")[0])
    assert _start(fast_dir, "--lang", "en") == 0  # the next start resumes it
    out = capsys.readouterr().out
    # in English the game's English title, as Russian says its Russian one — not its id "skull"
    assert (f"Table Companion — Skull and roses (banknotes), 3 seats: Аня, Борис, Вика\nresumed from {log} at action 0\n"
            in out), out
    assert _start(fast_dir, "--new") == 0  # no game: nothing to say of one
    assert "Table Companion —" not in capsys.readouterr().out


def test_new_without_a_game_leaves_the_table_with_no_game_and_the_old_log_kept(fast_dir, capsys):
    table = Table(fast_dir, pin="135792")
    log = table.new_game("skull", ["Аня", "Борис", "Вика"]).log.path
    table.close()
    assert _start(fast_dir, "--new") == 0
    out = capsys.readouterr().out
    assert f"--resume {log.name}" in out  # said: left as it was, and how to bring it back
    assert json.loads((fast_dir / "table.json").read_text(encoding="utf-8"))["current"] is None  # it stuck
    assert _start(fast_dir) == 0  # the next plain start resumes nothing (it resumed the old game)
    out = capsys.readouterr().out
    assert "продолжается" not in out and "Место 1" not in out, out
    assert log.exists()
    assert _start(fast_dir, "--resume", log.name) == 0  # still there to bring back
    assert "Место 1 (Аня)" in capsys.readouterr().out


def test_seats_without_a_game_are_refused_in_one_line(fast_dir, capsys):
    for flags in (("--seats", "Аня,Борис"), ("--seats", "Аня,Борис", "--new")):
        assert _start(fast_dir, *flags) == 2  # the command line cannot be used as typed (README, "Exit status")
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("companion dashboard: --seats") and "--game" in err[0], err
    assert not list((fast_dir / "games").glob("*.sqlite"))  # nothing started
    assert _start(fast_dir, "--seats", "Аня,Борис", "--lang", "en") == 2
    assert "give its --game too" in capsys.readouterr().err


def test_the_seat_codes_of_a_game_the_operator_starts_are_printed(fast_dir, capsys):
    made = []
    real = cmd._Announcer

    def spy(table, lang, out=None):
        made.append(real(table, lang, out))
        return made[-1]

    args = build_parser().parse_args(["dashboard", "--data", str(fast_dir), "--port", "0", "--host", "127.0.0.1",
                                      "--pin", "246802"])
    stop = threading.Event()
    result = {}
    cmd._Announcer = spy
    try:
        t = threading.Thread(target=lambda: result.setdefault("rc", cmd.run(args, stop)))
        t.start()
        deadline = time.monotonic() + 10
        while not made and time.monotonic() < deadline:
            time.sleep(0.05)
        table = made[0].table
        table.new_game("doubt", ["Аня", "Борис", "Вика"])  # as the console's «Новая игра» does
        codes = table.seat_codes()
        stop.set()
        t.join(10)
    finally:
        cmd._Announcer = real
    assert result["rc"] == 0
    out = capsys.readouterr().out
    for seat, name in enumerate(["Аня", "Борис", "Вика"]):
        assert render(M("Seat %(n)s (%(name)s): code %(code)s", n=seat + 1, name=name, code=codes[seat]), "ru") in out, out
    assert "Аня, Борис, Вика" in out


def test_a_name_too_long_for_the_form_is_refused_as_run_refuses_it(fast_dir, capsys):
    """``companion dashboard --seats`` holds names to the new-game form's limit, in the words of the
    command line's other ``--seats`` lines (not the form's advice to put names on lines)."""
    from companion.games.seats import MAX_SEAT_NAME

    name = "Я" * (MAX_SEAT_NAME + 1)
    assert _start(fast_dir, "--game", "skull", "--seats", f"{name},Б,В", "--new") == 2
    err = capsys.readouterr().err
    assert f"имя «{name}» слишком длинное (--seats): {len(name)} символов, не больше {MAX_SEAT_NAME}\n" in err, err
    assert "строке" not in err
    assert render(M("This number of players does not suit the game."), "ru") not in err


def test_a_name_with_a_control_character_is_refused_naming_it(fast_dir, capsys):
    """``companion dashboard --seats`` refuses a name holding a control character as ``run`` does:
    the player, the name written out, the character's place and code point."""
    assert _start(fast_dir, "--game", "skull", "--seats", "Аня,Бо\x07рис,Вика", "--new") == 2
    err = capsys.readouterr().err
    assert render(M("the name %(name)s of player %(seat)s holds a character that cannot be shown (character "
                    "%(position)s: %(char)s) (--seats): type the name without it", name=repr("Бо\x07рис"), seat=2,
                    position=3, char="U+0007"), "ru") in err, err
    assert "\x07" not in err and render(M("This number of players does not suit the game."), "ru") not in err
