"""``companion run``: the table service — a real table on a Pi, the simulated table elsewhere.

Examples::

    companion run                                  # Pi: real devices; elsewhere: simulated table
    companion run --sim --game skull               # the make-demo table, dashboard on :8080
    companion run --sim --game doubt --seed 7 --until-end --json   # headless; prints the summary

The console (:mod:`companion.commands.console`) shows the dashboard URL, a QR code of it and the
operator PIN, then short progress and status lines; results and refusals are worded by
:mod:`companion.commands.results`. Ctrl-C (or SIGTERM from systemd) stops cleanly; the game
resumes from its table log at the next start (a headless run says which log and how). A start the
table refuses (an unknown game, bad players or options) leaves no data folder behind. Exit status: 0 ok — also Ctrl-C on a table that serves until it is stopped
(``make demo``: the operator's way to end the run, not a failure); 1 the table could not run (a
part is missing, a device failed, the port is taken, a ``--resume`` log is not there); 2 unusable
arguments (argparse's refusals, a bad flag value or settings file, an unknown game, players or
``--option`` the game refuses, flags asking for another game than the unfinished one); 130 Ctrl-C before the end a run was asked
to reach (``--until-end``, ``--json``); 143 SIGTERM (systemd's stop).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path

from companion.cliparser import game_arg
from companion.commands.console import CONSOLE_LANGS, Console
from companion.commands.console_words import camera_counts
from companion.commands.results import error_words, os_error_words, stop_words
from companion.datalock import DataFolderBusy, hold as hold_data_folder
from companion.errors import CompanionError, IllegalAction
from companion.i18n import M, decimal
from companion.i18n import cli as words
from companion.i18n.cli import _

# the console's and the results' words, where callers have found them (``companion.commands.run``)
from companion.commands.console_words import bots_leave_words, pin_origin, why_words  # noqa: F401
from companion.commands.results import _stop_words, format_result  # noqa: F401

SIM_PACE_MS = 1200
"""Default pause between bot actions on the watched simulated table (ms): a person can follow."""


def _seed(text: str) -> int:
    """``--seed``: a whole number ≥ 0 (a negative seed used to replay the positive one's game)."""
    value = words.integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(words.tell(M("the seed must be 0 or more, not %(value)s", value=value)))
    return value


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "run", help=_("run the table: referee + camera + button box + lights + dashboard"),
        description=_("The table service: a real table on a Raspberry Pi, the simulated table elsewhere."),
    )
    p.add_argument("--game", type=game_arg, help=_("game id for a new game (skull, doubt, hoggenheimer, infinity, lottery)"))
    p.add_argument("--config", metavar=_("FILE"), help=_("settings file (TOML); flags override it"))
    p.add_argument("--sim", action="store_true", default=None, help=_("simulated table: bots, rendered camera, virtual box"))
    p.add_argument("--seed", type=_seed, help=_("simulated table's seed, a whole number ≥ 0 (default 0)"))
    p.add_argument("--seats", help=_("comma-separated player names, clockwise from seat 1"))
    p.add_argument("--option", action="append", default=[], metavar=_("KEY=VALUE"),
                   help=_("house-rule option for a new game (JSON value; a seat option such as first_dealer counts seats from 1), repeatable"))
    p.add_argument("--until-end", action="store_true", help=_("exit when the game is over"))
    p.add_argument("--json", action="store_true",
                   help=_("headless: print the replay summary JSON at the end (implies --until-end, no dashboard)"))
    p.add_argument("--dashboard", action="store_true", help=_("serve the dashboard even with --json"))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--new", action="store_true", help=_("start a new game even if an unfinished one can resume"))
    which.add_argument("--resume", metavar=_("LOG"), help=_("resume the unfinished game of this table log instead of the "
                       "current one (a file name in {data_dir}/games or its path; the current game is set aside)").format(
                       data_dir=_("DATA_DIR")))  # --data-dir's own placeholder (cliparser.METAVARS): ПАПКА/games
    p.add_argument("--data-dir", type=Path, help=_("folder of table logs (default $COMPANION_DATA, else /var/lib/companion when "
                   "writable, else ~/.local/share/companion)"))
    p.add_argument("--host", help=_("dashboard address to listen on (default 0.0.0.0)"))
    p.add_argument("--port", type=words.port, help=_("dashboard port (default 8080; 0 = any free port)"))
    pins = p.add_mutually_exclusive_group()
    pins.add_argument("--pin", help=_("operator PIN for this run (6-12 digits; default the PIN kept in the data "
                      "folder's operator-pin file, made once at random)"))
    pins.add_argument("--new-pin", action="store_true", help=_("make a new random operator PIN and keep it in the "
                      "data folder (logins made with the old PIN end)"))
    p.add_argument("--pace-ms", type=words.integer, help=_("simulated table: ms between bot actions (default {pace} on the simulated table, "
                   "whether chosen by --sim or because this is not a Raspberry Pi; 0 with --json)").format(pace=SIM_PACE_MS))
    p.add_argument("--camera", help=_("camera backend: auto | picamera2 | opencv:INDEX|URL|VIDEO | "
                   "folder:PATH | image:PATH | scene (or a bare index, URL, folder or image)"))
    p.add_argument("--buttons", help=_("button box: auto | virtual | serial port or URL"))
    p.add_argument("--lights", help=_("lights: auto | gpio | mock | none"))
    p.add_argument("--club", metavar="URL", help=_("publish this table to its club: mqtt[s]://[user:pass@]HOST:PORT/CLUB "
                   "(docs/club.md)"))
    p.add_argument("--lang", choices=CONSOLE_LANGS, default=words.current(),
                   help=_("language of the console's lines: ru (default, like the dashboard) or en"))
    p.add_argument("-v", "--verbose", action="store_true", help=_("log details to stderr"))
    p.set_defaults(func=main)


def _options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CompanionError(M("--option needs KEY=VALUE, got %(pair)r", pair=pair))
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def refusal_status(exc: Exception, checked: bool = False) -> int:
    """The exit status of a start the table refused (README, "Exit status"): 2 when what was
    typed cannot be — a game id, players, an ``--option``, flags that ask for another game than
    the unfinished one (every refusal of the pre-start check, ``checked``, but a missing log); 1
    when the table could not do it (a ``--resume`` log that is not there, a damaged log, a part
    that failed)."""
    from companion.errors import LogError
    from companion.resumeflags import ResumeConflict

    if isinstance(exc, (IllegalAction, ResumeConflict)):
        return 2
    return 2 if checked and not isinstance(exc, LogError) else 1


def build_settings(args):
    """Settings from ``--config`` and the flags.

    Raises:
        SettingsError, CompanionError: a bad file or flag.
    """
    from companion.cliparser import seat_names
    from companion.settings import Settings

    overrides = dict(
        game=args.game, sim=args.sim, seed=args.seed, host=args.host, port=args.port, pin=args.pin,
        pace_ms=args.pace_ms, camera=args.camera, buttons=args.buttons, lights=args.lights,
        seats=seat_names(args.seats) if args.seats else None,
        options=_options(args.option) or None, data_dir=args.data_dir, club=getattr(args, "club", None),
    )
    return Settings.load(args.config, **overrides)


def apply_plan(settings, plan, args) -> None:
    """Settings that follow the table actually chosen (``plan.sim``), however it was chosen:
    ``--sim``, ``sim = true`` in the settings file, or :func:`~companion.service.choose_backends`
    picking the simulated table because this is not a Raspberry Pi (plain ``make demo``).

    * the bots' pace: :data:`SIM_PACE_MS` on a simulated table someone watches (no ``--json``)
      unless ``--pace-ms`` or the file's ``pace_ms`` says otherwise; 0 headless or on a real table;
    * the data folder: a simulated table keeps its logs apart from a real table's
      (``<data_dir>/sim``).
    """
    headless = bool(getattr(args, "json", False))
    if getattr(args, "pace_ms", None) is None and settings.pace_ms == 0 and plan.sim and not headless:
        settings.pace_ms = SIM_PACE_MS
    if plan.sim and settings.data_dir.name != "sim":
        settings.data_dir = settings.data_dir / "sim"


def main(args) -> int:
    """Run the table; returns the exit status (0 done or stopped by Ctrl-C, 1 error, 2 bad
    arguments, 130 Ctrl-C before the end of an ``--until-end`` run, 143 SIGTERM; module docstring).

    A camera read (onnxruntime, Tesseract) cannot be interrupted. If one is still running on a
    worker thread this run started after every part was stopped and the table log closed, the process leaves with
    ``os._exit`` instead of letting the interpreter tear down a native library under a running
    thread (which aborts with "terminate called without an active exception").

    Ctrl-C is said and ends the run the same way whenever it comes: also before the table
    serves — while the backends are chosen (on a Pi ``picamera2``'s import takes seconds), the
    data folder is locked, the start is checked — where it once escaped to the CLI's silent
    130 (``make: *** [demo] Error 130`` and no «остановка» line).
    """
    before = set(threading.enumerate())
    previous = _int_handler()
    try:
        code = _main(args)
    except KeyboardInterrupt:
        code = stopped_before_start(args)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    # only threads this run started count (a caller's own threads, e.g. a test process's, do not)
    busy = [t for t in threading.enumerate()
            if t is not threading.main_thread() and t.is_alive() and t not in before]
    if busy:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _int_handler():
    """Make Ctrl-C raise ``KeyboardInterrupt`` here even when this process began with SIGINT
    ignored (see :func:`_serve`); returns the handler to put back (``None``: not the main
    thread, nothing changed)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    return previous if previous is not None else signal.SIG_DFL


def stopped_before_start(args) -> int:
    """Ctrl-C before the table served: the stop line, and the status the run would have had
    (0 for a table served until stopped, 130 before the end a headless run was asked to reach)."""
    from companion.i18n import render

    lang = getattr(args, "lang", "ru")
    print(render(M("stopping before the table started: nothing was changed"), lang),
          file=sys.stderr if getattr(args, "json", False) else sys.stdout, flush=True)
    return 130 if (getattr(args, "until_end", False) or getattr(args, "json", False)) else 0


def _main(args) -> int:
    from companion.service import choose_backends

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    until_end = args.until_end or args.json
    try:
        settings = build_settings(args)
        plan = choose_backends(settings)
    except CompanionError as exc:
        print(f"companion run: {error_words(exc, args.lang)}", file=sys.stderr)
        return 2
    apply_plan(settings, plan, args)
    port_checked = False
    if not settings.data_dir.exists():
        # nothing there to resume: a start that would be refused is refused before the folder,
        # its lock, the operator PIN and the key are made — a taken dashboard port too
        from companion.service import TableService

        try:
            TableService.check_start(settings, resume=args.resume)
        except CompanionError as exc:
            print(f"companion run: {error_words(exc, args.lang, settings)}", file=sys.stderr)
            return refusal_status(exc, checked=True)
        if port_taken(args, settings):
            return 1
        port_checked = True
    try:
        with hold_data_folder(settings.data_dir):
            # a folder that is there: another table holding it is said first (with its pid, by
            # the lock), then a taken port, before the table writes anything into the folder
            if not port_checked and port_taken(args, settings):
                return 1
            return _serve(args, settings, plan, until_end)
    except DataFolderBusy as exc:  # another table referees from this folder: never two in one log
        print(f"companion run: {error_words(exc, args.lang)}", file=sys.stderr)
        return 1


def port_in_use(settings) -> bool:
    """True when another program listens on the dashboard's address now: a bind of the address
    the dashboard binds (:meth:`companion.dashboard.DashboardServer.start`), closed at once. Port 0
    (any free port) is never taken; an address that cannot be bound for another reason is left
    to the start itself, which says why."""
    import errno
    import socket

    if not settings.port:
        return False
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    try:
        sock = socket.create_server((settings.host, settings.port), family=family)
    except OSError as exc:
        return exc.errno == errno.EADDRINUSE
    sock.close()
    return False


def port_taken_words(port: int):
    """The refusal of a taken dashboard port (a message)."""
    return M("the dashboard port %(port)s is taken by another program; choose another with --port", port=port)


def port_taken(args, settings) -> bool:
    """True (and said on stderr, as a start that found it taken says it) when this run serves
    the dashboard and its port is taken: checked before the table makes or writes anything in
    the data folder, so a run refused for its port leaves nothing behind (no PIN, key,
    ``table.json``, seeds or lock file in a new folder)."""
    if args.json and not args.dashboard:
        return False  # headless: no dashboard to serve
    if not port_in_use(settings):
        return False
    from companion.i18n import render

    print("companion run: " + render(port_taken_words(settings.port), getattr(args, "lang", "ru")),
          file=sys.stderr)
    return True


def _serve(args, settings, plan, until_end: bool) -> int:
    """Run the table of ``settings`` and ``plan`` until its end, Ctrl-C or SIGTERM (the data
    folder already held); returns the exit status."""
    from companion.service import TableService

    console = Console(sys.stderr if args.json else sys.stdout, quiet=args.json and not args.verbose,
                      lang=getattr(args, "lang", "ru"))

    stopped_by: list[int] = []

    def terminate(signum, frame):  # systemd stop: leave like Ctrl-C
        stopped_by.append(signum)
        raise KeyboardInterrupt

    # Ctrl-C must stop the table even when this process began with SIGINT ignored (inherited
    # from a parent that ignores it: a script's background job, or an in-process caller whose
    # earlier run left it ignored); the handlers are put back as they were once stopped
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, terminate)
    service = TableService(settings, plan, dashboard=(not args.json) or args.dashboard, new=args.new,
                           resume=args.resume, new_pin=args.new_pin,
                           asked={"game": args.game, "seats": settings.seats if args.seats else None},
                           follow=plan.sim)  # the bots take up every game the console starts (#23)
    try:
        service.start()
        url = service.server.url if service.server else None
        console.header(service, url)
        # the header first: a part's status change is told after it, never before it
        table = service.table
        assert table is not None  # (a started service has its table)
        table.subscribe(console.on_table)
        console.on_table("status", table.status())  # what changed while the header printed
        t0 = time.monotonic()
        service.run_bots()
        service.wait(until_end=until_end, progress=lambda: console.progress(service))
        wall = time.monotonic() - t0
        if args.json:
            summary = service.summary()
            print(json.dumps(summary, ensure_ascii=False))
        if service.simtable is not None:
            st = service.simtable.stats
            counts = camera_counts(service) or {"reads": 0, "manual": 0}
            console.line(console.say(M(
                "simulated game: %(wall)s s in this run; in the game %(actions)s bot actions, %(presses)s presses, "
                "%(reads)s camera reads, %(retried)s retried (%(share)s %%), %(manual)s by hand",
                wall=decimal(wall, 1), actions=st.actions, presses=st.presses, reads=counts["reads"], retried=st.retried,
                share=decimal(100 * st.retry_share, 1), manual=counts["manual"])))
        if not until_end:
            service.wait(until_end=False)
        return 0
    except KeyboardInterrupt:
        console.last_line(stop_words(service, console.lang, headless=console.quiet))
        if not stopped_by and not until_end:
            # Ctrl-C is how an operator ends a served table (the header says so): a clean stop,
            # status 0 — `make demo` would otherwise add "make: *** [demo] Error 130". The
            # finally below stops every part; an error there still propagates.
            return 0
        # 128 + the signal, as a shell reports it: 130 for Ctrl-C before the end a headless run
        # was asked to reach, 143 for SIGTERM (systemd stop)
        return 128 + (stopped_by[0] if stopped_by else signal.SIGINT)
    except CompanionError as exc:
        print(f"companion run: {error_words(exc, console.lang, settings)}", file=sys.stderr)
        return refusal_status(exc)
    except OSError as exc:
        if getattr(exc, "errno", None) == 98:
            print("companion run: " + console.say(port_taken_words(settings.port)), file=sys.stderr)
        else:
            logging.getLogger(__name__).info("the table stopped: %r", exc)
            print(f"companion run: {os_error_words(exc, console.lang)}", file=sys.stderr)
        return 1
    finally:
        # a second Ctrl-C or SIGTERM must not cut the orderly stop short: a camera read in
        # progress finishes and the pins are released before the interpreter goes (an
        # interrupted stop left an OCR thread running into shutdown: "terminate called …")
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        try:
            service.stop()
        finally:  # a caller in the same process (tests, a wrapper) gets its own handlers back
            for sig, handler in previous.items():
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
