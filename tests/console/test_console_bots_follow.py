"""What the console says about the bots when the operator starts another game during ``make demo``
matches what the bots do (#23, tester's item 4).

The tester's report: the console said the simulated table's bots leave the new game alone, and then
the bots played it. The line was decided from the last game's driver (``service.simtable.released``,
set as the table left the bots' game) before the service handed the bots over to the new game
(``TableService._adopt``).

Real code path: ``TableService`` on the simulated table with ``follow`` as ``companion run --sim``
sets it (scene camera, virtual box on a pty), the dashboard served, the console subscribed as
``companion run`` subscribes it, the new-game form posted to the operator page.
"""

from __future__ import annotations

import io

import pytest

from companion.commands.run import Console
from companion.log import TableLog
from companion.service import TableService, choose_backends
from companion.settings import Settings
from tests.dashboard.helpers import operator_client
from tests.waiting import wait_for as _wait

SEATS = ["Аня", "Борис", "Вика"]
OPERATORS = ["Борис", "Дина", "Егор"]


def _bot_records(path) -> list[str]:
    with TableLog.open(path, readonly=True) as tl:
        return [r.action for r in tl.records() if r.source in ("camera", "button", "dashboard", "manual")]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_game_started_from_the_console_is_said_to_be_the_bots_and_they_play_it(fast_dir, lang):
    s = Settings(game="doubt", seats=list(SEATS), sim=True, seed=0, data_dir=fast_dir, host="127.0.0.1",
                 port=0, pin="123456", pace_ms=0)
    svc = TableService(s, choose_backends(s), dashboard=True, follow=True).start()
    out = io.StringIO()
    console = Console(out, lang=lang)
    try:
        svc.table.subscribe(console.on_table)  # as companion run does
        console.header(svc, svc.server.url)
        first = svc.table.referee.log.path
        svc.run_bots()
        assert _wait(lambda: len(_bot_records(first)) >= 1, 120), "the bots did not start"
        mark = len(out.getvalue())
        client, csrf = operator_client(svc.server.server.app, svc.table)
        r = client.post("/operator/new", data={"game": "skull", "seats": "\n".join(OPERATORS), "csrf_token": csrf})
        assert r.status_code == 302, r.get_data(as_text=True)[:500]
        path = svc.table.referee.log.path
        assert path != first
        console.every = 0
        for _ in range(5):  # the status lines while the bots are handed over
            console.progress(svc)
        # the bots do take the new game up ...
        assert _wait(lambda: svc.simtable.owned == path, 60), svc.simtable.owned
        assert _wait(lambda: len(_bot_records(path)) >= 1, 180), "the bots did not play the new game"
        console.progress(svc)
        told = out.getvalue()[mark:]
        # ... and the console never said they leave it (or stop)
        for words in ("боты имитации не трогают", "боты имитации играют только", "bots leave", "bots play only"):
            assert words not in told, told
        assert svc.simtable.error is None, svc.simtable.error
    finally:
        svc.stop()
