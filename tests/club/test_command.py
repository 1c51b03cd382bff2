"""``companion club`` on the command line: the broker's files and each table's address, the board
refusing to start without its broker, and a board served until stopped."""

from __future__ import annotations

import json
import threading
import urllib.request
from argparse import Namespace

from companion.cli import main
from companion.club.broker import free_port
from companion.club.url import TABLE_ID
from companion.i18n import M, render
from companion.commands.club import run_board
from tests.club.helpers import wait_until


def test_acl_writes_the_files_and_prints_every_address(tmp_path, capsys):
    assert main(["club", "acl", "--club", "vecher", "--tables", "t1, t2", "--dir", str(tmp_path), "--host",
                 "192.168.1.10"]) == 0
    out = capsys.readouterr().out
    creds = json.loads((tmp_path / "credentials.json").read_text())
    assert f"companion club --broker mqtt://board:{creds['board_password']}@192.168.1.10:1883/vecher" in out
    assert f"t2: companion run --club mqtt://t2:{creds['tables']['t2']}@192.168.1.10:1883/vecher" in out
    files = M("The club %(club)s's broker files in %(folder)s: passwords, acl, mosquitto.conf, credentials.json (the "
              "passwords — keep it safe)", club="vecher", folder=str(tmp_path))
    assert render(files, "ru") in out
    assert {p.name for p in tmp_path.iterdir()} >= {"passwords", "acl", "mosquitto.conf", "credentials.json"}


def test_acl_refuses_a_bad_table_name_in_one_line(tmp_path, capsys):
    assert main(["club", "acl", "--club", "vecher", "--tables", "t1,стол 2", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    told = M("%(what)s %(value)r must be 1-40 letters, digits, '_' or '-' (it is an MQTT topic level)", what=M(TABLE_ID),
             value="стол 2")
    assert err == "companion club acl: " + render(told, "ru"), err


def test_the_board_needs_its_broker(capsys):
    assert main(["club"]) == 2
    assert render(M("companion club: name the broker: --broker mqtt://board:PASSWORD@HOST:1883/CLUB (or companion club "
                    "acl … for the broker's files)"), "ru") in capsys.readouterr().err
    assert main(["club", "--broker", "ftp://x/y"]) == 2
    assert render(M("the club address must start with mqtt:// or mqtts:// (TLS), got %(text)r", text="ftp://x/y"),
                  "ru") in capsys.readouterr().err


def test_the_board_serves_until_stopped_and_keeps_its_pin(broker, fast_dir, capsys):
    port = free_port()
    args = Namespace(broker=broker.url(None), host="127.0.0.1", port=port, data_dir=fast_dir / "board", pin=None,
                     lang="en", verbose=False)
    stop = threading.Event()
    runner = threading.Thread(target=run_board, args=(args,), kwargs={"stop": stop})
    runner.start()
    try:
        health = wait_until(lambda: _get(f"http://127.0.0.1:{port}/healthz"), what="the board's page")
        assert health["ok"] is True
        wait_until(lambda: _get(f"http://127.0.0.1:{port}/healthz")["connected"], what="the board's broker link")
    finally:
        stop.set()
        runner.join(10)
    out = capsys.readouterr().out
    pin = (fast_dir / "board" / "board-pin").read_text().strip()
    assert f"Board PIN (merge names, new night): {pin}" in out and "the board stopped" in out


def _get(url: str):
    try:
        return json.loads(urllib.request.urlopen(url, timeout=1).read())
    except OSError:
        return None
