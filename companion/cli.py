"""``companion`` — the command-line entry point.

Each subcommand lives in its own module under :mod:`companion.commands` and exposes
``register(subparsers)``, which adds an ``argparse`` sub-parser whose ``func`` default is called
with the parsed arguments and returns the exit status. This module imports nothing heavy at its
top: the parser (:mod:`companion.cliparser`) and the words are imported inside :func:`main`, where
a Ctrl-C is already said in one line (an import under way at Ctrl-C used to end in a traceback).
"""

from __future__ import annotations

import sys


def build_parser():
    """The full ``companion`` argument parser (:func:`companion.cliparser.build_parser`)."""
    from companion.cliparser import build_parser as build

    return build()


def main(argv: list[str] | None = None) -> int:
    """Run ``companion`` with ``argv``; returns the exit status (0 ok, 2 unusable arguments,
    130 Ctrl-C — but for ``companion run`` serving a table, whose Ctrl-C is its way to stop: 0)."""
    given = sys.argv[1:] if argv is None else list(argv)
    try:
        from companion.i18n import cli as words

        words.use(words.choose(given))
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return int(args.func(args) or 0)
    except KeyboardInterrupt:  # before a command took Ctrl-C over (the parser's imports take a while)
        return _interrupted(given)
    except BrokenPipeError:
        return 0


def _interrupted(argv: list[str]) -> int:
    """Ctrl-C that reached the command line itself: said in one line; for ``companion run``
    the status its own Ctrl-C would give (:func:`companion.commands.run.stopped_before_start`)."""
    import argparse

    from companion.commands.run import stopped_before_start
    from companion.i18n import M
    from companion.i18n import cli as words

    words_only = [a for i, a in enumerate(argv) if not a.startswith("-") and (i == 0 or argv[i - 1] != "--lang")]
    if words_only[:1] == ["run"]:
        return stopped_before_start(argparse.Namespace(lang=words.current(), json="--json" in argv,
                                                       until_end="--until-end" in argv))
    print(words.tell(M("stopped (Ctrl-C)")), file=sys.stderr)
    return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
