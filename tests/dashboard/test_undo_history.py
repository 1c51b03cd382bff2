"""An undone action leaves every viewer's history: a flip typed by mistake (then undone) must not
keep a face-down note's serial and role on the public page (found by a first-time user)."""

from __future__ import annotations

import json
import time

from companion.dashboard.hub import Hub
from companion.dashboard.model import OPERATOR, PUBLIC
from companion.table import Table

A = "АК2444842,АК2444844,АК2444846,АК2444841"
B = "ВЕ1000002,ВЕ1000004,ВЕ1000006,ВЕ1000001"


def _to_the_reveal(table) -> None:
    """A two-player skull game up to the dealer's reveal (Аня bid 1, Борис passed)."""
    table.new_game("skull", ["Аня", "Борис"])
    for line in (f"table register 0 {A} ?", f"table register 1 {B} ?", "table dealer 0",
                 "0 place", "1 place", "0 bid 1", "1 pass"):
        assert table.submit(line, "manual").accepted, line


def _caught_up(hub, table) -> None:
    """Wait until the hub heard the table (it hears it on the referee's thread, just after)."""
    deadline = time.monotonic() + 5
    while hub.model(PUBLIC)["version"] != table.referee.version and time.monotonic() < deadline:
        time.sleep(0.01)


def test_an_undone_flip_leaves_the_public_history(fast_dir):
    table = Table(fast_dir, pin="246802")
    hub = Hub(table)

    def caught_up() -> None:
        _caught_up(hub, table)

    try:
        _to_the_reveal(table)
        assert table.submit("table flip 0 АК2444846", "manual").accepted  # typed by mistake

        def public() -> str:
            caught_up()
            return json.dumps(hub.model(PUBLIC)["history"], ensure_ascii=False)

        assert "АК2444846" in public()  # shown while it stands: a flip is public
        assert table.undo().accepted
        caught_up()
        for viewer in (PUBLIC, OPERATOR, 1):
            text = json.dumps(hub.model(viewer)["history"], ensure_ascii=False)
            assert "АК2444846" not in text, viewer
            assert '"flip"' not in text, viewer
        items = [i["kind"] for e in hub.model(PUBLIC)["history"] for i in e["items"]]
        assert "undo" in items  # the undo itself is told
        assert "reveal_start" in items  # what stands is still there
        # a later action is told after it, as usual
        assert table.submit("table flip 0 АК2444844", "manual").accepted
        assert "АК2444844" in public() and "АК2444846" not in public()
    finally:
        hub.close()
        table.close()


def test_an_event_the_game_leaves_untold_is_not_shown_raw():
    """skull tells a round's end by its outcome and the next round's start: its ``round_end``
    event (``describe_event`` → ``""``) is left out of the history, not shown as raw data
    («раунд окончен: Раунд 9, Исход успех, …», found by a first-time user)."""
    from companion.dashboard import model as M
    from companion.games.base import Event
    from companion.referee import Outcome

    describe = M.narrator("skull", ["Аня", "Борис"])
    events = (Event("note_to_bank", {"seat": 1, "owed": 0}),
              Event("round_end", {"round": 9, "outcome": "success", "dealer": 0, "bid": 2, "skull_owner": None}),
              Event("round_start", {"round": 10, "dealer": 0}))
    entry = M.history_entry(PUBLIC, 5, Outcome(True, "table deposit 1 ?", "camera", None, None, events, 5), describe)
    kinds = [i["kind"] for i in entry["items"]]
    assert "round_end" not in kinds and "round_start" in kinds, kinds


def test_the_answer_to_an_action_tells_what_it_did(tmp_path):
    """A flip that finds a foreign note is accepted — and the answer says so in words at once
    (the toast showed only «Принято»); events private to a seat are not in it."""
    from companion.dashboard import create_app
    from tests.dashboard.helpers import operator_client

    table = Table(tmp_path, pin="246802")
    app = create_app(table, testing=True)
    try:
        _to_the_reveal(table)
        c, csrf = operator_client(app, table)
        r = c.post("/api/operator/manual", json={"action": "table flip 0 ВЕ1000002"}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200 and r.json["accepted"]
        told = " ".join(r.json["told"])
        assert "чужая купюра" in told and "ВЕ1000002" not in told, told
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()


def test_history_after_a_restart_is_the_history_before_it(fast_dir):
    """A power cut after undos changes nothing on the pages: every viewer's history (the undone
    actions gone, each undo told where it happened) is the same from the live hub and from a
    table reopened on the same data folder (a first-time tester saw the undo line vanish after
    ``kill -9``)."""
    table = Table(fast_dir, pin="246802")
    hub = Hub(table)

    def caught_up() -> None:
        _caught_up(hub, table)

    try:
        _to_the_reveal(table)
        assert table.submit("table flip 0 АК2444846", "manual").accepted  # typed by mistake
        assert table.undo().accepted
        assert table.submit("table flip 0 АК2444844", "manual").accepted
        assert table.undo().accepted  # a second mistake, undone too
        caught_up()
        viewers = (PUBLIC, OPERATOR, 0, 1)
        before = {v: hub.model(v)["history"] for v in viewers}
        version = hub.model(PUBLIC)["version"]
    finally:
        hub.close()
        table.close()
    kinds = [i["kind"] for e in before[PUBLIC] for i in e["items"]]
    assert kinds.count("undo") == 2, kinds  # both undos are told, not only the last
    again = Table(fast_dir, pin="246802")
    hub2 = Hub(again)
    try:
        assert hub2.model(PUBLIC)["version"] == version
        for v in viewers:
            assert hub2.model(v)["history"] == before[v], v
    finally:
        hub2.close()
        again.close()
