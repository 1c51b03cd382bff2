"""The referee: one queue, one consumer, log first, resume after a restart."""

from __future__ import annotations

import threading

import pytest

from companion.referee import Referee

from tests.core.counting import register_counting


@pytest.fixture
def counting():
    unregister = register_counting()
    yield
    unregister()


def test_submit_accept_reject_and_resume(tmp_path, counting):
    path = tmp_path / "t.sqlite"
    seen = []
    with Referee.start(path, "counting", ["A", "B"], {"limit": 9}) as ref:
        ref.subscribe(lambda r, o: seen.append((o.action, o.version)))
        assert ref.submit("0 add 2", "button").accepted
        bad = ref.submit("0 add 1", "button")
        assert (bad.accepted, bad.reason) == (False, "not_your_turn")
        assert ref.submit("1  add   3", "dashboard").action == "1 add 3"
        assert ref.submit("table undo", "operator").accepted
        assert ref.game.total == 2
        assert ref.submit("1 add 4", "button").accepted
        assert ref.submit("", "button").reason == "bad_syntax"
        assert ref.submit("9 add 1", "button").reason == "unknown_seat"
        version = ref.version
    assert seen == [("0 add 2", 1), ("1 add 3", 2), ("table undo", 3), ("1 add 4", 4)]
    again = Referee.resume(path)
    assert again.game.total == 6 and again.version == version
    assert again.submit("0 add 9", "button").reason == "bad_count"
    again.close()


def test_many_threads_one_consumer(tmp_path, counting):
    with Referee.start(tmp_path / "t.sqlite", "counting", ["A", "B", "C"], {"limit": 1000}) as ref:
        results = []

        def player(seat):
            for _ in range(30):
                results.append(ref.submit(f"{seat} add 1", "button"))

        threads = [threading.Thread(target=player, args=(s,)) for s in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        accepted = [o for o in results if o.accepted]
        assert ref.game.total == len(accepted) == len(ref.log.records())
        versions = [o.version for o in accepted]
        assert sorted(versions) == list(range(1, len(accepted) + 1))


def test_start_validates_before_writing(tmp_path, counting):
    from companion.errors import IllegalAction

    path = tmp_path / "t.sqlite"
    with pytest.raises(IllegalAction):
        Referee.start(path, "counting", ["A"])
    assert not path.exists()
