"""The command line's language: Russian by default, English with ``--lang en`` (anywhere in the
arguments) or ``LANG=en``; one choice for the whole run, made before the parser is built.

:func:`use` also gives argparse the catalogue: argparse words its own lines («использование:»,
«ошибка», «не хватает аргументов: …») through :func:`gettext.gettext` of the default domain
``messages``, which is bound here to ``web/translations`` and told the language through
``LANGUAGE``. ``--help`` texts are message ids marked with :func:`_` at the time the parser is
built.
"""

from __future__ import annotations

import argparse
import gettext
import os
from typing import Mapping, Sequence

from companion.i18n.messages import M, MN
from companion.i18n.render import DEFAULT, LANGUAGES, catalogue_dir, render

__all__ = ["LANGUAGES", "choose", "use", "current", "_", "tell", "integer", "number"]

_current = DEFAULT


def choose(argv: Sequence[str] | None, environ: Mapping[str, str] | None = None) -> str:
    """The language of a run: ``--lang X`` / ``--lang=X`` anywhere in ``argv`` (an abbreviation
    argparse accepts, ``--lan en``, too), else ``LANG`` (or ``LC_ALL``, ``LC_MESSAGES``) when it
    is exactly a supported language without a territory (``LANG=en``; a system default such as
    ``en_GB.UTF-8`` or ``C.UTF-8`` does not count: the table speaks Russian unless asked), else
    Russian."""
    argv = list(argv or ())
    for i, arg in enumerate(argv):
        name, eq, value = str(arg).partition("=")
        if len(name) >= 3 and "--lang".startswith(name):
            value = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
            if value in LANGUAGES:
                return value
    environ = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = (environ.get(var) or "").split(".")[0]
        if value in LANGUAGES:
            return value
    return DEFAULT


def use(lang: str) -> str:
    """Make ``lang`` the language of this run's command line, argparse's own words included."""
    global _current
    _current = lang if lang in LANGUAGES else DEFAULT
    gettext.bindtextdomain("messages", str(catalogue_dir()))
    os.environ["LANGUAGE"] = _current  # argparse's gettext reads the language from here
    return _current


def current() -> str:
    """The language :func:`use` chose (Russian before any choice)."""
    return _current


def _(msgid: str) -> str:
    """A ``--help`` text (an English message id, extraction keyword ``_``) in the run's language;
    argparse's ``%(default)s`` and ``%(prog)s`` stay for it to fill."""
    return render(M(msgid), _current)


def tell(msg) -> str:
    """``msg`` (a :class:`~companion.i18n.Message`) in the run's language: a CLI line, an
    argparse ``type`` refusal."""
    return render(msg, _current)


def integer(text: str) -> int:
    """argparse ``type`` for a whole number that says what was wrong in the run's language."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(render(M("a whole number is needed, not %(value)r", value=text), _current))


def port(text: str) -> int:
    """argparse ``type`` for a TCP port (0 to 65535; 0: any free port): argparse names the flag
    («аргумент --port: …»), not the settings file's ``port``."""
    value = integer(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(render(M("a TCP port is 0 to 65535, not %(value)s", value=value), _current))
    return value


def number(text: str) -> float:
    """argparse ``type`` for a number (``1.5``), worded like :func:`integer`."""
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(render(M("a number is needed, not %(value)r", value=text), _current))


#: argparse's own words (Python 3.11's ``argparse._`` calls) for the catalogue; argparse looks
#: them up itself, through :func:`gettext.gettext`
ARGPARSE_WORDS = [
    M("usage: "), M("options"), M("positional arguments"), M("show this help message and exit"),
    M("show program's version number and exit"),
    M("argument %(argument_name)s: %(message)s"), M("%(prog)s: error: %(message)s\n"),
    M("the following arguments are required: %s"), M("one of the arguments %s is required"),
    M("unrecognized arguments: %s"), M("expected one argument"), M("expected at most one argument"),
    M("expected at least one argument"), M("not allowed with argument %s"), M("ignored explicit argument %r"),
    M("ambiguous option: %(option)s could match %(matches)s"), M("invalid %(type)s value: %(value)r"),
    M("invalid choice: %(value)r (choose from %(choices)s)"), M("can't open '%(filename)s': %(error)s"),
    M("unknown parser %(parser_name)r (choices: %(choices)s)"),
    MN("expected %s argument", "expected %s arguments", 2),
]
