"""The table service: one referee with its inputs and outputs, on a Pi or on a simulated table.

::

    button box ──► pads ─┐                       ┌──► table log (SQLite, durable first)
    camera ──► readers ──┼──► Referee queue ──► game ──► subscribers: dashboard stream, lights,
    dashboard (operator, ┘     (one consumer)                         console, simulated table
    seat view, manual)

:func:`companion.backends.choose_backends` is the one place that knows about the platform (re-
exported here with :class:`Platform` and :class:`BackendPlan`); the readers that follow the game
are :class:`companion.gamereaders.GameReaders`; the pads' router is
:class:`companion.pads.PadRouter`. This module assembles the parts, starts and stops them, and
decides which games the simulated table's bots play.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

from companion import voice
from companion.backends import BackendPlan, Platform, choose_backends, detect_platform
from companion.devices.protocol import MAX_SEATS
from companion.errors import CompanionError
from companion.gamereaders import GameReaders
from companion.games import registry
from companion.i18n import DEFAULT, MP, M, Message, render
from companion.pads import PadRouter
from companion.settings import Settings
from companion.tablebots import WHY_CANNOT_FOLLOW, WHY_HEADLESS, WHY_OPERATORS, TableBots

if TYPE_CHECKING:
    from companion.club.publisher import ClubPublisher
    from companion.games.base import Game
    from companion.observe import CameraWatcher
    from companion.parts import ButtonBoxDevice, CameraAdapter, VirtualBoxDevice
    from companion.simtable import SimTable
    from companion.table import Table

__all__ = ["WHY_CANNOT_FOLLOW", "WHY_HEADLESS", "WHY_OPERATORS", "BackendPlan", "PadRouter", "Platform",
           "TableService", "choose_backends", "detect_platform"]

log = logging.getLogger(__name__)


def new_game_args(s: Settings) -> tuple[type[Game], list, dict]:
    """The engine class, the players and the options of the new game ``s`` asks for (the
    default players when it names none; a seat option counted from 1 as people type it; the
    table's currency), before what the last game of its kind carries over.

    Raises:
        IllegalAction: ``unknown_game``.
        CompanionError: a seat option that is no seat.
    """
    from companion.games import get_game_class
    from companion.games.base import seat_from_one

    cls = get_game_class(s.game)
    # a default name is the table's data, in the table's language (the log keeps it as given)
    seats = s.seats or [render(M("Player %(n)s", n=i + 1), DEFAULT)
                        for i in range(max(cls.MIN_SEATS, min(4, cls.MAX_SEATS)))]
    options = dict(s.options or {})
    for name in getattr(cls.OPTIONS, "SEATS", ()):
        # a seat option is typed like every seat a person sees, from 1 (the dashboard's form
        # does the same); the engine and the log count from 0
        if name in options:
            try:
                options[name] = seat_from_one(options[name], len(seats))
            except ValueError:
                raise CompanionError(M("option %(name)s: a seat number from 1 to %(n)s (seats count from 1, "
                                       "clockwise), got %(value)r", name=name, n=len(seats),
                                       value=options[name])) from None
    if (s.currency != "auto" and "currency" not in options
            and "currency" in {f.name for f in dataclasses.fields(cls.OPTIONS)}):
        options["currency"] = s.currency  # the table's currency is the game's (one switch)
    return cls, seats, options


class TableService(TableBots, GameReaders):
    """The whole table: Table session + referee, button box + pads, camera + readers, lights,
    dashboard server and — on the simulated table — the bots.

    Args:
        settings: the run's :class:`Settings`.
        plan: resolved backends (default :func:`choose_backends`).
        dashboard: serve the dashboard (``False`` for headless runs).
        new: start a new game even if an unfinished one is in the log.
        resume: a table log (path, or file name in ``<data_dir>/games/``) whose unfinished game
            to resume instead of the current one (``companion run --resume LOG``).
        new_pin: make a new operator PIN and keep it in the data folder (``--new-pin``).
        asked: ``{"game": id, "seats": [names]}`` given on the command line for a new game.
        follow: on the simulated table, the bots take up every later game too (:attr:`follow`).

    Raises:
        MissingPart: a part the chosen backends need is not installed (at :meth:`start`).
    """

    def __init__(self, settings: Settings, plan: BackendPlan | None = None, *, dashboard: bool = True,
                 new: bool = False, resume: str | os.PathLike | None = None, new_pin: bool = False,
                 asked: dict | None = None, follow: bool = False) -> None:
        self.settings = settings
        #: on the simulated table, the bots and the simulated camera take up every game the table
        #: takes up later (started, switched or resumed from the operator console), as they do the
        #: first (``companion run --sim``); ``False``: they play only the game they started
        self.follow = follow
        #: ``settings.seed`` as given: the bots' first game's seed, later ones derive from it
        #: (:func:`companion.tablebots.game_seed`); ``settings.seed`` is the current game's
        self.base_seed = settings.seed
        #: the new-game flags given on the command line (``{"game", "seats"}``): one that differs
        #: from the unfinished game this start would resume stops it (:mod:`companion.resumeflags`)
        self.asked = asked or {}
        self.plan = plan or choose_backends(settings)
        self.want_dashboard = dashboard
        self.new = new
        self.resume = resume
        self.new_pin = new_pin
        self.table: Table | None = None
        self.router: PadRouter | None = None
        self.vbox: VirtualBoxDevice | None = None
        self.box: ButtonBoxDevice | None = None
        self.camera: CameraAdapter | None = None
        #: the current game's readers by kind (``note``, ``card``): one dict, kept in step with the
        #: game being played by :meth:`_take_up_game`
        self.readers: dict[str, Any] = {}
        self._built: dict[tuple, Any] = {}  # every reader built in this run, by what it depends on
        self._renderers: dict[tuple, Any] = {}  # the simulated table's scene renderers by (game, currency)
        self.lights: Any = None  # parts.lights(): the table's signals (gpio, the box's lights, none)
        self._lights_lock = threading.Lock()
        self.server = None
        self.simtable: SimTable | None = None
        self.watcher: CameraWatcher | None = None
        self.club: ClubPublisher | None = None
        self.resumed = False
        #: ``(game id, table log)`` of an unfinished game a simulated table set aside because
        #: nobody could play it in this run (not the bots' game, and no dashboard: ``--json``);
        #: the log stays on disk (``--resume LOG`` brings it back)
        self.set_aside: tuple[str, str] | None = None
        #: why :attr:`set_aside` was set aside, a message for the console (``None`` when nothing
        #: was); ``set_aside_why`` in English
        self.set_aside_message: Message | None = None
        self.set_aside_why = ""
        #: on the simulated table, why its bots leave the resumed game alone (the operator started
        #: it from the console, or they cannot follow its log): a message id (English), ``""``
        #: when they play it
        self.bots_idle = ""
        self._created = False  # this start made a new game (discarded again if the start fails)
        self.started = 0.0
        self._unsubs: list[Callable[[], None]] = []
        self._over = threading.Event()
        self._press: Callable[[int, str], None] | None = None  # the bots' hand on the virtual box
        self._pads = 0  # the virtual box's pads
        self._bots_started = False

    # ------------------------------------------------------------------ start
    def start(self) -> "TableService":
        """Open or resume the game and start every part. Returns ``self``.

        Raises:
            MissingPart, IllegalAction, LogError, CompanionError: a part is missing, the game
                settings are bad, or the log is not a table log. Whatever was started is stopped.
        """
        from companion import parts

        self.started = time.monotonic()
        try:
            self._start_table()
            table = self._live_table()
            self._unsubs.append(table.subscribe(self._on_table))
            self._unsubs.append(voice.attach(table, self.settings))  # the table's voice: companion/voice.py
            if self.settings.club:  # club mode: the public view to the club's broker (docs/club.md)
                from companion.club.publisher import ClubPublisher

                self.club = ClubPublisher(table, self.settings.club).start()
            game_id = table.game_id
            referee = table.referee
            if game_id is None or referee is None:  # (_start_table resumes or starts a game)
                raise CompanionError("the table has no game")
            registry.get(game_id)  # an unknown game is refused before anything starts
            n = len(referee.game.seats)
            # readers first: a missing reader must fail before anything moves
            renderer = self._take_up_game(strict=True)
            self._start_camera()
            self.router = PadRouter(table)
            if self.plan.buttons == "virtual":
                # the box has a pad for each of the first MAX_SEATS seats (the protocol's limit);
                # the others play on their phones' seat view or from the console
                self.vbox = parts.virtual_box(min(n, MAX_SEATS))
                url = self.vbox.port
            else:
                url = self.plan.buttons.split(":", 1)[1]
            self.box = box = parts.button_box(url, self.router.on_event)
            box.wait_connected(2.0)  # a box that is plugged in answers at once
            table.pads = self._box_pads()
            self._box_status_thread()
            # the pad lights of the seats the box has (a real box says how many in its hello)
            self.lights = parts.lights(self.plan.lights, min(n, table.pads), self.box)
            if self.want_dashboard:
                self.server = parts.dashboard_server(table, self.settings.host, self.settings.port)
            if self.plan.sim:
                if not box.wait_connected(5.0):
                    raise CompanionError(f"the virtual button box on {url} did not answer the host driver")
                vbox = self.vbox
                assert vbox is not None  # (the simulated table's buttons are the virtual box)

                def press(seat: int, button: str) -> None:
                    # one press at a time, as a hand does: the box plays presses of different
                    # keys concurrently, so wait until this one was played and acknowledged
                    vbox.press(seat, button)
                    if not vbox.wait_idle(5.0):
                        raise CompanionError(f"the virtual box did not play seat {seat}'s {button!r} press")

                self._press, self._pads = press, vbox.seats
                table.bots = True  # the operator may hand a seat to them (table bot N)
                table.bots_playing = lambda: self.simtable is not None and self.bots_left_alone() is None
                self.simtable = simtable = self._new_simtable(renderer)
                if self.bots_idle:
                    simtable.release(self.bots_idle)
                else:
                    self._sync_bots()
            else:
                from companion.observe import CameraWatcher

                self.watcher = CameraWatcher(table, self.camera, self.readers)
            self._update_lights()
        except BaseException:
            if self._created and self.table is not None:
                # nothing was played: leave no empty game behind for the next start to resume
                self.table.discard_unplayed()
            self.stop()
            raise
        return self

    def _start_table(self) -> None:
        from companion.table import Table

        s = self.settings
        self.table = table = Table(s.data_dir, pin=s.pin or None, resume=not (self.new or self.resume),
                                   new_pin=self.new_pin)
        if self.resume:
            table.resume_game(self.resume)
        if (referee := table.referee) is not None:
            if not self.plan.sim:
                self._refuse_conflict()
                self.resumed = True
                return
            name = referee.log.path.name
            ours = self._sim_seeds().get(name)
            if isinstance(ours, int):
                self._refuse_conflict()
                self.resumed = True
                self.settings.seed = ours  # the bots go on with the seed they dealt with
                return
            # a game the operator started from the console (not in sim-seeds.json): it resumes
            # and the bots leave it alone, as they did before the restart; the console and the
            # phones play it. Only a headless run (no dashboard) has nobody to play it: set aside.
            if self.want_dashboard:
                self._refuse_conflict()
                self.resumed = True
                self.bots_idle = WHY_OPERATORS
                return
            self.set_aside = (referee.log.header.game, str(referee.log.path))
            self.set_aside_message = M("%(why)s, %(more)s", why=M(WHY_OPERATORS), more=M(WHY_HEADLESS))
            self.set_aside_why = render(self.set_aside_message, "en")
        cls, seats, options = new_game_args(s)
        # what the last finished game of this kind leaves to the next (the lottery's box: RULINGS §5
        # "the box carries over"), as the console's new-game form does, unless given explicitly
        carried = getattr(cls.OPTIONS, "CARRIED", {}) or {}
        last = table.last_result(s.game) if carried else None
        for opt, key in carried.items():
            if last and opt not in options and isinstance(last.get(key), int) and last.get(key):
                options[opt] = last[key]
                table._notice(M("%(option)s: %(value)s carried over from the last game of this kind",
                                     option=MP("table", "the box") if opt == "box" else opt, value=last[key]))
        table.new_game(s.game, seats, options)
        self._created = True
        self._sim_seed()

    @staticmethod
    def check_start(settings: Settings, resume: str | None = None) -> None:
        """Refuse now what :meth:`start` would refuse on a data folder that does not exist yet
        (nothing there to resume): an unknown game, bad players or options, a ``--resume`` log
        that cannot be there — so a refused run leaves no folder, PIN or key behind.

        Raises:
            IllegalAction, LogError, CompanionError: the refusal :meth:`start` would raise.
        """
        from companion.table.session import check_new_game
        from companion.table.store import find_log

        if resume:
            find_log(settings.data_dir, resume)
        _cls, seats, options = new_game_args(settings)
        check_new_game(settings.game, seats, options)

    def _refuse_conflict(self) -> None:
        """Stop a start about to resume the current game when a command-line flag asks for
        another (an explicit ``--resume LOG`` is what was asked for: never refused).

        Raises:
            ResumeConflict: the one line with the game found and the ways on.
        """
        from companion.resumeflags import conflict

        if self.resume:
            return
        refusal = conflict(self.table, self.asked.get("game"), self.asked.get("seats"))
        if refusal is not None:
            raise refusal

    def _box_pads(self) -> int:
        """The seat pads of the table's button box: the virtual box's, or what a real box said
        in its hello (:data:`~companion.devices.protocol.MAX_SEATS` until it has)."""
        if self.vbox is not None:
            return self.vbox.seats
        seats = getattr(getattr(self.box, "status", None), "seats", None)
        return seats if isinstance(seats, int) and seats > 0 else MAX_SEATS

    def _box_status_thread(self) -> None:
        box = self.box
        assert box is not None  # (called once the box is opened)

        def loop() -> None:
            last = None
            while not self._over.is_set() and self.box is box:
                st = box.status.to_dict()
                state = "ok" if st.get("alive") else ("warn" if st.get("connected") else "error")
                if self.plan.buttons == "virtual" and state == "ok":
                    state = "sim"
                info = {"state": state, "detail": st.get("port"), "firmware": st.get("firmware"),
                        "connects": st.get("connects"), "error": st.get("last_error")}
                if info != last and self.table is not None:
                    self.table.set_status("buttons", info)
                    last = info
                    pads = self._box_pads()  # a real box says its pads in its hello (on each connect)
                    if self.table.pads != pads:
                        self.table.pads = pads
                        self.table.tell_control()
                self._over.wait(0.5)

        threading.Thread(target=loop, name="box-status", daemon=True).start()

    # ------------------------------------------------------------------ outputs
    def _on_table(self, kind: str, payload) -> None:
        if kind == "action":
            self._update_lights(payload)
        elif kind == "game":
            renderer = None
            if self.camera is not None:  # the readers follow the game being played
                try:
                    renderer = self._take_up_game()
                except Exception:  # the camera must never stop the table
                    log.exception("taking up the game's readers failed")
            if self.follow and self.plan.sim and renderer is not None:
                self._adopt(renderer)  # and so do the bots and the simulated camera
            self._update_lights()

    def _update_lights(self, update=None) -> None:
        if self.lights is None or self.table is None or self.table.referee is None:
            return
        try:
            if update is not None:
                current, over, events = update.current_seats, update.over, update.outcome.events
            else:
                ref = self.table.referee
                with ref.lock:
                    current, over, events = ref.game.current_seats(), ref.game.is_over(), ()
            with self._lights_lock:  # stop() closes the pins under it: never a write to a closed pin
                if self.lights is not None:
                    self.lights.show(current, over, events)
        except Exception:  # lights must never stop the game
            log.exception("lights update failed")

    def wait(self, until_end: bool = False, poll: float = 0.2, progress: Callable[[], None] | None = None) -> None:
        """Block until the game is over and its last action told to every part (``until_end``) or
        forever (Ctrl-C raises ``KeyboardInterrupt`` here).

        Raises:
            CompanionError: the simulated table stopped with an error.
        """
        while True:
            if self.simtable is not None and self.simtable.error is not None:
                err = self.simtable.error
                raise CompanionError(f"the simulated table stopped: {err}") from err
            if until_end and self.over and self._told():
                return
            if progress:
                progress()
            time.sleep(poll)

    @property
    def over(self) -> bool:
        ref = self.table.referee if self.table else None
        if ref is None:
            return False
        with ref.lock:
            return ref.game.is_over()

    def _told(self) -> bool:
        """Every part (console, screens, lights) has been told the last accepted action
        (``Referee.published``): a run that waits for the end stops after its last lines."""
        ref = self.table.referee if self.table else None
        return ref is None or ref.published >= ref.version

    def summary(self) -> dict:
        """The replay summary of the current game's log — the object ``companion replay --json``
        prints.

        Raises:
            MissingPart: the replay command (branch skull) is not installed.
        """
        from companion import parts

        ref = self._live_table().referee
        if ref is None:
            raise CompanionError("the table has no game")
        return parts.replay_summary(ref.log)

    def stop(self) -> None:
        """Stop every part (idempotent); the game stays resumable from its log."""
        self._over.set()
        for unsub in self._unsubs:
            unsub()
        self._unsubs.clear()
        for name in ("simtable", "watcher", "server", "lights", "box", "vbox", "camera", "club"):
            part = getattr(self, name)
            if part is None:
                continue
            with self._lights_lock if name == "lights" else contextlib.nullcontext():
                try:
                    (getattr(part, "stop", None) or part.close)()
                except Exception:
                    log.exception("stopping %s failed", name)
                setattr(self, name, None)
        if self.table is not None:
            self.table.close()

    def __enter__(self) -> "TableService":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
