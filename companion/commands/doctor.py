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
from companion.i18n import cli as words
from companion.i18n.cli import _


@dataclass
class Check:
    """One check's result: ``part``, ``state`` (``ok``/``warn``/``fail``), ``detail``, ``fix``
    (English: the JSON, logs), and ``detail_ru``, ``fix_ru``: the same in Russian for the
    console (empty: the English words are used)."""

    part: str
    state: str
    detail: str
    fix: str = ""
    detail_ru: str = ""
    fix_ru: str = ""

    def to_json(self) -> dict:
        return {"part": self.part, "state": self.state, "detail": self.detail, "fix": self.fix}

    def words(self, lang: str = "ru") -> tuple[str, str]:
        """``(detail, fix)`` in ``lang`` (``"ru"`` or ``"en"``)."""
        if lang == "ru":
            return self.detail_ru or self.detail, self.fix_ru or self.fix
        return self.detail, self.fix


#: The checks' part names in Russian (the JSON's ``part`` stays as it is).
PARTS_RU = {"platform": "платформа", "camera": "камера", "ocr-tesseract": "OCR Tesseract",
            "ocr-rapidocr": "OCR RapidOCR", "letter-fonts": "шрифты букв", "buttons": "кнопки",
            "gpio": "GPIO", "dashboard": "табло", "data": "папка данных",
            "note-model": "модель номеров"}

#: A check's state mark at the start of its line: ``{state: (Russian, English)}``.
MARKS = {"ok": ("ок", "ok"), "warn": ("внимание", "warn"), "fail": ("СБОЙ", "FAIL")}


def check_line(c: Check, lang: str = "ru") -> list[str]:
    """The console lines of one check in ``lang``: ``[ok  ] camera         detail`` (and, when it
    did not pass, ``fix: …`` under it); Russian: ``[ок      ] камера         …`` / «что сделать»."""
    ru = lang == "ru"
    width = max(len(m[0 if ru else 1]) for m in MARKS.values())
    mark = MARKS[c.state][0 if ru else 1]
    name = PARTS_RU.get(c.part, c.part) if ru else c.part
    detail, fix = c.words(lang)
    lines = [f"[{mark:<{width}}] {name:14} {detail}"]
    if fix and c.state != "ok":
        lines.append(f"{'':{width + 3}}{'':14} {'что сделать' if ru else 'fix'}: {fix}")
    return lines


def _exc_words(exc: Exception, lang: str = "ru") -> str:
    """An exception's message in ``lang``: its own Russian words when its raiser gave them
    (:meth:`companion.errors.CompanionError.words`), an OS error's usual cause in Russian, else
    its (library's) English text."""
    words = getattr(exc, "words", None)
    if callable(words):
        return words(lang)
    if lang == "ru" and isinstance(exc, OSError) and exc.errno:
        from companion.settings import _os_words

        return _os_words(exc)
    return str(exc)


def register(subparsers) -> None:
    p = subparsers.add_parser("doctor", help=_("check camera, OCR, button box, GPIO, dashboard port"),
                              description=_("Check each part of the table and say how to fix what fails."))
    p.add_argument("--config", metavar=_("FILE"), help=_("settings file (TOML), as for companion run"))
    p.add_argument("--sim", action="store_true", default=None, help=_("check the simulated backends"))
    p.add_argument("--port", type=words.integer, help=_("dashboard port to check (default from settings, 8080)"))
    p.add_argument("--timeout", type=words.number, default=3.0, help=_("seconds to wait for the camera and box"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per check"))
    add_lang_option(p)
    p.set_defaults(func=main)


def check_platform(plan, platform) -> Check:
    from companion.commands.run import why_words

    model = platform.model or "not a Raspberry Pi"
    return Check("platform", "ok", f"{model}; " + "; ".join(why_words(w, "en") for w in plan.why),
                 detail_ru=f"{platform.model or 'не Raspberry Pi'}; " + "; ".join(why_words(w, "ru") for w in plan.why))


def check_camera(plan, timeout: float) -> Check:
    from companion import parts

    if plan.camera == "scene":
        try:
            from companion.vision.scene import SceneRenderer

            frame = SceneRenderer("lottery", seed=1).render([("card", "QH")])
            return Check("camera", "ok", f"simulated scene camera, frame {frame.shape[1]}×{frame.shape[0]}",
                         detail_ru=f"камера имитации стола (отрисованные кадры), кадр {frame.shape[1]}×{frame.shape[0]}")
        except Exception as exc:
            return Check("camera", "fail", f"scene renderer: {exc}", "install the package with its vision parts",
                         detail_ru=f"отрисовка кадров не работает: {_exc_words(exc)}",
                         fix_ru="установите пакет вместе с его частями распознавания")
    try:
        cam = parts.camera(plan.camera)
    except Exception as exc:
        return Check("camera", "fail", f"{plan.camera}: {exc}", camera_fix(plan.camera),
                     detail_ru=f"{plan.camera}: {_exc_words(exc)}", fix_ru=camera_fix(plan.camera, "ru"))
    try:
        t0 = time.monotonic()
        frame = cam.read()
        ms = (time.monotonic() - t0) * 1000
        return Check("camera", "ok", f"{plan.camera}: frame {frame.shape[1]}×{frame.shape[0]} in {ms:.0f} ms",
                     detail_ru=f"{plan.camera}: кадр {frame.shape[1]}×{frame.shape[0]} за {ms:.0f} мс")
    except Exception as exc:
        return Check("camera", "fail", f"{plan.camera}: no frame: {exc}", "is another program using the camera?",
                     detail_ru=f"{plan.camera}: нет кадра: {_exc_words(exc)}",
                     fix_ru="не занята ли камера другой программой?")
    finally:
        cam.close()


def camera_fix(spec: str, lang: str = "en") -> str:
    """What to do when the camera ``spec`` (a ``--camera`` / ``backends.camera`` value) does not
    open, in ``lang`` (English by default: the JSON's ``fix``): the hint fits the kind of source
    (a Pi camera, a USB device, a stream, files)."""
    from companion.vision.camera import parse_spec

    ru = lang == "ru"
    try:
        kind, target = parse_spec(spec)
    except Exception:
        kind, target = "", spec
    if kind == "picamera2":
        if ru:
            return ("sudo apt install python3-picamera2 и создайте venv с --system-site-packages "
                    "(make install-pi делает и то и другое); проверьте шлейф камеры и `rpicam-hello --list-cameras`")
        return ("sudo apt install python3-picamera2 and create the venv with --system-site-packages "
                "(make install-pi does both); check the ribbon cable and `rpicam-hello --list-cameras`")
    if kind in ("folder", "image"):
        if ru:
            return (f"проверьте путь {target!r}: это должна быть существующая "
                    f"{'папка со снимками' if kind == 'folder' else 'картинка (файл снимка)'}")
        return f"check the path {target!r}: it must be an existing {'folder of images' if kind == 'folder' else 'image file'}"
    if kind == "opencv" and not target.isdigit():
        if ru:
            return f"проверьте, что видеопоток или видео {target!r} доступны с этой машины"
        return f"check that the stream or video {target!r} is reachable from this machine"
    if ru:
        return "подключите USB-камеру; `ls /dev/video*` покажет номера устройств (opencv:N)"
    return "plug in the USB camera; `ls /dev/video*` lists the device numbers (opencv:N)"


def check_tesseract() -> Check:
    exe = shutil.which("tesseract")
    if not exe:
        return Check("ocr-tesseract", "fail", "tesseract is not installed",
                     "sudo apt install tesseract-ocr tesseract-ocr-eng tesseract-ocr-rus",
                     detail_ru="tesseract не установлен")
    try:
        out = subprocess.run([exe, "--list-langs"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("ocr-tesseract", "fail", f"tesseract does not run: {exc}", "reinstall tesseract-ocr",
                     detail_ru=f"tesseract не запускается: {_exc_words(exc)}",
                     fix_ru="переустановите tesseract-ocr (sudo apt install --reinstall tesseract-ocr)")
    langs = {line.strip() for line in (out.stdout + out.stderr).splitlines()[1:] if line.strip()}
    missing = [x for x in ("eng", "rus") if x not in langs]
    if missing:
        return Check("ocr-tesseract", "fail", f"languages {sorted(langs)}; missing {missing}",
                     "sudo apt install " + " ".join(f"tesseract-ocr-{m}" for m in missing),
                     detail_ru=f"языки {', '.join(sorted(langs)) or 'нет'}; не хватает {', '.join(missing)}")
    try:
        from companion.vision.ocr import TesseractEngine

        tess = TesseractEngine(lang="rus")
    except Exception as exc:  # noqa: BLE001 - doctor reports, never raises
        return Check("ocr-tesseract", "fail", f"{exe}: eng, rus; the reader cannot start it: {exc}",
                     "reinstall tesseract-ocr",
                     detail_ru=f"{exe}: eng, rus; распознавание не может его запустить: {_exc_words(exc)}",
                     fix_ru="переустановите tesseract-ocr (sudo apt install --reinstall tesseract-ocr)")
    if tess.backend == "api":
        return Check("ocr-tesseract", "ok", f"{exe}: eng, rus; read in-process (tesserocr, Tesseract {tess.version})",
                     detail_ru=f"{exe}: eng, rus; читает в том же процессе (tesserocr, Tesseract {tess.version})")
    return Check("ocr-tesseract", "ok", f"{exe}: eng, rus; read by one process per photo (slower: "
                 f"`pip install tesserocr` reads in-process)",
                 detail_ru=f"{exe}: eng, rus; читает отдельным процессом на каждый снимок (медленнее: "
                           f"с `pip install tesserocr` читает в том же процессе)")


def check_rapidocr() -> Check:
    try:
        import importlib.util

        spec = importlib.util.find_spec("rapidocr")
        if spec is None:
            raise ImportError("rapidocr is not installed")
        from pathlib import Path

        models = list(Path(spec.origin).parent.rglob("*.onnx"))
        if not models:
            return Check("ocr-rapidocr", "fail", "rapidocr has no bundled ONNX models",
                         "pip install --force-reinstall rapidocr (the wheel ships its models)",
                         detail_ru="в пакете rapidocr нет его моделей ONNX",
                         fix_ru="pip install --force-reinstall rapidocr (модели входят в пакет)")
        import onnxruntime  # noqa: F401

        from companion.vision.ocr import int8_model

        det = sorted(m for m in models if "det" in m.name)
        fast = int8_model(det[0]) if det else None
        speed = (f"int8 text detector {fast.name}" if fast else
                 "float text detector (the project's int8 copy was made from another rapidocr "
                 "release, or COMPANION_OCR_INT8=0; reads stay right, detection ≈ 4 × slower)")
        speed_ru = (f"детектор текста int8 {fast.name}" if fast else
                    "детектор текста float (копия int8 проекта сделана из другого выпуска rapidocr, "
                    "или COMPANION_OCR_INT8=0; читает так же верно, но поиск текста ≈ в 4 раза медленнее)")
        return Check("ocr-rapidocr", "ok", f"{len(models)} bundled models, onnxruntime "
                     f"{onnxruntime.__version__}; {speed}",
                     detail_ru=f"моделей в пакете: {len(models)}, onnxruntime {onnxruntime.__version__}; {speed_ru}")
    except ImportError as exc:
        return Check("ocr-rapidocr", "fail", str(exc), "pip install rapidocr onnxruntime (make install-pi)",
                     detail_ru=f"не установлено: {exc.name or 'rapidocr'}")


def check_letter_fonts() -> Check:
    """The note reader's Cyrillic letter templates (companion/vision/letters.py) need TrueType
    fonts with Cyrillic glyphs; without them RUB letters rest on two engines instead of three."""
    from companion.vision import letters

    try:
        mats, _labels = letters.LetterMatcher().templates
    except FileNotFoundError as exc:
        return Check("letter-fonts", "fail", str(exc), "sudo apt install fonts-dejavu-core fonts-liberation",
                     detail_ru=f"нет шрифтов с кириллицей для образцов букв серийного номера ({exc})")
    return Check("letter-fonts", "ok", f"{len(mats)} Cyrillic letter templates",
                 detail_ru=f"образцов кириллических букв: {len(mats)}")


#: The serial recogniser's model check (:func:`companion.vision.serialnet.check_model`):
#: code → (English detail, Russian detail); ``{...}`` are its facts.
NOTE_MODEL_WORDS = {
    "ok": ("{path}: {mb} MB, input {input}, {classes} classes", "{path}: {mb} МБ, вход {input}, классов {classes}"),
    "missing": ("serial recogniser model missing: {path}", "нет модели распознавания номеров: {path}"),
    "unloadable": ("{path} does not load: {error}", "{path} не загружается: {error}"),
    "wrong_shape": ("{path} is not the serial recogniser (input {input}, output {output})",
                    "{path} — не модель распознавания номеров (вход {input}, выход {output})"),
}
NOTE_MODEL_FIX = ("reinstall the project or `git checkout companion/vision/models/serialnet.onnx` "
                  "(the model ships with the code); until then banknote serials are not read",
                  "переустановите проект или `git checkout companion/vision/models/serialnet.onnx` "
                  "(модель входит в код); до тех пор номера купюр не читаются")


def check_note_model() -> Check:
    """The banknote reader's own serial recogniser (companion/vision/models/serialnet.onnx)."""
    from companion.vision.serialnet import check_model

    code, facts = check_model()
    en, ru = NOTE_MODEL_WORDS[code]
    if code == "ok":
        return Check("note-model", "ok", en.format(**facts), detail_ru=ru.format(**facts))
    facts = {"input": "?", "output": "?", "error": "?", **facts}
    return Check("note-model", "fail", en.format(**facts), NOTE_MODEL_FIX[0],
                 detail_ru=ru.format(**facts), fix_ru=NOTE_MODEL_FIX[1])


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
                return Check("buttons", "fail", f"{url} does not exist",
                             "plug in the button box; check the udev rule (`ls -l /dev/buttonbox`, "
                             "`udevadm info -q property -n /dev/ttyACM0`); see docs/setup-pi.md",
                             detail_ru=f"{url} не существует",
                             fix_ru="подключите коробку кнопок; проверьте правило udev (`ls -l /dev/buttonbox`, "
                                    "`udevadm info -q property -n /dev/ttyACM0`); см. docs/setup-pi.md")
        box = parts.button_box(url, lambda ev: None)
        try:
            if not box.wait_connected(timeout):
                st = box.status.to_dict()
                return Check("buttons", "fail", f"{url}: no hello from the box ({st.get('last_error')})",
                             "re-flash the firmware (docs in firmware/), check the USB cable",
                             detail_ru=f"{url}: коробка не поздоровалась ({st.get('last_error')})",
                             fix_ru="перепрошейте коробку (инструкция в firmware/), проверьте кабель USB")
            st = box.status.to_dict()
            kind = "virtual box" if vbox else "box"
            return Check("buttons", "ok", f"{kind} on {url}: firmware {st.get('firmware')}, "
                                          f"protocol {st.get('protocol')}, {st.get('seats')} seats",
                         detail_ru=f"{'виртуальная коробка' if vbox else 'коробка'} на {url}: прошивка "
                                   f"{st.get('firmware')}, протокол {st.get('protocol')}, мест {st.get('seats')}")
        finally:
            box.close()
    except Exception as exc:
        return Check("buttons", "fail", f"{plan.buttons}: {exc}", "see docs/setup-pi.md, 'Button box'",
                     detail_ru=f"{plan.buttons}: {_exc_words(exc)}", fix_ru="см. docs/setup-pi.md, раздел 'Button box'")
    finally:
        if vbox is not None:
            vbox.close()


def check_gpio(plan) -> Check:
    try:
        from gpiozero import Device
    except ImportError as exc:
        return Check("gpio", "fail", str(exc), "pip install gpiozero", detail_ru=f"не установлено: {exc.name or 'gpiozero'}")
    if plan.lights == "none":
        return Check("gpio", "ok", "lights disabled (lights = none)", detail_ru="подсветка выключена (lights = none)")
    if plan.lights == "mock":
        from gpiozero.pins.mock import MockFactory

        Device.pin_factory = MockFactory()
        return Check("gpio", "ok", "gpiozero mock pins" + (" (simulated table)" if plan.sim else " (lights = mock)"),
                     detail_ru="имитация выводов gpiozero" + (" (имитация стола)" if plan.sim else " (lights = mock)"))
    try:
        factory = Device._default_pin_factory()
        name = type(factory).__name__
        if "Mock" in name:
            return Check("gpio", "warn", f"pin factory {name}: no real pins", "install lgpio (make install-pi)",
                         detail_ru=f"фабрика выводов {name}: настоящих выводов нет",
                         fix_ru="установите lgpio (make install-pi)")
        return Check("gpio", "ok", f"pin factory {name}", detail_ru=f"фабрика выводов {name}")
    except Exception as exc:
        return Check("gpio", "fail", f"no pin factory: {exc}",
                     "sudo apt install python3-lgpio, or pip install lgpio in the venv (make install-pi)",
                     detail_ru=f"нет фабрики выводов: {_exc_words(exc)}",
                     fix_ru="sudo apt install python3-lgpio или pip install lgpio в venv (make install-pi)")


def check_port(host: str, port: int) -> Check:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind((host if host not in ("", "::") else "0.0.0.0", port))
        return Check("dashboard", "ok", f"port {port} is free", detail_ru=f"порт {port} свободен")
    except OSError as exc:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as c:
                c.sendall(b"GET / HTTP/1.0\r\n\r\n")
                head = c.recv(64).decode("latin-1", "replace").splitlines()[0] if c else ""
            return Check("dashboard", "warn", f"port {port} is in use and answers ({head}): is companion running?",
                         "systemctl status companion",
                         detail_ru=f"порт {port} занят и отвечает ({head}): уже работает companion?")
        except OSError:
            return Check("dashboard", "fail", f"port {port}: {exc.strerror}", "choose another with --port or port = in the settings",
                         detail_ru=f"порт {port}: {_exc_words(exc)}",
                         fix_ru="выберите другой: --port или port = в настройках")
    finally:
        s.close()


def check_data(settings) -> Check:
    d = settings.data_dir
    try:
        d.mkdir(parents=True, exist_ok=True)
        probe = d / ".doctor"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        return Check("data", "fail", f"{d}: {exc.strerror}", f"sudo install -d -o $USER {d}",
                     detail_ru=f"{d}: {_exc_words(exc)}")
    return Check("data", "ok", f"{d} is writable", detail_ru=f"в {d} можно писать")


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
               lambda: check_port(settings.host, settings.port), lambda: check_data(settings)):
        c = fn()
        checks.append(c)
        if args.json:
            print(json.dumps(c.to_json(), ensure_ascii=False), flush=True)
        else:
            for line in check_line(c, lang):
                print(line, flush=True)
    return 1 if any(c.state == "fail" for c in checks) else 0
