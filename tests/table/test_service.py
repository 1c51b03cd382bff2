"""Backend selection (the one platform switch), settings, loud missing parts, doctor, CLI errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.i18n import M, render

from companion.errors import CompanionError
from companion.parts import MissingPart, need
from companion.service import Platform, choose_backends
from companion.settings import Settings, SettingsError
from tests.wording import said

ROOT = Path(__file__).resolve().parents[2]
PI = Platform(model="Raspberry Pi 5 Model B Rev 1.0", is_pi=True, has_picamera2=True, buttonbox=True)
PI_USB = Platform(model="Raspberry Pi 4 Model B Rev 1.4", is_pi=True, has_picamera2=False)
LAPTOP = Platform(model="", is_pi=False)


def test_a_pi_gets_the_real_devices():
    plan = choose_backends(Settings(), PI)
    assert (plan.camera, plan.buttons, plan.lights, plan.sim) == ("picamera2", "serial:/dev/buttonbox", "gpio", False)
    assert choose_backends(Settings(), PI_USB).camera == "opencv:0"


def test_elsewhere_and_with_sim_the_simulated_table():
    for plan in (choose_backends(Settings(), LAPTOP), choose_backends(Settings(sim=True), PI)):
        assert (plan.camera, plan.buttons, plan.lights, plan.sim) == ("scene", "virtual", "mock", True)
        assert any("simulated" in w.id for w in plan.why)


def test_explicit_backends_win_and_bad_ones_are_refused():
    s = Settings.load(None, camera="folder:/tmp/frames", buttons="/dev/ttyACM0", lights="none")
    plan = choose_backends(s, LAPTOP)
    assert (plan.camera, plan.buttons, plan.lights, plan.sim) == ("folder:/tmp/frames", "serial:/dev/ttyACM0", "none", False)
    with pytest.raises(CompanionError, match="unknown camera backend"):
        choose_backends(Settings.load(None, camera="webcam"), LAPTOP)
    # docs/setup-pi.md, "A real table off a Pi": one part named is a real table, the rest as on a Pi
    plan = choose_backends(Settings.load(None, lights="none"), LAPTOP)
    assert (plan.camera, plan.buttons, plan.lights, plan.sim) == ("opencv:0", "serial:/dev/buttonbox", "none", False)
    # a bare folder is a camera spec too (companion.vision.camera.parse_spec, one syntax)
    assert choose_backends(Settings.load(None, camera="/tmp"), LAPTOP).camera == "/tmp"
    with pytest.raises(CompanionError, match="virtual button box"):
        choose_backends(Settings.load(None, sim=True, buttons="/dev/ttyACM0"), LAPTOP)


def test_settings_file_and_its_errors(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text('game = "doubt"\nport = 9000\nseats = ["Аня", "Борис"]\n[options]\nmax_cards = 3\n'
                 '[backends]\ncamera = "opencv:1"\n', encoding="utf-8")
    s = Settings.load(f, port=9100)
    assert (s.game, s.port, s.seats, s.options, s.backends.camera) == ("doubt", 9100, ["Аня", "Борис"], {"max_cards": 3}, "opencv:1")
    assert s.pin == ""  # no PIN given: the table's kept PIN (operator-pin in the data folder)
    f.write_text("gmae = 'skull'\n")
    with pytest.raises(SettingsError, match="unknown setting.*gmae"):
        Settings.load(f)
    f.write_text("[buttons]\nport = '/dev/ttyACM0'\n")  # the backends table under another name
    with pytest.raises(SettingsError, match=r"unknown setting.*buttons.*\[backends\] with camera, buttons, lights"):
        Settings.load(f)
    f.write_text("port = 'eighty'\n")
    with pytest.raises(SettingsError, match="port"):
        Settings.load(f)
    f.write_text("port = \n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        Settings.load(f)
    with pytest.raises(SettingsError, match="cannot read"):
        Settings.load(tmp_path / "missing.toml")
    with pytest.raises(SettingsError, match="pin"):
        Settings.load(None, pin="12a4")
    with pytest.raises(SettingsError, match="pace_ms"):
        Settings.load(None, pace_ms=-5)
    with pytest.raises(SettingsError, match="seed"):
        Settings.load(None, seed=-3)


def test_a_missing_part_fails_loudly():
    with pytest.raises(MissingPart, match="button box driver.*companion.devices.nothing"):
        need("companion.devices.nothing", part="button box driver")
    with pytest.raises(MissingPart, match=r"companion.log.NoSuchThing"):
        need("companion.log", "NoSuchThing", part="table log")


def _companion(*args, timeout=120):
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(ROOT / ".pytest-home")}
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)


def test_doctor_on_the_simulated_table():
    r = _companion("doctor", "--sim", "--port", "0", "--json")
    checks = [json.loads(line) for line in r.stdout.splitlines()]
    parts = {c["part"]: c["state"] for c in checks}
    assert {"platform", "camera", "ocr-tesseract", "ocr-rapidocr", "note-model", "letter-fonts",
            "buttons", "gpio", "dashboard", "data"} <= set(parts)
    assert r.returncode == (1 if "fail" in parts.values() else 0), r.stdout
    assert parts["buttons"] == "ok" and parts["gpio"] == "ok"


def test_doctor_speaks_russian_by_default_and_english_with_lang_en():
    """The console lines of ``companion doctor`` are in the console's language (Russian by
    default, like ``companion run``); ``--json`` stays the same (English detail and fix)."""
    from companion.commands.doctor import PARTS
    from companion.i18n import render

    ru = _companion("doctor", "--sim", "--port", "0")
    en = _companion("doctor", "--sim", "--port", "0", "--lang", "en")
    assert ru.returncode == en.returncode, (ru.stdout, en.stdout)
    ru_lines, en_lines = ru.stdout.splitlines(), en.stdout.splitlines()
    checks = [l for l in ru_lines if l.startswith("[")]
    assert len(checks) == 10 == len([l for l in en_lines if l.startswith("[")]), ru.stdout
    names = [render(m, "ru") for m in PARTS.values()]
    for line in checks:
        mark, _, rest = line[1:].partition("] ")
        assert mark.strip() in ("ок", "внимание", "СБОЙ"), line
        assert any(rest.startswith(n) for n in names), line
    fix = render(M("fix: %(fix)s", fix=""), "ru")
    assert all(l.strip().startswith(fix) for l in ru_lines if not l.startswith("[")), ru.stdout
    # the rendered Russian words, once (the failures' test below checks ids and facts)
    assert checks[0].startswith("[ок      ] платформа      не Raspberry Pi; имитация стола: --sim; "
                                "камера: отрисованные кадры имитации стола"), checks[0]
    buttons = next(l for l in checks if "] кнопки " in l)
    assert "] кнопки         виртуальная коробка на /dev/pts/" in buttons and ", мест 4" in buttons, buttons
    assert en_lines[0].startswith("[ok  ] platform       not a Raspberry Pi; simulated table: --sim"), en_lines[0]
    assert any(l.startswith("[ok  ] buttons        virtual box on /dev/pts/") for l in en_lines), en.stdout
    assert not re.search("[А-Яа-яЁё]", en.stdout), en.stdout


def test_doctor_failures_and_fixes_in_both_languages(tmp_path, capsys):
    """A camera folder and a button box that do not exist: each fails with what to do, in the
    console's language; a bad settings file is refused in it (exit 2)."""
    from companion.cli import main
    from companion.commands import doctor
    from companion.service import BackendPlan

    plan = BackendPlan(camera="folder:/nonexist", buttons="serial:/dev/ttyNOPE", lights="none", sim=False,
                       why=("camera: folder:/nonexist (setting)",))
    camera = doctor.check_camera(plan, 1.0)
    buttons = doctor.check_buttons(plan, 1.0)
    assert (camera.state, buttons.state) == ("fail", "fail")
    # what each check found and what to do: message ids with their facts (tests/wording.py)
    assert said(camera.said) == ("%(camera)s: %(error)s", {"camera": "folder:/nonexist", "error": "/nonexist: no such folder"})
    assert said(camera.todo) == ("check the path %(path)r: it must be an existing folder of images", {"path": "/nonexist"})
    assert said(buttons.said) == ("%(port)s does not exist", {"port": "/dev/ttyNOPE"})
    assert said(buttons.todo)[0].startswith("plug in the button box")
    # the console lines in Russian: the mark, the part, the words, the fix under them
    for check in (camera, buttons):
        found, fix = doctor.check_line(check, "ru")
        assert found.startswith(f"[{render(doctor.MARKS['fail'], 'ru')}") and found.endswith(render(check.said, "ru"))
        assert f"] {render(doctor.PARTS[check.part], 'ru')} " in found
        assert fix.strip() == render(M("fix: %(fix)s", fix=check.todo), "ru")
    assert doctor.check_line(camera, "en") == [
        "[FAIL] camera         folder:/nonexist: /nonexist: no such folder",
        "                      fix: check the path '/nonexist': it must be an existing folder of images"]
    assert doctor.check_line(buttons, "en")[0] == "[FAIL] buttons        /dev/ttyNOPE does not exist"
    assert camera.to_json() == {"part": "camera", "state": "fail", "detail": "folder:/nonexist: /nonexist: no such folder",
                                "fix": "check the path '/nonexist': it must be an existing folder of images"}
    bad = tmp_path / "c.toml"
    bad.write_text("gmae = 'skull'\n")
    assert main(["doctor", "--config", str(bad)]) == 2
    unknown = render(M("unknown setting(s): %(unknown)s; known: %(known)s, and the table [backends] with %(backends)s "
                       "(e.g. [backends] buttons = \"/dev/ttyACM0\")", unknown="gmae", known="§", backends=""), "ru")
    assert capsys.readouterr().err.startswith("companion doctor: " + unknown.split("§")[0])
    assert main(["doctor", "--config", str(bad), "--lang", "en"]) == 2
    assert capsys.readouterr().err.startswith("companion doctor: unknown setting(s): gmae; known: ")


def test_doctor_hints_fit_the_camera_source():
    """A camera that does not open gets the hint for its kind of source, not always "plug in the
    USB camera"."""
    from companion.commands import doctor

    assert "/dev/video" in doctor.camera_fix("opencv:0") and "/dev/video" in doctor.camera_fix("0")
    assert "'/nonexist'" in doctor.camera_fix("folder:/nonexist") and "USB" not in doctor.camera_fix("folder:/x")
    assert "image file" in doctor.camera_fix("image:/x.jpg")
    assert "rtsp://cam" in doctor.camera_fix("opencv:rtsp://cam")
    assert "picamera2" in doctor.camera_fix("picamera2")


def test_doctor_names_the_font_package_when_no_cyrillic_font(monkeypatch):
    from companion.commands import doctor
    from companion.vision import letters

    monkeypatch.setattr(letters, "FONT_ROOTS", ("/nonexistent",))
    monkeypatch.setattr(letters, "TEMPLATE_FONTS", ("NoSuchFont.ttf",))
    check = doctor.check_letter_fonts()
    assert check.state == "fail" and "fonts-dejavu-core" in check.fix


def test_run_refuses_bad_arguments_clearly(tmp_path):
    r = _companion("run", "--sim", "--camera", "webcam", "--json", "--data-dir", str(tmp_path))
    unknown = render(M("unknown camera backend %(camera)r: %(error)s", camera="webcam", error="§"), "ru")
    assert r.returncode == 2 and unknown.split("§")[0] in r.stderr  # the console's language: Russian
    r = _companion("run", "--sim", "--seed", "-5", "--json", "--data-dir", str(tmp_path))
    assert r.returncode == 2 and render(M("the seed must be 0 or more, not %(value)s", value=-5), "ru") in r.stderr
    r = _companion("run", "--sim", "--game", "chess", "--json", "--data-dir", str(tmp_path))
    assert r.returncode == 2 and "chess" in r.stderr


def test_seat_options_count_from_one_on_the_command_line(tmp_path):
    """``--option first_dealer=2`` (or ``options`` in the settings file) is the second seat, as on
    the dashboard's form; the game keeps the engine's 0-based index. 0, a seat past the table or
    not a number is refused in words."""
    from companion.service import TableService

    s = Settings(game="doubt", seats=["Аня", "Борис", "Вера"], sim=True, seed=1, data_dir=tmp_path,
                 host="127.0.0.1", port=0, pin="246802", options={"first_dealer": 2})
    svc = TableService(s, choose_backends(s), dashboard=False, new=True).start()
    try:
        assert svc.table.referee.game.options.first_dealer == 1  # Борис
    finally:
        svc.stop()
    for bad in ("0", "4", "true"):
        r = _companion("run", "--sim", "--game", "doubt", "--seats", "Аня,Борис,Вера", "--option",
                       f"first_dealer={bad}", "--json", "--new", "--data-dir", str(tmp_path / "b"))
        told = M("option %(name)s: a seat number from 1 to %(n)s (seats count from 1, clockwise), got %(value)r",
                 name="first_dealer", n=3, value=int(bad) if bad.isdigit() else True)  # as the option parses it
        assert r.returncode == 2 and render(told, "ru") in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_scene_camera_is_only_the_simulated_tables(tmp_path):
    """Without --sim nobody puts notes in the rendered scene: refused in words, not a silent wait
    on an empty picture."""
    r = _companion("run", "--camera", "scene", "--buttons", "/dev/ttyNOPE", "--json", "--data-dir",
                   str(tmp_path))
    assert r.returncode == 2 and "добавьте --sim" in r.stderr and "RenderedSource" not in r.stderr


def test_headless_run_says_the_button_box_is_missing(tmp_path):
    """A headless real table (--json) whose button box port does not exist says so on stderr at
    once (stdout stays for the summary) and keeps waiting for the box; SIGTERM stops it."""
    import os
    import signal
    import time

    import cv2
    import numpy as np

    frame = tmp_path / "felt.png"  # an empty table: the camera works, nothing to read
    cv2.imwrite(str(frame), np.full((240, 320, 3), (40, 110, 30), np.uint8))
    camera = f"image:{frame}"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-m", "companion", "run", "--json", "--new", "--game", "skull",
                          "--seats", "Аня,Борис", "--camera", camera, "--buttons", str(tmp_path / "ttyNOPE"),
                          "--lights", "mock", "--data-dir", str(tmp_path), "--lang", "en"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        line = ""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "Button box" not in line:
            line = p.stderr.readline()
            if not line:
                break
        # the part's status in words (companion/statuswords.py), in English with --lang en
        assert "Button box: fault" in line and "ttyNOPE" in line and "companion doctor" in line, line
        assert p.poll() is None, "the run waits for the box to be plugged in"
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 143 and out == "", (out, err[-1000:])


def test_currency_setting_is_checked_and_is_the_games_currency(tmp_path):
    """One switch: the setting `currency` (any letter case) is checked when the settings load,
    becomes a new skull game's currency option, and a resumed game keeps its own currency —
    the note reader then reads the game's."""
    from companion.service import TableService

    assert Settings.load(None, currency="eur").currency == "EUR"
    assert Settings.load(None, currency="Auto").currency == "auto"
    with pytest.raises(SettingsError, match="currency.*RUB, EUR"):
        Settings.load(None, currency="XYZ")

    def start(currency, new):
        s = Settings(game="skull", seats=["Аня", "Борис"], sim=True, seed=1, data_dir=tmp_path,
                     host="127.0.0.1", port=0, pin="246802", currency=currency)
        svc = TableService(s, choose_backends(s), dashboard=False, new=new).start()
        try:
            return svc.table.referee.game.options.currency, svc.settings.currency, svc.readers["note"]
        finally:
            svc.stop()

    game_cur, reader_cur, reader = start("EUR", new=True)
    assert (game_cur, reader_cur) == ("EUR", "EUR") and "EUR" in reader.describe
    # the unfinished EUR game resumes with a RUB setting: it stays a EUR game, read as EUR
    assert start("RUB", new=False)[:2] == ("EUR", "EUR")
    assert start("auto", new=True)[:2] == ("RUB", "RUB")  # the skull default


def test_sigterm_twice_stops_cleanly(tmp_path):
    """systemd stops the service with SIGTERM (and may repeat it): the run stops in order — the
    camera read in progress finishes, the pins are released — with no traceback or C++ abort,
    exit status 143 (128 + SIGTERM, as a shell reports it; Ctrl-C gives 130), and the game stays
    resumable."""
    import os
    import signal
    import time

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # paced: the game lasts well over a minute whatever the machine's speed (about a hundred bot
    # actions, 0.6 s apart), so SIGTERM reaches a table in play — not one whose game already ended
    # (unpaced, an idle machine finished it in 13 s, before the 15 s status line this test waited for)
    p = subprocess.Popen([sys.executable, "-m", "companion", "run", "--sim", "--json", "--new", "-v",
                          "--pace-ms", "600", "--data-dir", str(tmp_path), "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         cwd=Path(__file__).resolve().parents[2])
    try:
        deadline = time.monotonic() + 120
        seen = ""
        while time.monotonic() < deadline and "Раунд 1" not in seen and "Round 1" not in seen:
            line = p.stderr.readline()  # the first round's line: the bots are playing
            if not line:
                break
            seen += line
        assert "Раунд 1" in seen, seen[-2000:]
        time.sleep(1.0)  # the bots and the camera are busy now
        p.send_signal(signal.SIGTERM)
        while time.monotonic() < deadline:  # the second one lands while the run is stopping
            line = p.stderr.readline()
            seen += line
            if not line or line.lstrip().startswith("stopping"):
                break
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    err = seen + err
    assert p.returncode == 143, err[-2000:]
    for bad in ("Traceback", "terminate called", "Exception ignored"):
        assert bad not in err, err[-2000:]
    assert list(tmp_path.rglob("*.sqlite")), "the table log stays for the next start"


def test_gpio_lights_off_a_pi_are_refused_in_words():
    """``--lights gpio`` where gpiozero finds no pins: one sentence with the way out, no traceback."""
    from companion import parts

    try:
        parts.lights("gpio", 2, None).close()
    except CompanionError as exc:
        assert "--lights mock" in str(exc)
    else:  # pragma: no cover - a machine with GPIO pins
        pytest.skip("this machine has GPIO pins")


def test_simulated_notes_follow_the_tables_currency():
    """A simulated skull table in euros deals euro serials (valid check digit) with the skull
    parity the options say, so the camera and the referee agree."""
    from companion.games.skull import SkullGame
    from companion.games.skull.sim import SIM
    from companion.vision import serials as S

    game = SkullGame(["Аня", "Борис"], {"currency": "EUR"})
    sim = SIM(game, 4)
    notes = [x for hand in sim.notes for x in hand]
    assert all(S.validate(x, "EUR") for x in notes), notes
    assert sum(S.parity(x) == "odd" for x in notes) == 2  # one skull each (skull_parity odd)


def test_a_binary_settings_file_is_refused_in_one_line(tmp_path):
    """A photo given as --config by mistake: one sentence, no traceback."""
    f = tmp_path / "photo.jpg"
    f.write_bytes(bytes(range(256)) * 2)
    with pytest.raises(SettingsError, match="not a settings file"):
        Settings.load(f)
    r = _companion("run", "--sim", "--config", str(f), "--json", "--data-dir", str(tmp_path))
    told = M("%(path)s: not a settings file (not UTF-8 text; TOML expected)", path=str(f))
    assert r.returncode == 2 and render(told, "ru") in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_doctor_suggests_systemctl_only_where_the_service_is_installed(monkeypatch):
    """A port held by a running companion: ``systemctl status companion`` only on a table with
    the systemd service installed; on the simulated table (``make demo``), or with no service,
    the other run in a terminal and ``--port`` (#23, tester's item 6)."""
    import http.server
    import threading

    from companion.commands import doctor

    httpd = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        port = httpd.server_address[1]
        monkeypatch.setattr(doctor, "service_installed", lambda: True)
        sim = doctor.check_port("127.0.0.1", port, sim=True)
        real = doctor.check_port("127.0.0.1", port, sim=False)
        monkeypatch.setattr(doctor, "service_installed", lambda: False)
        bare = doctor.check_port("127.0.0.1", port, sim=False)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert sim.state == real.state == bare.state == "warn"
    assert real.fix == "systemctl status companion"
    for c in (sim, bare):
        ru, en = c.words("ru")[1], c.words("en")[1]
        assert "systemctl" not in ru + en and "--port" in ru and "--port" in en and ru != en, (ru, en)
