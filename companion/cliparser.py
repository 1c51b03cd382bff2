"""The ``companion`` argument parser: every installed subcommand's (:mod:`companion.commands`), its
words in the run's language (:func:`companion.i18n.cli.use`). Built by :func:`companion.cli.main`
once the command line is read; kept apart so that starting the program imports almost nothing
before its Ctrl-C handling is in place (:mod:`companion.cli`).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re

import companion
import companion.commands
from companion.i18n import cli as words
from companion.i18n import N_
from companion.i18n.cli import _

#: the metavar argparse would make of an option's name (``--data-dir`` → ``DATA_DIR``, a
#: positional's own name) → its message id: the help shows the placeholder in the run's language
METAVARS = {
    "GAME": N_("GAME"), "SEED": N_("SEED"), "SEATS": N_("SEATS"), "DATA_DIR": N_("DATA_DIR"), "HOST": N_("HOST"),
    "PORT": N_("PORT"), "PIN": N_("PIN"), "PACE_MS": N_("PACE_MS"), "CAMERA": N_("CAMERA"),
    "BUTTONS": N_("BUTTONS"), "LIGHTS": N_("LIGHTS"), "LINK": N_("LINK"), "SCRIPT": N_("SCRIPT"),
    "SECONDS": N_("SECONDS"), "CLUB": N_("CLUB"), "TABLES": N_("TABLES"), "DIR": N_("DIR"),
    "BROKER_HOST": N_("BROKER_HOST"), "BROKER_PORT": N_("BROKER_PORT"), "BIND": N_("BIND"), "ROOT": N_("ROOT"),
    "LABELS": N_("LABELS"), "TIMEOUT": N_("TIMEOUT"), "VOLUME": N_("VOLUME"), "PACE": N_("PACE"),
    "DECK": N_("DECK"),
}


def _own_metavars(parser: argparse.ArgumentParser) -> None:
    """Give every option and positional of ``parser`` and its sub-parsers that has no metavar of
    its own the run's word for the one argparse would make (:data:`METAVARS`)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _own_metavars(sub)
            continue
        if action.metavar is not None or action.choices or action.nargs == 0:
            continue
        name = action.dest.upper()
        if name in METAVARS:
            action.metavar = _(METAVARS[name])


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
    _own_metavars(parser)
    _strict_subparsers(parser)
    return parser


def _strict_subparsers(parser: argparse.ArgumentParser) -> None:
    """Every sub-parser of ``parser`` (and theirs) refuses its own unknown arguments with its own
    usage (:func:`companion.commands._lang.refuse_stray_arguments`): ``companion run --players 9``
    is told ``run``'s usage, not the top level's."""
    from companion.commands._lang import refuse_stray_arguments

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                refuse_stray_arguments(sub)
                _strict_subparsers(sub)


def seat_names(text: str) -> list[str]:
    """``--seats`` as typed: the names, stripped, separated by commas or semicolons
    (``"Аня;Борис; Вика"`` → ``["Аня", "Борис", "Вика"]``; an empty one stays, for its refusal)."""
    return [s.strip() for s in re.split(r"[,;]", text)]


def game_arg(text: str) -> str:
    """argparse ``type`` of ``--game``: the id of the game typed by its id in any case or by its
    title (:func:`companion.games.registry.game_id_of`: ``Skull``, ``череп``), else the text as
    typed, which the command refuses naming the games."""
    from companion.games.registry import game_id_of

    return game_id_of(text) or text
