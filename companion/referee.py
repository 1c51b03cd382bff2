"""The referee: the one consumer between the table's inputs and the game.

Inputs (button box, camera readers, dashboard requests, simulated bots) call :meth:`Referee.submit`
from any thread; each submission goes onto one queue and a single consumer thread applies it to the
game, appends it to the table log (durable before anyone hears of it) and then publishes the
resulting events to subscribers (dashboard streams, lights, console). No rules live here.

The referee always holds exactly the state that replaying its table log gives, so a power cut
loses nothing: :meth:`Referee.resume` rebuilds it from the log.
"""

from __future__ import annotations

import logging
import queue
import re
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from companion.errors import CompanionError, IllegalAction
from companion.games.base import Action, Event
from companion.log import UNDO, TableLog, replay

VOID = "table void"
"""Every game's operator action "void the round" (RULINGS §0)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """What became of one submission.

    Attributes:
        accepted: True when the action was applied and logged.
        action: the action text as submitted.
        source: where it came from (``button``, ``camera``, ``manual``, ``operator``, ``dashboard``,
            ``sim``).
        reason: reason code when rejected (``IllegalAction.reason``), else ``None``.
        detail: human-readable reason when rejected.
        events: the events the action caused (public and private ones; filter by ``private_to``).
        version: the game version after this submission.
        facts: when rejected, the refusal's facts (``IllegalAction.facts``: the player, the
            counts …) for the words a person sees; not part of :meth:`to_json`.
    """

    accepted: bool
    action: str
    source: str
    reason: str | None = None
    detail: str | None = None
    events: tuple[Event, ...] = ()
    version: int = 0
    facts: dict | None = None

    def to_json(self) -> dict:
        return {
            "accepted": self.accepted,
            "action": self.action,
            "source": self.source,
            "reason": self.reason,
            "detail": self.detail,
            "version": self.version,
        }


Subscriber = Callable[["Referee", Outcome], None]


Handler = Callable[[object], object]
"""A typed input's decision (:meth:`Referee.handle`): called on the consumer thread under the
referee's lock with the event; returns an :class:`Outcome`, ``None`` (nothing was applied), or an
object whose ``outcome`` attribute is the :class:`Outcome` or ``None``."""


@dataclass
class _Job:
    action: object  # action text, a typed Action, or a typed input (companion.inputs)
    source: str
    future: Future = field(default_factory=Future)
    seen: int | None = None
    event: bool = False  # ``action`` is a typed input for its handler


class Referee:
    """One game at one table, fed from one queue, persisted in one table log.

    Use :meth:`start` for a new game or :meth:`resume` after a restart; then :meth:`run` (or use the
    referee as a context manager, which starts and stops the consumer thread).

    Attributes:
        game: the engine (read it only from subscribers or under :attr:`lock`).
        log: the :class:`TableLog`.
        version: bumps on every accepted action or undo; dashboards send it with each delta.
    """

    def __init__(self, table_log: TableLog) -> None:
        self.log = table_log
        result = replay(table_log.header, table_log.records())
        if result.rejected:
            raise CompanionError(
                f"table log {table_log.path} has {len(result.rejected)} line(s) the engine rejects; "
                f"first: line {result.rejected[0].line} {result.rejected[0].reason}"
            )
        self.game = result.game
        self._applied = [r.action for r in result.applied]  # the actions in effect, in order
        records = table_log.records()
        self.version = len(records)  # one per log record: monotonic across restarts
        #: the last version every subscriber has been told of (:attr:`version` once they all were)
        self.published = self.version
        #: the logged text of every version (record ``k`` made version ``k + 1``): the
        #: :meth:`submit` ``seen`` guard looks for a repeat among the ones after ``seen``
        self._texts: list[str] = [r.action for r in records]
        self.lock = threading.RLock()
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._subscribers: list[Subscriber] = []
        self._handlers: dict[type, Handler] = {}
        self._after: list[Callable[[], None]] = []  # a handler's side effects, run once the lock is free
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ construction
    @classmethod
    def start(cls, log_path: str | Path, game_id: str, seats, options: dict | None = None) -> "Referee":
        """Start a new game with a new table log at ``log_path``.

        Raises:
            IllegalAction: unknown game, bad seats or options (nothing is written).
            LogError: ``log_path`` already holds a game.
        """
        from companion.games import new_game

        probe = new_game(game_id, seats, options)  # validates before anything touches the disk
        table_log = TableLog.create(log_path, game_id, probe.seats, probe.options.to_dict())
        return cls(table_log)

    @classmethod
    def resume(cls, log_path: str | Path) -> "Referee":
        """Rebuild the referee from an existing table log (after a crash or restart).

        The log is read and replayed read-only first: a log the engine refuses (or that is no
        table log) is left exactly as it was, byte for byte, and closed.

        Raises:
            LogError: no log at ``log_path`` or not a table log.
            CompanionError: the engine rejects a line of the log.
        """
        table_log = TableLog.open(log_path, readonly=True)
        try:
            referee = cls(table_log)
            table_log.writable()
        except BaseException:
            table_log.close()
            raise
        return referee

    # ------------------------------------------------------------------ subscribers
    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(referee, outcome)`` on the consumer thread after every accepted action.

        Returns a function that unsubscribes. A subscriber that raises is logged and kept.
        """
        with self.lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self.lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def handle(self, event_type: type, handler: Handler) -> None:
        """Decide inputs of ``event_type`` (:mod:`companion.inputs`) with ``handler`` on the
        consumer thread (:meth:`put`); a later call for the same type replaces it."""
        with self.lock:
            self._handlers[event_type] = handler

    # ------------------------------------------------------------------ the queue
    def run(self) -> None:
        """Start the consumer thread (idempotent)."""
        if self._thread and self._thread.is_alive():
            return
        self._thread = threading.Thread(target=self._consume, name="referee", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the consumer after the queued submissions are done."""
        if self._thread and self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)
        self._thread = None

    def close(self) -> None:
        """Stop the consumer and close the table log."""
        self.stop()
        self.log.close()

    def __enter__(self) -> "Referee":
        self.run()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def put(self, event, timeout: float | None = 10.0):
        """Queue one typed input (:mod:`companion.inputs`) and wait for what its handler
        (:meth:`handle`) decided: an :class:`Outcome`, ``None`` or the handler's own reply.
        Thread-safe; the decision runs on the consumer thread (the caller's when it is not
        running), with the referee's lock taken once.

        Raises:
            LookupError: no handler for the event's type.
            TimeoutError: the consumer did not answer within ``timeout`` seconds.
        """
        if type(event) not in self._handlers:
            raise LookupError(f"no handler for {type(event).__name__} at this referee")
        job = _Job(event, getattr(event, "source", "") or "", event=True)
        if not (self._thread and self._thread.is_alive()):
            self._process(job)
        else:
            self._queue.put(job)
        return job.future.result(timeout)

    def after(self, effect: Callable[[], None]) -> None:
        """Run ``effect()`` when the current input's decision is done and the lock is released,
        before the subscribers hear of its outcome — for a handler's side effects on other
        locks (the table's pending counts and prompts), so no lock is ever taken inside the
        referee's. Only from a handler (:meth:`handle`)."""
        self._after.append(effect)

    def apply_now(self, action, source: str, seen: int | None = None) -> Outcome:
        """Apply one action (a typed :class:`~companion.games.base.Action`, or text) at once, on
        the calling thread — only from a handler (:meth:`handle`), i.e. on the consumer thread,
        whose job then publishes the outcome. See :meth:`submit` for ``seen``."""
        return self._apply(action, source, seen)

    def submit(self, action, source: str, timeout: float | None = 10.0,
               seen: int | None = None) -> Outcome:
        """Queue one action and wait for its outcome. Thread-safe.

        ``action`` is a typed action of the game or its text form (parsed once, on the consumer
        thread); it may be the log directive ``table undo`` (operator's undo last action).
        If the consumer thread is not running, the action is processed on the caller's thread.

        Args:
            seen: the :attr:`version` of the table the sender was looking at (a dashboard page
                sends its model's version), or ``None`` (button pads, the camera: no guard).
                With it, checked atomically with the apply (a double tap, two operators at
                once): ``table undo`` and ``table void`` are refused ``stale`` when anything
                was accepted after ``seen`` (they act on what the sender saw); any other action
                is refused ``repeated`` when the same action (same text, so the same actor) was
                already accepted after ``seen``. Nothing changes on a refusal.

        Raises:
            TimeoutError: the consumer did not answer within ``timeout`` seconds.
        """
        job = _Job(action, source, seen=seen)
        if not (self._thread and self._thread.is_alive()):
            self._process(job)
        else:
            self._queue.put(job)
        return job.future.result(timeout)

    def _consume(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            self._process(job)

    def _process(self, job: _Job) -> None:
        try:
            with self.lock:  # once per input: the decision and the apply see one state
                if job.event:
                    reply = self._handlers[type(job.action)](job.action)
                    outcome = reply if isinstance(reply, Outcome) or reply is None \
                        else getattr(reply, "outcome", None)
                else:
                    reply = outcome = self._apply(job.action, job.source, job.seen)
        except Exception as exc:  # never let one bad input kill the consumer
            log.exception("referee failed on %r", job.action)
            self._run_after()
            job.future.set_exception(exc)
            return
        self._run_after()
        job.future.set_result(reply)
        if outcome is not None and outcome.accepted:
            for callback in list(self._subscribers):
                try:
                    callback(self, outcome)
                except Exception:  # a broken screen must not stop the game
                    log.exception("subscriber %r failed", callback)
            self.published = max(self.published, outcome.version)

    def _run_after(self) -> None:
        effects, self._after = self._after, []
        for effect in effects:
            try:
                effect()
            except Exception:  # a side channel must not stop the game
                log.exception("side effect %r failed", effect)

    def _apply(self, action, source: str, seen: int | None = None) -> Outcome:
        with self.lock:
            if isinstance(action, Action):
                return self._apply_action(action, action.text(), source, seen)
            if not isinstance(action, str) or not action.strip():
                return Outcome(False, str(action), source, "bad_syntax", "empty action", (), self.version)
            # one form of a list whatever the spacing: "лист, лист" is "лист,лист"
            text = " ".join(re.sub(r"\s*,\s*", ",", action.strip()).split())
            if seen is not None and (refused := self._guard(text, source, seen)) is not None:
                return refused
            if text == UNDO:
                return self._undo(source)
            try:
                parsed = self.game.parse_action(text)
            except IllegalAction as exc:
                return Outcome(False, text, source, exc.reason, exc.detail, (), self.version,
                               exc.facts or None)
            return self._apply_action(parsed, text, source, seen)

    def _apply_action(self, parsed: Action, text: str, source: str, seen: int | None) -> Outcome:
        """Validate ``parsed`` with the engine, log it, count it (under the lock)."""
        with self.lock:
            try:
                if seen is not None and (refused := self._guard(parsed.text(), source, seen)) is not None:
                    return refused
                events = self.game.apply(parsed)
            except IllegalAction as exc:
                return Outcome(False, text, source, exc.reason, exc.detail, (), self.version,
                               exc.facts or None)
            try:
                self.log.append(parsed.text(), source)
            except Exception:
                # The log is the truth: if it could not be written, rebuild from it.
                self._rebuild()
                raise
            self._texts.append(parsed.text())
            self._applied.append(parsed.text())
            self.version += 1
            return Outcome(True, parsed.text(), source, None, None, tuple(events), self.version)

    def _guard(self, text: str, source: str, seen: int) -> Outcome | None:
        """The :meth:`submit` ``seen`` check: a refusal, or ``None`` when ``text`` may go on."""
        if not isinstance(seen, int) or isinstance(seen, bool) or seen < 0:
            return Outcome(False, text, source, "bad_syntax", f"'seen' must be a table version, got {seen!r}",
                           (), self.version)
        after = self._texts[seen:] if seen <= self.version else []
        if text in (UNDO, VOID):
            if self.version > seen:
                return Outcome(False, text, source, "stale",
                               f"the table changed after version {seen} (now {self.version}): "
                               f"{'undo' if text == UNDO else 'void'} acts on what the sender saw",
                               (), self.version)
            return None
        if text in after:
            return Outcome(False, text, source, "repeated",
                           f"{text!r} was already accepted after version {seen} (a second tap)",
                           (), self.version)
        return None

    def _undo(self, source: str) -> Outcome:
        """Undo the last action in effect. The accepted outcome's ``detail`` is the undone
        action's text, for the operator who asked (it may name a face-down serial, so it is
        never put into the public ``undo`` event)."""
        if not self._applied:
            return Outcome(False, UNDO, source, "nothing_to_undo", "no accepted action to undo", (), self.version)
        undone = self._applied[-1]
        self.log.append(UNDO, source if source in ("operator", "manual") else "operator")
        self._texts.append(UNDO)
        self._rebuild()
        self.version += 1
        return Outcome(True, UNDO, source, None, undone, (Event("undo", {}),), self.version)

    def _rebuild(self) -> None:
        result = replay(self.log.header, self.log.records())
        self.game = result.game
        self._applied = [r.action for r in result.applied]

    # ------------------------------------------------------------------ reading
    def view(self, seat: int | None) -> dict:
        """The game's view for one viewer (``None``: public), under the lock."""
        with self.lock:
            return self.game.view(seat)

    def __repr__(self) -> str:
        return f"<Referee {self.log.header.game} v{self.version} log={self.log.path}>"
