"""The table service: one referee with its inputs and outputs, on a Pi or on a simulated table.

::

    button box ──► pads ─┐                       ┌──► table log (SQLite, durable first)
    camera ──► readers ──┼──► Referee queue ──► game ──► subscribers: dashboard stream, lights,
    dashboard (operator, ┘     (one consumer)                         console, simulated table
    seat view, manual)

:func:`choose_backends` is the one place that knows about the platform: on a Raspberry Pi the
real devices (picamera2 or a USB camera, the button box at its udev name, gpiozero's native
pins), elsewhere — and with ``sim`` — the simulated ones (rendered scene frames, the virtual box on
a pty, gpiozero's mock pins). Everything above the devices is the same code on both.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from companion.errors import CompanionError
from companion.games import registry
from companion.settings import STABLE_BUTTONBOX, Settings

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------- platform and backends
@dataclass(frozen=True)
class Platform:
    """What the machine offers, probed once by :func:`detect_platform`.

    Attributes:
        model: the board model (``/proc/device-tree/model``) or ``""``.
        is_pi: a Raspberry Pi.
        has_picamera2: the ``picamera2`` module imports (apt ``python3-picamera2``).
        buttonbox: the button box's stable device node exists.
    """

    model: str = ""
    is_pi: bool = False
    has_picamera2: bool = False
    buttonbox: bool = False


def detect_platform() -> Platform:
    """Probe the machine (never raises)."""
    try:
        model = Path("/proc/device-tree/model").read_bytes().rstrip(b"\0").decode("ascii", "replace")
    except OSError:
        model = ""
    return Platform(
        model=model,
        is_pi="Raspberry Pi" in model,
        has_picamera2=importlib.util.find_spec("picamera2") is not None,
        buttonbox=os.path.exists(STABLE_BUTTONBOX),
    )


@dataclass(frozen=True)
class BackendPlan:
    """The resolved backends of one run.

    Attributes:
        camera: ``picamera2``, ``opencv:<index|url>``, ``folder:<path>`` or ``scene`` (rendered
            frames of the simulated table's state).
        buttons: ``virtual`` (the virtual box on a pty) or ``serial:<port|url>``.
        lights: ``gpio`` (native pins), ``mock`` (gpiozero MockFactory) or ``none``.
        sim: bots play the seats (the simulated table).
        why: one line per choice, for the console and ``companion doctor``.
    """

    camera: str
    buttons: str
    lights: str
    sim: bool
    why: tuple[str, ...] = ()


def choose_backends(settings: Settings, platform: Platform | None = None) -> BackendPlan:
    """Resolve ``auto`` backends for this machine — the only platform switch in the program.

    Rules: ``--sim`` (or any machine that is not a Pi, when every backend is ``auto``) gives the
    simulated table: scene camera, virtual box, mock lights. On a Pi, ``auto`` means picamera2 when
    installed else OpenCV device 0, the button box at ``/dev/buttonbox``, native GPIO.
    An explicit backend always wins.

    Raises:
        CompanionError: a backend name that is not one of the documented forms.
    """
    p = platform or detect_platform()
    b = settings.backends
    all_auto = b.camera == b.buttons == b.lights == "auto"
    sim = settings.sim or (not p.is_pi and all_auto)
    why = []
    if settings.sim:
        why.append("simulated table: --sim")
    elif sim:
        why.append(f"simulated table: not a Raspberry Pi ({p.model or 'no board model'})")
    # camera
    if b.camera != "auto":
        camera = b.camera
        why.append(f"camera: {camera} (setting)")
    elif sim:
        camera = "scene"
        why.append("camera: rendered scenes of the simulated table")
    elif p.has_picamera2:
        camera = "picamera2"
        why.append("camera: picamera2 (Pi camera)")
    else:
        camera = "opencv:0"
        why.append("camera: USB camera /dev/video0 (picamera2 not installed)")
    # buttons
    if b.buttons != "auto":
        buttons = b.buttons if b.buttons == "virtual" else (
            b.buttons if b.buttons.startswith("serial:") else f"serial:{b.buttons}")
        why.append(f"buttons: {buttons} (setting)")
    elif sim:
        buttons = "virtual"
        why.append("buttons: virtual box on a pty, pressed by the bots")
    else:
        buttons = f"serial:{STABLE_BUTTONBOX}"
        why.append(f"buttons: {STABLE_BUTTONBOX} (udev rule)")
    # lights
    if b.lights != "auto":
        lights = b.lights
        why.append(f"lights: {lights} (setting)")
    elif p.is_pi and not sim:
        lights = "gpio"
        why.append("lights: gpiozero native pins")
    else:
        lights = "mock"
        why.append("lights: gpiozero mock pins")
    from companion.errors import CameraError
    from companion.vision.camera import parse_spec

    try:
        camera_kind, _ = parse_spec(camera)
    except CameraError as exc:
        raise CompanionError(f"unknown camera backend: {exc}",
                             ru=f"неизвестная камера {camera!r}; можно: auto, picamera2, opencv:INDEX|URL|VIDEO, "
                                f"folder:PATH, image:PATH, scene (или номер устройства, адрес, папка, картинка)") from None
    for name, value, ok in (
        ("buttons", buttons, buttons == "virtual" or buttons.startswith("serial:")),
        ("lights", lights, lights in ("gpio", "mock", "none")),
    ):
        if not ok:
            raise CompanionError(f"unknown {name} backend {value!r}",
                                 ru=f"неизвестное устройство {name}: {value!r}; можно: " + (
                                     "auto, virtual, порт или адрес (например /dev/ttyACM0)" if name == "buttons"
                                     else "auto, gpio, mock, none"))
    if camera_kind == "scene" and not sim:
        # nobody would put anything in its view: a real table would wait on an empty picture
        raise CompanionError("the scene camera shows only the simulated table (add --sim), or name a "
                             "real camera: picamera2, opencv:INDEX|URL|VIDEO, folder:PATH, image:PATH",
                             ru="камера scene показывает только имитацию стола (добавьте --sim) — или укажите "
                                "настоящую камеру: picamera2, opencv:INDEX|URL|VIDEO, folder:PATH, image:PATH")
    if sim and camera_kind != "scene":
        raise CompanionError("the simulated table needs the scene camera (its bots put notes and cards in view)",
                             ru="имитации стола нужна камера scene (боты кладут купюры и карты в её кадр)")
    if sim and buttons != "virtual":
        raise CompanionError("the simulated table needs the virtual button box (its bots press its buttons)",
                             ru="имитации стола нужна виртуальная коробка кнопок (её кнопки нажимают боты)")
    return BackendPlan(camera, buttons, lights, sim, tuple(why))


# ---------------------------------------------------------------------- the service
WHY_OPERATORS = ("it was started from the operator console, not by the simulated table's bots",
                 "её начал оператор на пульте, а не боты имитации")
"""Why the simulated table's bots leave a resumed game alone (English, Russian)."""

WHY_CANNOT_FOLLOW = ("the bots cannot follow its log: its notes or cards are not the ones they dealt",
                     "боты не могут следовать её журналу: купюры или карты в нём не те, что сдали боты")
"""Why the bots leave a resumed game of their own alone (English, Russian)."""

WHY_HEADLESS = ("and this run has no dashboard to play it from", "а в этом запуске нет табло, чтобы в неё играть")
"""Why a headless run sets such a game aside (English, Russian)."""


class PadRouter:
    """Button events from the box's driver thread → the referee's queue as
    :class:`~companion.inputs.ButtonPressed`; the pads decide on the consumer thread
    (:class:`companion.decide.TableInputs`) and set the dashboard's pending counts.

    Args:
        table: the :class:`companion.table.Table`.
        on_result: optional ``(event, PadResult, Outcome|None)`` callback (console, tests).
    """

    def __init__(self, table, on_result: Callable | None = None) -> None:
        self.table = table
        self.on_result = on_result
        self.rejected = 0

    def on_event(self, event) -> None:
        """Handle one :class:`companion.devices.protocol.ButtonEvent` (driver thread)."""
        from companion.table import NoGame

        try:
            reply = self.table.press(event.seat, event.button, event.kind)
        except NoGame:
            return
        if reply.result is None:
            return
        if reply.outcome is not None and not reply.outcome.accepted:
            self.rejected += 1
        if self.on_result:
            self.on_result(event, reply.result, reply.outcome)


class TableService:
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

    Raises:
        MissingPart: a part the chosen backends need is not installed (at :meth:`start`).
    """

    def __init__(self, settings: Settings, plan: BackendPlan | None = None, *, dashboard: bool = True,
                 new: bool = False, resume: str | os.PathLike | None = None, new_pin: bool = False,
                 asked: dict | None = None) -> None:
        self.settings = settings
        #: the new-game flags given on the command line (``{"game", "seats"}``): one that differs
        #: from the unfinished game this start would resume stops it (:mod:`companion.resumeflags`)
        self.asked = asked or {}
        self.plan = plan or choose_backends(settings)
        self.want_dashboard = dashboard
        self.new = new
        self.resume = resume
        self.new_pin = new_pin
        self.table = None
        self.router: PadRouter | None = None
        self.vbox = None
        self.box = None
        self.camera = None
        #: the current game's readers by kind (``note``, ``card``): one dict, kept in step with the
        #: game being played by :meth:`_take_up_game`
        self.readers: dict = {}
        self._built: dict = {}  # every reader built in this run, by what it depends on
        self._renderers: dict = {}  # the simulated table's scene renderers by (game, currency)
        self.lights = None
        self.server = None
        self.simtable = None
        self.watcher = None
        self.club = None
        self.resumed = False
        #: ``(game id, table log)`` of an unfinished game a simulated table set aside because
        #: nobody could play it in this run (not the bots' game, and no dashboard: ``--json``);
        #: the log stays on disk (``--resume LOG`` brings it back)
        self.set_aside: tuple[str, str] | None = None
        #: why :attr:`set_aside` was set aside, in words for the console (``""`` when nothing was);
        #: ``set_aside_why_ru`` in Russian
        self.set_aside_why = self.set_aside_why_ru = ""
        #: on the simulated table, why its bots leave the resumed game alone (the operator started
        #: it from the console, or they cannot follow its log); ``""`` when they play it;
        #: ``bots_idle_ru`` in Russian
        self.bots_idle = self.bots_idle_ru = ""
        self._created = False  # this start made a new game (discarded again if the start fails)
        self.started = 0.0
        self._unsubs: list[Callable[[], None]] = []
        self._over = threading.Event()

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
            self._unsubs.append(self.table.subscribe(self._on_table))
            if self.settings.club:  # club mode: the public view to the club's broker (docs/club.md)
                from companion.club.publisher import ClubPublisher

                self.club = ClubPublisher(self.table, self.settings.club).start()
            game_id = self.table.game_id
            spec = registry.get(game_id)
            n = len(self.table.referee.game.seats)
            # readers first: a missing reader must fail before anything moves
            renderer = self._take_up_game(strict=True)
            self._start_camera()
            self.router = PadRouter(self.table)
            if self.plan.buttons == "virtual":
                self.vbox = parts.virtual_box(n)
                url = self.vbox.port
            else:
                url = self.plan.buttons.split(":", 1)[1]
            self.box = parts.button_box(url, self.router.on_event)
            self.box.wait_connected(2.0)  # a box that is plugged in answers at once
            self._box_status_thread()
            self.lights = parts.lights(self.plan.lights, n, self.box)
            if self.want_dashboard:
                self.server = parts.dashboard_server(self.table, self.settings.host, self.settings.port)
            if self.plan.sim:
                from companion.simtable import SimTable

                if self.box is not None and not self.box.wait_connected(5.0):
                    raise CompanionError(f"the virtual button box on {url} did not answer the host driver")
                vbox = self.vbox

                def press(seat: int, button: str) -> None:
                    # one press at a time, as a hand does: the box plays presses of different
                    # keys concurrently, so wait until this one was played and acknowledged
                    vbox.press(seat, button)
                    if not vbox.wait_idle(5.0):
                        raise CompanionError(f"the virtual box did not play seat {seat}'s {button!r} press")

                self.simtable = SimTable(self.table, press, self.camera, self.readers, renderer,
                                         seed=self.settings.seed, pace_ms=self.settings.pace_ms,
                                         stats_file=Path(self.settings.data_dir) / "sim-stats.json")
                if self.bots_idle:
                    self.simtable.release(self.bots_idle)
                else:
                    self._sync_bots()
            else:
                from companion.observe import CameraWatcher

                self.watcher = CameraWatcher(self.table, self.camera, self.readers)
            self._update_lights()
        except BaseException:
            if self._created and self.table is not None:
                # nothing was played: leave no empty game behind for the next start to resume
                self.table.discard_unplayed()
            self.stop()
            raise
        return self

    def _game_currency(self, at_start: bool) -> None:
        """Make the current game's currency option the table's (one switch: its serial check and
        bank total are what the note reader reads; a resumed or switched-to game keeps its own)."""
        from companion.vision.serials import CURRENCIES

        game_currency = getattr(getattr(self.table.referee.game, "options", None), "currency", None)
        if game_currency in CURRENCIES and game_currency != self.settings.currency:
            if at_start and self.settings.currency != "auto":
                log.warning("the game counts its notes in %s (its currency option); the setting "
                            "currency=%s applies to new games", game_currency, self.settings.currency)
            self.settings.currency = game_currency
        elif self.plan.sim and self.settings.currency == "auto":
            # the simulated table's notes are roubles; a real table sets its currency too
            self.settings.currency = "RUB"

    def _reader_key(self, kind: str, spec, game) -> tuple:
        """What a built reader of ``kind`` depends on: a reader is reused for another game only
        when this is the same (the note reader's currency; the card reader's deck)."""
        if kind == "note":
            return ("note", self.settings.currency)
        deck = spec.deck
        if self.settings.deck != "standard":
            return ("card", "profile", self.settings.deck)
        if deck is not None and deck.learned:
            labels = tuple(deck.labels(game)) if deck.labels is not None else ()
            return ("card", spec.id, labels)
        return ("card", deck.kind if deck is not None else "standard")

    def _take_up_game(self, strict: bool = False):
        """Make :attr:`readers` the current game's (its GameSpec's ``readers``), building the
        ones not built yet for what they depend on (:meth:`_reader_key`), and say so in the
        ``ocr`` status. Called at start and whenever the table takes up a game (new, resumed,
        switched from the console): the camera watcher reads with the game being played.

        Args:
            strict: raise when a reader cannot be built (at start: nothing has moved yet); else
                the ``ocr`` status says why in words and that game's observations are typed.

        Returns:
            the simulated table's scene renderer for the game (``None`` on a real table).

        Raises:
            MissingPart, CompanionError: ``strict`` and a reader cannot be built.
        """
        from companion import parts

        ref = self.table.current_referee()
        if ref is None:
            return None
        game = ref.game
        game_id = game.GAME_ID
        spec = registry.get(game_id)
        self._game_currency(at_start=strict)
        renderer = None
        if self.plan.sim:
            from companion.vision.scene import SceneRenderer

            renderer = self._renderers.get((game_id, self.settings.currency))
            if renderer is None:
                renderer = SceneRenderer(game_id, seed=self.settings.seed, currency=self.settings.currency,
                                         deck=spec.deck.kind if spec.deck is not None else "standard")
                self._renderers[(game_id, self.settings.currency)] = renderer
        wanted, problems = {}, []
        for kind in spec.readers:
            key = self._reader_key(kind, spec, game)
            reader = self._built.get(key)
            if reader is None:
                try:
                    reader = parts.reader(kind, self.settings, game, renderer)
                except CompanionError as exc:  # MissingPart is one too
                    if strict:
                        raise
                    log.warning("%s: the %s reader: %s", game_id, kind, exc)
                    problems.append(exc)
                    continue
                self._built[key] = reader
            wanted[kind] = reader
        # one dict, changed in place: the watcher and the simulated table hold it
        for kind in list(self.readers):
            if kind not in wanted:
                del self.readers[kind]
        self.readers.update(wanted)
        if problems:
            self.table.set_status("ocr", {"state": "error", "detail": "; ".join(str(e) for e in problems)[:200],
                                          "detail_ru": "; ".join(getattr(e, "ru", None) or str(e)
                                                                 for e in problems)[:200]})
        else:
            self.table.set_status("ocr", {"state": "ok", "detail": ", ".join(
                getattr(r, "describe", kind) if isinstance(getattr(r, "describe", None), str) else kind
                for kind, r in self.readers.items()) or "—"})
        return renderer

    def _start_camera(self) -> None:
        """The camera: the scene source on the simulated table; any other camera through a
        :class:`~companion.vision.camera.RetryingSource`, so a camera that is missing (``--camera
        opencv:7``) or unplugged never stops the table — its status says «нет связи» on every page
        and the console, the operator enters observations by hand, and the camera is picked up
        when it appears."""
        from companion import parts

        spec = self.plan.camera
        if spec == "scene":
            self.camera = parts.camera(spec)
            self.table.set_status("camera", {"state": "sim", "detail": spec})
            return
        from companion.vision.camera import RetryingSource

        def status(connected: bool, error: str | None) -> None:
            if self.table is not None:
                # as the button box: a fault while it is missing, said with what to do
                self.table.set_status("camera", {"state": "ok", "detail": spec} if connected else
                                      {"state": "error", "detail": spec, "missing": True, "error": error})

        self.camera = parts.CameraAdapter(RetryingSource(spec, on_status=status))
        if self.camera.source.connected:
            status(True, None)

    def _start_table(self) -> None:
        from companion.games import get_game_class
        from companion.games.base import seat_from_one
        from companion.table import Table

        s = self.settings
        self.table = Table(s.data_dir, pin=s.pin or None, resume=not (self.new or self.resume),
                           new_pin=self.new_pin)
        if self.resume:
            self.table.resume_game(self.resume)
        if self.table.referee is not None:
            if not self.plan.sim:
                self._refuse_conflict()
                self.resumed = True
                return
            name = self.table.referee.log.path.name
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
                self.bots_idle, self.bots_idle_ru = WHY_OPERATORS
                return
            self.set_aside = (self.table.game_id, str(self.table.referee.log.path))
            self.set_aside_why = f"{WHY_OPERATORS[0]}, {WHY_HEADLESS[0]}"
            self.set_aside_why_ru = f"{WHY_OPERATORS[1]}, {WHY_HEADLESS[1]}"
        cls = get_game_class(s.game)
        seats = s.seats or [f"Игрок {i + 1}" for i in range(max(cls.MIN_SEATS, min(4, cls.MAX_SEATS)))]
        options = dict(s.options or {})
        for name in getattr(cls.OPTIONS, "SEATS", ()):
            # a seat option is typed like every seat a person sees, from 1 (the dashboard's form
            # does the same); the engine and the log count from 0
            if name in options:
                try:
                    options[name] = seat_from_one(options[name], len(seats))
                except ValueError:
                    raise CompanionError(f"option {name}: a seat number from 1 to {len(seats)} "
                                         f"(seats count from 1, clockwise), got {options[name]!r}",
                                         ru=f"правило {name}: номер места от 1 до {len(seats)} (места считаются "
                                            f"с 1, по часовой стрелке), а задано {options[name]!r}") from None
        if (s.currency != "auto" and "currency" not in options
                and "currency" in {f.name for f in dataclasses.fields(cls.OPTIONS)}):
            options["currency"] = s.currency  # the table's currency is the game's (one switch)
        # what the last finished game of this kind leaves to the next (the lottery's box: RULINGS §5
        # "the box carries over"), as the console's new-game form does, unless given explicitly
        carried = getattr(cls.OPTIONS, "CARRIED", {}) or {}
        last = self.table.last_result(s.game) if carried else None
        for opt, key in carried.items():
            if last and opt not in options and isinstance(last.get(key), int) and last.get(key):
                options[opt] = last[key]
                en, ru = {"box": ("the box", "касса")}.get(opt, (opt, opt))
                self.table._notice(f"{en}: {last[key]} carried over from the last game of this kind",
                                   f"{ru}: {last[key]} — переходит из прошлой игры")
        self.table.new_game(s.game, seats, options)
        self._created = True
        self._sim_seed()

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

    def _sync_bots(self) -> None:
        """Let the bots take up the table's game (their own: recorded in ``sim-seeds.json``).
        Bots that cannot follow a resumed log leave it to the console and phones when there is a
        dashboard (:attr:`bots_idle` says why); a headless run cannot go on: the error stands.

        Raises:
            SimTableError: the bots cannot follow the log and there is no dashboard.
        """
        from companion.simtable import SimTableError

        try:
            self.simtable.sync()
        except SimTableError as exc:
            if not (self.resumed and self.want_dashboard):
                raise
            log.warning("%s", exc)
            self.bots_idle, self.bots_idle_ru = WHY_CANNOT_FOLLOW
            self.simtable.release(self.bots_idle)

    def _sim_seeds(self) -> dict:
        """``sim-seeds.json`` beside the logs: table log file name → seed, one entry per game the
        simulated table's bots started — the record of which games are theirs (``{}`` when
        missing or unreadable)."""
        import json

        try:
            seeds = json.loads((Path(self.settings.data_dir) / "sim-seeds.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return seeds if isinstance(seeds, dict) else {}

    def _sim_seed(self) -> None:
        """Record the game the simulated table's bots just started and its seed in
        ``sim-seeds.json``: a resumed game goes on with the bots it started with, and only a game
        recorded there is resumed by the bots (a game the operator started is not theirs)."""
        if not self.plan.sim:
            return
        import json

        from companion.durable import write_file

        path = Path(self.settings.data_dir) / "sim-seeds.json"
        seeds = self._sim_seeds()
        seeds[self.table.referee.log.path.name] = self.settings.seed
        write_file(path, json.dumps(seeds), mode=0o644)

    def _box_status_thread(self) -> None:
        box = self.box

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
                self._over.wait(0.5)

        threading.Thread(target=loop, name="box-status", daemon=True).start()

    # ------------------------------------------------------------------ outputs
    def _on_table(self, kind: str, payload) -> None:
        if kind == "action":
            self._update_lights(payload)
        elif kind == "game":
            if self.camera is not None:  # the readers follow the game being played
                try:
                    self._take_up_game()
                except Exception:  # the camera must never stop the table
                    log.exception("taking up the game's readers failed")
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
            self.lights.show(current, over, events)
        except Exception:  # lights must never stop the game
            log.exception("lights update failed")

    # ------------------------------------------------------------------ running
    def run_bots(self) -> None:
        """Start the simulated table's bots on their thread (simulated table only)."""
        if self.simtable is not None:
            self.simtable.start()

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

        ref = self.table.referee
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
