"""ButtonBox.close() while the driver thread is inside a read: the thread alone touches the port,
so closing never races it (no exception in the thread) and the port is closed once it leaves."""

from __future__ import annotations

import threading

from companion.devices.buttonbox import ButtonBox


class SlowPort:
    """A serial port whose read blocks until released, as a port busy on a loaded machine."""

    in_waiting = 0

    def __init__(self):
        self.reading = threading.Event()
        self.release = threading.Event()
        self.closed = threading.Event()
        self.writes: list[bytes] = []

    def read(self, n):
        self.reading.set()
        self.release.wait(10)
        return b""

    def write(self, data):
        assert not self.closed.is_set(), "write after close"
        self.writes.append(data)

    def close(self):
        self.closed.set()


def test_close_during_a_slow_read_leaves_the_port_to_the_thread(monkeypatch):
    port = SlowPort()
    errors: list[BaseException] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_value))
    box = ButtonBox("slow://", serial_factory=lambda *a, **k: port)
    monkeypatch.setattr(box, "CLOSE_WAIT_S", 0.05)
    box.open()
    assert port.reading.wait(5)
    thread = box._thread
    box.close()                          # the thread is still inside read()
    assert thread is not None and thread.is_alive() and not port.closed.is_set()
    port.release.set()                   # the read returns: the thread goes on with its step, then stops
    thread.join(5)
    assert not thread.is_alive() and port.closed.is_set() and errors == []
    assert box.status.connected is False
