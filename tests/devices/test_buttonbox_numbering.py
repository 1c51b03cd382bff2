"""``companion buttonbox-sim`` numbers seats as the pads and the dashboard do (1..N), in what it
prints and in what it reads; only the Python API counts from 0."""

from __future__ import annotations

import io
import os
import pty
import re
import threading

import pytest

from companion.commands import buttonbox_sim
from companion.devices.buttonbox import ButtonBox
from companion.devices.virtualbox import SCRIPT_HELP, VirtualButtonBox, run_script_line
from companion.errors import ProtocolError


def test_keyboard_mode_prints_the_dashboard_numbers(capsys):
    master, slave = pty.openpty()
    try:
        with VirtualButtonBox(seats=4) as vbox, ButtonBox(vbox.port) as box:
            assert box.wait_connected(15.0)
            # typed once the keyboard loop has put the terminal in cbreak mode
            threading.Timer(0.5, os.write, (master, b"3yq")).start()
            assert buttonbox_sim.keyboard(vbox, slave, "en") == 0
            ev = box.get_event(timeout=10.0)
            assert (ev.seat, ev.button, ev.kind) == (2, "yes", "press")  # API: 0-based index
    finally:
        os.close(master)
        os.close(slave)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "seat 1" in lines            # the starting seat
    assert "seat 3" in lines            # '3' chose seat 3 …
    assert "seat 3: press yes" in lines  # … and its press is told as seat 3, not seat 2
    assert "pad" not in out.replace("(its pad)", "")
    assert not re.search(r"seat 0\b", out)


def test_script_seats_are_numbered_from_1():
    out = io.StringIO()
    with VirtualButtonBox(seats=2) as vbox, ButtonBox(vbox.port) as box:
        assert box.wait_connected(15.0)
        run_script_line(vbox, "2y", out)
        run_script_line(vbox, "press 1 ok", out)
        assert vbox.wait_idle(10.0)
        got = []
        while (e := box.get_event(timeout=1.0)) is not None and len(got) < 4:
            got.append((e.seat, e.button, e.kind))
        assert (1, "yes", "press") in got and (0, "ok", "press") in got
        with pytest.raises(ProtocolError, match=r"seats are numbered 1\.\.2"):
            run_script_line(vbox, "0y")
        with pytest.raises(ProtocolError, match="unknown seat 3"):
            run_script_line(vbox, "press 3 yes")
        run_script_line(vbox, "lights", out)
    assert out.getvalue().strip().startswith("lights: 1=") and " 2=" in out.getvalue()
    assert "0=" not in out.getvalue()
    assert "numbered 1..N" in SCRIPT_HELP and "0-based" not in SCRIPT_HELP
