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
