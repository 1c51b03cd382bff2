"""A table publishing to a real broker and the club board receiving (companion.club.publisher,
companion.club.board): whatever the broker or the network does, the table referees on and the
board's record ends equal to the table's log — nothing lost, nothing doubled."""

from __future__ import annotations

import time

import pytest

from companion.club import audit
from companion.club.board import Board
from companion.club.netsim import Link
from companion.club.publisher import ClubPublisher
from companion.club.topics import game_key
from companion.table import Table
from tests.club.helpers import Bots, wait_until

NAMES = ["Аня", "Борис", "Вика"]


def start_table(fast_dir, name, url, game_id="skull", names=NAMES, seed=1):
    table = Table(fast_dir / name, pin="123456")
    table.new_game(game_id, names)
    pub = ClubPublisher(table, url).start()
    return table, pub, Bots(table, game_id, names, seed)


def record_matches_log(board, table_id, table):
    """True when the board holds exactly the log's records of every game of ``table``."""
    logs = {(table_id, game_key(p.name)): audit.log_seqs(p) for p in sorted((table.data_dir / "games").glob("*.sqlite"))}
    board_seqs = {k: v for k, v in board.store.seqs().items() if k[0] == table_id}
    return audit.compare(board_seqs, logs) == {"lost": 0, "doubled": 0, "extra": 0, "games": len(logs)}


@pytest.fixture
def board(broker, fast_dir):
    b = Board(broker.url(None), fast_dir / "board").start()
    wait_until(lambda: b.connected, what="the board's connection")
    yield b
    b.stop()


def test_a_whole_game_reaches_the_board_once_in_order(broker, board, fast_dir):
    table, pub, bots = start_table(fast_dir, "t1", broker.url("t1"))
    bots.play()
    wait_until(lambda: record_matches_log(board, "t1", table), what="the board's record of the game")
    seqs = [e["seq"] for e in board.store.events("t1")]
    assert seqs == list(range(1, table.referee.version + 1))
    # the snapshot goes out after a pump's events (publisher._pump): it may land just after the last one
    row = wait_until(lambda: (r := board.store.table("t1")) and r["snapshot"]["seq"] == table.referee.version and r,
                     what="the last snapshot")
    assert row["online"]["state"] == "online"
    (result,) = wait_until(lambda: board.store.results(), what="the result")
    assert result["game_id"] == "skull" and [r["win"] for r in result["rows"]].count(True) == 1
    assert board.store.table("t1")["status"]["parts"]["club"]["state"] == "ok"
    pub.stop()
    wait_until(lambda: board.store.table("t1")["online"]["state"] == "offline", what="offline at a clean stop")
    table.close()


def test_no_broker_is_a_status_the_table_referees_on_and_catches_up(broker, board, fast_dir):
    broker.stop()
    table, pub, bots = start_table(fast_dir, "t1", broker.url("t1"), "infinity")
    t0 = time.monotonic()
    bots.play(40)
    assert time.monotonic() - t0 < 10, "the table waited for the broker"
    assert table.status()["club"]["state"] == "absent"
    broker.start()
    bots.play()
    wait_until(lambda: record_matches_log(board, "t1", table), timeout=40, what="catch-up after the broker came")
    wait_until(lambda: table.status()["club"]["state"] == "ok", what="the club status back to ok")
    pub.stop(), table.close()


def test_a_broker_killed_mid_game_and_restarted_loses_nothing(broker, board, fast_dir):
    table, pub, bots = start_table(fast_dir, "t1", broker.url("t1"), "hoggenheimer", NAMES + ["Гена"])
    bots.play(30)
    wait_until(lambda: len(board.store.events("t1")) >= 30, what="the first half at the board")
    broker.kill()  # SIGKILL: whatever it had not saved is gone
    bots.play(30)
    time.sleep(1.0)
    broker.start()
    bots.play()
    # the broker lost the board's session: the board says hello, every table sends its game again
    wait_until(lambda: record_matches_log(board, "t1", table), timeout=60, what="the record after the broker came back")
    assert board.store.results(), "the game's result"
    pub.stop(), table.close()


def test_a_table_off_the_network_is_silent_then_catches_up(broker, board, fast_dir):
    link = Link("127.0.0.1", broker.port)
    table, pub, bots = start_table(fast_dir, "t2", link.url(broker.url("t2")), "lottery",
                                   ["Аня", "Борис", "Вика", "Гена", "Дима"])
    bots.play(20)
    wait_until(lambda: (board.store.table("t2") or {}).get("online", {}).get("state") == "online", what="t2 online")
    link.cut()
    # the broker publishes the table's will once its keep-alive runs out (1.5 × 15 s at most)
    wait_until(lambda: board.store.table("t2")["online"]["state"] == "offline", timeout=30, what="t2 silent")
    summary = next(t for t in board.tables() if t["table"] == "t2")
    assert summary["silent"] is True
    bots.play(25)
    wait_until(lambda: table.status()["club"]["state"] == "absent", what="the table's club status: no connection")
    link.restore()
    bots.play()
    wait_until(lambda: record_matches_log(board, "t2", table), timeout=60, what="t2's record after the cut")
    assert next(t for t in board.tables() if t["table"] == "t2")["silent"] is False
    pub.stop(), table.close(), link.close()


def test_a_game_finished_while_the_broker_was_away_goes_out_with_its_result(broker, board, fast_dir):
    table, pub, bots = start_table(fast_dir, "t3", broker.url("t3"), "doubt")
    bots.play(10)
    wait_until(lambda: len(board.store.events("t3")) >= 10, what="the start at the board")
    broker.stop()
    bots.play()
    table.new_game("skull", NAMES)
    again = Bots(table, "skull", NAMES, 3)
    again.play(15)
    broker.start()
    wait_until(lambda: record_matches_log(board, "t3", table), timeout=40, what="both games at the board")
    assert [r["game_id"] for r in board.store.results()] == ["doubt"]
    snap = wait_until(lambda: (s := board.store.table("t3")["snapshot"]) and s["seq"] == 15 and s,
                      what="the last snapshot")  # sent after the events it sums up
    assert snap["game_id"] == "skull"
    pub.stop(), table.close()
