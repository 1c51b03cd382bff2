"""``companion replay LOG [--json]`` — replay a table log through its engine and summarise it.

``LOG`` is a JSON Lines table log (``docs/table-log.md``) or a SQLite table log. Every line is
applied in order; a malformed or illegal line is rejected with its reason code and replay goes on
(issue 2 part 5). With ``--json`` one object is printed::

    {"game", "over", "winner", "rounds", "bank": [serials],
     "seats": [{"name", "notes": [serials], "out": bool}], "rejected": [{"line", "reason"}]}

That is the exact shape for ``skull`` (from ``SkullGame.replay_summary()``). Games without a
``replay_summary`` get the generic shape ``{"game", "over", "winner", "rounds", "result",
"seats": [{"name"}], "rejected"}`` built from ``result()`` and ``snapshot()``. An unfinished game
whose SQLite log says the table let go of it adds ``"stopped": {"how", "at", "by"}`` — ``ended``
by the operator («Завершить игру»), ``replaced`` by another game the operator started or resumed
(``by``: its log), or left by a start with ``--new`` (:func:`companion.table.store.stop_notes`).

The text report words how far the game went and each seat's standing through the game's
presenter (``progress``, ``seat_line``: its rounds, deals or draws; chips, cards or points), or
gives the game's own audit lines instead of the seat lines (``GameSpec.replay_lines``: skull's
bank, its worth so far and each seat's notes).

A SQLite log holds only the actions the table accepted, numbered by ``seq`` without gaps: a row
its game refuses or a missing ``seq`` means the file was changed after the table wrote it. The
report then says first that the log is damaged, naming the missing numbers (rows are *records*
there, not lines), and ``--json`` keeps its shape and says it on stderr.

Exit status: 0 when the log was replayed (a JSON Lines log even with rejected lines), 1 when the
file is missing, unreadable, its header is unusable, or a SQLite log is damaged (with ``--json`` the error is one JSON object on stdout:
``{"log", "error", "reason"}``, :func:`error_json`); 2 for an unusable command line (argparse).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.errors import CompanionError, LogError
from companion.log import ReplayResult, TableLog, read_jsonl, replay
from companion.commands._lang import add_lang_option
from companion.i18n import M, MN, N_, Message, aside, render
from companion.i18n.cli import _

SQLITE_MAGIC = b"SQLite format 3\x00"


def load_and_replay(path: str | Path) -> ReplayResult:
    """Read a JSONL or SQLite table log and replay it (:func:`load_log`, without the table's notes).

    Raises:
        LogError: missing or unreadable file, bad header.
        IllegalAction: the header names an unknown game, bad seats or options.
    """
    return load_log(path)[0]


def load_log(path: str | Path) -> tuple[ReplayResult, dict | None]:
    """Read a JSONL or SQLite table log and replay it, opening it once: the replay (a SQLite log's
    with its records' seq numbers, :attr:`ReplayResult.seqs`) and how a SQLite log says its game
    stopped being played (:func:`companion.table.store.stop_notes`; ``None``: no such note, or a
    JSON Lines log).

    Raises:
        LogError: missing or unreadable file, bad header.
        IllegalAction: the header names an unknown game, bad seats or options.
    """
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
    except FileNotFoundError:
        raise LogError(M("cannot read %(path)s: no such file", path=str(path))) from None
    except IsADirectoryError:
        raise LogError(M("cannot read %(path)s: it is a folder, not a table log", path=str(path))) from None
    except OSError as exc:
        raise LogError(M("cannot read %(path)s: %(why)s", path=str(path), why=exc.strerror or str(exc))) from None
    if head == SQLITE_MAGIC:
        from companion.table.store import stop_notes

        with TableLog.open(path, readonly=True) as log:  # an audit changes nothing
            # one read: the records' seq numbers come with the result (missing ones: rows deleted)
            return replay(log.header, log.records(), numbered=True), stop_notes(log)
    header, records, errors = read_jsonl(path)
    return replay(header, records, errors), None


def summary(res: ReplayResult, stopped: dict | None = None) -> dict:
    """The ``--json`` object for a replay result (see the module docstring); ``stopped``: how
    the log says an unfinished game stopped (:func:`load_log`)."""
    out = _summary(res)
    if stopped is not None and not out.get("over"):
        out["stopped"] = stopped
    return out


def _summary(res: ReplayResult) -> dict:
    game = res.game
    rejected = [{"line": r.line, "reason": r.reason} for r in res.rejected]
    own = getattr(game, "replay_summary", None)
    if callable(own):
        out = dict(own())
        out["rejected"] = rejected
        return out
    result = game.result() if game.is_over() else None
    snap = game.snapshot()
    winner = (result or {}).get("winner", snap.get("winner"))
    if isinstance(winner, int) and not isinstance(winner, bool) and 0 <= winner < len(game.seats):
        winner = game.seats[winner]
    rounds = (result or {}).get("rounds", snap.get("rounds", snap.get("round")))
    return {
        "game": game.GAME_ID,
        "over": game.is_over(),
        "winner": winner,
        "rounds": rounds,
        "result": result,
        "seats": [{"name": n} for n in game.seats],
        "rejected": rejected,
    }


def missing_seqs(seqs: list[int]) -> list[int]:
    """The ``seq`` numbers a SQLite table log lacks between 1 and its last row (rows deleted)."""
    return sorted(set(range(1, max(seqs) + 1)) - set(seqs)) if seqs else []


def _spans(numbers: list[int]) -> str:
    """``[5, 9, 10, 11]`` → ``"5, 9–11"``."""
    out: list[str] = []
    for n in numbers:
        if out and int(out[-1].rsplit("–", 1)[-1]) == n - 1:
            out[-1] = f"{out[-1].split('–')[0]}–{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def damage_words(res: ReplayResult, missing: list[int]) -> Message | None:
    """Why a SQLite table log is damaged, or ``None`` when it is whole: the table writes a row only
    for an accepted action, numbered without a gap, so a row its game refuses or a missing number
    means the file was changed after the table wrote it."""
    if not missing and not res.rejected:
        return None
    parts: list = []
    if missing:
        parts.append(MN("record %(seqs)s is missing", "records %(seqs)s are missing", len(missing),
                        seqs=_spans(missing)))
    if res.rejected:
        parts.append(MN("%(n)s record is refused by the game", "%(n)s records are refused by the game",
                        len(res.rejected)))
    return M("the table log is damaged (%(what)s): the table writes only accepted actions, numbered without gaps, "
             "so this report is not the game as it was played", what=M("%(a)s; %(b)s", a=parts[0], b=parts[1])
             if len(parts) == 2 else parts[0])


def report(res: ReplayResult, s: dict, sqlite: bool = False, missing: list[int] | None = None) -> list:
    """A human summary of a replay, one message per line (names and serials as logged). A SQLite
    log (``sqlite``) counts its rows as records, and says first when it is damaged (``missing``
    rows, or rows the game refuses: :func:`damage_words`)."""
    from companion.games import registry

    spec = registry.find(s["game"])
    names = [x["name"] for x in s["seats"]]
    try:
        view = res.game.view(None)  # the public view: what the presenter words
    except Exception:  # words are a nicety: the generic lines are printed instead
        view = {}
    progress = _said(lambda: spec.presenter.progress(view)) if spec is not None else None
    damaged = damage_words(res, missing or []) if sqlite else None
    lines: list = [damaged] if damaged is not None else []
    lines += [M("game: %(game)s  seats: %(seats)s", game=s["game"], seats=", ".join(names)),
                   MN("applied %(n)s action(s); %(progress)s", "applied %(n)s action(s); %(progress)s",
                      len(res.applied), progress=progress or M("rounds: %(rounds)s", rounds=s.get("rounds")))]
    lines.append(M("over: yes") if s["over"] else _not_over(s.get("stopped")))
    if s["over"]:
        lines.append(M("winner: %(winner)s", winner=s["winner"]) if s["winner"] is not None else M("winner: none"))
    if s.get("loser") is not None:  # «Верю — не верю»: the last one holding cards loses (seed 001)
        lines.append(M("loser: %(loser)s", loser=s["loser"]))
    if spec is not None and spec.replay_lines is not None:
        lines += spec.replay_lines(res.game)  # the game's own audit (skull: the bank, each seat's notes)
    else:
        for i, seat in enumerate(s["seats"]):
            told = _said(lambda: spec.presenter.seat_line(view, i, names)) if spec is not None else None
            if told:
                lines.append(M("  %(name)s: %(standing)s", name=seat["name"], standing=told))
    if res.rejected and sqlite:  # a SQLite log has rows (records, numbered by seq), not lines
        lines.append(MN("rejected %(n)s record(s):", "rejected %(n)s record(s):", len(res.rejected)))
        for r in res.rejected:
            lines.append(M("  record %(seq)s: %(why)s%(action)s", seq=r.line, why=_rejected_words(r, s["game"]),
                           action=f"  [{r.action}]" if r.action else ""))
    elif res.rejected:
        lines.append(MN("rejected %(n)s line(s):", "rejected %(n)s line(s):", len(res.rejected)))
        for r in res.rejected:
            lines.append(M("  line %(line)s: %(why)s%(action)s", line=r.line, why=_rejected_words(r, s["game"]),
                           action=f"  [{r.action}]" if r.action else ""))
    return lines


def _said(words):
    """What a presenter hook says (``None`` when it says nothing or fails: words are a nicety)."""
    try:
        return words() or None
    except Exception:
        return None


def _not_over(stopped: dict | None) -> Message:
    """The «over: no» line: still resumable as it is, or how its log says the table let it go."""
    if not stopped:
        return M("over: no (the game is still in progress)")
    at = str(stopped.get("at") or "")[:19].replace("T", " ")
    if stopped.get("how") == "ended":
        return M("over: no — the operator ended it (%(at)s UTC)", at=at)
    if stopped.get("how") == "new":
        return M("over: no — a start with --new set it aside (%(at)s UTC); --resume brings it back", at=at)
    return M("over: no — the operator started another game in its place (%(by)s, %(at)s UTC); --resume brings it "
             "back", by=stopped.get("by") or "?", at=at)


#: a log line that is not a record, in words (``LineError`` codes of :func:`companion.log.read_jsonl`)
LINE_WORDS = {"bad_line": N_("the line is not a table-log record (not JSON, or not an action)")}


def _rejected_words(r, game_id: str):
    """A rejected line's reason in words (the engine's English detail in English; in Russian the
    table's sentence for its reason code)."""
    from companion.dashboard.reasons import reason_words

    words = M(LINE_WORDS[r.reason]) if r.reason in LINE_WORDS else reason_words(r.reason, game_id)
    return aside(f"{r.reason}: {r.detail}", words)


def format_text(res: ReplayResult, s: dict, lang: str = "ru", sqlite: bool = False,
                missing: list[int] | None = None) -> str:
    """:func:`report` in ``lang`` (Russian by default), one line each."""
    return "\n".join(render(line, lang) for line in report(res, s, sqlite, missing))


def error_json(path: str, exc: CompanionError) -> dict:
    """The ``--json`` object of a log that could not be replayed: ``{"log", "error", "reason"}``,
    ``error`` one of ``no_such_file``, ``folder``, ``unreadable_log`` (the file is there but is not
    a table log, or its header is unusable), ``reason`` the English words."""
    p = Path(path)
    code = "no_such_file" if not p.exists() else "folder" if p.is_dir() else "unreadable_log"
    return {"log": str(path), "error": code, "reason": exc.words("en")}


def run(args: argparse.Namespace) -> int:
    lang = getattr(args, "lang", "ru")
    try:
        res, stopped = load_log(args.log)
    except CompanionError as exc:
        if args.json:  # a program reads stdout: one JSON object, as for a replayed log
            print(json.dumps(error_json(args.log, exc), ensure_ascii=False))
        else:
            from companion.commands.results import error_words

            # a game the header names that is not installed: the words `run --game` gives it
            print(f"companion replay: {error_words(exc, lang)}", file=sys.stderr)
        return 1
    s = summary(res, stopped)
    sqlite = res.seqs is not None  # a SQLite log: its records are numbered by the table
    missing = missing_seqs(res.seqs or [])
    damaged = damage_words(res, missing) if sqlite else None
    if args.json:
        print(json.dumps(s, ensure_ascii=False))  # the shape stays; the damage is said on stderr
        if damaged is not None:
            print(f"companion replay: {render(damaged, lang)}", file=sys.stderr)
    else:
        print(format_text(res, s, lang, sqlite=sqlite, missing=missing))
    return 1 if damaged is not None else 0  # a damaged log: the work could not be done (README)


def register(subparsers) -> None:
    p = subparsers.add_parser("replay", help=_("replay a table log and print a summary"),
                              description=_("Replay a table log through its engine and print a summary."))
    p.add_argument("log", metavar=_("LOG"), help=_("table log: JSON Lines (.jsonl) or SQLite"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    add_lang_option(p)
    p.set_defaults(func=run)
