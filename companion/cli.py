"""``companion`` — the command-line entry point.

Each subcommand lives in its own module under :mod:`companion.commands` and exposes
``register(subparsers)``, which adds an ``argparse`` sub-parser whose ``func`` default is called
with the parsed arguments and returns the exit status.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import companion
import companion.commands
from companion.i18n import cli as words
from companion.i18n.cli import _


def build_parser() -> argparse.ArgumentParser:
    """The full ``companion`` argument parser with every installed subcommand, its words in the
    language :func:`companion.i18n.cli.use` chose."""
    parser = argparse.ArgumentParser(
        prog="companion",
        description=_("Table Companion: a card-table referee (Raspberry Pi or simulated table)."),
    )
    parser.add_argument("--version", action="version", version=f"companion {companion.__version__}",
                        help=_("show the version and exit"))
    parser.add_argument("--lang", choices=words.LANGUAGES, default=words.current(),
                        help=_("language of the lines for people: ru (default) or en; LANG=en does the same"))
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"), title=_("commands"))
    for info in sorted(pkgutil.iter_modules(companion.commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"companion.commands.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``companion`` with ``argv``; returns the exit status (0 ok, 2 unusable arguments)."""
    words.use(words.choose(sys.argv[1:] if argv is None else argv))
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
