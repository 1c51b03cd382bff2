"""The table session: one physical table, the game it plays now, and who may act on it.

:class:`Table` sits above the :class:`~companion.referee.Referee`. The dashboard and
``companion run`` (button box, camera, simulated table) share one ``Table``:

* it owns the **data directory** (one SQLite table log per game, ``<data_dir>/games/``, plus a small
  ``table.json`` naming the current game, its seat join codes and tokens);
* it holds the **current referee** (or none), starts a game with :meth:`Table.new_game`, ends it
  with :meth:`Table.end_game`, and on construction **resumes** the last unfinished game from its
  log (power cut: nothing lost, phones keep their seat tokens);
* it holds the **operator PIN** (shown on the console and as a QR code at start) and the **seat
  join codes** and seat tokens;
* it keeps the **hardware status** registry (``buttons``, ``camera``, ``ocr``), the console's
  **scan prompts**, and the **pending button-pad counts** (a player counting a bid up with ``+``);
* it fans **events** out to listeners (dashboard streams, lights) and re-binds to each new referee.

Every input enters through :meth:`Table.submit` (or the helpers :meth:`undo`, :meth:`void_round`,
:meth:`manual_entry`), which goes to the referee's one queue. Listeners are called on the thread
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

import dataclasses
import datetime as _dt
import hmac
import json
import logging
import os
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.errors import CompanionError
from companion.log import UNDO
from companion.referee import VOID, Outcome, Referee

log = logging.getLogger(__name__)

STATUS_PARTS = ("buttons", "camera", "ocr")
"""Hardware parts whose status the public view shows (others are accepted too)."""


STATE_FILE = "table.json"


class NoGame(CompanionError, LookupError):
    """The table has no current game (start one with :meth:`Table.new_game`)."""


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


class Table:
    """One table session (see module docstring).

    Args:
        data_dir: folder for table logs and ``table.json`` (created if missing).
        pin: the operator PIN (digits); a random 6-digit PIN when ``None``.
        resume: resume the last unfinished game found in ``table.json``.

    Attributes:
        data_dir: the data folder (``Path``).
        pin: the operator PIN (str) — print it on the console at start.
        referee: the current :class:`Referee` or ``None``.
        epoch: game counter for listeners; bumps on every new, resumed or ended game.
        last_ended: what the screens and console say of the game the operator last ended with
            :meth:`end_game` — ``{"game", "seats", "over", "epoch", "text": {"ru", "en"}}``, its
            standing in words from the public view only — until a new game starts; else ``None``.

    Raises:
        ValueError: ``pin`` is not 4–12 digits.
    """

    def __init__(self, data_dir: str | os.PathLike, pin: str | None = None, resume: bool = True) -> None:
        self.data_dir = Path(data_dir)
        (self.data_dir / "games").mkdir(parents=True, exist_ok=True)
        if pin is not None and not (str(pin).isdigit() and 4 <= len(str(pin)) <= 12):
            raise ValueError("the operator PIN must be 4-12 digits")
        self.pin: str = str(pin) if pin is not None else _code(6)
        self.referee: Referee | None = None
        self.epoch = 0
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._unsub: Callable[[], None] | None = None
        self._seat_codes: dict[int, str] = {}
        self._seat_tokens: dict[str, int] = {}
        self._operator_tokens: set[str] = set()
        self._status: dict[str, dict] = {p: {"state": "absent"} for p in STATUS_PARTS}
        self._pending: dict[int, int] = {}
        self._results: dict[tuple, dict | None] = {}  # last_result's cache: (log, mtime) -> result
        self._prompts: list[Prompt] = []
        self.last_ended: dict | None = None
        self.secret_key = self._load_secret()
        if resume:
            self._resume_last()

    # ------------------------------------------------------------------ persistence
    def _load_secret(self) -> bytes:
        """A per-table secret (session signing for the dashboard), kept across restarts."""
        path = self.data_dir / "secret.key"
        try:
            data = path.read_bytes()
            if len(data) >= 32:
                return data
        except OSError:
            pass
        data = secrets.token_bytes(32)
        path.write_bytes(data)
        try:
            path.chmod(0o600)
        except OSError:
            pass
        return data

    def _state_path(self) -> Path:
        return self.data_dir / STATE_FILE

    def _save_state(self) -> None:
        state = {
            "current": self.referee.log.path.name if self.referee else None,
            "seat_codes": {str(s): c for s, c in self._seat_codes.items()},
            "seat_tokens": self._seat_tokens,
        }
        tmp = self._state_path().with_suffix(".tmp")
        tmp.write_text(json.dumps(state, ensure_ascii=False), encoding="utf-8")
        try:
            tmp.chmod(0o600)
        except OSError:
            pass
        os.replace(tmp, self._state_path())

    def _resume_last(self) -> None:
        try:
            state = json.loads(self._state_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        name = state.get("current") if isinstance(state, dict) else None
        if not isinstance(name, str):
            return
        path = self.data_dir / "games" / name
        try:
            referee = Referee.resume(path)
        except (CompanionError, OSError) as exc:
            log.warning("cannot resume %s: %s", path, exc)
            return
        if referee.game.is_over():
            referee.close()
            return
        codes = state.get("seat_codes") or {}
        tokens = state.get("seat_tokens") or {}
        self._seat_codes = {int(s): str(c) for s, c in codes.items() if str(s).isdigit()}
        self._seat_tokens = {str(t): int(s) for t, s in tokens.items() if isinstance(s, int)}
        self._bind(referee)
        log.info("resumed %s at version %d", path, referee.version)

    # ------------------------------------------------------------------ games
    @property
    def game_id(self) -> str | None:
        """The current game's id, or ``None``."""
        return self.referee.log.header.game if self.referee else None

    def new_game(self, game_id: str, seats, options: dict | None = None) -> Referee:
        """End the current game (if any) and start a new one with a new table log.

        Args:
            game_id: one of :data:`companion.games.GAME_IDS` (installed).
            seats: player names, clockwise from seat 0.
            options: house-rule options (the game's ``Options`` fields); defaults when ``None``.

        Returns:
            the new, running :class:`Referee`. New seat join codes are issued; old seat tokens die.

        Raises:
            IllegalAction: ``unknown_game``, ``bad_seats`` or ``bad_option`` (the current game is
                left running).
        """
        from companion.games import new_game as _probe

        _probe(game_id, list(seats), options)  # validate first: a bad form must not end the game
        with self._lock:
            self._close_referee()
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
            path = self.data_dir / "games" / f"{stamp}-{game_id}.sqlite"
            referee = Referee.start(path, game_id, list(seats), options)
            n = len(referee.game.seats)
            used: set[str] = set()
            self._seat_codes = {}
            for s in range(n):
                code = _code(6)
                while code in used or code == self.pin:
                    code = _code(6)
                used.add(code)
                self._seat_codes[s] = code
            self._seat_tokens = {}
            self._pending = {}
            self._prompts = []
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
                    with TableLog.open(path) as tlog:
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
            self._close_referee()
            self._seat_codes, self._seat_tokens, self._pending, self._prompts = {}, {}, {}, []
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
            self._seat_codes, self._seat_tokens, self._pending, self._prompts = {}, {}, {}, []
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
        self.referee = referee
        self._unsub = referee.subscribe(self._on_outcome)
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

    def submit_for_seat(self, seat: int, action: str, source: str = "dashboard",
                        seen: int | None = None) -> Outcome:
        """Submit an action on behalf of ``seat`` (a phone or a button pad): the action's actor
        must be that seat, else it is rejected without reaching the game: ``not_your_seat`` (another
        seat's or the table's action), ``bad_syntax`` (no actor at all: ``"bid 3"``, empty text).
        ``seen``: the version the seat's page showed (:meth:`Referee.submit`: a double tap is
        refused ``repeated``).

        Raises:
            NoGame: no current game.
        """
        referee = self.require_referee()
        text = " ".join(str(action).split())
        actor = text.split(" ", 1)[0] if text else ""
        if actor != str(seat):
            if not (actor.isdigit() or actor == "table"):  # not someone else's action: no action
                return Outcome(False, text, source, "bad_syntax",
                               f"an action starts with the acting seat ({seat}), got {text!r}", (),
                               referee.version)
            return Outcome(False, text, source, "not_your_seat",
                           f"seat {seat} may only submit its own actions", (), referee.version)
        observed = self._observed_by_seat(referee, seat, text)
        if observed:
            return Outcome(False, text, source, "read_by_table",
                           f"a seat declares its move; what it shows ({observed}) is read by the camera "
                           "or entered by the operator", (), referee.version)
        return referee.submit(text, source, seen=seen)

    @staticmethod
    def _observed_by_seat(referee, seat: int, text: str) -> str | None:
        """The field names ``text`` fills where the seat's own legal action of that verb has an
        observation (``?``: a card face, a serial — the camera's or the operator's to give), or
        ``None``. A seat declares (``0 play ?``); a phone or pad must not set the face itself.
        Judged on the legal templates, not on the field's type: a lottery player's card is a
        decision (his cards lie face up and the templates name them), though its field may be
        ``?`` for the table."""
        tokens = text.split()
        if len(tokens) < 2:
            return None
        with referee.lock:
            templates = [a for a in referee.game.legal_actions(seat) if getattr(a, "VERB", None) == tokens[1]]
        filled = []
        for a in templates:
            args = a.text().split()[2:]
            fields = [f.name for f in dataclasses.fields(a)][1:]
            given = tokens[2:]
            if len(given) != len(args):
                continue
            bad = [fields[i] if i < len(fields) else str(i) for i, (want, got) in enumerate(zip(args, given))
                   if want == "?" and got != "?"]
            if not bad:
                return None  # fits a template as it is
            filled = bad
        return ", ".join(filled) if filled else None

    def undo(self, seen: int | None = None) -> Outcome:
        """Undo the last accepted action (the log directive ``table undo``). With ``seen`` (the
        version the operator's page showed) it is refused ``stale`` when anything was accepted
        since: a double tap or a second operator never undoes two actions.

        Raises:
            NoGame: no current game.
        """
        return self.submit(UNDO, "operator", seen=seen)

    def void_round(self, seen: int | None = None) -> Outcome:
        """Void the current round: everything returned, no payments (``table void``, RULINGS §0);
        ``seen`` as for :meth:`undo`.

        Raises:
            NoGame: no current game.
        """
        return self.submit(VOID, "operator", seen=seen)

    def manual_entry(self, action: str, prompt_id: str | None = None, seen: int | None = None) -> Outcome:
        """An operator's entry made because OCR abstained; logged with source ``manual``.

        Clears the prompt ``prompt_id`` when the entry is accepted; ``seen`` as for
        :meth:`submit`.

        Raises:
            NoGame: no current game.
        """
        outcome = self.submit(action, "manual", seen=seen)
        if outcome.accepted and prompt_id:
            self.clear_prompt(prompt_id)
        return outcome

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

        Rate limiting of attempts is the caller's job (the dashboard limits per client).
        """
        if isinstance(pin, str):  # typed as read off the console, in groups ("325 816")
            pin = "".join(pin.split())
        if not isinstance(pin, str) or not hmac.compare_digest(pin.encode(), self.pin.encode()):
            return None
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._operator_tokens.add(token)
        return token

    def is_operator(self, token: str | None) -> bool:
        """True for a token issued by :meth:`check_pin` in this process."""
        if not token:
            return False
        with self._lock:
            return any(hmac.compare_digest(token, t) for t in self._operator_tokens)

    def seat_codes(self) -> dict[int, str]:
        """``{seat: join code}`` for the current game (operator console only)."""
        with self._lock:
            return dict(self._seat_codes)

    def join(self, code: str) -> tuple[int, str] | None:
        """Join a seat by its code: returns ``(seat, seat token)``, or ``None`` for a wrong code.

        Several phones may join the same seat (each gets its own token).
        """
        if not isinstance(code, str):
            return None
        code = code.strip()
        with self._lock:
            for seat, c in self._seat_codes.items():
                if hmac.compare_digest(code.encode(), c.encode()):
                    token = secrets.token_urlsafe(24)
                    self._seat_tokens[token] = seat
                    self._save_state()
                    return seat, token
        return None

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat a token was issued for in the current game, else ``None``."""
        if not token:
            return None
        with self._lock:
            return self._seat_tokens.get(token)

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
        if kind not in ("scan", "manual", "info") or not isinstance(text, str) or not text.strip():
            raise ValueError("prompt kind must be scan, manual or info, with a text")
        prompt = Prompt(secrets.token_hex(4), kind, text.strip(), seat, action)
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
