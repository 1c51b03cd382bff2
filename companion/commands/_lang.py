"""The console language of the operator's tools ``companion scan-note``, ``scan-card`` and
``doctor``: ``--lang ru|en``, Russian by default, as ``companion run`` / ``demo`` / ``dashboard``
(:data:`companion.commands.run.CONSOLE_LANGS`).

The option chooses the words of the lines a person reads — results, verdicts, their reasons and
error lines, including argparse's own refusals of an unusable argument (:func:`add_lang_option`
words them in Russian). ``--json`` output never changes with it: its keys and codes are for
programs.
"""

from __future__ import annotations

import argparse
import re
import sys

from companion.commands.run import CONSOLE_LANGS

#: argparse's refusals (Python 3.11's messages, ``argparse._``) in Russian: ``(pattern,
#: replacement)`` tried in order on the message; a message no pattern fits is printed as it is.
ARGPARSE_RU: tuple[tuple[str, str], ...] = (
    (r"^argument (\S+): (.*)$", r"аргумент \1: \2"),
    (r"invalid choice: (.*) \(choose from (.*)\)$", r"недопустимое значение \1 (можно: \2)"),
    (r"invalid int value: (.*)$", r"нужно целое число, а задано \1"),
    (r"invalid float value: (.*)$", r"нужно число, а задано \1"),
    (r"invalid \S+ value: (.*)$", r"недопустимое значение \1"),
    (r"^the following arguments are required: (.*)$", r"не хватает аргументов: \1"),
    (r"^one of the arguments (.*) is required$", r"нужен один из аргументов: \1"),
    (r"^unrecognized arguments: (.*)$", r"неизвестные аргументы: \1"),
    (r"expected one argument$", "нужно значение"),
    (r"expected at least one argument$", "нужно хотя бы одно значение"),
    (r"expected at most one argument$", "нужно не больше одного значения"),
    (r"not allowed with argument (.*)$", r"нельзя вместе с аргументом \1"),
    (r"ignored explicit argument (.*)$", r"лишнее значение \1"),
    (r"^ambiguous option: (\S+) could match (.*)$", r"неоднозначный аргумент \1: подходят \2"),
)


def argparse_words(message: str, lang: str = "ru") -> str:
    """An argparse refusal ``message`` (English) in ``lang``: every :data:`ARGPARSE_RU` pattern
    that fits is applied in turn (the ``argument X:`` prefix and its reason separately)."""
    if lang != "ru":
        return message
    for pattern, ru in ARGPARSE_RU:
        message = re.sub(pattern, ru, message)
    return message


def lang_of(argv) -> str:
    """The ``--lang`` value in a sub-command's arguments (``--lang en``, ``--lang=en``, or an
    abbreviation argparse accepts, ``--lan en``), else ``"ru"``, the default."""
    argv = list(argv or ())
    for i, arg in enumerate(argv):
        name, eq, value = str(arg).partition("=")
        if len(name) >= 3 and "--lang".startswith(name):
            value = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
            if value in CONSOLE_LANGS:
                return value
    return "ru"


def add_lang_option(p: argparse.ArgumentParser) -> None:
    """Add ``--lang {ru,en}`` (default ``ru``) to the sub-parser ``p`` and make its refusals of an
    unusable argument (an unknown currency, a missing IMAGE, a stray argument) speak the same
    language: ``companion scan-note: ошибка: аргумент --currency: недопустимое значение …`` after
    the usage line, exit status 2, as argparse does."""
    p.add_argument("--lang", choices=CONSOLE_LANGS, default="ru",
                   help="language of the lines for people: ru (default, like companion run and the "
                        "dashboard) or en; --json output is the same in both")
    parse_known_args = p.parse_known_args
    told: dict[str, str] = {}

    def parse_known(args=None, namespace=None):
        told["lang"] = lang_of(sys.argv[1:] if args is None else args)
        ns, extras = parse_known_args(args, namespace)
        if extras:  # said here, in the sub-command's language, not by the top-level parser
            p.error("unrecognized arguments: " + " ".join(extras))
        return ns, extras

    def error(message: str):
        lang = told.get("lang", "ru")
        p.print_usage(sys.stderr)
        word = "ошибка" if lang == "ru" else "error"
        p.exit(2, f"{p.prog}: {word}: {argparse_words(message, lang)}\n")

    p.parse_known_args = parse_known
    p.error = error
