"""The table log: every accepted action and observation, append-only, crash-safe.

Stored in SQLite (WAL journal, ``synchronous=FULL``, and a checkpoint after every write: when
:meth:`TableLog.append` returns the record is on disk **in the ``.sqlite`` file itself** and the WAL
is empty again — the game is in one file, and losing or damaging the ``-wal`` or ``-shm`` costs at
most the action being written), exported to and imported from JSON Lines — one header line, then
one action per line. The format and the measured cost are in ``docs/table-log.md``.

Replaying the records through a fresh engine (:func:`replay`) rebuilds the exact state, which is
how the referee resumes after a power cut. The log-level directive ``table undo`` removes the most
recent accepted action (the operator's "undo last action"); it is not a game action.
"""

from __future__ import annotations

import datetime as _dt
import io
import json
import logging
import os
import shutil
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Iterable
from urllib.parse import quote

from companion.errors import IllegalAction, LogError
from companion.i18n import M, aside

if TYPE_CHECKING:  # pragma: no cover
    from companion.games.base import Game
    from companion.wal import WalReport

FORMAT_VERSION = 1
UNDO = "table undo"
SOURCES = ("button", "camera", "manual", "operator", "dashboard", "sim", "replay")
"""Where an action came from. ``manual`` marks an operator entry made because OCR abstained."""

log = logging.getLogger(__name__)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class LogHeader:
    """What a game needs to start: game id, seat names (clockwise), house-rule options."""

    game: str
    seats: tuple[str, ...]
    options: dict = field(default_factory=dict)
    created: str = ""

    def to_json(self) -> dict:
        return {
            "companion_log": FORMAT_VERSION,
            "game": self.game,
            "seats": list(self.seats),
            "options": self.options,
            "created": self.created,
        }


@dataclass(frozen=True)
class LogRecord:
    """One logged action. ``line`` is the 1-based JSONL line (or the SQLite sequence number)."""

    seq: int
    action: str
    source: str = "replay"
    ts: str = ""
    line: int = 0

    def to_json(self) -> dict:
        return {"seq": self.seq, "action": self.action, "source": self.source, "ts": self.ts}


def sqlite_why(exc: BaseException) -> dict[str, str]:
    """Why SQLite could not read a file, as a fact for a sentence: SQLite's own English for
    English readers, the gist with SQLite's words in brackets for the others
    (:func:`companion.i18n.aside`; «файл базы данных повреждён (SQLite: database disk image is
    malformed)»)."""
    text = " ".join(str(exc).split())
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return aside(text, M("the database file is damaged (SQLite: %(error)s)", error=text))
    return aside(text, M("SQLite cannot read it (%(error)s)", error=text))

class TableLog:
    """An append-only SQLite table log.

    Use :meth:`create` for a new game and :meth:`open` to resume (``readonly=True`` to read one
    without changing a byte of it). A context manager.

    Attributes:
        path: the ``.sqlite`` file.
        readonly: opened read-only (:meth:`writable` makes it writable).
        wal_damage: when the log was opened, its ``-wal`` file held whole records that fail their
            checksum (:func:`companion.wal.inspect`) — SQLite drops those silently; this says it:
            a :class:`companion.wal.WalReport`, else ``None``. The damaged file is kept beside
            as ``X.sqlite-wal.damaged``.

    Raises:
        LogError: the file is not a table log, or ``create`` found an existing log.
    """

    def __init__(self, path: str | os.PathLike, _conn: sqlite3.Connection, readonly: bool = False) -> None:
        self.path = Path(path)
        self._conn = _conn
        self.readonly = readonly
        self.wal_damage: WalReport | None = None
        # one connection, used from several threads (the referee writes, screens and the console
        # read): one statement at a time, so a checkpoint never meets a read in progress
        self._lock = threading.RLock()
        self._header: LogHeader | None = None

    # ------------------------------------------------------------------ open / create
    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA busy_timeout=2000")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        # no checkpoint of SQLite's own choosing (it would restart the WAL and leave old frames
        # behind): this log checkpoints the whole WAL after every write (_checkpoint)
        conn.execute("PRAGMA wal_autocheckpoint=0")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
        )
        conn.execute(
            "CREATE TABLE IF NOT EXISTS actions (seq INTEGER PRIMARY KEY, action TEXT NOT NULL,"
            " source TEXT NOT NULL, ts TEXT NOT NULL)"
        )
        TableLog._checkpoint_conn(conn, path)  # a WAL left by a stop mid-append goes into the file
        return conn

    @staticmethod
    def _connect_readonly(path: Path) -> sqlite3.Connection:
        # mode=ro: nothing of the log is written, and no checkpoint on close. Without a -wal file
        # no connection has the log open (one in WAL mode keeps it there) and the file alone is
        # the log: immutable=1 reads it without creating a -wal and -shm beside it
        wal = Path(f"{path}-wal")
        uri = f"file:{quote(str(path.resolve()))}?mode=ro" + ("" if wal.exists() else "&immutable=1")
        return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)

    @staticmethod
    def _checkpoint_conn(conn: sqlite3.Connection, path: Path) -> None:
        """Copy the whole WAL into the ``.sqlite`` file, sync it and empty the WAL (TRUNCATE).
        Never fails a write: the record is committed (synced in the WAL) before this runs; a
        checkpoint that cannot run now (another process reading the log) runs after the next."""
        try:
            busy, _frames, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.OperationalError as exc:
            busy = str(exc)
        if busy:  # the record stays in the WAL (durable there) until the next write's checkpoint
            log.warning("table log %s: checkpoint postponed (%s); the WAL keeps the record until the next "
                        "write", path, "a reader holds the log" if busy == 1 else busy)

    def _checkpoint(self) -> None:
        self._checkpoint_conn(self._conn, self.path)

    def writable(self) -> "TableLog":
        """Reopen a log opened read-only for writing (after the caller checked it); returns self.

        Raises:
            LogError: the file cannot be opened for writing.
        """
        with self._lock:
            if self.readonly:
                self._conn.close()
                try:
                    self._conn = self._connect(self.path)
                except sqlite3.Error as exc:
                    raise LogError(f"{self.path} cannot be opened for writing: {exc}") from None
                self.readonly = False
        return self

    @classmethod
    def create(cls, path: str | os.PathLike, game: str, seats: Iterable[str], options: dict | None = None) -> "TableLog":
        """Start a new log for a new game at ``path``.

        Raises:
            LogError: ``path`` already holds a game.
        """
        path = Path(path)
        conn = cls._connect(path)
        if conn.execute("SELECT value FROM meta WHERE key='header'").fetchone():
            conn.close()
            raise LogError(f"{path} already holds a game; open it to resume or choose a new file")
        header = LogHeader(game, tuple(seats), dict(options or {}), _now())
        conn.execute("INSERT INTO meta VALUES ('header', ?)", (json.dumps(header.to_json(), ensure_ascii=False),))
        cls._checkpoint_conn(conn, path)
        from companion.durable import fsync_dir

        fsync_dir(path.parent)  # the new file's name is on disk too, not only its pages
        return cls(path, conn)

    @classmethod
    def open(cls, path: str | os.PathLike, readonly: bool = False) -> "TableLog":
        """Open an existing log to resume (``readonly=False``) or read it (``True``: not a byte
        of the log changes, so a start that then refuses the log has changed nothing).

        The ``-wal`` file is checked first (:func:`companion.wal.inspect`): whole records in it
        that fail their checksum are reported in :attr:`wal_damage`, and the file is copied to
        ``X.sqlite-wal.damaged`` before SQLite would drop them.

        Raises:
            LogError: no such file, or the file is not a table log.
        """
        from companion import wal

        path = Path(path)
        if not path.exists():
            raise LogError(M("no table log at %(path)s", path=str(path)))
        report = wal.inspect(f"{path}-wal")
        if not report.ok:
            damaged = Path(f"{path}-wal.damaged")
            try:
                shutil.copyfile(f"{path}-wal", damaged)
            except OSError as exc:
                log.warning("could not keep the damaged %s-wal: %s", path, exc)
            log.warning("table log %s: %s", path, report.detail)
        conn = None
        try:  # read-only first: a file that is not a table log is never written to
            conn = cls._connect_readonly(path)
            row = conn.execute("SELECT value FROM meta WHERE key='header'").fetchone()
        except sqlite3.DatabaseError as exc:
            if conn is not None:
                conn.close()
            raise LogError(M("%(path)s is not a table log: %(why)s", path=str(path), why=sqlite_why(exc))) from None
        if not row:
            conn.close()
            raise LogError(M("%(path)s has no game header", path=str(path)))
        opened = cls(path, conn, readonly=True)
        opened.wal_damage = None if report.ok else report
        return opened if readonly else opened.writable()

    # ------------------------------------------------------------------ reading / writing
    @property
    def header(self) -> LogHeader:
        """The game's header (written once, by :meth:`create`; read once)."""
        if self._header is None:
            with self._lock:
                row = self._conn.execute("SELECT value FROM meta WHERE key='header'").fetchone()
            self._header = _header_from_json(json.loads(row[0]), where=str(self.path))
        return self._header

    def meta(self, key: str) -> str | None:
        """A table note kept in the log beside its header (``None`` when not set). The table uses
        ``bound`` (when it last made this game its current one) and ``ended`` (when the operator
        ended it): they let the current game be found from the logs alone (docs/table-log.md)."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        """Set a table note (see :meth:`meta`); durable on return. Actions and replay ignore notes.

        Raises:
            LogError: ``key`` is ``header`` (the header is written once, by :meth:`create`).
        """
        if key == "header":
            raise LogError("the log header is written once, when the game starts")
        with self._lock:
            self._check_writable()
            with self._conn:
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, str(value)))
            self._checkpoint()

    def append(self, action: str, source: str = "button", ts: str | None = None) -> int:
        """Append one accepted action (its text form); durable on return. Returns its seq.

        Raises:
            LogError: unknown ``source``.
        """
        if source not in SOURCES:
            raise LogError(f"unknown source {source!r}; one of {', '.join(SOURCES)}")
        with self._lock:
            self._check_writable()
            with self._conn:
                cur = self._conn.execute(
                    "INSERT INTO actions (action, source, ts) VALUES (?, ?, ?)", (action, source, ts or _now())
                )
            self._checkpoint()  # the record is in the .sqlite file now; the WAL is empty again
        rowid = cur.lastrowid
        assert rowid is not None, "an INSERT sets lastrowid"
        return rowid

    def _check_writable(self) -> None:
        if self.readonly:
            raise LogError(f"{self.path} was opened read-only")

    def records(self) -> list[LogRecord]:
        """All records in order."""
        with self._lock:
            rows = self._conn.execute("SELECT seq, action, source, ts FROM actions ORDER BY seq").fetchall()
        return [LogRecord(seq, action, source, ts, line=seq) for seq, action, source, ts in rows]

    def export_jsonl(self, out: str | os.PathLike | IO[str]) -> None:
        """Write the log as JSON Lines (header line, then one action per line)."""
        write_jsonl(out, self.header, self.records())

    @classmethod
    def import_jsonl(cls, src: str | os.PathLike | IO[str], path: str | os.PathLike) -> "TableLog":
        """Create a SQLite log at ``path`` from a JSON Lines log (malformed lines are skipped).

        Raises:
            LogError: the header is missing or malformed, or ``path`` already holds a game.
        """
        header, records, _errors = read_jsonl(src)
        log = cls.create(path, header.game, header.seats, header.options)
        for r in records:
            log.append(r.action, r.source if r.source in SOURCES else "replay", r.ts or None)
        return log

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> "TableLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<TableLog {self.path}>"


# ---------------------------------------------------------------------- JSON Lines
def _header_from_json(obj: object, where: str) -> LogHeader:
    if not isinstance(obj, dict) or "game" not in obj or "seats" not in obj:
        raise LogError(M("%(where)s: the first line must be a header with 'game' and 'seats'", where=where))
    version = obj.get("companion_log", FORMAT_VERSION)  # logs written before the key existed are 1
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LogError(M("%(where)s: 'companion_log' must be a format version number, not %(version)r", where=where,
                         version=version))
    if version > FORMAT_VERSION:
        raise LogError(M("%(where)s: table-log format version %(version)s is newer than this program reads"
                         " (up to %(known)s); update Table Companion to read it",
                         where=where, version=version, known=FORMAT_VERSION))
    seats = obj["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise LogError(M("%(where)s: 'seats' must be a list of names", where=where))
    options = obj.get("options") or {}
    if not isinstance(options, dict):
        raise LogError(M("%(where)s: 'options' must be an object", where=where))
    return LogHeader(str(obj["game"]), tuple(seats), options, str(obj.get("created", "")))


@dataclass(frozen=True)
class LineError:
    """A JSONL line that could not be read as a record."""

    line: int
    reason: str
    detail: str


def read_jsonl(src: str | os.PathLike | IO[str]) -> tuple[LogHeader, list[LogRecord], list[LineError]]:
    """Read a JSON Lines table log.

    Blank lines and lines starting with ``#`` are ignored. A line that is not a JSON object with a
    string ``action`` is returned in the error list (reason ``bad_line``), not raised.

    Raises:
        LogError: the file is missing, or its first line is not a valid header.
    """
    if isinstance(src, (str, os.PathLike)):
        try:
            text = Path(src).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise LogError(M("%(path)s is not a table log: not UTF-8 text (a table log is a .sqlite "
                             "file or JSON Lines)", path=str(src))) from None
        except OSError as exc:
            raise LogError(M("cannot read %(path)s: %(why)s", path=str(src), why=getattr(exc, "strerror", None) or str(exc))) from None
        where = str(src)
    else:
        text, where = src.read(), "<stream>"
    header: LogHeader | None = None
    records: list[LogRecord] = []
    errors: list[LineError] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as exc:
            if header is None:
                raise LogError(M("%(where)s:%(line)s: the first line (the game header) is not JSON (at character %(col)s)",
                                 where=where, line=lineno, col=exc.colno)) from None
            errors.append(LineError(lineno, "bad_line", f"not JSON: {exc.msg}"))
            continue
        if header is None:
            header = _header_from_json(obj, f"{where}:{lineno}")
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("action"), str):
            errors.append(LineError(lineno, "bad_line", "expected an object with a string 'action'"))
            continue
        seq = obj.get("seq")
        records.append(
            LogRecord(
                seq=seq if isinstance(seq, int) else len(records) + 1,
                action=obj["action"],
                source=str(obj.get("source", "replay")),
                ts=str(obj.get("ts", "")),
                line=lineno,
            )
        )
    if header is None:
        raise LogError(M("%(where)s: empty log (no header line)", where=where))
    return header, records, errors


def write_jsonl(out: str | os.PathLike | IO[str], header: LogHeader, records: Iterable[LogRecord]) -> None:
    """Write a header and records as JSON Lines (UTF-8, Russian names kept readable)."""
    buf = io.StringIO()
    buf.write(json.dumps(header.to_json(), ensure_ascii=False) + "\n")
    for r in records:
        buf.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
    if isinstance(out, (str, os.PathLike)):
        Path(out).write_text(buf.getvalue(), encoding="utf-8")
    else:
        out.write(buf.getvalue())


# ---------------------------------------------------------------------- replay
@dataclass
class Rejected:
    """A log line replay could not apply: its line, the action text, reason code and detail."""

    line: int
    action: str
    reason: str
    detail: str

    def to_json(self) -> dict:
        return {"line": self.line, "action": self.action, "reason": self.reason, "detail": self.detail}


@dataclass
class ReplayResult:
    """The rebuilt game, the records that were applied, the ones rejected, the events each
    applied record produced (``events[i]`` belongs to ``applied[i]``), the ``table undo``
    directives that took effect (``undos``, in log order; the actions they undid are no longer in
    ``applied``), and a SQLite log's ``seq`` of every record read (``seqs``: :func:`replay`)."""

    game: Game
    applied: list[LogRecord]
    rejected: list[Rejected]
    events: list[tuple] = field(default_factory=list)
    undos: list[LogRecord] = field(default_factory=list)
    seqs: list[int] | None = None


def replay(header: LogHeader, records: Iterable[LogRecord], line_errors: Iterable[LineError] = (),
           numbered: bool = False) -> ReplayResult:
    """Rebuild a game from its log. Illegal lines are rejected with their reason; replay goes on.
    ``numbered``: the records are a SQLite log's, which the table numbers without gaps — the
    result keeps their ``seq`` (:attr:`ReplayResult.seqs`: a missing one is a deleted row).

    Raises:
        IllegalAction: the header names an unknown game, bad seats or bad options.
    """
    from companion.games import new_game

    def fresh():
        return new_game(header.game, header.seats, header.options)

    game = fresh()
    applied: list[LogRecord] = []
    events: list[tuple] = []
    rejected = [Rejected(e.line, "", e.reason, e.detail) for e in line_errors]
    undos: list[LogRecord] = []
    seqs: list[int] = []
    for rec in records:
        seqs.append(rec.seq)
        if rec.action.split() == UNDO.split():
            if not applied:
                rejected.append(Rejected(rec.line, rec.action, "nothing_to_undo", "no accepted action to undo"))
                continue
            applied.pop()
            events.pop()
            undos.append(rec)
            game = fresh()
            for r in applied:
                game.apply(r.action)
            continue
        try:
            ev = game.apply(rec.action)
        except IllegalAction as exc:
            rejected.append(Rejected(rec.line, rec.action, exc.reason, exc.detail))
            continue
        applied.append(rec)
        events.append(tuple(ev or ()))
    rejected.sort(key=lambda r: r.line)
    return ReplayResult(game, applied, rejected, events, undos, seqs if numbered else None)
