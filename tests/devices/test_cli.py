"""``companion buttonbox-sim`` as a separate process: prints its pty, plays a script; the host
driver in this process receives the presses."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.devices.buttonbox import ButtonBox
from companion.devices import virtualbox
from companion.devices.virtualbox import VirtualButtonBox, run_script_line
from companion.errors import ProtocolError
from companion.i18n import M, render

ROOT = Path(__file__).resolve().parents[2]


def test_buttonbox_sim_command_with_a_script(tmp_path):
    script = tmp_path / "presses.txt"
    script.write_text("# seat 3 says Верю, seat 1 counts up twice and confirms (seats as on the pads)\n"
                      "3y\npress 1 plus\npress 1 plus 60\n1o\nhold 2 n\nidle\n", encoding="utf-8")
    link = tmp_path / "buttonbox"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "companion", "buttonbox-sim", "--seats", "4",
                             "--link", str(link), "--script", str(script), "--exit", "--lang", "en"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("buttonbox-sim: device /dev/pts/"), first
        assert "seats=4 fw=1.0.0 proto=1" in first
        with ButtonBox(str(link)) as box:
            assert box.wait_connected(5.0)
            assert proc.wait(timeout=20) == 0, proc.stderr.read()
            got = Counter((e.seat, e.button, e.kind) for e in box.events(timeout=0.3))
        assert got == {(2, "yes", "press"): 1, (2, "yes", "release"): 1,
                       (0, "plus", "press"): 2, (0, "plus", "release"): 2,
                       (0, "ok", "press"): 1, (0, "ok", "release"): 1,
                       (1, "no", "press"): 1, (1, "no", "hold"): 1, (1, "no", "release"): 1}
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_script_errors_name_the_line(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("2y\npress 9 yes\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "companion", "buttonbox-sim", "--seats", "4",
                        "--script", str(script), "--lang", "en"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                       capture_output=True, text=True, timeout=20)
    assert r.returncode == 2
    assert "bad.txt:2" in r.stderr and "unknown seat 9" in r.stderr


@pytest.mark.parametrize("line, message", [
    ("jump 1 yes", "unknown command"),
    ("press 1 maybe", "unknown button"),
    ("press one yes", "bad number"),
    ("9y", "unknown seat"),
])
def test_script_line_errors(line, message):
    with VirtualButtonBox(seats=2) as vbox:
        with pytest.raises(ProtocolError, match=message):
            run_script_line(vbox, line)


def test_keyboard_mode_on_a_terminal(tmp_path):
    """Keystrokes typed on a (pseudo-)terminal press buttons: '3' selects pad 3, 'y' = Верю."""
    import pty as ptymod
    import time

    master, slave = ptymod.openpty()
    link = tmp_path / "bb"
    proc = subprocess.Popen([sys.executable, "-m", "companion", "buttonbox-sim", "--seats", "4",
                             "--link", str(link), "--keyboard", "--lang", "en"], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdin=slave,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(slave)
    try:
        assert proc.stdout.readline().startswith("buttonbox-sim: device ")
        # the terminal is in cbreak mode once the pad line is printed (keys before it used to be
        # flushed by the mode switch: a loaded machine lost "3y")
        lines = iter(proc.stdout.readline, "")
        assert "seat 1" in [next(lines).strip() for _ in range(3)]
        with ButtonBox(str(link)) as box:
            assert box.wait_connected(15.0)
            os.write(master, b"3y")
            ev = box.get_event(timeout=10.0)
            assert (ev.seat, ev.button, ev.kind) == (2, "yes", "press")
            os.write(master, b"h+")
            kinds = set()
            deadline = time.monotonic() + 15  # generous: a loaded 2-core CI machine stalls threads
            while "hold" not in kinds and time.monotonic() < deadline:
                e = box.get_event(timeout=0.5)
                if e is not None and e.button == "plus":
                    kinds.add(e.kind)
            assert "hold" in kinds
            os.write(master, b"q")
            assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(master)


def test_buttonbox_monitor_prints_hello_and_events(tmp_path):
    link = str(tmp_path / "bb")
    with VirtualButtonBox(seats=4, link=link) as vbox:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "buttonbox-monitor", link,
                                 "--seconds", "2.5", "--light", "2=blink", "--lang", "en"], cwd=ROOT,
                                env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout.readline().startswith("buttonbox-monitor: ")
            hello = proc.stdout.readline()
            assert "firmware 1.0.0, protocol 1, seats 4" in hello, hello
            vbox.press(3, "no")
            out, err = proc.communicate(timeout=20)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode == 0, err
        assert "seat 4 no press" in out and "seat 4 no release" in out  # seats as on the pads (1..N)
        assert "status: connected=yes" in out
        assert vbox.light_states()[1] == "blink"


def test_buttonbox_monitor_without_a_box(tmp_path):
    r = subprocess.run([sys.executable, "-m", "companion", "buttonbox-monitor",
                        str(tmp_path / "absent"), "--lang", "en"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 1 and "no hello" in r.stderr and "cannot open" in r.stderr


def test_buttonbox_sim_and_monitor_speak_russian_by_default(tmp_path):
    """The same lines as above in the run's language: Russian unless --lang en (the protocol's
    words — button and event names, light states, paths — stay as they are)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), LANG="C.UTF-8")
    script = tmp_path / "bad.txt"
    script.write_text("2y\nlights\npress 9 yes\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "companion", "buttonbox-sim", "--seats", "4", "--script", str(script)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=20)
    assert r.returncode == 2, r.stderr
    first, lights = r.stdout.splitlines()[:2]
    head = ru(M("buttonbox-sim: device %(device)s seats=%(seats)s fw=%(fw)s proto=%(proto)s", device="/dev/pts/§", seats=4,
                fw="1.0.0", proto=1)).split("§")
    assert first.startswith(head[0]) and first.endswith(head[1].split(",", 1)[1]), first
    assert lights.startswith(ru(M("lights: %(states)s", states="1=")))
    told = ru(M("unknown seat %(n)s: seats are numbered 1..%(seats)s, as on the pads and the dashboard", n=9, seats=4))
    assert f"{script}:3: {told}" in r.stderr, r.stderr
    r = subprocess.run([sys.executable, "-m", "companion", "buttonbox-sim", "--help-script"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=20)
    assert r.stdout.strip() == ru(M(virtualbox.SCRIPT_HELP)).strip(), r.stdout
    link = str(tmp_path / "bb")
    with VirtualButtonBox(seats=4, link=link) as vbox:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "buttonbox-monitor", link, "--seconds", "2.5"],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout.readline().startswith("buttonbox-monitor: ")
            hello = ru(M("hello: firmware %(firmware)s, protocol %(protocol)s, seats %(seats)s, boot %(boot)s",
                         firmware="1.0.0", protocol=1, seats=4, boot="§")).split("§")[0]
            assert hello in proc.stdout.readline()
            vbox.press(3, "no")
            out, err = proc.communicate(timeout=20)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, err
    assert ru(M("seat %(seat)s %(button)s %(kind)s seq %(seq)s t %(t)s ms", seat=4, button="no", kind="press", seq="§",
                t=0)).split("§")[0] in out, out
    assert ru(M("status: connected=%(connected)s alive=%(alive)s events=%(events)s duplicates=%(duplicates)s lost=%(lost)s "
                "frame_errors=%(frame_errors)s", connected=M("yes"), alive="§", events=0, duplicates=0, lost=0,
                frame_errors=0)).split("§")[0] in out, out
    r = subprocess.run([sys.executable, "-m", "companion", "buttonbox-monitor", str(tmp_path / "absent")], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=30)
    no_hello = ru(M("buttonbox-monitor: no hello from %(url)s within 5 s: %(error)s", url=str(tmp_path / "absent"),
                    error="§")).split("§")[0]
    assert r.returncode == 1 and no_hello in r.stderr, r.stderr


def ru(msg) -> str:
    """``msg`` as the Russian run prints it."""
    return render(msg, "ru")
