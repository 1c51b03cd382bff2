"""A simulated network link between a table and its broker, for the tests and ``bench/club.py``.

:class:`Link` listens on a loopback port and relays each connection to the broker. :meth:`Link.cut`
drops every connection and refuses new ones, as a table whose Wi-Fi went away; :meth:`Link.restore`
lets them through again. The broker sees the table's connection end (so it publishes the table's
``offline`` will), the table sees its broker go away — the real code on both sides, no mock.
"""

from __future__ import annotations

import socket
import threading

from companion.club.broker import free_port


class Link:
    """A TCP relay ``127.0.0.1:<port>`` → ``(host, port)`` that can be cut (see module docstring)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self._cut = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._socks: set[socket.socket] = set()
        self._server = socket.create_server(("127.0.0.1", self.port))
        self._server.settimeout(0.2)
        self._thread = threading.Thread(target=self._accept, name="netsim-link", daemon=True)
        self._thread.start()

    def url(self, url: str) -> str:
        """``url`` (a club address) going through this link instead of straight to the broker."""
        return url.replace(f":{self.target[1]}/", f":{self.port}/")

    def cut(self) -> None:
        """Drop every relayed connection and refuse new ones."""
        self._cut.set()
        with self._lock:
            socks, self._socks = list(self._socks), set()
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def restore(self) -> None:
        self._cut.clear()

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self._server.close()
        self._thread.join(2)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except (socket.timeout, OSError):
                continue
            if self._cut.is_set():
                conn.close()
                continue
            try:
                up = socket.create_connection(self.target, timeout=2)
                up.settimeout(None)
                conn.settimeout(None)
            except OSError:
                conn.close()
                continue
            with self._lock:
                self._socks |= {conn, up}
            for a, b in ((conn, up), (up, conn)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        with self._lock:
            self._socks.discard(src)
            self._socks.discard(dst)
