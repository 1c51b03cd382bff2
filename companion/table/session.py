"""The table session: the game a table plays now, its lifecycle, and the inputs to its queue.

:class:`Table` sits above the :class:`~companion.referee.Referee`. The dashboard and
``companion run`` (button box, camera, simulated table) share one ``Table``: it holds the
**current referee** (or none), starts a game with :meth:`Table.new_game`, resumes an older one
with :meth:`Table.resume_game`, ends it with :meth:`Table.end_game`, and on construction
**resumes** the last unfinished game from its log (the data folder and recovery:
:mod:`companion.table.store`; the PIN and seat codes: :mod:`companion.table.auth`; status,
prompts, pending counts and listeners: :mod:`companion.table.channels`; the inputs to the
game's queue and consistent reads of it: :mod:`companion.table.inputs`). Listeners are called on
the thread that caused the change (the referee's consumer thread for game actions); they must not
block.

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
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from companion.decide import TableInputs
from companion.errors import CompanionError, IllegalAction, LogError
from companion.i18n import M, both
from companion.referee import Outcome, Referee
from companion.sessions import Sessions, pin_refusal
from companion.settings import SettingsError
from companion.table.auth import PIN_FILE, AuthMixin
from companion.table.channels import STATUS_PARTS, ChannelsMixin, Listener, Prompt
from companion.table.control import ControlMixin
from companion.table.inputs import InputsMixin, NoGame
from companion.table.store import Notice, StoreMixin

log = logging.getLogger(__name__)


def check_new_game(game_id: str, seats, options: dict | None = None) -> list:
    """The seats of a new game as :meth:`Table.new_game` starts it (direction controls taken out
    of the names), once the engine accepts the game, its players and options.

    Raises:
        IllegalAction: ``unknown_game``, ``bad_seats`` or ``bad_option``.
    """
    from companion.games import new_game as _probe
    from companion.games.seats import MAX_SEAT_NAME, long_name, shortened_name
    from companion.sanitise import bad_character, problem, without_bidi

    seats = [without_bidi(n) if isinstance(n, str) else n for n in seats]
    long = long_name(seats)  # one limit for the new-game form, --seats and the settings file
    if long is not None:
        raise IllegalAction("bad_seats", f"a player name of {len(long)} characters (at most {MAX_SEAT_NAME})",
                            {"too_long": shortened_name(long), "length": len(long), "most": MAX_SEAT_NAME})
    for seat, name in enumerate(seats, 1):  # a name from the command line may hold what no page can show
        why = problem(name, 100) if isinstance(name, str) else "not a text"
        if why:
            at = bad_character(name) if isinstance(name, str) else None
            facts = {"name": repr(name), "seat": seat}
            if at is not None:  # which character, from 1, and its code point: the name as typed shows neither
                facts.update(position=at + 1, char=f"U+{ord(name[at]):04X}")
            raise IllegalAction("bad_seats", f"player name {name!r}: {why}", facts)
    _probe(game_id, list(seats), options)
    return seats


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


class Table(StoreMixin, AuthMixin, ChannelsMixin, ControlMixin, InputsMixin):
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
            :meth:`end_game` — ``{"game", "seats", "over", "epoch", "text": {"ru", "en"}, "log"}``,
            its standing in words from the public view only (``log``: its table log's path, for the
            console; the pages' model leaves it out) — until a new game starts; else ``None``.

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
            raise SettingsError(pin_refusal(pin))
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
        self._control: dict[int, str] = {}  # seat -> "bot" | "console" (companion.table.control)
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
        seats = check_new_game(game_id, seats, options)  # first: a bad form must not end the game
        with self._lock:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = self.data_dir / "games" / f"{stamp}-{game_id}.sqlite"
            self._set_aside(self.referee, path.name)  # its log says another game took its place
            self._close_referee()
            referee = Referee.start(path, game_id, list(seats), options)
            self._issue_seat_codes(len(referee.game.seats))
            self.sessions.retire_seats()  # a phone coming back is told why it joins again
            self._pending = {}
            self._prompts = []
            self.last_ended = None
            self._bind(referee)
        self._emit("game", None)
        return referee

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
            raise LogError(M("%(path)s cannot be read: %(error)s", path=str(path), error=str(exc))) from None
        if referee.game.is_over():
            referee.close()
            raise CompanionError(M("the game in %(path)s is over, nothing to resume; `companion replay %(path)s` tells it",
                                   path=str(path)))
        with self._lock:
            if self.referee is None or self.referee.log.path != path:
                self._set_aside(self.referee, path.name)  # its log says another game took its place
            self._close_referee()
            if not self._restore_seats(referee):  # the codes it had, when its log kept them
                self._issue_seat_codes(len(referee.game.seats))
                self.sessions.retire_seats()
            self._pending, self._prompts = {}, []
            self.last_ended = None
            self._bind(referee)
        self._emit("game", None)
        return referee

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
            ended["log"] = str(self.referee.log.path)  # the console's stop line names it
            self._note(self.referee, "ended")
            self._close_referee()
            self.sessions.retire_seats("ended")  # a phone coming back is told the operator ended its game
            self._seat_codes, self._pending, self._prompts = {}, {}, []
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
        from companion.games.words import ended_message

        game_id = referee.log.header.game
        with referee.lock:
            game = referee.game
            seats, over = list(game.seats), game.is_over()
            try:
                view = game.view(None)
            except Exception:  # a view that cannot be built still lets the game end
                log.exception("could not read the public view of the game being ended")
                view = {}
        # the summary is kept and sent as JSON (pages, console, club): its words in both languages
        return {"game": game_id, "seats": seats, "over": over, "text": both(ended_message(game_id, seats, view, over))}

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

    def _bind(self, referee: Referee) -> None:
        self._tell_wal_damage(referee)
        self._note(referee, "bound")
        self.referee = referee
        self._unsub = referee.subscribe(self._on_outcome)
        self.inputs.install(referee)
        self._restore_control(referee)
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

    def __enter__(self) -> "Table":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Table {self.data_dir} game={self.game_id} v{self.referee.version if self.referee else '-'}>"
