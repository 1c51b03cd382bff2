"""The one place that looks at the machine: which camera, button box and lights a run uses.

:func:`choose_backends` is the only platform switch in the program: on a Raspberry Pi the real
devices (picamera2 or a USB camera, the button box at its udev name, gpiozero's native pins),
elsewhere — and with ``sim`` — the simulated ones (rendered scene frames, the virtual box on a
pty, gpiozero's mock pins). Everything above the devices is the same code on both.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError
from companion.i18n import M, Message, N_
from companion.settings import STABLE_BUTTONBOX, Settings


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
        why: one line per choice (:class:`~companion.i18n.Message`), for the console and
            ``companion doctor``.
    """

    camera: str
    buttons: str
    lights: str
    sim: bool
    why: tuple[Message, ...] = ()


#: The buttons' choice on the simulated table, its bots pressing them; :data:`NO_BOTS_PRESS` when
#: the bots leave the table's game alone (an operator's game resumed).
BOTS_PRESS = N_("buttons: virtual box on a pty, pressed by the bots")
NO_BOTS_PRESS = N_("buttons: virtual box on a pty")


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
        why.append(M("simulated table: --sim"))
    elif sim:
        why.append(M("simulated table: not a Raspberry Pi (%(model)s)", model=p.model) if p.model
                   else M("simulated table: not a Raspberry Pi (no board model)"))
    # camera
    if b.camera != "auto":
        camera = b.camera
        why.append(M("camera: %(camera)s (setting)", camera=camera))
    elif sim:
        camera = "scene"
        why.append(M("camera: rendered scenes of the simulated table"))
    elif p.has_picamera2:
        camera = "picamera2"
        why.append(M("camera: picamera2 (Pi camera)"))
    else:
        camera = "opencv:0"
        why.append(M("camera: USB camera %(device)s (picamera2 not installed)", device="/dev/video0"))
    # buttons
    if b.buttons != "auto":
        buttons = b.buttons if b.buttons == "virtual" else (
            b.buttons if b.buttons.startswith("serial:") else f"serial:{b.buttons}")
        why.append(M("buttons: %(buttons)s (setting)", buttons=buttons))
    elif sim:
        buttons = "virtual"
        why.append(M(BOTS_PRESS))
    else:
        buttons = f"serial:{STABLE_BUTTONBOX}"
        why.append(M("buttons: %(port)s (udev rule)", port=STABLE_BUTTONBOX))
    # lights
    if b.lights != "auto":
        lights = b.lights
        why.append(M("lights: %(lights)s (setting)", lights=lights))
    elif p.is_pi and not sim:
        lights = "gpio"
        why.append(M("lights: gpiozero native pins"))
    else:
        lights = "mock"
        why.append(M("lights: gpiozero mock pins"))
    from companion.errors import CameraError
    from companion.vision.camera import parse_spec

    try:
        camera_kind, _ = parse_spec(camera)
    except CameraError as exc:
        raise CompanionError(M("unknown camera backend %(camera)r: %(error)s", camera=camera, error=str(exc))) from None
    for name, value, ok in (
        ("buttons", buttons, buttons == "virtual" or buttons.startswith("serial:")),
        ("lights", lights, lights in ("gpio", "mock", "none")),
    ):
        if not ok:
            raise CompanionError(M("unknown %(name)s backend %(value)r (choices: %(choices)s)", name=name, value=value,
                                   choices=M("auto, virtual, a port or an address (for example /dev/ttyACM0)")
                                   if name == "buttons" else "auto, gpio, mock, none"))
    if camera_kind == "scene" and not sim:
        # nobody would put anything in its view: a real table would wait on an empty picture
        raise CompanionError(M("the scene camera shows only the simulated table (add --sim), or name a "
                               "real camera: picamera2, opencv:INDEX|URL|VIDEO, folder:PATH, image:PATH"))
    if sim and camera_kind != "scene":
        raise CompanionError(M("the simulated table needs the scene camera (its bots put notes and cards in view)"))
    if sim and buttons != "virtual":
        raise CompanionError(M("the simulated table needs the virtual button box (its bots press its buttons)"))
    return BackendPlan(camera, buttons, lights, sim, tuple(why))
