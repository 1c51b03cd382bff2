"""``companion doctor``: check each part of the table and say how to fix what fails.

Checks, in order: the platform and chosen backends, the camera (one frame), OCR (Tesseract with
the ``eng`` and ``rus`` languages, RapidOCR's bundled models), the button box (its hello line),
GPIO (gpiozero's pin factory), the dashboard port, and the data folder. Each line says ``ok``,
``warn`` or ``FAIL`` with the fix, in the console's language (``--lang``: Russian by default, like
``companion run`` — ``ок`` / ``внимание`` / ``СБОЙ`` and «что сделать»; ``en`` for English —
:mod:`companion.commands._lang`). ``--json`` gives one object per check, the same whatever
``--lang`` says (English ``detail`` and ``fix``). Exit status 0 when nothing failed, 1 otherwise,
2 for unusable arguments or settings.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass

from companion.commands._lang import add_lang_option
from companion.i18n import M, MN, MP, N_, NC_, Message, aside, decimal, render
from companion.i18n import cli as words
from companion.i18n.cli import _


@dataclass
class Check:
    """One check's result: ``part``, ``state`` (``ok``/``warn``/``fail``), what was found
    (``said``) and what to do (``todo``), messages (:mod:`companion.i18n`) rendered for the
    console in its language; ``detail`` and ``fix`` are them in English (the JSON, logs)."""

    part: str
    state: str
    said: Message | str
    todo: Message | str = ""

    @property
    def detail(self) -> str:
        return render(self.said, "en")

    @property
    def fix(self) -> str:
        return render(self.todo, "en") or ""

    def to_json(self) -> dict:
        return {"part": self.part, "state": self.state, "detail": self.detail, "fix": self.fix}

    def words(self, lang: str = "ru") -> tuple[str, str]:
        """``(detail, fix)`` in ``lang`` (``"ru"`` or ``"en"``)."""
        return render(self.said, lang), render(self.todo, lang) or ""


#: The checks' part names (the JSON's ``part`` stays as it is), context ``doctor part``.
PARTS = {p: MP("doctor part", p) for p in (
    NC_("doctor part", "platform"), NC_("doctor part", "camera"), NC_("doctor part", "ocr-tesseract"),
    NC_("doctor part", "ocr-rapidocr"), NC_("doctor part", "letter-fonts"), NC_("doctor part", "buttons"),
    NC_("doctor part", "gpio"), NC_("doctor part", "dashboard"), NC_("doctor part", "data"),
    NC_("doctor part", "note-model"))}

#: A check's state mark at the start of its line, context ``doctor mark``.
MARKS = {"ok": MP("doctor mark", "ok"), "warn": MP("doctor mark", "warn"), "fail": MP("doctor mark", "FAIL")}


def check_line(c: Check, lang: str = "ru") -> list[str]:
    """The console lines of one check in ``lang``: ``[ok  ] camera         detail`` (and, when it
    did not pass, ``fix: …`` under it); Russian: ``[ок      ] камера         …`` / «что сделать»."""
    width = max(len(render(m, lang)) for m in MARKS.values())
    mark = render(MARKS[c.state], lang)
    name = render(PARTS[c.part], lang) if c.part in PARTS else c.part
    detail, fix = c.words(lang)
    lines = [f"[{mark:<{width}}] {name:14} {detail}"]
    if fix and c.state != "ok":
        lines.append(f"{'':{width + 3}}{'':14} " + render(M("fix: %(fix)s", fix=fix), lang))
    return lines


def _exc_words(exc: Exception):
    """An exception as a fact of a check's words: its own message when its raiser gave one
    (:class:`companion.errors.CompanionError`), else its (library's) English text; in Russian an
    OS error's usual cause."""
    message = getattr(exc, "message", None)
    if isinstance(message, Message):
        return message
    if isinstance(exc, OSError) and exc.errno:
        from companion.settings import _os_words

        # an exception's text is the library's (English); in other languages its usual cause
        return aside(str(exc), _os_words(exc))
    return str(exc)


def register(subparsers) -> None:
    p = subparsers.add_parser("doctor", help=_("check camera, OCR, button box, GPIO, dashboard port"),
                              description=_("Check each part of the table and say how to fix what fails."))
    p.add_argument("--config", metavar=_("FILE"), help=_("settings file (TOML), as for companion run"))
    p.add_argument("--sim", action="store_true", default=None, help=_("check the simulated backends"))
    p.add_argument("--port", type=words.port, help=_("dashboard port to check (default from settings, 8080)"))
    p.add_argument("--timeout", type=words.number, default=3.0, help=_("seconds to wait for the camera and box"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per check"))
    add_lang_option(p)
    p.set_defaults(func=main)


def check_platform(plan, platform) -> Check:
    told = platform.model or M("not a Raspberry Pi")
    for why in plan.why:
        told = M("%(first)s; %(next)s", first=told, next=why)
    return Check("platform", "ok", told)


def check_camera(plan, timeout: float) -> Check:
    from companion import parts

    if plan.camera == "scene":
        try:
            from companion.games import registry
            from companion.vision.scene import SceneRenderer

            frame = SceneRenderer(registry.ids()[0], seed=1).render([("card", "QH")])  # any game: one card
            return Check("camera", "ok", M("simulated scene camera, frame %(w)s×%(h)s", w=frame.shape[1], h=frame.shape[0]))
        except Exception as exc:
            return Check("camera", "fail", M("scene renderer: %(error)s", error=_exc_words(exc)),
                         M("install the package with its vision parts"))
    try:
        cam = parts.camera(plan.camera)
    except Exception as exc:
        return Check("camera", "fail", M("%(camera)s: %(error)s", camera=plan.camera, error=_exc_words(exc)),
                     camera_fix_message(plan.camera))
    try:
        t0 = time.monotonic()
        frame = cam.read()
        ms = (time.monotonic() - t0) * 1000
        return Check("camera", "ok", M("%(camera)s: frame %(w)s×%(h)s in %(ms)s ms", camera=plan.camera,
                                       w=frame.shape[1], h=frame.shape[0], ms=f"{ms:.0f}"))
    except Exception as exc:
        return Check("camera", "fail", M("%(camera)s: no frame: %(error)s", camera=plan.camera, error=_exc_words(exc)),
                     M("is another program using the camera?"))
    finally:
        cam.close()


def camera_fix(spec: str, lang: str = "en") -> str:
    """What to do when the camera ``spec`` (a ``--camera`` / ``backends.camera`` value) does not
    open, in ``lang`` (English by default: the JSON's ``fix``): the hint fits the kind of source
    (a Pi camera, a USB device, a stream, files)."""
    return render(camera_fix_message(spec), lang)


def camera_fix_message(spec: str) -> Message:
    """:func:`camera_fix`'s message."""
    from companion.vision.camera import parse_spec

    try:
        kind, target = parse_spec(spec)
    except Exception:
        kind, target = "", spec
    if kind == "picamera2":
        return M("sudo apt install python3-picamera2 and create the venv with --system-site-packages "
                 "(make install-pi does both); check the ribbon cable and `rpicam-hello --list-cameras`")
    if kind == "folder":
        return M("check the path %(path)r: it must be an existing folder of images", path=target)
    if kind == "image":
        return M("check the path %(path)r: it must be an existing image file", path=target)
    if kind == "opencv" and not target.isdigit():
        return M("check that the stream or video %(target)r is reachable from this machine", target=target)
    return M("plug in the USB camera; `ls /dev/video*` lists the device numbers (opencv:N)")


#: Tesseract's fix when it is there but does not run
REINSTALL_TESSERACT = N_("reinstall tesseract-ocr (sudo apt install --reinstall tesseract-ocr)")


def check_tesseract() -> Check:
    exe = shutil.which("tesseract")
    if not exe:
        return Check("ocr-tesseract", "fail", M("tesseract is not installed"),
                     "sudo apt install tesseract-ocr tesseract-ocr-eng tesseract-ocr-rus")
    try:
        out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("ocr-tesseract", "fail", M("tesseract does not run: %(error)s", error=_exc_words(exc)),
                     M(REINSTALL_TESSERACT))
    langs = {line.strip() for line in (out.stdout + out.stderr).splitlines()[1:] if line.strip()}
    missing = [x for x in ("eng", "rus") if x not in langs]
    if missing:
        return Check("ocr-tesseract", "fail", M("languages %(langs)s; missing %(missing)s",
                                                langs=", ".join(sorted(langs)) or M("none"), missing=", ".join(missing)),
                     "sudo apt install " + " ".join(f"tesseract-ocr-{m}" for m in missing))
    try:
        from companion.vision.tesseract_engine import TesseractEngine

        tess = TesseractEngine(lang="rus")
    except Exception as exc:  # noqa: BLE001 - doctor reports, never raises
        return Check("ocr-tesseract", "fail", M("%(exe)s: eng, rus; the reader cannot start it: %(error)s", exe=exe,
                                                error=_exc_words(exc)), M(REINSTALL_TESSERACT))
    if tess.backend == "api":
        return Check("ocr-tesseract", "ok", M("%(exe)s: eng, rus; read in-process (tesserocr, Tesseract %(version)s)",
                                              exe=exe, version=tess.version))
    return Check("ocr-tesseract", "ok", M("%(exe)s: eng, rus; read by one process per photo (slower: "
                                          "`pip install tesserocr` reads in-process)", exe=exe))


def check_rapidocr() -> Check:
    try:
        import importlib.util

        spec = importlib.util.find_spec("rapidocr")
        if spec is None:
            raise ImportError("rapidocr is not installed")
        from pathlib import Path

        if spec.origin is None:
            raise ImportError("rapidocr has no files")
        models = list(Path(spec.origin).parent.rglob("*.onnx"))
        if not models:
            return Check("ocr-rapidocr", "fail", M("rapidocr has no bundled ONNX models"),
                         M("pip install --force-reinstall rapidocr (the wheel ships its models)"))
        import onnxruntime  # noqa: F401

        from companion.vision.ocr_models import int8_held_back_by_cpu, int8_model

        det = sorted(m for m in models if "det" in m.name)
        fast = int8_model(det[0]) if det else None
        if fast:
            speed = M("int8 text detector %(name)s", name=fast.name)
        elif int8_held_back_by_cpu():
            speed = M("float text detector (this CPU has no VNNI int8 dot product, where the int8 "
                      "copy misreads; reads stay right, detection ≈ 4 × slower)")
        else:
            speed = M("float text detector (the project's int8 copy was made from another rapidocr "
                      "release, or COMPANION_OCR_INT8=0; reads stay right, detection ≈ 4 × slower)")
        return Check("ocr-rapidocr", "ok", M("%(n)s bundled models, onnxruntime %(version)s; %(speed)s",
                                             n=len(models), version=onnxruntime.__version__, speed=speed))
    except ImportError as exc:
        return Check("ocr-rapidocr", "fail", M("not installed: %(name)s", name=exc.name or "rapidocr"),
                     M("pip install rapidocr onnxruntime (make install-pi)"))


def check_letter_fonts() -> Check:
    """The note reader's Cyrillic letter templates (companion/vision/letters.py) need TrueType
    fonts with Cyrillic glyphs; without them RUB letters rest on two engines instead of three."""
    from companion.vision import letters

    try:
        mats, _labels = letters.LetterMatcher().templates
    except FileNotFoundError as exc:
        return Check("letter-fonts", "fail", M("no Cyrillic fonts for the serial's letter templates (%(error)s)",
                                               error=str(exc)),
                     "sudo apt install fonts-dejavu-core fonts-liberation")
    return Check("letter-fonts", "ok", M("%(n)s Cyrillic letter templates", n=len(mats)))


#: The serial recogniser's model check (:func:`companion.vision.serialnet.check_model`):
#: code → message id; ``%(…)s`` are its facts.
NOTE_MODEL_WORDS = {
    "ok": N_("%(path)s: %(mb)s MB, input %(input)s, %(classes)s classes"),
    "missing": N_("serial recogniser model missing: %(path)s"),
    "unloadable": N_("%(path)s does not load: %(error)s"),
    "wrong_shape": N_("%(path)s is not the serial recogniser (input %(input)s, output %(output)s)"),
}
NOTE_MODEL_FIX = N_("reinstall the project or `git checkout companion/vision/models/serialnet.onnx` "
                    "(the model ships with the code); until then banknote serials are not read")


def check_note_model() -> Check:
    """The banknote reader's own serial recogniser (companion/vision/models/serialnet.onnx)."""
    from companion.vision.serialnet import check_model

    code, facts = check_model()
    if code == "ok":
        return Check("note-model", "ok", M(NOTE_MODEL_WORDS[code], **_plain_facts(facts)))
    facts = {"input": "?", "output": "?", "error": "?", **facts}
    return Check("note-model", "fail", M(NOTE_MODEL_WORDS[code], **_plain_facts(facts)), M(NOTE_MODEL_FIX))


def _plain_facts(facts: dict) -> dict:
    """Facts in words: a model's tensor shape (``['n', 1, 32, 'w']``) as :func:`shape_words`
    says it, never a Python list; a fraction (the model's size in MB) with the language's
    decimal sign (two places: «1,23» / "1.23")."""
    return {k: shape_words(v) if isinstance(v, (list, tuple)) else decimal(v, 2) if isinstance(v, float) else v
            for k, v in facts.items()}


def shape_words(shape) -> object:
    """A model's tensor shape in words: an image input (batch × channels × height × width,
    ``['n', 1, 32, 'w']``) as «1 channel, 32 px high, any width»; another shape as its sizes
    joined with ``×``, a size the model leaves open as «any»."""
    def size(v):
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else M("any")

    dims = list(shape)
    if len(dims) == 4 and all(isinstance(v, int) for v in dims[1:3]):
        return MN("%(n)s channel, %(height)s px high, width %(width)s",
                  "%(n)s channels, %(height)s px high, width %(width)s", dims[1], height=dims[2], width=size(dims[3]))
    sizes = [size(v) for v in dims]
    return {lang: " × ".join(render(v, lang) for v in sizes) for lang in ("ru", "en")}


def check_buttons(plan, timeout: float) -> Check:
    from companion import parts

    vbox = None
    try:
        if plan.buttons == "virtual":
            vbox = parts.virtual_box(4)
            url = vbox.port
        else:
            url = plan.buttons.split(":", 1)[1]
            if url.startswith("/dev/") and not os.path.exists(url):
                return Check("buttons", "fail", M("%(port)s does not exist", port=url),
                             M("plug in the button box; check the udev rule (`ls -l /dev/buttonbox`, "
                               "`udevadm info -q property -n /dev/ttyACM0`); see docs/setup-pi.md"))
        box = parts.button_box(url, lambda ev: None)
        try:
            if not box.wait_connected(timeout):
                st = box.status.to_dict()
                return Check("buttons", "fail", M("%(port)s: no hello from the box (%(error)s)", port=url,
                                                  error=st.get("last_error")),
                             M("re-flash the firmware (docs in firmware/), check the USB cable"))
            st = box.status.to_dict()
            facts = dict(port=url, firmware=st.get("firmware"), protocol=st.get("protocol"), seats=st.get("seats"))
            if vbox:
                told = M("virtual box on %(port)s: firmware %(firmware)s, protocol %(protocol)s, %(seats)s seats", **facts)
            else:
                told = M("box on %(port)s: firmware %(firmware)s, protocol %(protocol)s, %(seats)s seats", **facts)
            return Check("buttons", "ok", told)
        finally:
            box.close()
    except Exception as exc:
        return Check("buttons", "fail", M("%(buttons)s: %(error)s", buttons=plan.buttons, error=_exc_words(exc)),
                     M("see docs/setup-pi.md, 'Button box'"))
    finally:
        if vbox is not None:
            vbox.close()


def check_gpio(plan) -> Check:
    try:
        from gpiozero import Device
    except ImportError as exc:
        return Check("gpio", "fail", M("not installed: %(name)s", name=exc.name or "gpiozero"),
                     "pip install gpiozero")
    if plan.lights == "none":
        return Check("gpio", "ok", M("lights disabled (lights = none)"))
    if plan.lights == "mock":
        from gpiozero.pins.mock import MockFactory

        Device.pin_factory = MockFactory()
        return Check("gpio", "ok", M("gpiozero mock pins (simulated table)") if plan.sim
                     else M("gpiozero mock pins (lights = mock)"))
    try:
        factory = Device._default_pin_factory()
        name = type(factory).__name__
        if "Mock" in name:
            return Check("gpio", "warn", M("pin factory %(name)s: no real pins", name=name),
                         M("install lgpio (make install-pi)"))
        return Check("gpio", "ok", M("pin factory %(name)s", name=name))
    except Exception as exc:
        return Check("gpio", "fail", M("no pin factory: %(error)s", error=_exc_words(exc)),
                     M("sudo apt install python3-lgpio, or pip install lgpio in the venv (make install-pi)"))


#: Where ``make install-pi`` puts the table's systemd unit (docs/setup-pi.md, "service").
SERVICE_UNITS = ("/etc/systemd/system/companion.service", "/lib/systemd/system/companion.service")


def service_installed() -> bool:
    """True when the table's systemd service is installed here (:data:`SERVICE_UNITS`)."""
    return any(os.path.exists(p) for p in SERVICE_UNITS)


def check_port(host: str, port: int, sim: bool = False) -> Check:
    """The dashboard's port: free, or held by a running companion — whose way to look at it
    is ``systemctl`` only on a table with the service installed; on the simulated table (``make
    demo``) or without the service it is the other ``companion run`` in a terminal."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind((host if host not in ("", "::") else "0.0.0.0", port))
        return Check("dashboard", "ok", M("port %(port)s is free", port=port))
    except OSError as exc:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
                c.sendall(b"GET / HTTP/1.0\r\n\r\n")
                head = c.recv(64).decode("latin-1", "replace").splitlines()[0] if c else ""
            if not sim and service_installed():
                todo: Message | str = "systemctl status companion"
            else:  # no service here: a companion run (make demo) in another terminal holds the port
                todo = M("stop the other companion run (make demo) with Ctrl-C in its terminal, or choose "
                         "another port with --port")
            return Check("dashboard", "warn", M("port %(port)s is in use and answers (%(head)s): is companion running?",
                                                port=port, head=head), todo)
        except OSError:
            return Check("dashboard", "fail", M("port %(port)s: %(error)s", port=port, error=_os_reason(exc)),
                         M("choose another with --port or port = in the settings"))
    finally:
        s.close()


def _os_reason(exc: OSError):
    """An OS error's reason (``strerror``), its usual causes as messages (the English stays the
    C library's words)."""
    from companion.settings import _os_words

    return _os_words(exc) if exc.errno else str(exc)


def check_data(settings) -> Check:
    d = settings.data_dir
    try:
        d.mkdir(parents=True, exist_ok=True)
        probe = d / ".doctor"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        return Check("data", "fail", M("%(folder)s: %(error)s", folder=str(d), error=_os_reason(exc)),
                     f"sudo install -d -o $USER {d}")
    return Check("data", "ok", M("%(folder)s is writable", folder=str(d)))


def main(args) -> int:
    from companion.service import choose_backends, detect_platform
    from companion.settings import Settings

    lang = getattr(args, "lang", "ru")
    try:
        settings = Settings.load(args.config, sim=args.sim, port=args.port)
        platform = detect_platform()
        plan = choose_backends(settings, platform)
    except Exception as exc:
        from companion.commands.run import error_words

        print(f"companion doctor: {error_words(exc, lang)}", file=sys.stderr)
        return 2
    checks = []
    for fn in (lambda: check_platform(plan, platform), lambda: check_camera(plan, args.timeout),
               check_tesseract, check_rapidocr, check_note_model, check_letter_fonts,
               lambda: check_buttons(plan, args.timeout), lambda: check_gpio(plan),
               lambda: check_port(settings.host, settings.port, plan.sim), lambda: check_data(settings)):
        c = fn()
        checks.append(c)
        if args.json:
            print(json.dumps(c.to_json(), ensure_ascii=False), flush=True)
        else:
            for line in check_line(c, lang):
                print(line, flush=True)
    return 1 if any(c.state == "fail" for c in checks) else 0
