"""The table's data folder: ``table.json``, the table logs' notes, and recovery at start.

:class:`StoreMixin` is the part of :class:`companion.table.Table` that reads and writes the data
folder durably (:mod:`companion.durable`): the current game's name, seat codes and tokens in
``table.json``, the table notes ``bound``/``ended``/``seats`` in each log, and — when
``table.json`` is missing, empty or damaged — the current game found from the logs themselves
(docs/architecture.md "Crash safety"). It expects the session's attributes (``data_dir``,
``referee``, ``sessions``, ``_seat_codes``, ``notices``, ``_lock``).
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from companion.durable import remove_leftovers, write_file
from companion.errors import CompanionError, LogError
from companion.i18n import MN, MP, M, Message, aside, render
from companion.log import TableLog, sqlite_why
from companion.referee import Referee
from companion.table.parts import TableParts

log = logging.getLogger(__name__)


STATE_FILE = "table.json"
"""The current game's table log name, its seat join codes and seat tokens (JSON, mode 0600)."""

SET_ASIDE = "set_aside"
"""The table note of an unfinished game the table let go of without ending it: another game took
its place (``how`` ``replaced``, ``by`` that game's log: the operator's new or resumed game, or
one a start with ``--new``/``--resume`` took up), or a start with ``--new`` left the table with
no game (``new``). JSON ``{"at", "how", "by"}`` (docs/table-log.md)."""


def set_aside_note(how: str, by: str | None = None) -> str:
    """The :data:`SET_ASIDE` note's value: now, how, and the log that took the game's place."""
    return json.dumps({"at": _now(), "how": how, "by": by}, ensure_ascii=False)


def stop_notes(tlog) -> dict | None:
    """How an unfinished game's log says it stopped being played, from its table notes: ``{"how":
    "ended" | "replaced" | "new", "at", "by"}`` — ended by the operator, replaced by another game
    (``by``: its log's name), or left by a start with ``--new`` — when that happened after the
    table last took it up (``bound``); else ``None`` (still the current game, or cut off by a
    crash or Ctrl-C: resumable as it is)."""
    bound = tlog.meta("bound") or ""
    ended = tlog.meta("ended")
    try:
        aside = json.loads(tlog.meta(SET_ASIDE) or "null")
    except ValueError:
        aside = None
    aside = aside if isinstance(aside, dict) and isinstance(aside.get("at"), str) else None
    found = []
    if ended and ended >= bound:
        found.append({"how": "ended", "at": ended, "by": None})
    if aside is not None and aside["at"] >= bound:
        found.append({"how": str(aside.get("how") or "replaced"), "at": aside["at"], "by": aside.get("by")})
    return max(found, key=lambda f: f["at"]) if found else None


@dataclass(frozen=True)
class Notice:
    """One line for the console about what a start found and did (a damaged state file, a game
    recovered from its log, a new key or PIN): a :class:`~companion.i18n.Message`, rendered in
    the console's language; ``str()`` is the English."""

    message: Message

    @property
    def ru(self) -> str:
        return render(self.message, "ru")

    @property
    def en(self) -> str:
        return render(self.message, "en")

    def words(self, lang: str = "ru") -> str:
        """The line in ``lang`` (``"ru"`` or ``"en"``)."""
        return render(self.message, lang)

    def __str__(self) -> str:
        return self.en


MISSING_LOG = "damaged (it names a table log that is not there)"

PROBLEMS = {"missing": MP("table", "missing"), "empty": MP("table", "empty"),
            "damaged (not JSON)": MP("table", "damaged (not JSON)"),
            "damaged (not a table state)": MP("table", "damaged (not a table state)"),
            MISSING_LOG: MP("table", "damaged (it names a table log that is not there)")}
"""What was wrong with ``table.json`` (the keys are the English words ``_recover`` is given)."""


class TableStateError(CompanionError):
    """The data folder cannot be read as it must be (``table.json`` names a log that cannot be
    resumed; ``table.json`` is damaged and the table logs cannot tell the current game; a state
    file cannot be read): the table refuses to start rather than start a new game silently. The
    message says what is wrong and what to do, in one line."""


def _why(exc: BaseException):
    """Why a table log could not be read or resumed, as a fact for a sentence: the error's own
    message when it has one (a :class:`~companion.errors.LogError` names the file and why), SQLite's
    words as :func:`companion.log.sqlite_why` gives them, else the English with a gist."""
    if isinstance(exc, CompanionError) and exc.message is not None:
        return exc.message
    if isinstance(exc, sqlite3.Error):
        return sqlite_why(exc)
    text = " ".join(str(exc).split())
    if isinstance(exc, OSError):
        return aside(text, M("the file cannot be read (%(error)s)", error=exc.strerror or text))
    return aside(text, M("a logged action is not accepted (%(error)s)", error=text))


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def find_log(data_dir: Path, log_file: str | os.PathLike) -> Path:
    """The table log ``log_file`` names: a path, or a file name in ``<data_dir>/games/``.

    Raises:
        LogError: no such file, or it is not in this table's ``games/`` folder.
    """
    games = (Path(data_dir) / "games").resolve()
    given = Path(log_file).expanduser()
    for candidate in ([given] if given.is_absolute() else [given, games / given]):
        if candidate.is_file():
            path = candidate.resolve()
            if path.parent != games:
                raise LogError(M("%(path)s is not in this table's folder %(games)s: copy the log there first "
                                 "(a JSON Lines log: `companion replay` reads it)", path=str(candidate),
                                 games=str(games)))
            return path
    raise LogError(M("no table log %(log)s (looked for it as a path and in %(games)s); `ls %(games)s` lists the "
                     "games, newest last", log=str(log_file), games=str(games)))


class StoreMixin(TableParts):
    """The data folder of one :class:`~companion.table.Table` (see module docstring)."""

    #: the unfinished game ``table.json`` named as current when a start did not resume it
    #: (``--new``, ``--resume`` of another): its log's name, until the table takes up another
    #: game or :meth:`leave_aside` lets it go
    _left_aside: str | None = None

    def _tell_left_aside(self) -> None:
        """A start without resuming (``--new``) leaves the current unfinished game as it is: the
        console says which log it is and how to bring it back (``--resume``), in one line. Nothing
        is written yet — a start refused after this changes nothing: the game the table takes up
        next notes in that log that it took its place, and :meth:`leave_aside` lets it go with no
        game in its place."""
        try:
            raw = self._read_state_file(STATE_FILE)
            state = json.loads(raw.decode("utf-8")) if raw else None
            name = state.get("current") if isinstance(state, dict) else None
            if not isinstance(state, dict) or not isinstance(name, str):
                return
            self.sessions.load_revoked(state.get("revoked_operators"))  # kept when table.json is next written
            from companion.log import replay

            with TableLog.open(self.data_dir / "games" / name, readonly=True) as tlog:  # a look, no write
                over = replay(tlog.header, tlog.records()).game.is_over()
        except Exception:  # the notice is a courtesy: a damaged state is dealt with on resume
            return
        if not over:
            self._left_aside = name
            self._notice(M("the unfinished game in games/%(name)s is left as it was; --resume %(name)s brings it back",
                           name=name))

    def leave_aside(self) -> None:
        """A start with ``--new`` and no game to start (``companion dashboard --new``): the table
        has no current game from now on — ``table.json`` names none, so the next plain start
        resumes nothing, and the left game's log says it was set aside (``new``), so a recovery
        from the logs agrees. Its log stays; ``--resume`` brings it back."""
        with self._lock:
            if self.referee is not None:
                return
            self._note_left_aside("new")
            self._save_state()

    def _note_left_aside(self, how: str, by: str | None = None) -> None:
        """Write the :data:`SET_ASIDE` note into the log of the game a start left aside, if any
        (another game took its place: ``replaced``, ``by`` its log; none did: ``new``)."""
        name, self._left_aside = self._left_aside, None
        if name is None or name == by:
            return
        try:
            with TableLog.open(self.data_dir / "games" / name) as tlog:
                tlog.set_meta(SET_ASIDE, set_aside_note(how, by))
        except (CompanionError, OSError, sqlite3.Error) as exc:  # the note tells; nothing needs it
            log.warning("could not note the game set aside in %s: %s", name, exc)

    def _notice(self, message: Message) -> None:
        """Keep a one-line message for the console (and the log, in English)."""
        notice = Notice(message)
        self.notices.append(notice)
        log.info("%s", notice.en)  # the consoles print the notices themselves

    def _read_state_file(self, name: str) -> bytes | None:
        """The bytes of a state file (``None`` when missing); leftovers of a killed write go.

        Raises:
            TableStateError: the file exists but cannot be read (permissions).
        """
        remove_leftovers(self.data_dir, name)
        path = self.data_dir / name
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise TableStateError(M("cannot read %(path)s (%(error)s): the table's user must own the data folder "
                                    "%(folder)s (docs/setup-pi.md)", path=str(path), folder=str(self.data_dir),
                                    error=str(exc.strerror))) from None

    def _state_path(self) -> Path:
        return self.data_dir / STATE_FILE

    def _save_state(self) -> None:
        state = {
            "current": self.referee.log.path.name if self.referee else None,
            "seat_codes": {str(s): c for s, c in self._seat_codes.items()},
            "seat_tokens": self.sessions.seat_tokens,
            "revoked_operators": self.sessions.revoked,
            # the seat logins of games the operator ended: a phone coming back is told so
            "ended_seat_tokens": self.sessions.ended_tokens(),
        }
        write_file(self._state_path(), json.dumps(state, ensure_ascii=False))
        if self.referee is not None:
            self._keep_seats(self.referee)

    def _keep_seats(self, referee: Referee) -> None:
        """Keep the game's seat codes and the phones' seat tokens in its own log too (the table
        note ``seats``), so the game keeps them when it is resumed later with ``--resume`` or
        recovered without ``table.json``: nobody has to join again. Not fatal when it fails."""
        note = json.dumps({"codes": {str(k): v for k, v in self._seat_codes.items()},
                           "tokens": self.sessions.seat_tokens}, ensure_ascii=False)
        try:
            with referee.lock:
                if referee.log.meta("seats") != note:
                    referee.log.set_meta("seats", note)
        except (CompanionError, sqlite3.Error) as exc:
            log.warning("could not keep the seat codes in %s: %s", referee.log.path, exc)

    def _restore_seats(self, referee: Referee) -> bool:
        """The seat codes and tokens a game's log kept (:meth:`_keep_seats`), if they fit its
        seats: True when restored, False when new ones must be issued."""
        try:
            kept = json.loads(referee.log.meta("seats") or "null")
            codes = {int(k): str(v) for k, v in (kept or {}).get("codes", {}).items()}
            n = len(referee.game.seats)
            if sorted(codes) != list(range(n)) or len(set(codes.values())) != n or self.pin in codes.values():
                return False
            self.sessions.load_seats((kept or {}).get("tokens", {}), n)
        except (ValueError, TypeError, AttributeError, IndexError, sqlite3.Error):
            self.sessions.seat_tokens = {}
            return False
        self._seat_codes = codes
        return True

    def _resume_last(self) -> None:
        """Resume the current game: the one ``table.json`` names (its seat codes and tokens too),
        unless it is over. When ``table.json`` is missing, empty or damaged, the table logs say
        which game was current (:meth:`_recover`).

        Raises:
            TableStateError: the named log cannot be resumed, or the current game cannot be
                recovered (never a silent new game).
        """
        raw = self._read_state_file(STATE_FILE)
        state, problem = None, "missing"
        if raw is not None:
            try:
                state = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                problem = "empty" if not raw.strip() else "damaged (not JSON)"
            else:
                if not isinstance(state, dict) or not isinstance(state.get("current", None), (str, type(None))):
                    state, problem = None, "damaged (not a table state)"
        if state is None:
            self._recover(problem, raw)
            return
        self.sessions.load_revoked(state.get("revoked_operators"))
        self.sessions.load_ended(state.get("ended_seat_tokens"))  # kept when table.json is next written
        name = state.get("current")
        if name is None:
            return  # no game at the table (ended, or never started)
        path = self.data_dir / "games" / name
        if not path.exists() and isinstance(name, str) and any((self.data_dir / "games").glob("*.sqlite")):
            # a name no log has (a damaged byte in it): table.json cannot be trusted — the logs
            # tell the current game, as when it is missing (with no log at all the start refuses)
            self._recover(MISSING_LOG, raw)
            return
        referee = self._open_current(path, M("%(file)s names %(name)s as the current game", file=STATE_FILE,
                                             name=name))
        if referee.game.is_over():
            referee.close()
            # its phones' logins end with it; one that comes back is told why (/join, the seat API)
            self.sessions.retire_finished(state.get("seat_tokens"))
            return
        codes = state.get("seat_codes") or {}
        tokens = state.get("seat_tokens") or {}
        try:
            self._seat_codes = {int(s): str(c) for s, c in codes.items() if str(s).isdigit()}
            self.sessions.load_seats(tokens, len(referee.game.seats))
        except (AttributeError, TypeError, ValueError, IndexError):  # a hand-edited file: the game still resumes
            self._notice(M("%(file)s in %(folder)s held unreadable seat codes: the seat codes are new, players "
                           "join their seats again", file=STATE_FILE, folder=str(self.data_dir)))
            self._seat_codes, self.sessions.seat_tokens = {}, {}
        if len(self._seat_codes) != len(referee.game.seats):
            self._issue_seat_codes(len(referee.game.seats))
        self._bind(referee)
        log.info("resumed %s at version %d", path, referee.version)

    def _open_current(self, path: Path, what: Message) -> Referee:
        """Resume the referee of the current game's log; ``what`` says how it is known to be the
        current one.

        Raises:
            TableStateError: the log is missing, not a table log, or the engine rejects a line.
        """
        try:
            return Referee.resume(path)
        except (CompanionError, OSError, sqlite3.Error) as exc:
            raise TableStateError(M(
                "%(what)s, but its log cannot be resumed (%(why)s); nothing was changed: start with --new for a "
                "new game (every log stays in %(games)s) or --resume LOG for another unfinished game",
                what=what, why=_why(exc), games=str(self.data_dir / "games"))) from None

    def _recover(self, problem: str, raw: bytes | None) -> None:
        """``table.json`` is missing, empty or damaged: find the current game from the table logs.

        The current game is the log the table last made current (its ``bound`` note, else its
        start time) — unless the operator ended it afterwards (``ended``) or it is over: then there
        is no game. An unfinished one is resumed with **new seat codes** (they were kept only in
        ``table.json``; phones join again) and :attr:`notices` says so in one line. A damaged
        ``table.json`` is kept beside as ``table.json.damaged``.

        Raises:
            TableStateError: the newest table log cannot be read, or the current one cannot be
                resumed.
        """
        games = self.data_dir / "games"
        logs = sorted(games.glob("*.sqlite"))
        said = M("%(file)s in %(folder)s was %(problem)s", file=STATE_FILE, folder=str(self.data_dir),
                 problem=PROBLEMS.get(problem, problem))
        if raw is not None:
            write_file(self.data_dir / f"{STATE_FILE}.damaged", raw)
        if not logs:
            if raw is not None:
                self._notice(M("%(said)s; there is no table log in %(games)s: no game to recover", said=said,
                               games=str(games)))
                self._save_state()
            return
        found: list[tuple[str, str, str | None, Path]] = []  # (bound, name, ended, path)
        for path in logs:
            try:
                with TableLog.open(path, readonly=True) as tlog:
                    header = tlog.header
                    stopped = stop_notes(tlog)  # ended, or set aside for another game
                    found.append((tlog.meta("bound") or header.created, path.name,
                                  stopped["at"] if stopped else None, path))
            except (CompanionError, OSError, sqlite3.Error, ValueError) as exc:
                if path == logs[-1]:  # the newest game may be the current one: no guessing
                    raise TableStateError(M(
                        "%(said)s and the newest table log %(path)s cannot be read (%(why)s): the current game "
                        "cannot be recovered; start with --new for a new game or --resume LOG for an older "
                        "unfinished one", said=said, path=str(path), why=_why(exc))) from None
                log.warning("table log %s cannot be read (%s); it is not the newest", path, exc)
        bound, _name, ended, path = max(found)
        if ended and ended >= bound:
            if raw is not None:
                self._notice(M("%(said)s; the last game (%(name)s) was ended by the operator: no game to resume",
                               said=said, name=path.name))
            self._save_state()
            return
        referee = self._open_current(path, M("%(said)s; the current game is %(name)s", said=said, name=path.name))
        if referee.game.is_over():
            referee.close()
            if raw is not None:
                self._notice(M("%(said)s; the last game (%(name)s) is over: no game to resume", said=said,
                               name=path.name))
            self._save_state()
            return
        kept = self._restore_seats(referee)
        if not kept:
            self._issue_seat_codes(len(referee.game.seats))
            self.sessions.seat_tokens = {}
        self._bind(referee)
        n = len(referee.log.records())
        game_id = referee.log.header.game
        seats = (M("the seat codes and the phones' logins are kept") if kept
                 else M("the seat codes are new — players join their seats again"))
        self._notice(MN("%(said)s: the unfinished %(game)s game was recovered from its table log %(path)s (%(n)s "
                        "action logged); %(seats)s",
                        "%(said)s: the unfinished %(game)s game was recovered from its table log %(path)s (%(n)s "
                        "actions logged); %(seats)s", n, said=said, game=game_id, path=str(path), seats=seats))

    def find_log(self, log_file: str | os.PathLike) -> Path:
        """The table log ``log_file`` names (:func:`find_log` in this table's data folder)."""
        return find_log(self.data_dir, log_file)

    def last_result(self, game_id: str, look_back: int = 5) -> dict | None:
        """The result (``game.result()``) of the newest finished game of ``game_id`` at this table:
        the current game when it is over, else among the last ``look_back`` table logs of that
        game in the data folder. ``None`` when there is none (or its log cannot be read). Used to
        carry a game's state into the next one (the lottery's box, RULINGS §5)."""
        from companion.log import TableLog, replay

        with self._lock:
            ref = self.referee
        current = None
        if ref is not None:
            current = ref.log.path
            with ref.lock:
                if ref.log.header.game == game_id and ref.game.is_over():
                    return ref.game.result()
        for path in sorted((self.data_dir / "games").glob(f"*-{game_id}.sqlite"), reverse=True)[:look_back]:
            if current is not None and path == current:
                continue
            try:
                key = (str(path), path.stat().st_mtime_ns)
                if key not in self._results:
                    with TableLog.open(path, readonly=True) as tlog:
                        game = replay(tlog.header, tlog.records()).game
                    self._results[key] = game.result() if game.is_over() else None
            except Exception as exc:  # a damaged old log carries nothing; the table goes on
                log.warning("could not read %s for the last %s result: %s", path, game_id, exc)
                continue
            if self._results[key] is not None:
                return self._results[key]
        return None

    @staticmethod
    def _note(referee: Referee, key: str) -> None:
        """Write a table note (``bound``/``ended``: now) into the game's log; they let the current
        game be found from the logs when ``table.json`` is lost (:meth:`_recover`). A log that
        cannot take it is logged, not fatal: the note only helps a later recovery."""
        try:
            with referee.lock:
                referee.log.set_meta(key, _now())
        except (CompanionError, sqlite3.Error) as exc:
            log.warning("could not note %s in %s: %s", key, referee.log.path, exc)

    def _set_aside(self, referee: Referee | None, by: str) -> None:
        """Note in an unfinished game's log that the table let it go for another game (log
        ``by``): :func:`stop_notes` — the current game's, or the one a start left aside. Not
        fatal when it fails (the note tells, nothing needs it)."""
        if referee is None:
            self._note_left_aside("replaced", by)
            return
        try:
            with referee.lock:
                if not referee.game.is_over():
                    referee.log.set_meta(SET_ASIDE, set_aside_note("replaced", by))
        except (CompanionError, sqlite3.Error) as exc:
            log.warning("could not note the game set aside in %s: %s", referee.log.path, exc)

    def _tell_wal_damage(self, referee: Referee) -> None:
        """Say it when the game's WAL file held records that fail their checksum (SQLite drops
        them without a word; :attr:`companion.log.TableLog.wal_damage`)."""
        damage = getattr(referee.log, "wal_damage", None)
        if damage is None:
            return
        path, n = referee.log.path, referee.version
        lost = damage.commits_lost or 1
        self._notice(M("the table log %(path)s was damaged: its WAL file held %(pages)s page(s) that fail their "
                       "checksum — about %(lost)s action(s) after action %(n)s are lost and the game goes on from "
                       "action %(n)s; check the table and undo or enter again what is missing (a copy: "
                       "%(path)s-wal.damaged)", path=str(path), pages=damage.damaged, lost=lost, n=n))
