"""One pin map (hardware/pinmap.json) for firmware, host and drawing: these tests fail when any
of them disagrees with it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from companion.devices import protocol
from companion.devices.firmware import load_pinmap, wire
from companion.devices.lights import TableLights, mock_factory

ROOT = Path(__file__).resolve().parents[2]
CANON = ROOT / "hardware" / "pinmap.json"


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def run_tool(*args):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True)


def test_host_reads_the_one_pin_map_and_the_firmware_itself():
    """The host's pin map is hardware/pinmap.json and its framing is firmware/wire.py — the
    same files, not copies (setup.py ships both folders inside the package)."""
    assert load_pinmap() == load(CANON)
    assert Path(wire.__file__).resolve() == (ROOT / "firmware" / "wire.py").resolve()


def test_wiring_svg_is_generated_from_the_pin_map():
    r = run_tool("hardware/wiring.py", "--check")
    assert r.returncode == 0, r.stdout
    svg = (ROOT / "hardware" / "wiring.svg").read_text(encoding="utf-8")
    pm = load(CANON)
    for gp in pm["pico"]["matrix"]["rows"] + pm["pico"]["matrix"]["columns"]:
        assert f"GP{gp}" in svg
    assert f'GPIO{pm["pi"]["buzzer"]["gpio"]}' in svg


def test_pin_map_is_consistent_with_the_protocol():
    pm = load(CANON)["pico"]
    assert tuple(pm["matrix"]["buttons"]) == protocol.BUTTONS == tuple(wire.BUTTONS)
    assert len(pm["matrix"]["rows"]) == protocol.MAX_SEATS == len(pm["seat_lights"]["pins"])
    pins = pm["matrix"]["rows"] + pm["matrix"]["columns"] + pm["seat_lights"]["pins"] + [pm["status_led"]]
    assert len(set(pins)) == len(pins), "a Pico pin is used twice"
    # GP23 (SMPS mode), GP24 (VBUS sense), GP29 (VSYS/3) are not on the Pico's header
    assert all(0 <= p <= 22 or p in (25, 26, 27, 28) for p in pins)


def test_pi_pins_are_distinct_bcm_gpios_and_used_by_the_lights():
    pi = load(CANON)["pi"]
    gpios = [pi[k]["gpio"] for k in ("turn_light", "alert_light", "buzzer")]
    assert len(set(gpios)) == 3 and all(2 <= g <= 27 for g in gpios)
    factory = mock_factory()
    with TableLights(4, pin_factory=factory) as lights:
        assert {lights.turn_light.pin.info.name, lights.alert_light.pin.info.name,
                lights.buzzer.pwm_device.pin.info.name} == {f"GPIO{g}" for g in gpios}


def run_pico(tmp_path, pressed, stdin=b"", run_ms=120):
    """firmware/main.py under stand-in machine/time/select: flat upload as with mpremote."""
    for src in ("firmware/main.py", "firmware/boxfw.py", "firmware/wire.py", "hardware/pinmap.json"):
        shutil.copy(ROOT / src, tmp_path)
    pm = load(CANON)["pico"]
    switches = [[pm["matrix"]["rows"][seat], pm["matrix"]["columns"][protocol.BUTTONS.index(b)]]
                for seat, b in pressed]
    result_path = tmp_path / "result.json"
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "devices" / "pico_runner.py"),
                        str(tmp_path), json.dumps(switches), str(run_ms), stdin.hex(),
                        str(result_path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(result_path.read_text())


def test_firmware_main_reads_the_pin_map_and_scans_the_matrix(tmp_path):
    pm = load(CANON)["pico"]
    seat, button = 5, "plus"
    res = run_pico(tmp_path, [(seat, button)], protocol.hello_request() + protocol.light(9, 3, "on"))
    assert res["kbd_intr"] == [-1]  # binary frames may contain 0x03
    frames = wire.Parser().feed(bytes.fromhex(res["tx"]))
    msgs = [protocol.decode(f) for f in frames]
    hello = [m for m in msgs if isinstance(m, protocol.Hello)]
    assert hello and hello[0].seats == len(pm["matrix"]["rows"])
    assert protocol.Ack(9) in msgs
    events = {(m.seat, m.button, m.kind) for m in msgs if isinstance(m, protocol.ButtonEvent)}
    assert events == {(seat, button, "press")}
    # columns are pulled-up inputs; rows are left high-impedance between scans
    for c in pm["matrix"]["columns"]:
        assert res["inits"][str(c)] == [0, 2]
    for rw in pm["matrix"]["rows"]:
        assert res["modes"][str(rw)] == 0
    # seat 3's light pin went high after the LIGHT command; seat 5's blinked for the press
    lights = pm["seat_lights"]["pins"]
    assert 1 in res["levels"][str(lights[3])]
    assert res["levels"][str(lights[5])][:2] == [0, 1]
    assert res["levels"].get(str(lights[0]), [0]) == [0]


def test_firmware_maintenance_mode_keeps_the_repl(tmp_path):
    res = run_pico(tmp_path, [(0, "plus"), (0, "ok")])
    assert res["kbd_intr"] == [] and res["tx"] == ""  # Ctrl-C still works; no frames


def test_bom_covers_the_pin_map():
    import csv

    rows = list(csv.DictReader((ROOT / "hardware" / "bom.csv").open(encoding="utf-8")))
    assert rows and all(r["mpn"] and r["manufacturer"] and int(r["qty"]) > 0 for r in rows)
    pm = load(CANON)
    seats = len(pm["pico"]["matrix"]["rows"])
    switches = seats * len(pm["pico"]["matrix"]["buttons"])
    qty = lambda word: sum(int(r["qty"]) for r in rows if word in r["part"])
    assert qty("arcade push button") == switches
    assert qty("Schottky diode") == switches  # one per switch (anti-ghosting)
    assert qty("RJ45") == 2 * seats
    assert any(r["mpn"] == "SC0915" for r in rows)  # the Pico
    assert any("buzzer" in r["part"] for r in rows)
