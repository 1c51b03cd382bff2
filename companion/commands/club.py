"""``companion club`` — the club board, and the club's broker files.

::

    companion club --broker mqtt://board:PASSWORD@HOST:1883/CLUB [--port 8090] [--data-dir D]
    companion club acl --club CLUB --tables t1,t2,t3 [--dir D] [--host HOST]
    companion club broker --club CLUB --tables t1,t2,t3 [--dir D] [--port 1883]

The board serves a page for a TV or phones with every table of the club live and the standings of
the night; it keeps what it receives in ``<data-dir>/club.sqlite``. ``acl`` writes the broker's
password file and ACL (each table writes only its own topic, the board only reads) and prints each
table's ``--club`` address. ``broker`` runs Mosquitto with those files in the foreground (a club
night on one Pi; a club with its own broker uses the files there). See docs/club.md.
"""

from __future__ import annotations

import errno
import logging
import signal
import sys
import threading
from pathlib import Path

from companion.settings import default_data_dir
from companion.i18n import M, render
from companion.i18n import cli as words
from companion.i18n.cli import _


def register(sub) -> None:
    p = sub.add_parser("club", help=_("the club board (many tables on one MQTT broker), and the broker's files"),
                       description=_("The club board: a page for a TV or phones with every table of the club live and the standings of the night (kept in club.sqlite in the data folder). club acl writes the broker's password file and ACL and prints each table's --club address; club broker runs Mosquitto with those files in the foreground. See docs/club.md."))
    p.add_argument("--broker", metavar="URL", help=_("the board's broker address: mqtt[s]://board:PASSWORD@HOST:PORT/CLUB"))
    p.add_argument("--host", default="0.0.0.0", help=_("address the board's pages listen on (default 0.0.0.0)"))
    p.add_argument("--port", type=words.port, default=8090, help=_("the board's TCP port (default 8090)"))
    p.add_argument("--data-dir", type=Path, help=_("where the board keeps club.sqlite and its PIN (default "
                   "$COMPANION_DATA/club, else /var/lib/companion/club or ~/.local/share/companion/club)"))
    p.add_argument("--pin", help=_("the board's PIN for merging names (default: kept in the data folder, made once)"))
    p.add_argument("--lang", choices=("ru", "en"), default=words.current(), help=_("language of the console's lines (default ru)"))
    p.add_argument("-v", "--verbose", action="store_true", help=_("log every ignored message and reconnect"))
    p.set_defaults(func=run_board)
    what = p.add_subparsers(dest="club_command", metavar="{acl,broker}")
    a = what.add_parser("acl", help=_("write the broker's password file and ACL for a club, print each table's address"))
    _club_args(a, "./club-broker")
    a.add_argument("--host", dest="broker_host", default="HOST", help=_("the broker's address as the tables reach it "
                   "(for the printed addresses; default HOST)"))
    a.add_argument("--port", dest="broker_port", type=words.port, default=1883, help=_("the broker's port (default 1883)"))
    a.set_defaults(func=run_acl)
    b = what.add_parser("broker", help=_("run mosquitto for the club with those files (foreground, Ctrl-C stops)"))
    _club_args(b, "./club-broker")
    b.add_argument("--bind", default="0.0.0.0", help=_("address to listen on (default 0.0.0.0)"))
    b.add_argument("--port", dest="broker_port", type=words.port, default=1883, help=_("TCP port (default 1883)"))
    b.set_defaults(func=run_broker)


def _club_args(p, folder: str) -> None:
    p.add_argument("--club", required=True, help=_("the club's name (letters, digits, _ or -)"))
    p.add_argument("--tables", required=True, help=_("table ids, comma separated (each is its broker user)"))
    p.add_argument("--dir", type=Path, default=Path(folder), help=_("folder for the files (default %(default)s)"))
    p.add_argument("--lang", choices=("ru", "en"), default=words.current(), help=_("language of the console's lines (default ru)"))


def _t(lang: str, msg) -> str:
    return render(msg, lang)


def _tables(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def run_acl(args) -> int:
    from companion.club import acl
    from companion.errors import CompanionError

    try:
        creds = acl.generate(args.dir, args.club, _tables(args.tables), port=args.broker_port)
    except CompanionError as exc:  # a club or table name that cannot be
        print(f"companion club acl: {exc.words(args.lang)}", file=sys.stderr)
        return 2
    except OSError as exc:  # the files could not be written: the work failed (README, "Exit status")
        from companion.commands.results import os_reason

        told = M("%(path)s: %(why)s", path=str(exc.filename or args.dir), why=os_reason(exc))
        print(f"companion club acl: {_t(args.lang, told)}", file=sys.stderr)
        return 1
    d = args.dir
    print(_t(args.lang, M("The club %(club)s's broker files in %(folder)s: passwords, acl, mosquitto.conf, "
                          "credentials.json (the passwords — keep it safe)", club=creds.club, folder=str(d))))
    print(_t(args.lang, M("Club board:")))
    print(f"  companion club --broker {creds.url(None, args.broker_host, args.broker_port)}")
    print(_t(args.lang, M("Tables (each writes its own topic only):")))
    for t in sorted(creds.tables):
        print(f"  {t}: companion run --club {creds.url(t, args.broker_host, args.broker_port)}")
    return 0


def run_broker(args) -> int:
    from companion.club.broker import LocalBroker
    from companion.errors import CompanionError

    try:
        broker = LocalBroker(args.dir, args.club, _tables(args.tables), port=args.broker_port, bind=args.bind).start()
    except CompanionError as exc:
        from companion.club.broker import BrokerError

        print(f"companion club broker: {exc.words(args.lang)}", file=sys.stderr)
        # mosquitto missing or not starting is a failure; a name that cannot be, the command line
        return 1 if isinstance(exc, BrokerError) else 2
    print(_t(args.lang, M("the club %(club)s's broker: mosquitto on port %(port)s (log %(log)s); the tables' "
                          "addresses: companion club acl --club %(club)s --tables %(tables)s --dir %(folder)s",
                          club=args.club, port=broker.port, log=str(broker.log_path), tables=args.tables,
                          folder=str(args.dir))))
    def terminate(signum, frame):  # systemd's stop: as Ctrl-C, the broker saves and stops
        raise KeyboardInterrupt

    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, terminate)
    try:
        import time

        while broker.running:
            time.sleep(1.0)
        print(_t(args.lang, M("mosquitto stopped; see its log")), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        if previous is not None:  # as it was (an in-process caller's own)
            signal.signal(signal.SIGTERM, previous)
        broker.stop()


def _pin(folder: Path, given: str | None) -> str:
    import secrets

    from companion.durable import write_file

    if given:
        return given
    path = folder / "board-pin"
    try:
        kept = path.read_text(encoding="ascii").strip()
        if kept.isdigit() and 4 <= len(kept) <= 12:
            return kept
    except (OSError, UnicodeDecodeError):
        pass
    pin = "".join(secrets.choice("0123456789") for _ in range(6))
    write_file(path, pin + "\n")
    return pin


def run_board(args, stop: threading.Event | None = None) -> int:
    """Serve the board until Ctrl-C, SIGTERM or ``stop``."""
    from companion.club.board import Board
    from companion.club.web import BoardServer
    from companion.dashboard import shown_url
    from companion.errors import CompanionError

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    lang = args.lang
    if not args.broker:
        print(_t(lang, M("companion club: name the broker: --broker mqtt://board:PASSWORD@HOST:1883/CLUB "
                         "(or companion club acl … for the broker's files)")), file=sys.stderr)
        return 2
    if args.pin is not None and not (args.pin.isdigit() and 4 <= len(args.pin) <= 12):
        print(_t(lang, M("companion club: the board PIN is 4-12 digits")), file=sys.stderr)
        return 2
    folder = args.data_dir or (default_data_dir() / "club")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        pin = _pin(folder, args.pin)
        board = Board(args.broker, folder)
    except CompanionError as exc:
        print(f"companion club: {exc.words(lang)}", file=sys.stderr)
        return 2
    except OSError as exc:
        from companion.commands.results import os_reason

        told = M("%(path)s: %(why)s", path=str(exc.filename or folder), why=os_reason(exc))
        print(f"companion club: {_t(lang, told)}", file=sys.stderr)
        return 1
    try:
        server = BoardServer(board, pin, args.host, args.port).start()
    except OSError as exc:
        from companion.commands.results import os_reason

        board.store.close()
        told = M("the port %(port)s is taken by another program; choose another with --port", port=args.port) \
            if exc.errno == errno.EADDRINUSE else M("cannot listen on %(host)s:%(port)s: %(why)s", host=args.host,
                                                    port=args.port, why=os_reason(exc))
        print("companion club: " + _t(lang, told), file=sys.stderr)
        return 1
    board.start()
    url = shown_url(args.host, server.port)
    for msg in (M("Club board %(club)s: %(url)s", club=board.url.club, url=url),
                M("Broker: %(broker)s", broker=board.url.shown()),
                M("Board PIN (merge names, new night): %(pin)s", pin=pin),
                M("The board's record: %(path)s", path=str(board.store.path))):
        print(_t(lang, msg), flush=True)
    try:
        import qrcode

        qr = qrcode.QRCode(border=1)
        qr.add_data(url)
        qr.print_ascii(out=sys.stdout, invert=True)
    except Exception:  # the QR code is a courtesy
        pass
    done = stop or threading.Event()
    previous = signal.getsignal(signal.SIGTERM) if threading.current_thread() is threading.main_thread() else None
    if previous is not None:
        signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        while not done.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        server.stop()
        board.stop()
        print(_t(lang, M("the board stopped")), flush=True)
    return 0
