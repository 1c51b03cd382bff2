"""The console's status line counts the game's camera reads, re-reads and manual entries — of the
game, not of the process: they go on from where they stood after a restart, like «ходов».

The tester's report: after 8 accepted manual entries from the operator's forms every line still
ended «вручную 0» (only the simulated camera's own give-ups were counted), and every camera counter
fell back to 0 after a restart (``--resume`` after ``kill -9``).

Real code path: TableService on the simulated table with its dashboard; entries posted to the
dashboard's ``/api/operator/manual``; the console's status line as ``companion run`` prints it; a
restart is a new TableService on the same data folder.
"""

from __future__ import annotations

import io
import re
import time

from companion.i18n import M, render
from companion.commands.run import Console
from companion.log import TableLog
from companion.service import TableService, choose_backends
from companion.settings import Settings
from tests.dashboard.helpers import operator_client

SEATS = ["Аня", "Борис", "Вика"]
SET0 = "АК2444840,АК2444842,АК2444844,АК2444841"
SET1 = "ВЕ1000000,ВЕ1000002,ВЕ1000004,ВЕ1000003"


def _start(data_dir) -> TableService:
    s = Settings(game="skull", seats=list(SEATS), sim=True, seed=0, data_dir=data_dir, host="127.0.0.1",
                 port=0, pin="123456", pace_ms=0)
    return TableService(s, choose_backends(s), dashboard=True).start()


def _status_line(svc: TableService, lang: str = "ru") -> str:
    out = io.StringIO()
    console = Console(out, lang=lang)
    console.every = 0
    console.progress(svc)
    return out.getvalue()


def _sources(svc: TableService) -> list[str]:
    with TableLog.open(svc.table.referee.log.path) as tl:
        return [r.source for r in tl.records()]


def test_manual_entries_from_the_operators_forms_count_and_survive_a_restart(fast_dir):
    svc = _start(fast_dir)
    try:
        client, csrf = operator_client(svc.server.server.app, svc.table)
        r = client.post("/operator/new", data={"game": "skull", "seats": "Борис\nДина", "csrf_token": csrf})
        assert r.status_code == 302
        h = {"X-CSRF-Token": csrf}
        for text in (f"table register 0 {SET0} ?", f"table register 1 {SET1} ?"):
            r = client.post("/api/operator/manual", json={"action": text}, headers=h)
            assert r.status_code == 200 and r.json["accepted"], r.json
        assert svc.table.submit("table dealer 0", "operator").accepted
        for text in ("0 place", "1 place", "0 bid 1", "1 pass"):
            assert svc.table.submit_for_seat(int(text[0]), text, "button").accepted, text
        for serial in SET0.split(","):  # the dealer's flip, typed: whichever note is on top
            r = client.post("/api/operator/manual", json={"action": f"table flip 0 {serial}"}, headers=h)
            if r.status_code == 200:
                break
        assert _sources(svc).count("manual") == 3
        line = _status_line(svc)
        # the bug: «вручную 0»
        by_hand = render(M("camera: %(reads)s reads, %(manual)s by hand", reads=0, manual=3), "ru")
        assert line.rstrip().endswith(by_hand), line
        assert "ходов 8" in line, line
        assert _status_line(svc, "en").rstrip().endswith("camera: 0 reads, 3 by hand")
    finally:
        svc.stop()
    svc = _start(fast_dir)  # the restart resumes the operator's game
    try:
        assert svc.resumed
        assert _status_line(svc).rstrip().endswith(by_hand)
    finally:
        svc.stop()


def test_the_bots_camera_counters_go_on_after_a_restart(fast_dir):
    svc = _start(fast_dir)
    try:
        svc.run_bots()
        deadline = time.monotonic() + 120
        while _sources(svc).count("camera") < 2 and time.monotonic() < deadline and svc.simtable.error is None:
            time.sleep(0.1)
        assert svc.simtable.error is None, svc.simtable.error
        assert _sources(svc).count("camera") >= 2, "the bots' camera read nothing"
    finally:
        sim = svc.simtable
        svc.stop()  # the bots stop; their counters are kept
    kept = sim.stats.to_json()
    assert kept["observations"] >= 2 and kept["reads"] >= 2, kept
    svc = _start(fast_dir)
    try:
        assert svc.resumed
        # the bug: every counter back at 0
        assert svc.simtable.stats.to_json() == kept
        line = _status_line(svc)
        reads = _sources(svc).count("camera")
        counts = render(M("camera: %(reads)s reads, %(retried)s retried, %(manual)s by hand", reads=reads,
                          retried=kept["retried"], manual="§"), "ru").split("§")
        assert re.search(re.escape(counts[0]) + r"\d+" + re.escape(counts[1]) + "$", line.rstrip()), line
    finally:
        svc.stop()
