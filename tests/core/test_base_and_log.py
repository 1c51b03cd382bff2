"""The shared State API and the table log, tested with a tiny counting game."""

from __future__ import annotations

import io

import pytest

from companion.errors import ActionSyntaxError, IllegalAction, LogError
from companion.log import TableLog, read_jsonl, replay


from tests.core.counting import Add, Counting, Tag  # noqa: E402


def test_action_text_round_trips():
    a = Tag(None, ("АК2444841", "x"), None)
    assert a.text() == "table tag АК2444841,x ?"
    assert Counting.parse_action(a.text()) == a
    assert Counting.parse_action("1 add 3") == Add(1, 3)
    assert Counting.parse_action("0 tag - 5") == Tag(0, (), 5)


@pytest.mark.parametrize(
    "text,reason",
    [("1 add", "bad_syntax"), ("1 add x", "bad_syntax"), ("x add 1", "bad_syntax"),
     ("1 fly 2", "unknown_action"), ("", "bad_syntax")],
)
def test_bad_action_text_has_reason(text, reason):
    with pytest.raises(ActionSyntaxError) as e:
        Counting.parse_action(text)
    assert e.value.reason == reason


def test_rejected_action_leaves_state_unchanged():
    g = Counting(["A", "B"])
    g.apply("0 add 4")
    before = g.snapshot_bytes()
    for bad, reason in [("0 add 1", "not_your_turn"), ("1 add 9", "bad_count"), ("7 add 1", "unknown_seat")]:
        with pytest.raises(IllegalAction) as e:
            g.apply(bad)
        assert e.value.reason == reason
        assert g.snapshot_bytes() == before


def test_bad_seats_and_options():
    with pytest.raises(IllegalAction, match="bad_seats"):
        Counting(["A"])
    with pytest.raises(IllegalAction, match="bad_seats"):
        Counting(["A", "A"])
    with pytest.raises(IllegalAction, match="bad_option"):
        Counting(["A", "B"], {"nope": 1})
    with pytest.raises(IllegalAction, match="bad_option"):
        Counting(["A", "B"], {"limit": 0})


def test_sqlite_log_round_trip_and_jsonl(tmp_path, counting):
    path = tmp_path / "t.sqlite"
    with TableLog.create(path, "counting", ["Аня", "Борис"], {"limit": 6}) as log:
        for t in ["0 add 2", "1 add 1", "table undo", "1 add 3"]:
            log.append(t, "button")
    with pytest.raises(LogError):
        TableLog.create(path, "counting", ["A", "B"])
    log = TableLog.open(path)
    res = replay(log.header, log.records())
    assert res.game.total == 5 and not res.rejected
    # each applied record keeps the events it produced (the undone one's are gone): what the
    # dashboard's history is rebuilt from after a restart, without a second replay
    assert [r.action for r in res.applied] == ["0 add 2", "1 add 3"]
    live = Counting(["Аня", "Борис"], {"limit": 6})
    assert res.events == [tuple(live.apply("0 add 2")), tuple(live.apply("1 add 3"))]
    assert all(res.events)
    buf = io.StringIO()
    log.export_jsonl(buf)
    text = buf.getvalue()
    assert "Аня" in text
    header, recs, errs = read_jsonl(io.StringIO(text + "not json\n{\"action\": \"0 add 9\"}\n"))
    assert [e.reason for e in errs] == ["bad_line"]
    res2 = replay(header, recs, errs)
    assert res2.game.total == 5
    assert [r.reason for r in res2.rejected] == ["bad_count", "bad_line"] or \
        sorted(r.reason for r in res2.rejected) == ["bad_count", "bad_line"]


def test_replay_of_numbered_records_keeps_their_seq(tmp_path, counting):
    """A SQLite log's records are numbered by the table without gaps: replayed ``numbered``, the
    result carries the seq of every record read (undo and refused ones too), in log order, so a
    reader tells a deleted row without reading the log again; other records carry none."""
    import sqlite3

    path = tmp_path / "t.sqlite"
    with TableLog.create(path, "counting", ["Аня", "Борис"], {"limit": 6}) as log:
        for t in ["0 add 2", "1 add 9", "1 add 1", "table undo", "1 add 3", "0 add 1"]:
            log.append(t, "button")
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM actions WHERE seq = 5")
    db.close()
    with TableLog.open(path, readonly=True) as log:
        res = replay(log.header, log.records(), numbered=True)
        assert res.seqs == [1, 2, 3, 4, 6]
        assert replay(log.header, log.records()).seqs is None  # not asked: no numbers
    # 2 refused as written; 6 refused once 5 is gone (not that seat's turn)
    assert [r.line for r in res.rejected] == [2, 6] and [r.seq for r in res.undos] == [4]


def test_log_open_errors(tmp_path):
    with pytest.raises(LogError):
        TableLog.open(tmp_path / "missing.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(LogError):
        TableLog.open(junk)
    with pytest.raises(LogError):
        read_jsonl(io.StringIO(""))
    with pytest.raises(LogError):
        read_jsonl(io.StringIO("[1,2]\n"))


@pytest.fixture
def counting():
    from tests.core.counting import register_counting

    unregister = register_counting()
    yield
    unregister()
