"""Club mode over TLS (``mqtts://…?ca=FILE``) on a real Mosquitto with a TLS listener and a club's
own certificate authority (made here with openssl)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from companion.club.board import Board
from companion.club.broker import LocalBroker, mosquitto_path
from companion.club.publisher import ClubPublisher
from companion.table import Table
from tests.club.helpers import Bots, wait_until
from tests.club.test_publisher import record_matches_log


def make_ca(folder):
    """A CA and a server certificate for 127.0.0.1 (openssl)."""
    def ssl(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
        "-subj", "/CN=club test CA")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    ssl("x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
        "server.crt", "-days", "2", "-extfile", "san.ext")
    return folder / "ca.crt", folder / "server.crt", folder / "server.key"


def test_a_table_and_the_board_over_tls(fast_dir):
    if mosquitto_path() is None or shutil.which("openssl") is None:
        pytest.skip("mosquitto or openssl is not installed (make test installs mosquitto)")
    pki = fast_dir / "pki"
    pki.mkdir()
    ca, cert, key = make_ca(pki)
    broker = LocalBroker(fast_dir / "broker", "vecher", ["t1"], tls=(cert, key)).start()
    try:
        board = Board(broker.url(None, "mqtts") + f"?ca={ca}", fast_dir / "board").start()
        wait_until(lambda: board.connected, what="the board over TLS")
        table = Table(fast_dir / "t1", pin="123456")
        table.new_game("skull", ["Аня", "Борис", "Вика"])
        pub = ClubPublisher(table, broker.url("t1", "mqtts") + f"?ca={ca}").start()
        Bots(table, "skull", ["Аня", "Борис", "Вика"]).play()
        wait_until(lambda: record_matches_log(board, "t1", table), what="the game over TLS")
        # without the club's CA the certificate is not trusted: no connection, a status
        plain = Table(fast_dir / "t1b", pin="123456")
        untrusted = ClubPublisher(plain, broker.url("t1", "mqtts")).start()
        wait_until(lambda: "club" in plain.status(), what="the club status")
        import time

        time.sleep(1.0)
        assert plain.status()["club"]["state"] in ("absent", "error") and untrusted.state != "online"
        untrusted.stop(), plain.close(), pub.stop(), table.close(), board.stop()
    finally:
        broker.stop()
