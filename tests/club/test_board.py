"""The club board's receiver and record (companion.club.board, companion.club.store) on a real
broker: it ignores what is not a table's own well-formed message (saying why), keeps its record
across its own restarts, a late start gets what the broker retained, and a gap is filled by asking."""

from __future__ import annotations

import logging
import sqlite3
import time

from companion.club.board import Board
from companion.club.publisher import ClubPublisher
from companion.table import Table
from tests.club.helpers import Bots, wait_until
from tests.club.test_acl import connect, publish
from tests.club.test_publisher import record_matches_log

NAMES = ["Аня", "Борис", "Вика"]


def test_the_board_is_connected_once_the_broker_holds_its_subscriptions(broker, fast_dir, monkeypatch):
    """``connected`` (the page's broker state, what the gap watch and a caller wait on) comes with
    the broker's SUBACK: a message sent as soon as the board says it is connected reaches it, even
    when its SUBSCRIBE leaves late (a loaded machine; here held back 2 s)."""
    from companion.club import board as board_module

    made = board_module.mqtt_client

    def late_subscriber(url, client_id):
        client = made(url, client_id)
        subscribe = client.subscribe

        def late(*args, **kwargs):
            time.sleep(2.0)
            return subscribe(*args, **kwargs)

        client.subscribe = late
        return client

    monkeypatch.setattr(board_module, "mqtt_client", late_subscriber)
    board = Board(broker.url(None), fast_dir / "board").start()
    wait_until(lambda: board.connected, what="the board's connection")
    t1, _ = connect(broker.url("t1"), "board-test-t1")
    publish(t1, "companion/vecher/tables/t1/events", b"not json at all")  # not retained: now or never
    wait_until(lambda: board.ignored >= 1, timeout=5, what="the message sent once the board was connected")
    t1.disconnect(), t1.loop_stop(), board.stop()


def test_malformed_and_foreign_messages_are_ignored_with_a_log_line(broker, fast_dir, caplog):
    board = Board(broker.url(None), fast_dir / "board").start()
    wait_until(lambda: board.connected, what="the board's connection")
    t1, _ = connect(broker.url("t1"), "board-test-t1")
    with caplog.at_level(logging.WARNING, logger="companion.club.board"):
        publish(t1, "companion/vecher/tables/t1/events", b"not json at all")
        publish(t1, "companion/vecher/tables/t1/snapshot",
                b'{"v": 1, "table": "t2", "game": null, "seq": 0, "model": {}}')  # speaks for t2
        publish(t1, "companion/vecher/tables/t1/results/g1",
                b'{"v": 1, "table": "t1", "game": "g2", "seq": 3, "game_id": "skull", "rows": []}')
        publish(t1, "companion/vecher/tables/t1/online", b'{"v": 1, "table": "t1", "state": "online"}')
        wait_until(lambda: board.ignored >= 3 and board.store.table("t1"), what="three ignored, one kept")
    said = [r.getMessage() for r in caplog.records]
    assert any("ignored a message" in m and "not UTF-8 JSON" in m for m in said)
    assert any("names table 't2', not its topic's 't1'" in m for m in said)
    assert any("'game' must be the topic's game" in m for m in said)
    assert board.store.table("t2") is None and board.store.table("t1")["online"]["state"] == "online"
    t1.disconnect(), t1.loop_stop(), board.stop()


def test_the_record_survives_a_board_restart_and_its_session_keeps_what_came_meanwhile(broker, fast_dir):
    board = Board(broker.url(None), fast_dir / "board").start()
    wait_until(lambda: board.connected, what="the board's connection")
    table = Table(fast_dir / "t1", pin="123456")
    table.new_game("skull", NAMES)
    pub = ClubPublisher(table, broker.url("t1")).start()
    bots = Bots(table, "skull", NAMES)
    bots.play(20)
    wait_until(lambda: len(board.store.events("t1")) == 20, what="20 events at the board")
    board.stop()
    bots.play()  # the broker keeps these for the board's session
    again = Board(broker.url(None), fast_dir / "board").start()
    wait_until(lambda: record_matches_log(again, "t1", table), what="the whole game after the restart")
    assert again.store.results()
    pub.stop(), table.close(), again.stop()


def test_a_board_started_late_gets_what_the_broker_retained_and_asks_for_the_rest(broker, fast_dir):
    table = Table(fast_dir / "t1", pin="123456")
    table.new_game("infinity", NAMES)
    pub = ClubPublisher(table, broker.url("t1")).start()
    Bots(table, "infinity", NAMES).play()  # a whole game before any board
    table.new_game("doubt", NAMES)
    Bots(table, "doubt", NAMES, 2).play(12)
    wait_until(lambda: pub.acked >= pub.sent, what="the table's messages acknowledged")
    late = Board(broker.url(None), fast_dir / "late").start()
    wait_until(lambda: late.store.results() and late.store.table("t1") and late.store.table("t1")["snapshot"],
               what="retained snapshot and result")
    assert late.store.table("t1")["snapshot"]["game_id"] == "doubt"
    assert [r["game_id"] for r in late.store.results()] == ["infinity"]
    wait_until(lambda: record_matches_log(late, "t1", table), timeout=30, what="both games' events, asked for")
    pub.stop(), table.close(), late.stop()


def test_a_gap_in_the_record_is_filled_by_asking_the_table(broker, fast_dir):
    board = Board(broker.url(None), fast_dir / "board").start()
    wait_until(lambda: board.connected, what="the board's connection")
    table = Table(fast_dir / "t1", pin="123456")
    table.new_game("skull", NAMES)
    pub = ClubPublisher(table, broker.url("t1")).start()
    Bots(table, "skull", NAMES).play(30)
    wait_until(lambda: record_matches_log(board, "t1", table), what="30 events")
    with sqlite3.connect(board.store.path) as db:  # the record lost a few (a disk that failed…)
        db.execute("DELETE FROM events WHERE seq IN (5, 6, 17)")
    assert not record_matches_log(board, "t1", table)
    wait_until(lambda: record_matches_log(board, "t1", table), timeout=20, what="the gap filled")
    assert board.asked >= 1
    pub.stop(), table.close(), board.stop()
