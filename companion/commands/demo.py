"""``companion demo`` — replay the bundled complete skull game and tell it in words.

Not ``make demo`` (which runs ``companion run``, a live game on the simulated table): this command
replays ``companion/examples/skull-game.jsonl`` (package data) through the real engine, prints every public
event in words (Russian by default, ``--lang en`` for English) and the result: winner, bank serials
and face value.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources

from companion.errors import CompanionError, IllegalAction
from companion.games import new_game
from companion.games.words import money
from companion.log import read_jsonl
from companion.i18n import M, render
from companion.i18n import cli as words
from companion.i18n.cli import _

EXAMPLE = "skull-game.jsonl"


def example_path():
    """The bundled example log (a Traversable; ``open()`` it)."""
    return resources.files("companion") / "examples" / EXAMPLE


def tell(log_text_io, lang: str = "ru", out=None) -> int:
    """Replay a skull JSONL log, printing each public event in words; returns the exit status."""
    from companion.games.skull import describe_event

    out = out or sys.stdout
    header, records, errors = read_jsonl(log_text_io)
    game = new_game(header.game, header.seats, header.options)
    print(render(M("Skull and roses (banknotes): %(seats)s", seats=", ".join(header.seats)), lang), file=out)
    for rec in records:
        try:
            events = game.apply(rec.action)
        except IllegalAction as exc:
            print(render(M("  [line %(line)s rejected: %(reason)s]", line=rec.line, reason=exc.reason), lang), file=out)
            continue
        for ev in events:
            line = render(describe_event(ev, game.seats), lang)
            if line:
                print(line, file=out)
    for e in errors:
        print(render(M("  [line %(line)s rejected: %(reason)s]", line=e.line, reason=e.reason), lang), file=out)
    res = game.result()
    if res is None:
        print(render(M("The game is not finished"), lang), file=out)
        return 1
    # the bank's money as every screen writes it («4 500 ₽»; companion.games.words.money)
    value = " = " + money(res["face_value"], res["currency"])[lang] if res["face_value"] is not None else ""
    print(render(M("Result: winner %(winner)s", winner=str(res["winner_name"])), lang), file=out)
    print(render(M("Bank: %(bank)s", bank=f"{len(res['bank'])} ({', '.join(res['bank'])}){value}"), lang), file=out)
    print(render(M("Rounds: %(n)s", n=res["rounds"]), lang), file=out)
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        fh = example_path().open("r", encoding="utf-8")
    except OSError as exc:  # the bundled game is missing: the work failed (README, "Exit status")
        from companion.commands.results import os_reason

        print("companion demo: " + render(M("cannot read the bundled game %(path)s: %(why)s", path=str(exc.filename),
                                            why=os_reason(exc)), args.lang), file=sys.stderr)
        return 1
    # a closed reader of the story (``companion demo | head``) is companion.cli's BrokenPipeError
    try:
        with fh:
            return tell(fh, args.lang)
    except CompanionError as exc:
        print(f"companion demo: {exc.words(args.lang)}", file=sys.stderr)
        return 1


def register(subparsers) -> None:
    p = subparsers.add_parser("demo", help=_("replay a bundled complete skull game and print it"),
                              description=_("Replay the bundled complete skull game and tell it in words."))
    p.add_argument("--lang", choices=("ru", "en"), default=words.current(), help=_("language of the story (default ru)"))
    p.set_defaults(func=run)
