"""``companion dashboard`` — serve the phone dashboard for a table without hardware.

Players join seats from their phones (codes/QR on the operator console) and play with the
on-screen pads; the operator logs in with the PIN printed here (also as a QR code)::

    companion dashboard --game skull --seats "Аня,Борис,Вика" --port 8080

With ``--game`` a new game starts unless the data folder holds an unfinished one: then it
resumes when ``--game`` and ``--seats`` name that game (or are left out), and the start is
refused in one line otherwise (``--new`` starts the new game; ``--resume LOG`` resumes an older
unfinished game instead). Without
``--game`` the operator starts one from the console (``--new`` then leaves the table with no
game; the old log stays, ``--resume LOG`` brings it back), and ``--seats`` alone, which would
name the players of no game, is refused (exit status 2: this command has no default game). The
seat codes of every game are printed: the one it starts or resumes, and each one the operator
starts or resumes from the console later. The operator PIN is kept in the data folder
(``operator-pin``, made once) unless ``--pin`` gives one; ``--new-pin`` makes a new one.
Observations (camera reads) are then entered by hand on the console, marked ``manual`` in the log.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from companion.cliparser import game_arg
from companion.settings import default_data_dir
from companion.i18n import M, render
from companion.i18n import cli as words
from companion.i18n.cli import _


def register(sub) -> None:
    p = sub.add_parser("dashboard", help=_("serve the phone dashboard (no hardware needed)"),
                       description=_("Serve the phone dashboard for a table without hardware: players join seats from their phones (codes and QR on the operator console), the operator logs in with the PIN printed here. With --game a new game starts unless the data folder holds an unfinished one (then it resumes, or the start is refused when the flags name another game: --new starts it, --resume LOG resumes an older one). Camera reads are entered by hand on the console."))
    p.add_argument("--game", type=game_arg, help=_("game id to start (skull, doubt, hoggenheimer, infinity, lottery)"))
    p.add_argument("--seats", help=_("player names, comma separated, clockwise from seat 1"))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--new", action="store_true", help=_("do not resume the current game: a new one with --game, "
                       "else the operator starts one (its log stays in {data_dir}/games)").format(data_dir=_("DATA_DIR")))
    which.add_argument("--resume", metavar=_("LOG"), help=_("resume the unfinished game of this table log (a file name in "
                       "{data_dir}/games or its path) instead of the current one").format(data_dir=_("DATA_DIR")))
    # ({data_dir}: --data-dir's own placeholder, cliparser.METAVARS — ПАПКА/games in Russian)
    p.add_argument("--data-dir", type=Path, default=None,
                   help=_("folder of table logs, the same as companion run --data-dir (default "
                        "$COMPANION_DATA, else /var/lib/companion when writable, else "
                        "~/.local/share/companion)"))
    # the option's old name, kept so existing scripts keep working; not shown in --help
    p.add_argument("--data", type=Path, dest="data_dir", help=argparse.SUPPRESS)
    p.add_argument("--host", default="0.0.0.0", help=_("address to bind (default 0.0.0.0: the table's Wi-Fi)"))
    p.add_argument("--port", type=words.port, default=8080, help=_("TCP port (default 8080)"))
    pins = p.add_mutually_exclusive_group()
    pins.add_argument("--pin", help=_("operator PIN for this run (default: the PIN kept in the data folder's "
                      "operator-pin file, made once at random)"))
    pins.add_argument("--new-pin", action="store_true", help=_("make a new random operator PIN and keep it in the "
                      "data folder (logins made with the old PIN end)"))
    p.add_argument("--lang", choices=("ru", "en"), default=words.current(),
                   help=_("language of the console's lines: ru (default, like the dashboard) or en"))
    p.set_defaults(func=run)


def print_pin(pin: str, url: str, out=None, lang: str = "ru") -> None:
    """Print the operator PIN and a terminal QR code of the console login URL (the link logs in
    by itself), in ``lang`` (``"ru"`` or ``"en"``)."""
    import qrcode

    out = out or sys.stdout
    login = f"{url.rstrip('/')}/operator?pin={pin}"
    for msg in (M("Dashboard: %(url)s", url=url), M("Operator PIN: %(pin)s", pin=pin),
                M("Operator console (logs in by itself): %(url)s", url=login)):
        print(render(msg, lang), file=out)
    qr = qrcode.QRCode(border=1)
    qr.add_data(login)
    qr.print_ascii(out=out, invert=True)


def _game_words(game_id: str) -> dict:
    """A game as the console's lines name it: its title in quotes, in each language."""
    from companion.games import registry

    return registry.console_name(game_id, quoted=True)


def run(args, stop: threading.Event | None = None) -> int:
    """Serve until Ctrl-C, SIGTERM or ``stop`` is set; returns the exit status."""
    from companion.commands.run import error_words
    from companion.datalock import DataFolderBusy, hold as hold_data_folder

    folder = args.data_dir or default_data_dir()
    try:
        with hold_data_folder(folder):
            return _serve(args, folder, stop)
    except DataFolderBusy as exc:  # another table referees from this folder: never two in one log
        print(f"companion dashboard: {error_words(exc, args.lang)}", file=sys.stderr)
        return 1


def _serve(args, folder, stop: threading.Event | None) -> int:
    """Serve the table of the data folder ``folder`` (already held); returns the exit status."""
    from companion.cliparser import seat_names
    from companion.commands.run import error_words
    from companion.dashboard import DashboardServer
    from companion.errors import CompanionError, IllegalAction
    from companion.table import Table

    resume = getattr(args, "resume", None)
    if args.seats and not args.game and (args.new or resume):
        return _seats_without_game(args)  # before the table: a refused start changes nothing
    try:
        table = Table(folder, pin=args.pin, resume=not (args.new or resume),
                      new_pin=getattr(args, "new_pin", False))
    except ValueError as exc:  # a PIN too short (SettingsError) or --pin with --new-pin
        print(f"companion dashboard: {error_words(exc, args.lang)}", file=sys.stderr)
        return 2
    except CompanionError as exc:  # the current game cannot be resumed: never a silent new one
        print(f"companion dashboard: {error_words(exc, args.lang)}", file=sys.stderr)
        return 1
    except OSError as exc:
        from companion.commands.results import os_reason

        print("companion dashboard: " + render(M("the data folder cannot be written: %(why)s", why=os_reason(exc)),
                                               args.lang), file=sys.stderr)
        return 1
    for notice in table.notices:
        print(notice.words(args.lang))
    if not (args.new or resume):
        from companion.resumeflags import conflict

        seats = [s for s in seat_names(args.seats or "") if s]
        refusal = conflict(table, args.game, seats or None)
        if refusal is not None:  # a flag for another game is never dropped in silence
            print(f"companion dashboard: {error_words(refusal, args.lang)}", file=sys.stderr)
            table.close()
            return 2  # what was typed asks for another game (README, "Exit status")
        if args.seats and not args.game and table.referee is None:
            table.close()
            return _seats_without_game(args)  # players of no game: never dropped in silence
    if args.new and not args.game:
        table.leave_aside()  # --new with no game to start: the table has none (the log stays)
    if resume:
        try:
            table.resume_game(resume)
        except CompanionError as exc:
            print(f"companion dashboard: {error_words(exc, args.lang)}", file=sys.stderr)
            table.close()
            return 1
    for part in ("buttons", "camera", "ocr"):
        # not a fault: this table runs without the part (companion/statuswords.py: "unused")
        table.set_status(part, {"state": "unused", "why": "dashboard_only",
                                "detail": "dashboard only: enter observations by hand"})
    started = False
    if args.game and not resume and (args.new or table.referee is None):
        seats = [s for s in seat_names(args.seats or "") if s]
        try:
            table.new_game(args.game, seats, None)
            started = True
        except IllegalAction as exc:
            why = error_words(exc, args.lang, argparse.Namespace(game=args.game))
            print("companion dashboard: " + render(M("cannot start %(game)s: %(why)s", game=args.game, why=why),
                                                   args.lang), file=sys.stderr)
            return 2
    server = DashboardServer(table, host=args.host, port=args.port)
    try:
        server.start()
    except OSError as exc:
        from companion.commands.results import os_reason

        print("companion dashboard: " + render(M("cannot listen on %(host)s:%(port)s: %(why)s", host=args.host,
                                                 port=args.port, why=os_reason(exc)), args.lang), file=sys.stderr)
        if started:
            table.discard_unplayed()  # no empty game left behind for the next start to resume
        table.close()
        return 1
    return _serve_until_stopped(args, table, server, started, stop)


def _serve_until_stopped(args, table, server, started: bool, stop: threading.Event | None) -> int:
    """Say the game, the PIN and the seat codes, then serve until Ctrl-C, SIGTERM or ``stop``;
    the server and the table are stopped whenever Ctrl-C comes (also while the codes print).
    Returns 0, after the stop line on Ctrl-C or SIGTERM (as ``companion run`` says it)."""
    import signal

    from companion.commands.results import table_stop_words
    from companion.commands.run import pin_origin
    from companion.dashboard import shown_url

    in_process = stop is not None  # a caller in this process (tests) gets its signal handlers back
    stop = stop or threading.Event()
    previous = previous_int = None
    unsubscribe = None

    def quiet_stop() -> None:
        # a second Ctrl-C must not cut the orderly stop short (it once ended it with 130)
        nonlocal previous_int
        if previous is not None and previous_int is None:
            previous_int = signal.signal(signal.SIGINT, signal.SIG_IGN)

    try:
        try:
            previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
        except ValueError:  # not the main thread (tests)
            pass
        if (current := table.referee) is not None:  # the game and its table log, as companion run says them
            from companion.commands.console_words import game_lines

            for line in game_lines(current.log.header, current.log.path, None if started else current.version,
                                   args.lang):
                print(line)
        print_pin(table.pin, shown_url(args.host, server.port), lang=args.lang)
        print(render(M("PIN: %(origin)s", origin=pin_origin(table, args.lang)), args.lang))
        announce = _Announcer(table, args.lang)
        announce.codes()
        unsubscribe = table.subscribe(announce.on_table)  # a game the operator starts later: its codes too
        stop.wait()
        if not in_process:  # SIGTERM (systemd stop): the same last line as Ctrl-C's
            quiet_stop()
            print(table_stop_words(table, args.lang), flush=True)
    except KeyboardInterrupt:
        quiet_stop()
        print(table_stop_words(table, args.lang), flush=True)
    finally:
        quiet_stop()
        try:
            if unsubscribe is not None:
                unsubscribe()
            server.stop()
            table.close()
        finally:
            # as they were for an in-process caller; the command's own process ends with Ctrl-C
            # still ignored, so a second one cannot turn a clean stop into 130
            if previous is not None and in_process:
                signal.signal(signal.SIGTERM, previous)
                if previous_int is not None:
                    signal.signal(signal.SIGINT, previous_int)
    return 0


def _seats_without_game(args) -> int:
    """Refuse ``--seats`` with no ``--game`` when no game would take the players (exit 2)."""
    from companion.games import ids

    print("companion dashboard: " + render(M(
        "--seats names the players of a new game: give its --game too (%(games)s); without --game the operator "
        "starts a game from the console", games=", ".join(ids())), args.lang), file=sys.stderr)
    return 2


class _Announcer:
    """The console's lines for each game the table takes up: the seat codes of the game at the
    start, and of every game the operator starts or resumes from the console later, as
    ``companion run`` prints them (the players need them to join)."""

    def __init__(self, table, lang: str, out=None) -> None:
        self.table = table
        self.lang = lang
        self.out = out
        ref = table.current_referee()
        self._told = ref.log.path if ref is not None else None
        self._lock = threading.Lock()

    def codes(self) -> None:
        """The current game's seat codes, one line a seat."""
        info = self.table.game_info()
        if info is None:
            return
        for seat, code in sorted(self.table.seat_codes().items()):
            if 0 <= seat < len(info["seats"]):
                print(render(M("Seat %(n)s (%(name)s): code %(code)s", n=seat + 1, name=info["seats"][seat],
                               code=code), self.lang), file=self.out or sys.stdout, flush=True)

    def on_table(self, kind: str, payload) -> None:
        """A game the table took up (the operator's new game or resumed one): its name, players,
        table log and seat codes, once."""
        if kind != "game":
            return
        ref = self.table.current_referee()
        with self._lock:
            if ref is None or ref.log.path == self._told:
                return
            self._told = ref.log.path
        head = ref.log.header
        out = self.out or sys.stdout
        print(render(M("%(game)s: %(seats)s", game=_game_words(head.game), seats=", ".join(head.seats)), self.lang),
              file=out)
        if ref.version:
            said = M("resumed from %(path)s at action %(n)s", path=str(ref.log.path), n=ref.version)
        else:
            said = M("new game, started from the operator console; table log %(path)s", path=str(ref.log.path))
        print(render(said, self.lang), file=out, flush=True)
        self.codes()
