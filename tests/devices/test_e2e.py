"""End to end through real pseudo-terminals: virtual box (real firmware logic) -> pty -> host
driver -> ButtonEvent; plus a scripted pty for exact link-level cases."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter

import pytest

from companion.devices import protocol
from companion.devices.buttonbox import ButtonBox
from companion.devices.firmware import wire
from companion.devices.virtualbox import VirtualButtonBox
from companion.errors import ProtocolError

HELLO = wire.encode(wire.T_HELLO, 0, b"fw=1.0.0 proto=1 seats=8 boot=3f2a")


def event_frame(seq, seat=2, button=0, kind=wire.K_PRESS, t=1234):
    return wire.encode(wire.T_EVENT, seq, bytes((seat, button, kind)) + wire.u32(t))


def wait_for(pred, timeout=3.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.005)
    return pred()


@pytest.fixture
def rig(tmp_path):
    vbox = VirtualButtonBox(seats=8, link=str(tmp_path / "buttonbox")).start()
    box = ButtonBox(vbox.port).open()
    assert box.wait_connected(3.0)
    yield vbox, box
    box.close()
    vbox.close()


def test_every_seat_and_button_end_to_end(rig):
    vbox, box = rig
    for seat in range(8):
        for button in protocol.BUTTONS:
            vbox.press(seat, button)
    assert vbox.wait_idle(5.0)
    events = list(box.events(timeout=0.2))
    presses = [(e.seat, e.button) for e in events if e.kind == "press"]
    releases = [(e.seat, e.button) for e in events if e.kind == "release"]
    every = [(s, b) for s in range(8) for b in protocol.BUTTONS]
    assert sorted(presses) == sorted(every) and sorted(releases) == sorted(every)
    assert len(events) == 64
    seqs = [e.seq for e in events]
    assert seqs == [(seqs[0] + i) & 0xFF for i in range(64)]  # in order, none missing
    for e in events:
        assert isinstance(e, protocol.ButtonEvent) and e.received > 0
    st = box.status
    # retransmissions may happen on a loaded machine (30 ms RTO); they are dropped, never delivered
    assert (st.events, st.lost, st.frame_errors) == (64, 0, 0)


def test_hold_and_repeated_presses_are_distinct(rig):
    vbox, box = rig
    vbox.hold(3, "plus")
    for _ in range(3):
        vbox.press(5, "plus")
    assert vbox.wait_idle(5.0)
    got = Counter((e.seat, e.button, e.kind) for e in box.events(timeout=0.2))
    assert got == {(3, "plus", "press"): 1, (3, "plus", "hold"): 1, (3, "plus", "release"): 1,
                   (5, "plus", "press"): 3, (5, "plus", "release"): 3}


def test_status_for_the_dashboard(rig):
    vbox, box = rig
    assert wait_for(lambda: box.status.last_heartbeat is not None)
    st = box.status
    assert st.connected and st.alive
    assert (st.firmware, st.protocol, st.seats) == ("1.0.0", 1, 8)
    assert st.boot_id == vbox.firmware.boot_id
    d = json.loads(json.dumps(st.to_dict()))
    assert d["firmware"] == "1.0.0" and d["connected"] is True
    assert "connected" in repr(box) and vbox.port in repr(box)


def test_lights_reach_the_pads_and_survive_a_reboot(rig):
    vbox, box = rig
    box.set_lights({0: "on", 2: "blink", 5: "fast"})
    assert wait_for(lambda: vbox.light_states()[:6] == ["on", "off", "blink", "off", "off", "fast"])
    assert wait_for(lambda: box.lights() == {0: "on", 2: "blink", 5: "fast"})
    vbox.unplug()
    vbox.plug(reboot=True)  # a bus-powered box loses its state with the cable
    assert vbox.light_states()[0] == "off"
    assert wait_for(lambda: vbox.light_states()[:6] == ["on", "off", "blink", "off", "off", "fast"])
    with pytest.raises(ProtocolError, match="unknown seat"):
        box.set_light(8, "on")
    with pytest.raises(ProtocolError, match="unknown light state"):
        box.set_light(1, "purple")


def test_fifty_unplug_replug_cycles_no_lost_no_doubled_press(tmp_path):
    got = []
    vbox = VirtualButtonBox(seats=8, link=str(tmp_path / "bb")).start()
    box = ButtonBox(vbox.port, on_event=got.append, reconnect_delay=(0.005, 0.05)).open()
    try:
        assert box.wait_connected(3.0)
        expected = Counter()
        for cycle in range(50):
            seat, button = cycle % 8, protocol.BUTTONS[cycle % 4]
            vbox.press(seat, button)  # before the cable is pulled ...
            expected[(seat, button)] += 1
            if cycle % 3 == 0:
                time.sleep(0.012)  # ... sometimes mid-flight: sent, maybe not yet acked
            vbox.unplug()
            vbox.press((seat + 1) % 8, "ok")  # while unplugged (the box keeps power)
            expected[((seat + 1) % 8, "ok")] += 1
            time.sleep(0.02)
            before = box.status.connects
            vbox.plug()
            # generous: under a full suite on a loaded 2-core machine the driver thread can wait
            # seconds for the CPU (a reconnection takes ~5 ms when it runs)
            assert wait_for(lambda: box.status.connects > before, timeout=20.0), (
                f"no reconnection in cycle {cycle}: {box.status}, {vbox}, box thread alive "
                f"{vbox._thread is not None and vbox._thread.is_alive()}, "
                f"{threading.active_count()} threads in the process")
            if cycle % 5 == 0:
                assert vbox.wait_idle(5.0)
        assert vbox.wait_idle(10.0), "presses not acknowledged after the last replug"
        assert wait_for(lambda: sum(1 for e in got if e.kind == "release") == sum(expected.values())), (len(got), sum(expected.values()), box.status)
        presses = Counter((e.seat, e.button) for e in got if e.kind == "press")
        assert presses == expected  # none lost, none doubled
        assert len({(e.seq, e.t_ms) for e in got}) == len(got)
        st = box.status
        assert st.connects == 51 and st.lost == 0
        assert st.events == len(got) == 2 * sum(expected.values())
    finally:
        box.close()
        vbox.close()


def test_reboot_restarts_sequence_numbers_without_suppression(tmp_path):
    vbox = VirtualButtonBox(seats=2, link=str(tmp_path / "bb")).start()
    with ButtonBox(vbox.port) as box:
        assert box.wait_connected(3.0)
        vbox.press(0, "yes")
        assert vbox.wait_idle(3.0)
        first = list(box.events(timeout=0.2))
        boot1 = box.status.boot_id
        vbox.unplug()
        vbox.plug(reboot=True)  # seq restarts at 0: must not look like duplicates
        vbox.press(0, "yes")
        assert vbox.wait_idle(5.0)
        second = list(box.events(timeout=0.2))
        assert [e.seq for e in first] == [0, 1] and [e.seq for e in second] == [0, 1]
        assert [e.kind for e in second] == ["press", "release"]
        assert box.status.boot_id != boot1
    vbox.close()


# -- scripted pty: the test plays the box byte by byte --------------------------------------


def test_duplicate_sequence_number_is_acked_and_dropped(scripted_pty):
    with ButtonBox(scripted_pty.path) as box:
        assert any(f[0] == wire.T_HELLO_REQ for f in scripted_pty.frames(until=lambda fs: fs))
        scripted_pty.send(HELLO)
        assert box.wait_connected(2.0)
        scripted_pty.send(event_frame(7) + event_frame(7) + event_frame(8, kind=wire.K_RELEASE))
        acks = scripted_pty.frames(until=lambda fs: sum(f[0] == wire.T_HOST_ACK for f in fs) >= 3)
        assert [f[1] for f in acks if f[0] == wire.T_HOST_ACK] == [7, 7, 8]
        events = list(box.events(timeout=0.2))
        assert [(e.seq, e.kind) for e in events] == [(7, "press"), (8, "release")]
        assert box.status.duplicates == 1


def test_junk_split_frames_and_bad_crc_through_the_pty(scripted_pty):
    with ButtonBox(scripted_pty.path) as box:
        scripted_pty.frames(until=lambda fs: fs)
        scripted_pty.send(b"\r\nMicroPython v1.22.2\r\n>>> " + HELLO)
        assert box.wait_connected(2.0)
        good = event_frame(1)
        bad = bytearray(event_frame(2))
        bad[-2] ^= 0xFF
        scripted_pty.send(bytes(bad) + good[:5])
        time.sleep(0.005)
        scripted_pty.send(good[5:] + bytes.fromhex("a5 c8 00") + event_frame(2, seat=4))
        events = list(box.events(timeout=0.3))
        assert [(e.seq, e.seat) for e in events] == [(1, 2), (2, 4)]
        assert box.status.frame_errors >= 2  # the bad CRC and the oversize length


def test_stray_sof_does_not_hold_an_event_hostage(scripted_pty):
    with ButtonBox(scripted_pty.path) as box:
        scripted_pty.frames(until=lambda fs: fs)
        scripted_pty.send(HELLO)
        assert box.wait_connected(2.0)
        scripted_pty.send(bytes.fromhex("a5 30") + event_frame(3))  # candidate wants 54 bytes
        ev = box.get_event(timeout=0.5)  # released by the driver's 50 ms idle timeout
        assert ev is not None and ev.seq == 3


def test_events_before_hello_are_not_acknowledged(scripted_pty):
    with ButtonBox(scripted_pty.path) as box:
        scripted_pty.frames(until=lambda fs: fs)
        scripted_pty.send(event_frame(5))  # a stale retransmission, before this session's HELLO
        frames = scripted_pty.frames(timeout=0.15)
        assert not any(f[0] == wire.T_HOST_ACK for f in frames)
        assert box.get_event(timeout=0.05) is None
        scripted_pty.send(HELLO + event_frame(5))
        ev = box.get_event(timeout=1.0)
        assert ev is not None and ev.seq == 5


def test_sequence_gap_is_counted_as_lost(scripted_pty):
    with ButtonBox(scripted_pty.path) as box:
        scripted_pty.frames(until=lambda fs: fs)
        scripted_pty.send(HELLO + event_frame(7) + event_frame(9))
        assert len(list(box.events(timeout=0.3))) == 2
        assert box.status.lost == 1


def test_wrong_protocol_version_is_refused_with_a_reason(scripted_pty):
    with ButtonBox(scripted_pty.path) as box:
        scripted_pty.frames(until=lambda fs: fs)
        scripted_pty.send(wire.encode(wire.T_HELLO, 0, b"fw=9.0.0 proto=2 seats=8 boot=0001")
                          + event_frame(1))
        assert wait_for(lambda: box.status.last_error and "protocol v2" in box.status.last_error)
        assert not box.status.connected and box.get_event(timeout=0.1) is None


def test_an_event_for_a_seat_the_box_does_not_have_is_counted_not_applied(scripted_pty):
    """The bug: the driver accepted an event for seat 200."""
    with ButtonBox(scripted_pty.path) as box:
        scripted_pty.frames(until=lambda fs: fs)
        scripted_pty.send(wire.encode(wire.T_HELLO, 0, b"fw=1.0.0 proto=1 seats=4 boot=3f2a"))
        assert box.wait_connected(2.0)
        scripted_pty.send(event_frame(1, seat=200) + event_frame(2, seat=4) + event_frame(3, seat=3))
        acks = scripted_pty.frames(until=lambda fs: sum(f[0] == wire.T_HOST_ACK for f in fs) >= 3)
        # acknowledged, so the box does not send them again …
        assert [f[1] for f in acks if f[0] == wire.T_HOST_ACK] == [1, 2, 3]
        # … but never applied
        assert [(e.seq, e.seat) for e in box.events(timeout=0.3)] == [(3, 3)]
        st = box.status
        assert st.rejected == 2 and st.events == 1 and "seat 4" in st.last_error
        assert st.to_dict()["rejected"] == 2


def test_a_hello_with_nonsensical_fields_is_counted_not_applied(scripted_pty):
    """The bug: the driver took a HELLO with seats=-5."""
    with ButtonBox(scripted_pty.path) as box:
        scripted_pty.frames(until=lambda fs: fs)
        scripted_pty.send(wire.encode(wire.T_HELLO, 0, b"fw=1.0.0 proto=1 seats=-5 boot=3f2a") + event_frame(1))
        assert wait_for(lambda: box.status.rejected == 1)
        st = box.status
        assert not st.connected and st.seats is None and "seats=-5" in st.last_error
        assert box.get_event(timeout=0.1) is None
        # the box is asked again and a sensible hello is taken
        assert any(f[0] == wire.T_HELLO_REQ for f in scripted_pty.frames(until=lambda fs: fs, timeout=2.0))
        scripted_pty.send(HELLO)
        assert box.wait_connected(2.0) and box.status.seats == 8


def test_missing_device_is_reported_not_raised(tmp_path):
    path = str(tmp_path / "nothing")
    with ButtonBox(path) as box:
        assert wait_for(lambda: box.status.last_error is not None)
        assert "cannot open" in box.status.last_error and not box.status.connected
        assert not box.wait_connected(0.05)


def test_callback_errors_do_not_kill_the_driver():
    seen = []

    def flaky(ev):
        seen.append(ev)
        if len(seen) == 1:
            raise RuntimeError("consumer bug")

    with VirtualButtonBox(seats=1) as vbox, ButtonBox(vbox.port, on_event=flaky) as box:
        assert box.wait_connected(3.0)
        vbox.press(0, "ok")
        assert vbox.wait_idle(3.0)
        assert wait_for(lambda: len(seen) == 2)  # press (callback raised) and release
        assert box.status.connected


def test_keyboard_style_chord_down_and_up(rig):
    vbox, box = rig
    vbox.down(4, "yes")
    vbox.down(4, "no")  # both at once: the diodes make chords unambiguous
    time.sleep(0.05)
    vbox.up(4, "yes")
    vbox.up(4, "no")
    assert vbox.wait_idle(3.0)
    got = Counter((e.button, e.kind) for e in box.events(timeout=0.2))
    assert got == {("yes", "press"): 1, ("no", "press"): 1, ("yes", "release"): 1,
                   ("no", "release"): 1}
    with pytest.raises(ProtocolError, match="unknown button"):
        vbox.press(0, "maybe")


def test_socket_url_transport():
    """serial_for_url('socket://...'): the same driver over TCP (a box behind ser2net)."""
    import socket

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    received = bytearray()

    def serve():
        conn, _ = srv.accept()
        conn.settimeout(2.0)
        parser = wire.Parser()
        try:
            while True:
                data = conn.recv(256)
                if not data:
                    break
                received.extend(data)
                for ftype, seq, _ in parser.feed(data):
                    if ftype == wire.T_HELLO_REQ:
                        conn.sendall(HELLO + event_frame(1, seat=3, button=3))
        except OSError:
            pass
        finally:
            conn.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    with ButtonBox(f"socket://127.0.0.1:{port}") as box:
        ev = box.get_event(timeout=3.0)
        assert (ev.seat, ev.button, ev.kind) == (3, "ok", "press")
        assert wait_for(lambda: protocol.ack(1) in bytes(received))
    srv.close()


def test_open_button_box_sim_is_the_default_off_a_pi():
    from companion.devices.buttonbox import DEFAULT_PORT, open_button_box

    import os

    if os.path.exists(DEFAULT_PORT):
        pytest.skip(f"{DEFAULT_PORT} exists: this machine has a real box")
    box = open_button_box(seats=3)
    try:
        assert box.virtual is not None and box.wait_connected(3.0)
        assert box.status.seats == 3
        box.virtual.press(1, "no")
        ev = box.get_event(timeout=2.0)
        assert (ev.seat, ev.button, ev.kind) == (1, "no", "press")
    finally:
        box.close()
    assert box.virtual.device is None  # closed together
