"""``companion buttonbox-sim``: the virtual button box on a pseudo-terminal.

Runs the real firmware logic (firmware/boxfw.py) on CPython behind a pty, prints the device path
for the host (``companion run --buttons /dev/pts/N`` or ``ButtonBox(path)``), then plays presses
from a script file, from the keyboard (one command per line), or waits while Python code in
another process is connected. Commands: see ``--help-script``.
"""

from __future__ import annotations

import argparse
import sys
import time

from companion.devices.firmware import boxfw, wire
from companion.devices.virtualbox import SCRIPT_HELP, VirtualButtonBox, run_script_line
from companion.errors import CompanionError


def register(subparsers) -> None:
    """Add the ``buttonbox-sim`` subcommand."""
    p = subparsers.add_parser(
        "buttonbox-sim", help="virtual button box on a pty (real firmware logic, real protocol)",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seats", type=int, default=8, help="seat pads, 1..8 (default 8)")
    p.add_argument("--link", help="also keep this symlink pointing at the pty (a stable name, "
                                  "like /dev/buttonbox from the udev rule)")
    p.add_argument("--script", help="file of commands to play ('-' = stdin, non-interactive)")
    p.add_argument("--keyboard", action="store_true",
                   help="read commands typed on the terminal (e.g. '2y' = seat 2 presses Верю)")
    p.add_argument("--exit", action="store_true",
                   help="exit once the script is played and every press was acknowledged")
    p.add_argument("--help-script", action="store_true", help="print the command syntax and exit")
    p.set_defaults(func=run)


def run(args) -> int:
    """Run the virtual box until Ctrl-C (or the end of the script with ``--exit``)."""
    if args.help_script:
        print(SCRIPT_HELP)
        return 0
    try:
        vbox = VirtualButtonBox(seats=args.seats, link=args.link).start()
    except (ValueError, OSError) as exc:
        print(f"buttonbox-sim: {exc}", file=sys.stderr)
        return 2
    try:
        print(f"buttonbox-sim: device {vbox.device}" + (f" (link {args.link})" if args.link else "")
              + f" seats={vbox.seats} fw={boxfw.FIRMWARE_VERSION} proto={wire.PROTOCOL_VERSION}",
              flush=True)
        if args.script:
            lines = sys.stdin if args.script == "-" else open(args.script, encoding="utf-8")
            with lines:
                for lineno, line in enumerate(lines, 1):
                    try:
                        run_script_line(vbox, line, sys.stdout)
                    except CompanionError as exc:
                        print(f"buttonbox-sim: {args.script}:{lineno}: {exc}", file=sys.stderr)
                        return 2
            if args.exit:
                ok = vbox.wait_idle(10.0)
                if not ok:
                    print("buttonbox-sim: presses still unacknowledged after 10 s", file=sys.stderr)
                return 0 if ok else 1
        if args.keyboard:
            print(SCRIPT_HELP, flush=True)
            for line in sys.stdin:
                try:
                    run_script_line(vbox, line, sys.stdout)
                except CompanionError as exc:
                    print(f"  ? {exc}", flush=True)
            return 0
        last = None
        while True:  # serve a host in another process; show light changes
            states = vbox.light_states()
            if states != last:
                print("lights: " + " ".join(f"{s}={st}" for s, st in enumerate(states)), flush=True)
                last = states
            time.sleep(0.1)
    finally:
        vbox.close()
