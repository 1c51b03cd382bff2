"""The table session: one physical table, the game it plays now, and who may act on it.

:class:`Table` sits above the :class:`~companion.referee.Referee`. The dashboard and
``companion run`` (button box, camera, simulated table) share one ``Table``:

* it owns the **data directory** (one SQLite table log per game, ``<data_dir>/games/``, plus a small
  ``table.json`` naming the current game, its seat join codes and tokens, ``secret.key`` and the
  operator PIN file ``operator-pin``; every one of them written durably, :mod:`companion.durable`);
* it holds the **current referee** (or none), starts a game with :meth:`Table.new_game`, ends it
  with :meth:`Table.end_game`, and on construction **resumes** the last unfinished game from its
  log (power cut: nothing lost, phones keep their seat tokens). When ``table.json`` is missing,
  empty or damaged, the current game is found from the table logs themselves and resumed with new
  seat codes; when that is impossible the table refuses to start (:class:`TableStateError`) —
  never a silent new game;
* it holds the **operator PIN** (kept in the data folder unless one is given; shown on the console
  and as a QR code at start), the operator logins (tokens that survive a restart and end when the
  PIN changes), and the **seat join codes** and seat tokens;
* it keeps the **hardware status** registry (``buttons``, ``camera``, ``ocr``), the console's
  **scan prompts**, and the **pending button-pad counts** (a player counting a bid up with ``+``);
* it fans **events** out to listeners (dashboard streams, lights) and re-binds to each new referee.

Every input enters the referee's one queue: a typed input (:mod:`companion.inputs`) through
:meth:`Table.put` — :meth:`press` (a pad button), :meth:`submit_for_seat` (a seat's move),
:meth:`undo`, :meth:`void_round`, :meth:`manual_entry` (the operator) — decided on the consumer
thread by :class:`companion.decide.TableInputs`; an action's text (the CLI, the console, the
bots) through :meth:`Table.submit`. Listeners are called on the thread
that caused the change (the referee's consumer thread for game actions); they must not block.

Listener messages are ``(kind, payload)``:

``("action", TableUpdate)``
    an accepted action (``payload.outcome``), with the game views already taken at that version.
``("game", None)``
    a game started, was resumed, or ended (listeners should resend a full snapshot).
``("status", {part: dict})``, ``("pending", {seat: count})``, ``("prompts", [prompt, ...])``
    the side channels, always the full current value.
"""

from __future__ import annotations

import datetime as _dt
import hmac
import json
import logging
import os
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.decide import TableInputs, observed_by_seat
from companion.durable import remove_leftovers, write_file
from companion.errors import CompanionError, IllegalAction, LogError
from companion.inputs import ButtonPressed, OperatorEntry, SeatAction
from companion.log import UNDO, TableLog
from companion.referee import VOID, Outcome, Referee
from companion.sessions import MIN_PIN_DIGITS, Sessions, pin_refusal
from companion.settings import SettingsError

log = logging.getLogger(__name__)

STATUS_PARTS = ("buttons", "camera", "ocr")
"""Hardware parts whose status the public view shows (others are accepted too)."""


STATE_FILE = "table.json"
"""The current game's table log name, its seat join codes and seat tokens (JSON, mode 0600)."""

SECRET_FILE = "secret.key"
"""The dashboard's session-signing key (32 random bytes, mode 0600), kept across restarts."""

PIN_FILE = "operator-pin"
"""The operator PIN (digits and a newline, mode 0600), made once when no PIN is given; delete it
(or start with ``--new-pin``) for a new one, or write 6–12 digits into it to choose one."""


class NoGame(CompanionError, LookupError):
    """The table has no current game (start one with :meth:`Table.new_game`)."""


@dataclass(frozen=True)
class Notice:
    """One line for the console about what a start found and did (a damaged state file, a game
    recovered from its log, a new key or PIN), in Russian and English; ``str()`` is the English."""

    ru: str
    en: str

    def words(self, lang: str = "ru") -> str:
        """The line in ``lang`` (``"ru"`` or ``"en"``)."""
        return self.ru if lang == "ru" else self.en

    def __str__(self) -> str:
        return self.en


MISSING_LOG = "damaged (it names a table log that is not there)"

PROBLEM_RU = {"missing": "отсутствовал", "empty": "был пуст", "damaged (not JSON)": "был повреждён (не JSON)",
              "damaged (not a table state)": "был повреждён (не состояние стола)",
              MISSING_LOG: "был повреждён (называет журнал стола, которого нет)"}
"""What was wrong with ``table.json``, in Russian (the keys are the English words)."""


class TableStateError(CompanionError):
    """The data folder cannot be read as it must be (``table.json`` names a log that cannot be
    resumed; ``table.json`` is damaged and the table logs cannot tell the current game; a state
    file cannot be read): the table refuses to start rather than start a new game silently. The
    message says what is wrong and what to do, in one line."""


@dataclass(frozen=True)
class TableUpdate:
    """One accepted action as seen by the table's listeners.

    Attributes:
        outcome: the referee's :class:`~companion.referee.Outcome` (events include private ones).
        version: the referee version after the action.
        epoch: the table's game counter (bumps on every new, resumed or ended game).
        views: ``{None: public view, seat: private view, ...}`` taken at ``version``.
        legal: ``{seat or None: [action text, ...]}`` — legal actions at ``version`` (``None``: the
            table's own actions, i.e. camera observations and operator actions).
        current_seats: seats the game waits for.
        over: the game has ended; ``result`` holds its JSON result then. ``result`` is the
            engine's full result (it may list every player's notes): never send it to a screen;
            screens show what ``views`` contain.
    """

    outcome: Outcome
    version: int
    epoch: int
    views: dict
    legal: dict
    current_seats: list
    over: bool
    result: dict | None


@dataclass
class Prompt:
    """A request shown on the operator console, e.g. "show player 2's notes to the camera".

    Attributes:
        id: unique id (for :meth:`Table.clear_prompt`).
        kind: ``scan`` (show something to the camera), ``manual`` (OCR abstained: type it in) or
            ``info``.
        text: the prompt in words (Russian first; the dashboard shows it as given).
        seat: the seat concerned, if any.
        action: for ``manual``, the action template to complete (e.g. ``"table deposit 2 ?"``).
    """

    id: str
    kind: str
    text: str
    seat: int | None = None
    action: str | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "text": self.text, "seat": self.seat, "action": self.action}


Listener = Callable[[str, Any], None]


def _code(digits: int = 6) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def _valid_pin(pin) -> bool:
    return isinstance(pin, str) and pin_refusal(pin) is None


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


class Table:
    """One table session (see module docstring).

    Args:
        data_dir: folder for table logs and ``table.json`` (created if missing).
        pin: the operator PIN (6–12 digits) for this run; when ``None`` the PIN kept in the data
            folder (:data:`PIN_FILE`), made once as a random 6-digit PIN.
        resume: resume the current game (the one ``table.json`` names; see :meth:`_resume_last`).
        new_pin: make a new random PIN and keep it in the data folder (operator logins made with
            the old PIN end).

    Attributes:
        data_dir: the data folder (``Path``).
        pin: the operator PIN (str) — print it on the console at start.
        pin_file: where the PIN is kept (``Path``), or ``None`` when it was given (``pin``).
        notices: :class:`Notice` lines for the console about what the start found and did (a
            damaged ``table.json`` and the game recovered from its log, a new ``secret.key``, a
            new PIN); empty on an ordinary start.
        referee: the current :class:`Referee` or ``None``.
        epoch: game counter for listeners; bumps on every new, resumed or ended game.
        last_ended: what the screens and console say of the game the operator last ended with
            :meth:`end_game` — ``{"game", "seats", "over", "epoch", "text": {"ru", "en"}}``, its
            standing in words from the public view only — until a new game starts; else ``None``.

    Raises:
        SettingsError: ``pin`` is not 6–12 digits (a ``ValueError``; the message says why, in
            Russian too).
        ValueError: both ``pin`` and ``new_pin`` are given.
        TableStateError: the current game cannot be resumed or recovered, or a state file cannot
            be read (the message says what to do: ``--new``, ``--resume LOG``, permissions).
        OSError: the data folder cannot be written.
    """

    def __init__(self, data_dir: str | os.PathLike, pin: str | None = None, resume: bool = True,
                 new_pin: bool = False) -> None:
        self.data_dir = Path(data_dir)
        (self.data_dir / "games").mkdir(parents=True, exist_ok=True)
        if pin is not None and pin_refusal(pin) is not None:
            en, ru = pin_refusal(pin)
            raise SettingsError(en, ru=ru)
        if pin is not None and new_pin:
            raise ValueError("give the operator PIN or ask for a new one (--new-pin), not both")
        self.notices: list[Notice] = []
        self.referee: Referee | None = None
        self.epoch = 0
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._unsub: Callable[[], None] | None = None
        self._seat_codes: dict[int, str] = {}
        self._status: dict[str, dict] = {p: {"state": "absent"} for p in STATUS_PARTS}
        self._pending: dict[int, int] = {}
        self._results: dict[tuple, dict | None] = {}  # last_result's cache: (log, mtime) -> result
        self._prompts: list[Prompt] = []
        #: the decisions on typed inputs (pads, seat moves, operator entries, camera reads),
        #: installed on each referee the table binds
        self.inputs = TableInputs(self)
        self.last_ended: dict | None = None
        self.secret_key = self._load_secret()
        self.pin: str = str(pin) if pin is not None else self._load_pin(new_pin)
        self.pin_file: Path | None = None if pin is not None else self.data_dir / PIN_FILE
        #: the operator and seat logins (:mod:`companion.sessions`)
        self.sessions = Sessions(self.secret_key, self.pin)
        if resume:
            self._resume_last()
        else:
            self._tell_left_aside()

    def _tell_left_aside(self) -> None:
        """A start without resuming (``--new``) leaves the current unfinished game as it is: the
        console says which log it is and how to bring it back (``--resume``), in one line."""
        try:
            raw = self._read_state_file(STATE_FILE)
            name = json.loads(raw.decode("utf-8")).get("current") if raw else None
            if not isinstance(name, str):
                return
            from companion.log import replay

            with TableLog.open(self.data_dir / "games" / name, readonly=True) as tlog:  # a look, no write
                over = replay(tlog.header, tlog.records()).game.is_over()
        except Exception:  # the notice is a courtesy: a damaged state is dealt with on resume
            return
        if not over:
            self._notice(f"the unfinished game in games/{name} is left as it was; --resume {name} brings it back",
                         f"незаконченная игра (games/{name}) оставлена как есть; вернуть её: --resume {name}")

    # ------------------------------------------------------------------ persistence
    def _notice(self, en: str, ru: str) -> None:
        """Keep a one-line message for the console (and the log), in English and Russian."""
        self.notices.append(Notice(ru, en))
        log.info("%s", en)  # the consoles print the notices themselves

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
            raise TableStateError(f"cannot read {path} ({exc.strerror}): the table's user must own the data "
                                  f"folder {self.data_dir} (docs/setup-pi.md)") from None

    def _load_secret(self) -> bytes:
        """A per-table secret (session signing for the dashboard), kept across restarts.

        Made once (32 random bytes, written durably). A file that is there but shorter than 32
        bytes (damaged) is replaced, and :attr:`notices` says that every phone and the operator
        must log in again — the old key is gone, so the sessions it signed cannot be checked.
        """
        data = self._read_state_file(SECRET_FILE)
        if data is not None and len(data) >= 32:
            return data
        fresh = secrets.token_bytes(32)
        write_file(self.data_dir / SECRET_FILE, fresh)
        if data is not None:
            self._notice(f"{SECRET_FILE} in {self.data_dir} was {'empty' if not data else 'damaged'} "
                         f"({len(data)} bytes): a new key was made, so every phone and the operator log in "
                         "again (seat codes and the PIN are unchanged)",
                         f"файл {SECRET_FILE} в {self.data_dir} {'пуст' if not data else 'повреждён'} "
                         f"({len(data)} байт): сделан новый ключ, поэтому все телефоны и оператор входят заново "
                         "(коды мест и ПИН прежние)")
        return fresh

    def _load_pin(self, new_pin: bool) -> str:
        """The operator PIN kept in the data folder (:data:`PIN_FILE`): made once, random, 6
        digits, written durably with mode 0600; a new one when ``new_pin`` or when the file does
        not hold 6–12 digits (:attr:`notices` says so)."""
        data = self._read_state_file(PIN_FILE)
        kept = data.decode("ascii", "replace").strip() if data is not None else None
        if kept is not None and _valid_pin(kept) and not new_pin:
            return kept
        fresh = _code(6)
        while fresh == kept:
            fresh = _code(6)
        path = self.data_dir / PIN_FILE
        write_file(path, fresh + "\n")
        if new_pin:
            self._notice(f"a new operator PIN was made (--new-pin), kept in {path}; logins made with the old "
                         "PIN have ended",
                         f"сделан новый ПИН оператора (--new-pin), он хранится в {path}; входы со старым ПИНом "
                         "закончились")
        elif kept is not None and kept.isdigit() and kept.isascii() and len(kept) < MIN_PIN_DIGITS:
            # an older version made and took 4-digit PINs: too few to resist guessing
            self._notice(f"{path} held a PIN of {len(kept)} digits, fewer than the {MIN_PIN_DIGITS} a PIN needs now: "
                         "a new operator PIN was made",
                         f"в {path} ПИН из {len(kept)} цифр, а теперь нужно не меньше {MIN_PIN_DIGITS}: "
                         "сделан новый ПИН оператора")
        elif kept is not None:
            self._notice(f"{path} did not hold a PIN of 6-12 digits ({'empty' if not kept else 'damaged'}): "
                         "a new operator PIN was made",
                         f"в {path} нет ПИНа из 6–12 цифр ({'файл пуст' if not kept else 'файл повреждён'}): "
                         "сделан новый ПИН оператора")
        return fresh

    def _state_path(self) -> Path:
        return self.data_dir / STATE_FILE

    def _save_state(self) -> None:
        state = {
            "current": self.referee.log.path.name if self.referee else None,
            "seat_codes": {str(s): c for s, c in self._seat_codes.items()},
            "seat_tokens": self.sessions.seat_tokens,
            "revoked_operators": self.sessions.revoked,
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
        name = state.get("current")
        if name is None:
            return  # no game at the table (ended, or never started)
        path = self.data_dir / "games" / name
        if not path.exists() and isinstance(name, str) and any((self.data_dir / "games").glob("*.sqlite")):
            # a name no log has (a damaged byte in it): table.json cannot be trusted — the logs
            # tell the current game, as when it is missing (with no log at all the start refuses)
            self._recover(MISSING_LOG, raw)
            return
        referee = self._open_current(path, f"{STATE_FILE} names {name} as the current game")
        if referee.game.is_over():
            referee.close()
            return
        codes = state.get("seat_codes") or {}
        tokens = state.get("seat_tokens") or {}
        try:
            self._seat_codes = {int(s): str(c) for s, c in codes.items() if str(s).isdigit()}
            self.sessions.load_seats(tokens, len(referee.game.seats))
        except (AttributeError, TypeError, ValueError, IndexError):  # a hand-edited file: the game still resumes
            self._notice(f"{STATE_FILE} in {self.data_dir} held unreadable seat codes: the seat codes are new, "
                         "players join their seats again",
                         f"в {STATE_FILE} ({self.data_dir}) коды мест не читаются: коды мест новые, игроки снова "
                         "входят на свои места")
            self._seat_codes, self.sessions.seat_tokens = {}, {}
        if len(self._seat_codes) != len(referee.game.seats):
            self._issue_seat_codes(len(referee.game.seats))
        self._bind(referee)
        log.info("resumed %s at version %d", path, referee.version)

    def _open_current(self, path: Path, what: str) -> Referee:
        """Resume the referee of the current game's log.

        Raises:
            TableStateError: the log is missing, not a table log, or the engine rejects a line.
        """
        try:
            return Referee.resume(path)
        except (CompanionError, OSError, sqlite3.Error) as exc:
            detail = " ".join(str(exc).split())
            raise TableStateError(
                f"{what}, but its log cannot be resumed ({detail}); nothing was changed: start with --new for a "
                f"new game (every log stays in {self.data_dir / 'games'}) or --resume LOG for another unfinished "
                "game") from None

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
        where = f"{STATE_FILE} in {self.data_dir} was {problem}"
        where_ru = f"{STATE_FILE} в {self.data_dir} {PROBLEM_RU.get(problem, problem)}"
        if raw is not None:
            write_file(self.data_dir / f"{STATE_FILE}.damaged", raw)
        if not logs:
            if raw is not None:
                self._notice(f"{where}; there is no table log in {games}: no game to recover",
                             f"{where_ru}; журналов стола в {games} нет: восстанавливать нечего")
                self._save_state()
            return
        found: list[tuple[str, str, str | None, Path]] = []  # (bound, name, ended, path)
        for path in logs:
            try:
                with TableLog.open(path, readonly=True) as tlog:
                    header = tlog.header
                    found.append((tlog.meta("bound") or header.created, path.name, tlog.meta("ended"), path))
            except (CompanionError, OSError, sqlite3.Error, ValueError) as exc:
                if path == logs[-1]:  # the newest game may be the current one: no guessing
                    raise TableStateError(
                        f"{where} and the newest table log {path} cannot be read "
                        f"({' '.join(str(exc).split())}): the current game cannot be recovered; start with "
                        "--new for a new game or --resume LOG for an older unfinished one") from None
                log.warning("table log %s cannot be read (%s); it is not the newest", path, exc)
        bound, _name, ended, path = max(found)
        if ended and ended >= bound:
            if raw is not None:
                self._notice(f"{where}; the last game ({path.name}) was ended by the operator: no game to resume",
                             f"{where_ru}; последнюю игру ({path.name}) оператор завершил: продолжать нечего")
            self._save_state()
            return
        referee = self._open_current(path, f"{where}; the current game is {path.name}")
        if referee.game.is_over():
            referee.close()
            if raw is not None:
                self._notice(f"{where}; the last game ({path.name}) is over: no game to resume",
                             f"{where_ru}; последняя игра ({path.name}) окончена: продолжать нечего")
            self._save_state()
            return
        kept = self._restore_seats(referee)
        if not kept:
            self._issue_seat_codes(len(referee.game.seats))
            self.sessions.seat_tokens = {}
        self._bind(referee)
        n = len(referee.log.records())
        game_id = referee.log.header.game
        seats_en = ("the seat codes and the phones' logins are kept" if kept
                    else "the seat codes are new — players join their seats again")
        seats_ru = ("коды мест и входы телефонов сохранены" if kept
                    else "коды мест новые — игроки снова входят на свои места")
        self._notice(f"{where}: the unfinished {game_id} game was recovered from its table log "
                     f"{path} ({n} action{'' if n == 1 else 's'} logged); {seats_en}",
                     f"{where_ru}: неоконченная игра {game_id} восстановлена из журнала стола {path} (действий в "
                     f"журнале: {n}); {seats_ru}")

    # ------------------------------------------------------------------ games
    def current_referee(self) -> Referee | None:
        """The current game's referee (``None`` between games), read under the table's lock:
        :meth:`new_game` replaces it in one step (close, start, bind), and a look in between
        would see no game at all."""
        with self._lock:
            return self.referee

    @property
    def game_id(self) -> str | None:
        """The current game's id, or ``None``."""
        return self.referee.log.header.game if self.referee else None

    def new_game(self, game_id: str, seats, options: dict | None = None) -> Referee:
        """End the current game (if any) and start a new one with a new table log.

        Args:
            game_id: a registered game id (:func:`companion.games.ids`).
            seats: player names, clockwise from seat 0.
            options: house-rule options (the game's ``Options`` fields); defaults when ``None``.

        Returns:
            the new, running :class:`Referee`. New seat join codes are issued; old seat tokens die.

        Raises:
            IllegalAction: ``unknown_game``, ``bad_seats`` or ``bad_option`` (the current game is
                left running).
        """
        from companion.games import new_game as _probe
        from companion.sanitise import problem

        for name in seats:  # a name from the command line may hold what no page can show
            why = problem(name, 100) if isinstance(name, str) else "not a text"
            if why:
                raise IllegalAction("bad_seats", f"player name {name!r}: {why}", {"name": repr(name)})
        _probe(game_id, list(seats), options)  # validate first: a bad form must not end the game
        with self._lock:
            self._close_referee()
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = self.data_dir / "games" / f"{stamp}-{game_id}.sqlite"
            referee = Referee.start(path, game_id, list(seats), options)
            self._issue_seat_codes(len(referee.game.seats))
            self.sessions.seat_tokens = {}
            self._pending = {}
            self._prompts = []
            self.last_ended = None
            self._bind(referee)
        self._emit("game", None)
        return referee

    def _issue_seat_codes(self, n: int) -> None:
        """New, distinct 6-digit join codes for seats ``0..n-1`` (never the PIN)."""
        used: set[str] = set()
        self._seat_codes = {}
        for s in range(n):
            code = _code(6)
            while code in used or code == self.pin:
                code = _code(6)
            used.add(code)
            self._seat_codes[s] = code

    def find_log(self, log_file: str | os.PathLike) -> Path:
        """The table log ``log_file`` names: a path, or a file name in ``<data_dir>/games/``.

        Raises:
            LogError: no such file, or it is not in this table's ``games/`` folder.
        """
        games = (self.data_dir / "games").resolve()
        given = Path(log_file).expanduser()
        for candidate in ([given] if given.is_absolute() else [given, games / given]):
            if candidate.is_file():
                path = candidate.resolve()
                if path.parent != games:
                    raise LogError(f"{candidate} is not in this table's folder {games}: copy the log there first "
                                   f"(a JSON Lines log: `companion replay` reads it)",
                                   ru=f"{candidate} не в папке этого стола {games}: сначала скопируйте журнал туда "
                                      f"(журнал JSON Lines читает `companion replay`)")
                return path
        raise LogError(f"no table log {log_file} (looked for it as a path and in {games}); "
                       f"`ls {games}` lists the games, newest last",
                       ru=f"журнала стола {log_file} нет (искали по этому пути и в {games}); "
                          f"`ls {games}` покажет игры, последняя — внизу")

    def resume_game(self, log_file: str | os.PathLike) -> Referee:
        """Make the unfinished game of an older table log the current one (``companion run`` /
        ``companion dashboard --resume LOG``): the current game, if any, is set aside (its log stays
        and can be resumed the same way), new seat codes are issued (players join again).

        Args:
            log_file: the log's path, or its file name in ``<data_dir>/games/``.

        Returns:
            the running :class:`Referee` of the resumed game.

        Raises:
            LogError: no such log in this table's ``games/``, or the file is not a table log.
            CompanionError: the engine rejects a line of the log, or the game is over.
        """
        path = self.find_log(log_file)
        try:
            referee = Referee.resume(path)
        except sqlite3.Error as exc:
            raise LogError(f"{path} cannot be read: {exc}", ru=f"{path} не читается как журнал стола: {exc}") from None
        if referee.game.is_over():
            referee.close()
            raise CompanionError(f"the game in {path} is over, nothing to resume; `companion replay {path}` tells it",
                                 ru=f"игра в {path} окончена — продолжать нечего; `companion replay {path}` "
                                    f"расскажет, как она шла")
        with self._lock:
            self._close_referee()
            if not self._restore_seats(referee):  # the codes it had, when its log kept them
                self._issue_seat_codes(len(referee.game.seats))
                self.sessions.seat_tokens = {}
            self._pending, self._prompts = {}, []
            self.last_ended = None
            self._bind(referee)
        self._emit("game", None)
        return referee

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

    def end_game(self) -> dict:
        """Stop the current game (its log stays on disk); the table then has no game.

        Returns:
            :attr:`last_ended`: how the game stood, in words, for the screens and the console
            (an unfinished game's chips or points are not lost from sight when it is ended).

        Raises:
            NoGame: there is no current game.
        """
        with self._lock:
            if self.referee is None:
                raise NoGame("no game to end")
            ended = self._ended_summary(self.referee)
            self._note(self.referee, "ended")
            self._close_referee()
            self._seat_codes, self.sessions.seat_tokens, self._pending, self._prompts = {}, {}, {}, []
            self.epoch += 1
            ended["epoch"] = self.epoch
            self.last_ended = ended
            self._save_state()
        self._emit("game", None)
        return ended

    @staticmethod
    def _ended_summary(referee: Referee) -> dict:
        """The ended game's standing in words, built from its public view only (no hidden card or
        note can reach a screen through it): ``{"game", "seats", "over", "text": {"ru", "en"}}``."""
        from companion.games.words import ended_words

        game_id = referee.log.header.game
        with referee.lock:
            game = referee.game
            seats, over = list(game.seats), game.is_over()
            try:
                view = game.view(None)
            except Exception:  # a view that cannot be built still lets the game end
                log.exception("could not read the public view of the game being ended")
                view = {}
        return {"game": game_id, "seats": seats, "over": over, "text": ended_words(game_id, seats, view, over)}

    def discard_unplayed(self) -> bool:
        """Forget the current game if its log holds no action yet — a start that failed before
        anything was played (a busy port, a missing part) must not leave an empty game that the
        next start offers to resume. Closes the referee, deletes the log file and leaves the table
        with no game. Returns ``True`` if a game was discarded, ``False`` (nothing changed) when
        there is no game or it has at least one logged action."""
        with self._lock:
            referee = self.referee
            if referee is None or referee.version > 0 or referee.log.records():
                return False
            path = referee.log.path
            self._close_referee()
            self.last_ended = None
            self._seat_codes, self.sessions.seat_tokens, self._pending, self._prompts = {}, {}, {}, []
            self.epoch += 1
            self._save_state()
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                Path(f"{path}{suffix}").unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:  # the table already forgot it; an orphan file is harmless
                log.warning("could not delete %s%s: %s", path, suffix, exc)
        self._emit("game", None)
        return True

    def close(self) -> None:
        """Stop the referee (the game stays resumable) and drop listeners' binding."""
        with self._lock:
            self._close_referee()

    def _close_referee(self) -> None:
        if self.referee is not None:
            if self._unsub:
                self._unsub()
                self._unsub = None
            self.referee.close()
            self.referee = None

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

    def _tell_wal_damage(self, referee: Referee) -> None:
        """Say it when the game's WAL file held records that fail their checksum (SQLite drops
        them without a word; :attr:`companion.log.TableLog.wal_damage`)."""
        damage = getattr(referee.log, "wal_damage", None)
        if damage is None:
            return
        path, n = referee.log.path, referee.version
        lost = damage.commits_lost or 1
        self._notice(f"the table log {path} was damaged: its WAL file held {damage.damaged} page(s) that fail "
                     f"their checksum — about {lost} action(s) after action {n} are lost and the game goes on "
                     f"from action {n}; check the table and undo or enter again what is missing (a copy: "
                     f"{path}-wal.damaged)",
                     f"журнал стола {path} повреждён: страниц его файла WAL, не прошедших проверку: "
                     f"{damage.damaged}; потеряно действий после {n}-го: примерно {lost}; игра продолжается с "
                     f"действия {n} — сверьте стол и введите недостающее заново (копия: {path}-wal.damaged)")

    def _bind(self, referee: Referee) -> None:
        self._tell_wal_damage(referee)
        self._note(referee, "bound")
        self.referee = referee
        self._unsub = referee.subscribe(self._on_outcome)
        self.inputs.install(referee)
        referee.run()
        self.epoch += 1
        self._save_state()

    def _on_outcome(self, referee: Referee, outcome: Outcome) -> None:
        if referee is not self.referee:
            return
        game = referee.game  # consumer thread: the state is stable while we read it
        n = len(game.seats)
        views: dict = {None: game.view(None)}
        legal: dict = {None: [a.text() for a in game.legal_actions(None)]}
        for s in range(n):
            views[s] = game.view(s)
            legal[s] = [a.text() for a in game.legal_actions(s)]
        with self._lock:
            # a pad's pending count is spent once its seat acted (or the game moved on by undo)
            if self._pending:
                self._pending = {}
                pending_changed = True
            else:
                pending_changed = False
        update = TableUpdate(
            outcome, outcome.version, self.epoch, views, legal, list(game.current_seats()),
            game.is_over(), game.result() if game.is_over() else None,
        )
        self._emit("action", update)
        if pending_changed:
            self._emit("pending", {})

    # ------------------------------------------------------------------ input
    def require_referee(self) -> Referee:
        """The current game's referee.

        Raises:
            NoGame: no game is running (never started, or ended).
        """
        referee = self.referee
        if referee is None:
            raise NoGame("no game is running; the operator starts one")
        return referee

    def submit(self, action: str, source: str, seen: int | None = None) -> Outcome:
        """Submit one action (text form) to the current referee; see :meth:`Referee.submit`
        (``seen``: the version the sender's page showed, which refuses a repeated tap).

        Raises:
            NoGame: no current game.
            TimeoutError: the referee did not answer in time.
        """
        return self.require_referee().submit(action, source, seen=seen)

    def put(self, event):
        """Put one typed input (:mod:`companion.inputs`) on the current referee's queue and wait
        for its decision (:mod:`companion.decide`, on the consumer thread).

        Raises:
            NoGame: no current game.
            TimeoutError: the referee did not answer in time.
        """
        return self.require_referee().put(event)

    def press(self, seat: int, key: str, kind: str = "press"):
        """One button event of ``seat``'s pad (:class:`~companion.inputs.ButtonPressed`); returns
        the :class:`~companion.decide.PadReply` (what the pads did, the outcome of the action
        a press completed).

        Raises:
            NoGame: no current game.
        """
        return self.put(ButtonPressed(seat, key, kind))

    def submit_for_seat(self, seat: int, action, source: str = "dashboard",
                        seen: int | None = None) -> Outcome:
        """Submit an action on behalf of ``seat`` (a phone or a button pad): the action's actor
        must be that seat, else it is rejected without reaching the game: ``not_your_seat`` (another
        seat's or the table's action), ``bad_syntax`` (no actor at all: ``"bid 3"``, empty text),
        ``read_by_table`` (it sets what the camera reads). ``action``: the typed action or its
        text. ``seen``: the version the seat's page showed (:meth:`Referee.submit`: a double tap
        is refused ``repeated``). Decided on the referee's queue (:class:`~companion.inputs.SeatAction`).

        Raises:
            NoGame: no current game.
        """
        return self.put(SeatAction(seat, action, source, seen))

    @staticmethod
    def _observed_by_seat(referee, seat: int, text: str) -> str | None:
        """:func:`companion.decide.observed_by_seat` on ``referee``'s game, under its lock."""
        with referee.lock:
            return observed_by_seat(referee.game, seat, text)

    def undo(self, seen: int | None = None) -> Outcome:
        """Undo the last accepted action (the log directive ``table undo``). With ``seen`` (the
        version the operator's page showed) it is refused ``stale`` when anything was accepted
        since: a double tap or a second operator never undoes two actions.

        Raises:
            NoGame: no current game.
        """
        return self.put(OperatorEntry(UNDO, seen=seen))

    def void_round(self, seen: int | None = None) -> Outcome:
        """Void the current round: everything returned, no payments (``table void``, RULINGS §0);
        ``seen`` as for :meth:`undo`.

        Raises:
            NoGame: no current game.
        """
        return self.put(OperatorEntry(VOID, seen=seen))

    def manual_entry(self, action, prompt_id: str | None = None, seen: int | None = None,
                     facts: dict | None = None) -> Outcome:
        """An operator's entry made because OCR abstained; logged with source ``manual``
        (:class:`~companion.inputs.OperatorEntry`).

        ``action``: the whole action (typed or text), or a template whose open fields ``facts``
        fill. Clears the prompt ``prompt_id`` when the entry is accepted; ``seen`` as for
        :meth:`submit`.

        Raises:
            NoGame: no current game.
        """
        return self.put(OperatorEntry(action, facts or {}, "manual", seen, prompt_id))

    # ------------------------------------------------------------------ views
    def views(self) -> tuple[int, int, dict, dict, list, bool, dict | None]:
        """A consistent read of the current game: ``(epoch, version, views, legal, current_seats,
        over, result)`` with ``views``/``legal`` keyed ``None`` (public/table) and each seat.

        Raises:
            NoGame: no current game.
        """
        referee = self.require_referee()
        with referee.lock:
            game = referee.game
            views: dict = {None: game.view(None)}
            legal: dict = {None: [a.text() for a in game.legal_actions(None)]}
            for s in range(len(game.seats)):
                views[s] = game.view(s)
                legal[s] = [a.text() for a in game.legal_actions(s)]
            over = game.is_over()
            return (self.epoch, referee.version, views, legal, list(game.current_seats()), over,
                    game.result() if over else None)

    def game_info(self) -> dict | None:
        """``{"id", "seats", "options", "started"}`` of the current game, or ``None``."""
        referee = self.referee
        if referee is None:
            return None
        header = referee.log.header
        return {"id": header.game, "seats": list(header.seats), "options": dict(header.options),
                "started": header.created}

    # ------------------------------------------------------------------ access: PIN and seats
    def check_pin(self, pin: str) -> str | None:
        """Return a new operator token if ``pin`` is the operator PIN, else ``None``.

        The token (:meth:`companion.sessions.Sessions.issue_operator`) is signed with
        ``secret.key`` and the PIN: valid across restarts of the same table, for
        :data:`~companion.sessions.OPERATOR_TTL_S`, until :meth:`logout_operator` or a new PIN.
        Rate limiting of attempts is the caller's job (the dashboard's guess limiter).
        """
        if isinstance(pin, str):  # typed as read off the console, in groups ("325 816")
            pin = "".join(pin.split())
        if not isinstance(pin, str) or not hmac.compare_digest(pin.encode(), self.pin.encode()):
            return None
        return self.sessions.issue_operator()

    def is_operator(self, token: str | None) -> bool:
        """True for a live token :meth:`check_pin` issued for the current PIN at this table (same
        data folder and ``secret.key``), in this process or before a restart; not expired, not
        logged out."""
        with self._lock:
            return self.sessions.is_operator(token)

    def logout_operator(self, token: str | None) -> None:
        """End one operator login (the console's «Выйти»): the token is refused from now on, also
        after a restart (``table.json`` keeps the ended ones until they would have expired)."""
        with self._lock:
            if self.sessions.revoke_operator(token):
                self._save_state()

    def seat_codes(self) -> dict[int, str]:
        """``{seat: join code}`` for the current game (operator console only)."""
        with self._lock:
            return dict(self._seat_codes)

    def join(self, code: str, current: str | None = None) -> tuple[int, str] | None:
        """Join a seat by its code: returns ``(seat, seat token)``, or ``None`` for a wrong code.

        Several phones may join the same seat (each gets its own token, at most
        :data:`~companion.sessions.SEAT_TOKENS_PER_SEAT` a seat). ``current``: the token the
        browser holds already; when it is a live token of that seat it is returned again and
        ``table.json`` is not rewritten.
        """
        if not isinstance(code, str):
            return None
        code = code.strip()
        with self._lock:
            for seat, c in self._seat_codes.items():
                if hmac.compare_digest(code.encode(), c.encode()):
                    token, changed = self.sessions.issue_seat(seat, current)
                    if changed:
                        self._save_state()
                    return seat, token
        return None

    def leave_seat(self, token: str | None) -> None:
        """End one seat login («Покинуть место»): that phone must join again with the code."""
        with self._lock:
            if self.sessions.revoke_seat(token):
                self._save_state()

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat a live token was issued for in the current game, else ``None``."""
        if not token:
            return None
        with self._lock:
            return self.sessions.seat_for(token)

    # ------------------------------------------------------------------ side channels
    def set_status(self, part: str, status: dict) -> None:
        """Report a hardware part's status, e.g. ``set_status("camera", {"state": "ok",
        "detail": "picamera2 1280×720"})``. ``state`` is one of ``ok``, ``warn``, ``error``,
        ``absent``, ``sim``.

        Raises:
            ValueError: ``part`` is empty or ``status`` is not a dict with a string ``state``.
        """
        if not isinstance(part, str) or not part or not isinstance(status, dict) \
                or not isinstance(status.get("state"), str):
            raise ValueError("set_status(part, {'state': str, ...})")
        with self._lock:
            self._status[part] = dict(status)
            snapshot = self.status()
        self._emit("status", snapshot)

    def status(self) -> dict[str, dict]:
        """``{part: status dict}`` for every part reported (buttons, camera, ocr at least)."""
        with self._lock:
            return {k: dict(v) for k, v in self._status.items()}

    def set_pending(self, seat: int, count: int | None) -> None:
        """Show a seat's pending button-pad count (a bid being counted up with ``+``);
        ``None`` or 0 clears it. Pending counts clear when any action is accepted.

        Raises:
            ValueError: seat not at this table or count negative.
        """
        referee = self.referee
        n = len(referee.game.seats) if referee else 0
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} is not at this table")
        if count is not None and (not isinstance(count, int) or count < 0):
            raise ValueError("pending count must be a non-negative integer")
        with self._lock:
            if count:
                self._pending[seat] = count
            else:
                self._pending.pop(seat, None)
            snapshot = dict(self._pending)
        self._emit("pending", snapshot)

    def pending(self) -> dict[int, int]:
        """``{seat: pending count}``."""
        with self._lock:
            return dict(self._pending)

    def add_prompt(self, text: str, kind: str = "scan", seat: int | None = None,
                   action: str | None = None) -> str:
        """Show a prompt on the console ("show player 2's notes"); returns its id.

        ``kind="manual"`` with ``action`` (a template such as ``"table deposit 2 ?"``) asks the
        operator to type what OCR could not read; :meth:`manual_entry` with the prompt id clears it.

        Raises:
            ValueError: unknown kind or empty text.
        """
        from companion.sanitise import clean

        if kind not in ("scan", "manual", "info") or not isinstance(text, str) or not clean(text).strip():
            raise ValueError("prompt kind must be scan, manual or info, with a text")
        # every screen shows the prompts: what no page can show never gets in (companion.sanitise)
        prompt = Prompt(secrets.token_hex(4), kind, clean(text, 500).strip(), seat,
                        None if action is None else clean(action, 500))
        with self._lock:
            self._prompts.append(prompt)
            snapshot = [p.to_json() for p in self._prompts]
        self._emit("prompts", snapshot)
        return prompt.id

    def clear_prompt(self, prompt_id: str) -> bool:
        """Remove a prompt; returns False when no such prompt."""
        with self._lock:
            before = len(self._prompts)
            self._prompts = [p for p in self._prompts if p.id != prompt_id]
            if len(self._prompts) == before:
                return False
            snapshot = [p.to_json() for p in self._prompts]
        self._emit("prompts", snapshot)
        return True

    def prompts(self) -> list[dict]:
        """Current prompts as JSON dicts, oldest first."""
        with self._lock:
            return [p.to_json() for p in self._prompts]

    # ------------------------------------------------------------------ fan-out
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(kind, payload)`` on every change (see module docstring).

        Listeners survive new games (the table re-binds to each referee). Returns an unsubscribe
        function. A listener that raises is logged and kept.
        """
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, kind: str, payload: Any) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(kind, payload)
            except Exception:
                log.exception("table listener %r failed on %s", listener, kind)

    def __enter__(self) -> "Table":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Table {self.data_dir} game={self.game_id} v{self.referee.version if self.referee else '-'}>"
