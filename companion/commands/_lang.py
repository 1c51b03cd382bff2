"""The ``--lang ru|en`` option of the sub-commands (Russian by default, as ``companion run`` and the
dashboard; :mod:`companion.i18n.cli` chooses the run's language before the parser is built, so
argparse's own refusals of an unusable argument speak it too).

The option chooses the words of the lines a person reads — results, verdicts, their reasons and
error lines. ``--json`` output never changes with it: its keys and codes are for programs.
"""

from __future__ import annotations

import argparse
import gettext

from companion.i18n import cli as words
from companion.i18n.cli import _

#: the console languages (``--lang``)
CONSOLE_LANGS = words.LANGUAGES


def lang_of(argv) -> str:
    """The ``--lang`` value in ``argv`` (``--lang en``, ``--lang=en``, ``--lan en``), else the
    run's language (:func:`companion.i18n.cli.choose`)."""
    return words.choose(argv)


def add_lang_option(p: argparse.ArgumentParser) -> None:
    """Add ``--lang {ru,en}`` to the sub-parser ``p`` (default: the run's language), and have a
    stray argument refused by ``p`` itself («companion scan-note: ошибка: неизвестные аргументы:
    --bogus», exit status 2) rather than by the top-level parser."""
    p.add_argument("--lang", choices=CONSOLE_LANGS, default=words.current(),
                   help=_("language of the lines for people: ru (default, like companion run and the "
                          "dashboard) or en; --json output is the same in both"))
    refuse_stray_arguments(p)


def refuse_stray_arguments(p: argparse.ArgumentParser) -> None:
    """Have a stray argument of the sub-parser ``p`` refused by ``p`` itself, with its usage
    («companion run: ошибка: неизвестные аргументы: --players 9», exit status 2), rather than by
    the top-level parser, whose usage does not show the sub-command's options (argparse leaves
    a sub-parser's unknown arguments to the top level). Done once per parser."""
    if getattr(p, "_refuses_strays", False):
        return
    parse_known_args = p.parse_known_args

    def parse_known(args=None, namespace=None):
        ns, extras = parse_known_args(args, namespace)
        if extras:  # said by the sub-command, as the other refusals of its arguments
            p.error(gettext.gettext("unrecognized arguments: %s") % " ".join(extras))  # argparse's own words
        return ns, extras

    # an instance's own method, on purpose: argparse calls it for this sub-parser only
    p.parse_known_args = parse_known  # type: ignore[method-assign]
    p._refuses_strays = True  # type: ignore[attr-defined]
