"""The simulated table: a game's :class:`~companion.games.simulator.TableSim` bots playing through the devices.

The sim (``companion/games/<game>/sim.py``) holds the physical truth and decides what each bot does. This
driver turns each decision into what a person at a real table would do, and lets the real code
path take it from there:

* a seat decision (source ``button``) becomes **button presses** on the virtual box's pty
  (:func:`companion.pads.presses_for`); the host driver reads the frames, the pads map them back to
  the action and the referee rules;
* an observation (source ``camera``) becomes a **rendered camera frame** of the physical items
  (:mod:`companion.vision.scene`), read by the **real** note or card reader
  (:mod:`companion.observe`). When the reader abstains, or reads something that is not on the table
  (the driver knows the truth), the item is shown again at a new pose — a **retry**, counted; after
  :attr:`SimTable.max_attempts` the operator types it in (source ``manual``, counted);
* an operator action (source ``operator``/``manual``/``sim``) is entered as the operator would.

The driver keeps a *shadow* copy of the game for the bots, advanced only by actions the referee
accepted. Resuming after a crash replays the table log into a fresh shadow and sim
(:meth:`SimTable.sync`): bots are seeded, so a resumed game continues exactly as an uninterrupted
one would.

The bots play **only their own game**: the one at the table when the driver first synced
(:attr:`SimTable.owned`, its table log). When the operator starts another game from the console
(or ends theirs), the bots stop — no press, no note or card put in view for a game they did not
deal — and :attr:`SimTable.released` says so in one line; the table keeps working for manual play.
After a restart an operator's unfinished game resumes with the bots idle from the start
(:meth:`SimTable.release`), exactly as they were idle for it before.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from companion.errors import CompanionError
from companion.i18n import M, Message, render
from companion.games import new_game
from companion.log import replay
from companion.observe import matches, observed_fields
from companion.pads import presses_for
from companion.simstats import SimStats, StatsFile

if TYPE_CHECKING:
    import numpy as np

    from companion.games.base import Game
    from companion.games.simulator import TableSim
    from companion.observe import Reader
    from companion.table import Table

log = logging.getLogger(__name__)


class SimTableError(CompanionError, RuntimeError):
    """The simulated table cannot go on (an action was not accepted in time, or the bots proposed
    something the devices cannot express). Always a bug to report, never swallowed."""




class SceneCamera(Protocol):
    """The camera the driver shows the physical items to (:class:`companion.parts.CameraAdapter`
    over a :class:`~companion.parts.PushSource`)."""

    def push(self, frame: np.ndarray) -> None: ...
    def read(self) -> np.ndarray: ...


class FrameRenderer(Protocol):
    """What draws those frames (:class:`companion.vision.scene.SceneRenderer`)."""

    def render(self, items: Sequence[tuple[str, str]], attempt: int = 0, truth: dict | None = None,
               game: Game | None = None) -> np.ndarray: ...


class SimTable:
    """Drives one game's bots through the table's devices (see module docstring).

    Args:
        table: the :class:`companion.table.Table` with the running game.
        press: ``press(seat, button)`` — presses a button on the virtual box (returns at once;
            the press travels through the pty).
        camera: the scene camera: ``push(frame)`` shows a frame, ``read()`` returns the next one.
        readers: ``{"note": reader, "card": reader}`` (:mod:`companion.observe`).
        renderer: :class:`companion.vision.scene.SceneRenderer`.
        seed: the bots' seed (the game's sim seed).
        pace_ms: pause between actions (ms) so a watcher can follow; 0 for headless.
        press_ms: pause between presses of one action (ms).
        max_attempts: camera reads per observation before manual entry.
        timeout: seconds to wait for the referee to accept an action.
        pad_seats: the virtual box's pads (``None``: one for every seat).
        stats_file: where the bots' games' :class:`SimStats` are kept (JSON: table log file name →
            counters), or ``None`` to keep them in memory only. A resumed game's counters are
            read back from it at the first :meth:`sync`; each step writes them.
    """

    def __init__(self, table: Table, press: Callable[[int, str], None], camera: SceneCamera,
                 readers: dict[str, Reader], renderer: FrameRenderer,
                 seed: int = 0, pace_ms: int = 0, press_ms: int = 2, max_attempts: int = 6,
                 timeout: float = 20.0, sim_options: dict | None = None, stats_file=None,
                 pad_seats: int | None = None) -> None:
        self.table = table
        #: seats with a pad on the virtual box (``None``: every seat); a seat beyond them acts
        #: on its phone's seat view (a later game with more seats than the box was made for)
        self.pad_seats = pad_seats
        self.press = press
        self.camera = camera
        self.readers = readers
        self.renderer = renderer
        self.seed = seed
        self.pace_ms = pace_ms
        self.press_ms = press_ms
        self.max_attempts = max_attempts
        self.timeout = timeout
        self.sim_options = dict(sim_options or {})
        self.stats = SimStats()
        self.stats_file = stats_file
        self._kept = StatsFile(stats_file) if stats_file is not None else None
        self.game: Game | None = None  # the shadow game
        self.sim: TableSim | None = None
        self._cond = threading.Condition()
        self._accepted: list[tuple[int, str]] = []  # (version, text) seen from the table
        self._seen_version = 0
        self._unsub = table.subscribe(self._on_table)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None
        #: the table log (``Path``) of the bots' own game: the table's game at the first sync
        self.owned: Path | None = None
        #: why the bots stopped playing (the table's game is no longer theirs), one line in
        #: English (the run's log); ``None`` while they play
        self.released: str | None = None
        #: the same line as a message (the console's words, :meth:`released_words`)
        self.released_message: Message | None = None

    # ------------------------------------------------------------------ whose game
    def _ours(self) -> bool:
        """True while the table's current game is the bots' own (:attr:`owned`). Otherwise the
        bots are released (once, with the reason in :attr:`released`) and False is returned."""
        if self.released is not None:
            return False
        ref = self.table.current_referee()  # never the gap inside a new game's start
        path = ref.log.path if ref is not None else None
        if self.owned is None or path == self.owned:
            return True
        if ref is None:
            why = M("the operator ended the game")
        else:
            why = M("the operator started another game (%(game)s, table log %(path)s)", game=ref.log.header.game,
                    path=str(path))
        self.released_message = M("%(why)s: the simulated table's bots play only their own game (%(game)s) and "
                                  "stop; play on from the console and the phones", why=why, game=self.owned.name)
        self.released = render(self.released_message, "en")
        log.info("%s", self.released)
        return False

    def released_words(self, lang: str = "ru") -> str | None:
        """:attr:`released` in ``lang`` (``"ru"`` or ``"en"``); ``None`` while the bots play."""
        return render(self.released_message, lang) if self.released_message is not None else self.released

    def release(self, why: str | Message) -> None:
        """Let the bots leave the table's game alone from the start (a resumed game the operator
        started from the console, or one whose log they cannot follow): :attr:`released` becomes
        the one line the console shows; :meth:`run` returns at once and nothing is pressed or put
        in view. The table keeps working for the console and the phones."""
        if self.released is None:
            self.released_message = M("the simulated table's bots leave this game alone (%(why)s); play on from the "
                                      "console and the phones", why=M(why) if isinstance(why, str) else why)
            self.released = render(self.released_message, "en")
            log.info("%s", self.released)

    def _require_ours(self) -> None:
        """Raise :class:`_Released` when the table's game is not the bots' own."""
        if not self._ours():
            raise _Released()

    # ------------------------------------------------------------------ following the referee
    def _on_table(self, kind: str, payload) -> None:
        if self.released is not None:
            return  # not the bots' game: nothing to follow
        if kind == "action":
            with self._cond:
                self._accepted.append((payload.version, payload.outcome.action))
                self._cond.notify_all()
        elif kind == "game":
            # decided now, not when the bots next move: their thread may be idle (their game is
            # over) and the console says at once that they leave the new game alone
            if self.owned is not None:
                self._ours()
            with self._cond:
                self._accepted.append((-1, ""))  # a new/resumed game: resync
                self._cond.notify_all()

    def sync(self) -> int:
        """Rebuild the shadow game and the bots from the table log (start and crash resume).

        The first sync makes the table's game the bots' own (:attr:`owned`); a later one (after
        the operator's undo) rebuilds that game only.

        Returns the number of logged actions replayed into the bots.

        Raises:
            SimTableError: no game at the table, or the bots cannot follow its log (a game they
                did not deal: their notes and cards are not the ones it registered).
            _Released: the table's game is no longer the bots' own (internal; :meth:`run` stops).
        """
        from companion.games.simulator import get_sim_class

        ref = self.table.referee
        self._require_ours()
        if ref is None:
            raise SimTableError("the table has no game for the bots to play")
        with ref.lock:
            header = ref.log.header
            result = replay(header, ref.log.records())
            version = ref.version
        game = new_game(header.game, header.seats, header.options)
        sim = get_sim_class(header.game)(game, self.seed, **self.sim_options)
        for rec in result.applied:
            try:
                proposed = sim.next_action()  # advance the bots' RNG exactly as in the first run
                if proposed is not None and proposed[0] != rec.action:
                    log.info("log differs from the bots at %r (bots: %r): following the log", rec.action, proposed[0])
                game.apply(rec.action)
                sim.applied(rec.action)
            except Exception as exc:  # a sim that cannot follow the log: a clear error, no traceback
                raise SimTableError(
                    f"the bots cannot follow the table log {ref.log.path} at {rec.action!r} "
                    f"({type(exc).__name__}: {exc}): its notes or cards are not the ones the bots "
                    f"dealt; `companion run --new` starts a new game and keeps that log") from exc
        if self.owned is None:
            self.owned = ref.log.path
            if self._kept is not None:  # a resumed game counts on from where it stood
                self.stats = self._kept.load(self.owned.name)
        self.game, self.sim = game, sim
        with self._cond:
            self._accepted.clear()
            self._seen_version = version
        return len(result.applied)

    def _wait_for(self, text: str) -> None:
        """Wait until the referee accepted ``text``; apply it to the shadow game and the bots."""
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while True:
                while self._accepted:
                    version, got = self._accepted.pop(0)
                    if version < 0 or got != text:
                        # someone else acted (the operator on the dashboard) or a new game: resync
                        # (a game that is not the bots' own releases them instead)
                        if not self._ours():
                            raise _Released()
                        log.info("the table moved on without the bots (%r); resyncing", got or "new game")
                        self._cond.release()
                        try:
                            self.sync()
                        finally:
                            self._cond.acquire()
                        raise _Resynced()
                    self._seen_version = version
                    game, sim = self._shadow()
                    game.apply(text)
                    sim.applied(text)
                    self.stats.actions += 1
                    return
                if self.released is not None:  # another game now: nothing of ours will be accepted
                    raise _Released()
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set():
                    raise SimTableError(f"the referee did not accept {text!r} within {self.timeout:.0f} s")
                self._cond.wait(min(left, 0.2))

    # ------------------------------------------------------------------ one action
    def step(self) -> bool:
        """Let the bots take one action through the devices. Returns False when the game is over.

        Raises:
            SimTableError: the action was rejected or not accepted in time.
            _Released: the table's game is no longer the bots' own (internal; :meth:`run` stops).
        """
        if self.game is None:
            self.sync()
        self._require_ours()
        game, sim = self._shadow()
        if game.is_over():
            return False
        proposed = sim.next_action()
        if proposed is None:
            return False
        text, source = proposed
        try:
            if source == "button":
                self._by_buttons(text)
            elif source == "camera":
                self._by_camera(text)
            elif source == "manual":
                self._submit(text, "manual")
            else:
                if source == "dashboard" and not self._is_bot(game.parse_action(text).seat):
                    self._wait_for_people(game.parse_action(text).seat)
                self._submit(text, source if source in ("operator", "sim", "dashboard") else "sim")
        except _Resynced:
            return not self._shadow()[0].is_over()  # the shadow game rebuilt from the log
        finally:
            if self._kept is not None and self.owned is not None:
                self._kept.save(self.owned.name, self.stats)
        if self.pace_ms:
            self._stop.wait(self.pace_ms / 1000)
        return not self._shadow()[0].is_over()

    def _shadow(self) -> tuple[Game, TableSim]:
        """The shadow game and its bots as :meth:`sync` last built them."""
        if self.game is None or self.sim is None:
            raise SimTableError("the simulated table has not synced with the table's game")
        return self.game, self.sim

    def _submit(self, text: str, source: str) -> None:
        self._require_ours()  # a read takes time: the operator may have started another game
        if source == "manual":
            outcome = self.table.manual_entry(text)
        else:
            outcome = self.table.submit(text, source)
        if not outcome.accepted:
            raise SimTableError(f"the referee rejected the bots' {text!r} ({source}): {outcome.reason}: {outcome.detail}")
        self._wait_for(outcome.action)

    def _is_bot(self, seat: int | None) -> bool:
        """True when the bots play ``seat`` now: every seat of their game unless the operator
        took it onto the console (``table console N``, :mod:`companion.table.control`)."""
        return seat is None or self.table.seat_control().get(seat, "bot") == "bot"

    def _wait_for_people(self, seat: int | None) -> None:
        """``seat`` is the operator's (on the console): wait until the table moves on — its move,
        or anyone's — then follow the log; back at once when the seat is handed to the bots again.

        Raises:
            _Resynced: the table moved on (the shadow game follows the log now).
            _Released: the table's game is not the bots' own any more.
        """
        with self._cond:
            while not self._accepted and not self._stop.is_set():
                if self._is_bot(seat):
                    return
                self._cond.wait(0.2)
        self.sync()
        raise _Resynced()

    def _by_buttons(self, text: str) -> None:
        game = self._shadow()[0]
        action = game.parse_action(text)
        if action.seat is None:  # a table action: neither a pad nor a seat view makes it
            raise SimTableError(f"the bots proposed the table action {text!r} as a seat's press")
        if not self._is_bot(action.seat):
            self._wait_for_people(action.seat)  # the operator plays this seat from the console
        try:
            if self.pad_seats is not None and action.seat >= self.pad_seats:
                raise ValueError(f"seat {action.seat} has no pad on the virtual box")
            presses = presses_for(game, action)
        except ValueError:
            # not on the four-button pad (e.g. a Hoggenheimer bet of 9 chips on a row): the
            # player uses the seat view on his phone, the same path the dashboard takes
            self.stats.seat_view += 1
            self._require_ours()
            outcome = self.table.submit_for_seat(action.seat, action.text(), "dashboard")
            if not outcome.accepted:
                raise SimTableError(f"the referee rejected the bots' {text!r} (seat view): {outcome.reason}")
            self._wait_for(outcome.action)
            return
        for i, button in enumerate(presses):
            if i and self.press_ms:
                time.sleep(self.press_ms / 1000)
            self._require_ours()
            if not self._is_bot(action.seat):  # taken onto the console mid-count: the count expires
                self._wait_for_people(action.seat)
            self.press(action.seat, button)
            self.stats.presses += 1
        self._wait_for(action.text())

    def _by_camera(self, text: str) -> None:
        game, sim = self._shadow()
        want = game.parse_action(text)
        template = next((t for t in game.legal_actions(want.seat) if matches(t, want) and observed_fields(t)),
                        None)
        if template is None:
            if want.seat is not None and want in game.legal_actions(want.seat):
                # a fact with no value to read (skull: "seat 1 placed a note"): the player
                # confirms it on the pad, as at a real table
                self._by_buttons(text)
                return
            raise SimTableError(f"the bots' observation {text!r} matches no camera template of the engine")
        fields = observed_fields(template)
        f = fields[0]
        value = getattr(want, f.name)
        values = [str(v) for v in value] if f.many else [str(value)]
        # what the camera is shown at a time: notes one by one (the set-up scan), cards up to
        # four per frame (a check turns up the last placement)
        per_frame = 1 if f.kind == "note" else 4
        groups = [values[i:i + per_frame] for i in range(0, len(values), per_frame)] or [[]]
        self.stats.observations += 1
        got: list[str] = []
        retried = False
        for group in groups:
            for attempt in range(self.max_attempts):
                self._require_ours()  # nothing is put in view for a game that is not the bots'
                frame = self.renderer.render([(f.kind, v) for v in group], attempt=attempt,
                                             truth=sim.truth, game=game)
                self.camera.push(frame)
                items = sorted(self.readers[f.kind](self.camera.read()), key=lambda it: it.x)
                self.stats.reads += 1
                read = [it.value for it in items]
                if read == group:
                    got += group
                    break
                retried = True
                if items and all(v is not None for v in read):
                    self.stats.wrong += 1
                    reason = "wrong_read"
                    log.debug("camera read %r but the table shows %r: rescanning", read, group)  # in stats; not on the console: it names what was shown
                else:
                    reason = next((it.reason for it in items if it.value is None and it.reason), None) \
                        or (f"no_{f.kind}" if not items else "unsure")
                self.stats.reasons[reason] = self.stats.reasons.get(reason, 0) + 1
            else:
                self.stats.retried += 1
                self.stats.manual += 1
                log.info("camera could not read %r in %d tries: operator enters it", group, self.max_attempts)
                self._submit(text, "manual")
                return
        if retried:
            self.stats.retried += 1
        # the read field by its name (each game's Action class has its own fields)
        read_value: dict[str, Any] = {f.name: tuple(got) if f.many else got[0]}
        # fields no reader reads (skull's optional denominations, a Hoggenheimer slot) come as the
        # operator gave them, i.e. as in the bots' action
        self._submit(dataclasses.replace(want, **read_value).text(), "camera")

    # ------------------------------------------------------------------ running
    def run(self, until_end: bool = True, max_actions: int = 100_000) -> None:
        """Play on the calling thread until the game ends, :meth:`stop`, or the table's game is no
        longer the bots' own (:attr:`released` says why).

        Raises:
            SimTableError: see :meth:`step`.
        """
        try:
            if self.game is None:
                self.sync()
        except _Released:
            return
        n = 0
        while not self._stop.is_set():
            try:
                if not self.step():
                    break
            except _Released:
                break
            n += 1
            if n >= max_actions:
                raise SimTableError(f"the game did not end within {max_actions} actions")

    def start(self) -> threading.Thread:
        """Play on a background thread; an error is kept in :attr:`error` and logged."""
        def target() -> None:
            try:
                self.run()
            except BaseException as exc:  # reported by the service, never lost
                self.error = exc
                if not self._stop.is_set():
                    log.exception("simulated table stopped")

        self._thread = threading.Thread(target=target, name="simtable", daemon=True)
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        # (a Ctrl-C can land between the thread's creation and its start: nothing to join then)
        if self._thread and self._thread is not threading.current_thread() and self._thread.ident is not None:
            self._thread.join(30)  # a camera read in progress finishes first
        self._unsub()

    @property
    def done(self) -> bool:
        return self.game is not None and self.game.is_over()


class _Resynced(Exception):
    """Internal: the table moved on without the bots; the step was abandoned after a resync."""


class _Released(Exception):
    """Internal: the table's game is not the bots' own any more; they stop (see
    :attr:`SimTable.released`)."""
