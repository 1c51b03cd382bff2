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

import importlib.util
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from companion.errors import CompanionError, LogError
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
    installed else OpenCV device 0, the button box at ``/dev/companion-buttons``, native GPIO.
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
    elif p.is_pi and not settings.sim:
        lights = "gpio"
        why.append("lights: gpiozero native pins")
    else:
        lights = "mock"
        why.append("lights: gpiozero mock pins")
    for name, value, ok in (
        ("camera", camera, camera in ("scene", "picamera2") or camera.split(":", 1)[0] in ("opencv", "folder")),
        ("buttons", buttons, buttons == "virtual" or buttons.startswith("serial:")),
        ("lights", lights, lights in ("gpio", "mock", "none")),
    ):
        if not ok:
            raise CompanionError(f"unknown {name} backend {value!r}")
    if sim and camera != "scene":
        raise CompanionError("the simulated table needs the scene camera (its bots put notes and cards in view)")
    if sim and buttons != "virtual":
        raise CompanionError("the simulated table needs the virtual button box (its bots press its buttons)")
    return BackendPlan(camera, buttons, lights, sim, tuple(why))


# ---------------------------------------------------------------------- the log of the current game
def open_or_start(settings: Settings, *, new: bool = False):
    """The referee of the current game: resumed from ``settings.log_path`` when that log holds a
    game that is not over (crash safety), else a new game (a finished log is archived first).

    Returns ``(referee, resumed)``.

    Raises:
        IllegalAction: bad game, seats or options for a new game.
        LogError: the log file is not a table log.
    """
    from companion.games import get_game_class
    from companion.referee import Referee

    path = settings.log_path
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and not new:
        ref = Referee.resume(path)
        if not ref.game.is_over():
            return ref, True
        ref.close()
        archive(path)
    elif path.exists():
        archive(path)
    cls = get_game_class(settings.game)
    seats = settings.seats or [f"P{i + 1}" for i in range(max(cls.MIN_SEATS, min(4, cls.MAX_SEATS)))]
    return Referee.start(path, settings.game, seats, settings.options), False


def archive(path: Path) -> Path:
    """Move a finished table log aside (``<stem>-<UTC time>.sqlite``, with its WAL files)."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.stem}-{stamp}{path.suffix}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.stem}-{stamp}-{n}{path.suffix}")
        n += 1
    for suffix in ("-wal", "-shm"):
        side = Path(str(path) + suffix)
        if side.exists():
            side.replace(Path(str(target) + suffix))
    path.replace(target)
    return target


# ---------------------------------------------------------------------- status
@dataclass
class Status:
    """Status of each part for the console and the dashboard's hardware panel."""

    parts: dict[str, dict] = field(default_factory=dict)
    listeners: list[Callable[[str, dict], None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def set(self, part: str, **info) -> None:
        with self.lock:
            self.parts[part] = dict(info)
            listeners = list(self.listeners)
        for fn in listeners:
            try:
                fn(part, dict(info))
            except Exception:  # a broken display must not stop the table
                log.exception("status listener failed")
