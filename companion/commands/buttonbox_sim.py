"""``companion buttonbox-sim``: the virtual button box on a pseudo-terminal
(and ``companion buttonbox-monitor``: watch a real or virtual box from the host side).

Runs the real firmware logic (firmware/boxfw.py) on CPython behind a pty, prints the device path
for the host (``companion run --buttons /dev/pts/N`` or ``ButtonBox(path)``), then plays presses
from a script file, from the keyboard (one command per line), or waits while Python code in
another process is connected. Commands: see ``--help-script``.

Every seat number this command prints or reads is the one on the pad and on the dashboard (1..N);
only the Python API (``VirtualButtonBox.press``, ``ButtonEvent.seat``) counts seats from 0. Both
commands speak the run's language (``--lang``, Russian by default), like the other commands; the
protocol's words (button and event names, light states, ``seats=``/``fw=``/``proto=`` of the first
line) stay as they are.
"""

from __future__ import annotations

import sys
import time

from companion.commands._lang import add_lang_option
from companion.devices.firmware import boxfw, wire
from companion.devices.virtualbox import SCRIPT_HELP, VirtualButtonBox, light_line, run_script_line
from companion.errors import CompanionError
from companion.i18n import M, N_, render
from companion.i18n import cli as words
from companion.i18n.cli import _


def _say(lang: str, msgid: str, **facts) -> str:
    """A line of these commands (a message id) in the run's language (``--lang``)."""
    return render(M(msgid, **facts), lang)


def _error(exc: Exception, lang: str) -> str:
    """An error's words in ``lang`` (:meth:`CompanionError.words`; the system's own for others)."""
    return exc.words(lang) if isinstance(exc, CompanionError) else str(exc)


def register(subparsers) -> None:
    """Add the ``buttonbox-sim`` subcommand."""
    p = subparsers.add_parser(
        "buttonbox-sim", help=_("virtual button box on a pty (real firmware logic, real protocol)"),
        description=_("The virtual button box on a pseudo-terminal: the real firmware logic behind a pty. It prints the device path for the host (companion run --buttons /dev/pts/N), then plays presses from a script file or the keyboard. Seat numbers are the ones on the pads and the dashboard (1..N); commands: --help-script."))
    p.add_argument("--seats", type=words.integer, default=8, help=_("seat pads, 1..8 (default 8)"))
    p.add_argument("--link", help=_("also keep this symlink pointing at the pty (a stable name, "
                                  "like /dev/buttonbox from the udev rule)"))
    p.add_argument("--script", help=_("file of commands to play ('-' = stdin, non-interactive)"))
    p.add_argument("--keyboard", action="store_true",
                   help=_("keystrokes press buttons (on a terminal: '3' then 'y' = seat 3 presses "
                        "Верю); from a pipe: one script command per line"))
    p.add_argument("--exit", action="store_true",
                   help=_("exit once the script is played and every press was acknowledged"))
    p.add_argument("--help-script", action="store_true", help=_("print the command syntax and exit"))
    add_lang_option(p)
    p.set_defaults(func=run)

    m = subparsers.add_parser(
        "buttonbox-monitor", help=_("print a button box's hello, status and events (bring-up check)"),
        description=_("Open the box like Table Companion does, print its hello line, every event and "
                    "status changes. Exit status 1 if the box never says hello."))
    m.add_argument("port", nargs="?", default=None,
                   help=_("device path or pyserial URL (default /dev/buttonbox, else a virtual box)"))
    m.add_argument("--seconds", type=words.number, default=0, help=_("stop after this long (0 = Ctrl-C)"))
    m.add_argument("--light", action="append", default=[], metavar=_("SEAT=STATE"),
                   help=_("set a seat light first, e.g. --light 2=blink (seat 2 as on the pad and "
                        "the dashboard; off, on, blink, fast)"))
    add_lang_option(m)
    m.set_defaults(func=monitor)


def monitor(args) -> int:
    """Print the box's status and events until Ctrl-C or ``--seconds``."""
    from companion.devices.buttonbox import open_button_box

    lang = getattr(args, "lang", "ru")
    box = open_button_box(args.port)
    try:
        print(_say(lang, N_("buttonbox-monitor: %(url)s (virtual box)") if box.virtual else N_("buttonbox-monitor: %(url)s"),
                   url=box.url), flush=True)
        if not box.wait_connected(5.0):
            error = box.status.last_error  # the driver's (the system's) own words
            print(_say(lang, N_("buttonbox-monitor: no hello from %(url)s within 5 s: %(error)s"), url=box.url,
                       error=error if error else M("no data")), file=sys.stderr)
            return 1
        st = box.status
        print(_say(lang, N_("hello: firmware %(firmware)s, protocol %(protocol)s, seats %(seats)s, boot %(boot)s"),
                   firmware=st.firmware, protocol=st.protocol, seats=st.seats, boot=f"{st.boot_id:04x}"), flush=True)
        for spec in args.light:
            seat, _eq, state = spec.partition("=")
            try:
                n = int(seat)
            except ValueError:
                n = 0
            try:
                if n < 1:
                    raise CompanionError(M("seats are numbered from 1, as on the pads and the dashboard"))
                box.set_light(n - 1, state)
            except (ValueError, CompanionError) as exc:
                print(_say(lang, N_("buttonbox-monitor: --light %(spec)s: %(why)s"), spec=spec, why=_error(exc, lang)),
                      file=sys.stderr)
                return 2
        deadline = time.monotonic() + args.seconds if args.seconds else None
        last = None
        while deadline is None or time.monotonic() < deadline:
            ev = box.get_event(timeout=0.2)
            if ev is not None:  # the button and the event are the protocol's words
                print(_say(lang, N_("seat %(seat)s %(button)s %(kind)s seq %(seq)s t %(t)s ms"), seat=ev.seat + 1,
                           button=ev.button, kind=ev.kind, seq=ev.seq, t=ev.t_ms), flush=True)
            st = box.status
            summary = (st.connected, st.alive, st.duplicates, st.lost, st.frame_errors, st.last_error)
            if summary != last:
                line = _say(lang, N_("status: connected=%(connected)s alive=%(alive)s events=%(events)s "
                            "duplicates=%(duplicates)s lost=%(lost)s frame_errors=%(frame_errors)s"),
                            connected=_yes_no(st.connected, lang), alive=_yes_no(st.alive, lang), events=st.events,
                            duplicates=st.duplicates, lost=st.lost, frame_errors=st.frame_errors)
                if st.last_error:
                    line += " " + _say(lang, N_("last_error=%(error)s"), error=st.last_error)
                print(line, flush=True)
                last = summary
        return 0
    finally:
        box.close()


KEY_HELP = N_("""\
keys: 1-8 choose the seat (its pad); y = Верю, n = Не верю, + = plus, o = OK;
      h then a button key = hold it; u = unplug / plug the cable; l = show lights; q = quit""")


def _yes_no(value: bool, lang: str) -> str:
    return _say(lang, N_("yes")) if value else _say(lang, N_("no"))
KEYS = {"y": "yes", "n": "no", "+": "plus", "=": "plus", "o": "ok"}


def keyboard(vbox: VirtualButtonBox, fd: int, lang: str = "ru") -> int:
    """Single keystrokes on a terminal (cbreak mode) press the virtual box's buttons."""
    import os
    import termios
    import tty

    old = termios.tcgetattr(fd)
    tty.setcbreak(fd, termios.TCSANOW)  # keys typed before this point are kept, not flushed
    seat, hold = 0, False
    print(_say(lang, KEY_HELP), flush=True)
    print(_say(lang, N_("seat %(seat)s"), seat=1), flush=True)
    try:
        while True:
            ch = os.read(fd, 1).decode("utf-8", "ignore")
            if not ch or ch in ("q", "\x04"):
                return 0
            if ch.isdigit() and 1 <= int(ch) <= vbox.seats:
                seat = int(ch) - 1
                print(_say(lang, N_("seat %(seat)s"), seat=ch), flush=True)
            elif ch in KEYS:
                (vbox.hold if hold else vbox.press)(seat, KEYS[ch])
                told = N_("seat %(seat)s: hold %(button)s") if hold else N_("seat %(seat)s: press %(button)s")
                print(_say(lang, told, seat=seat + 1, button=KEYS[ch]), flush=True)
                hold = False
            elif ch == "h":
                hold = True
            elif ch == "u":
                if vbox.device is None:
                    vbox.plug()
                    print(_say(lang, N_("plugged: %(device)s"), device=vbox.device), flush=True)
                else:
                    vbox.unplug()
                    print(_say(lang, N_("unplugged")), flush=True)
            elif ch == "l":
                print(light_line(vbox.light_states(), lang), flush=True)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def run(args) -> int:
    """Run the virtual box until Ctrl-C (or the end of the script with ``--exit``)."""
    lang = getattr(args, "lang", "ru")
    if args.help_script:
        print(_say(lang, SCRIPT_HELP))
        return 0
    try:
        vbox = VirtualButtonBox(seats=args.seats, link=args.link).start()
    except (ValueError, OSError) as exc:
        print(_say(lang, N_("buttonbox-sim: %(why)s"), why=_error(exc, lang)), file=sys.stderr)
        return 2
    try:
        # the first line's device=, seats=, fw=, proto= are for scripts: the same in both languages
        told = N_("buttonbox-sim: device %(device)s (link %(link)s) seats=%(seats)s fw=%(fw)s proto=%(proto)s") \
            if args.link else N_("buttonbox-sim: device %(device)s seats=%(seats)s fw=%(fw)s proto=%(proto)s")
        print(_say(lang, told, device=vbox.device, link=args.link, seats=vbox.seats, fw=boxfw.FIRMWARE_VERSION,
                   proto=wire.PROTOCOL_VERSION), flush=True)
        if args.script:
            lines = sys.stdin if args.script == "-" else open(args.script, encoding="utf-8")
            with lines:
                for lineno, line in enumerate(lines, 1):
                    try:
                        run_script_line(vbox, line, sys.stdout, lang)
                    except CompanionError as exc:
                        print(_say(lang, N_("buttonbox-sim: %(script)s:%(line)s: %(why)s"), script=args.script,
                                   line=lineno, why=exc.words(lang)), file=sys.stderr)
                        return 2
            if args.exit:
                ok = vbox.wait_idle(10.0)
                if not ok:
                    print(_say(lang, N_("buttonbox-sim: presses still unacknowledged after 10 s")), file=sys.stderr)
                return 0 if ok else 1
        if args.keyboard:
            if sys.stdin.isatty():
                return keyboard(vbox, sys.stdin.fileno(), lang)
            print(_say(lang, SCRIPT_HELP), flush=True)
            for line in sys.stdin:
                try:
                    run_script_line(vbox, line, sys.stdout, lang)
                except CompanionError as exc:
                    print(f"  ? {exc.words(lang)}", flush=True)
            return 0
        last = None
        while True:  # serve a host in another process; show light changes
            states = vbox.light_states()
            if states != last:
                print(light_line(states, lang), flush=True)
                last = states
            time.sleep(0.1)
    finally:
        vbox.close()
