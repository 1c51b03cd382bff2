"""Fixtures for the button-box tests: a raw pty the test drives byte by byte."""

from __future__ import annotations

import os
import select
import time
import tty

import pytest

from companion.devices.firmware import wire


class ScriptedPty:
    """The master side of a pty: the test plays the box, byte for byte."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.parser = wire.Parser()

    def send_hex(self, text: str) -> None:
        os.write(self.master, bytes.fromhex(text))

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def frames(self, timeout: float = 0.3, until=None) -> list:
        """Frames the host wrote, collected for ``timeout`` s (or until ``until(frames)``)."""
        out = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.master], [], [], 0.01)
            if r:
                out.extend(self.parser.feed(os.read(self.master, 4096)))
                if until is not None and until(out):
                    break
        return out

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def scripted_pty():
    pty = ScriptedPty()
    yield pty
    pty.close()
