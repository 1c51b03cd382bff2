"""A Mosquitto broker run for one club from a folder: ``companion club broker`` on a club night's
Pi, and the real broker of the tests and ``bench/club.py`` (never a mock).

:class:`LocalBroker` writes the club's files (:mod:`companion.club.acl`) and a configuration with
persistence into its folder, starts ``mosquitto -c`` on the port, waits until it accepts
connections, and stops it (``stop``: SIGTERM, it saves its database; ``kill``: SIGKILL, as a power
cut would). It can be started again on the same folder and port.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from companion.club import acl
from companion.errors import CompanionError
from companion.i18n import M


class BrokerError(CompanionError, OSError):
    """Mosquitto is not installed, or it did not start (the message says why)."""


def mosquitto_path() -> str | None:
    """The ``mosquitto`` program (Debian installs it in /usr/sbin, not always on a user's PATH)."""
    return shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")
                                              if os.access(p, os.X_OK)), None)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now (the kernel's choice)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class LocalBroker:
    """A Mosquitto for ``club`` with one user per table and the board user.

    Args:
        folder: where the configuration, password file, ACL and persistence live.
        club: the club's name; ``tables``: the table ids.
        port: 0 picks a free loopback port. ``bind``: the address (``127.0.0.1``; ``""`` for all).
        tls: ``(certfile, keyfile)`` for an ``mqtts`` listener.

    Raises:
        BrokerError: mosquitto is not installed (``apt-get install mosquitto``).
    """

    def __init__(self, folder: str | Path, club: str, tables: list[str], *, port: int = 0,
                 bind: str = "127.0.0.1", tls: tuple[Path, Path] | None = None) -> None:
        program = mosquitto_path()
        if program is None:
            raise BrokerError(M("mosquitto is not installed: apt-get install mosquitto"))
        self.program: str = program
        self.folder = Path(folder)
        self.club = club
        self.bind = bind
        self.port = port or free_port(bind or "127.0.0.1")
        self.creds = acl.generate(self.folder, club, tables, port=self.port)
        (self.folder / "db").mkdir(exist_ok=True)
        self.conf = self.folder / "broker.conf"
        import getpass

        # mosquitto started as root becomes the user «mosquitto», who cannot read this folder:
        # it keeps running as whoever started it
        self.conf.write_text(acl.conf_text(self.folder.resolve(), self.port, bind, self.folder.resolve() / "db", tls,
                                           run_as=getpass.getuser()), encoding="utf-8")
        self.log_path = self.folder / "mosquitto.log"
        self.proc: subprocess.Popen | None = None

    def url(self, table: str | None, scheme: str = "mqtt", host: str = "127.0.0.1") -> str:
        """A table's (or with ``None`` the board's) address on this broker."""
        return self.creds.url(table, host, self.port, scheme)

    def add_tables(self, tables: list[str]) -> None:
        """Add table users (the broker reloads the files on SIGHUP)."""
        self.creds = acl.generate(self.folder, self.club, tables, port=self.port)
        proc = self.proc
        if proc is not None and proc.poll() is None:  # (running)
            proc.send_signal(signal.SIGHUP)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int | None:
        proc = self.proc
        return proc.pid if proc is not None and proc.poll() is None else None  # (running)

    def start(self, timeout: float = 10.0) -> "LocalBroker":
        """Start mosquitto and wait until its port accepts connections.

        Raises:
            BrokerError: it exited or did not listen within ``timeout`` (its log's last lines said).
        """
        if self.running:
            return self
        out = open(self.log_path, "ab")
        self.proc = subprocess.Popen([self.program, "-c", str(self.conf)], stdout=out, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        out.close()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                break
            try:
                with socket.create_connection((self.bind or "127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        tail = self.log_path.read_text(errors="replace").strip().splitlines()[-5:]
        self.stop()
        raise BrokerError(M("mosquitto did not start on port %(port)s: %(log)s", port=self.port, log=" | ".join(tail)))

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (mosquitto saves its database), then wait."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """SIGKILL: the broker dies as in a power cut (what it had not saved is lost)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def rss_kib(self) -> int | None:
        """The broker's resident memory (KiB, from /proc), or ``None`` when not running."""
        pid = self.pid
        if pid is None:
            return None
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None

    def __enter__(self) -> "LocalBroker":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
