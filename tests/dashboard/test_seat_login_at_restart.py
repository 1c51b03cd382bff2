"""A phone's seat login outlives a restart of ``companion run --sim`` from the moment the dashboard
answers (README: seat logins survive restarts).

A report: after a SIGTERM and a new start on the same data folder, a phone that had joined seat 1
got ``403 join a seat first`` once, about 20 s after the start, then 200 again. The start's order
was checked: :class:`companion.table.Table` loads the seat tokens from ``table.json`` in its
constructor (``_resume_last``), before :class:`companion.service.TableService` makes the dashboard
server (``parts.dashboard_server``), and nothing in the start replaces them afterwards. This test
holds the start at the moment the server is made and asks the seat's API there and after the start.
"""

from __future__ import annotations

from companion import parts
from companion.service import TableService, choose_backends
from companion.settings import Settings


def _service(data_dir) -> TableService:
    s = Settings(game="skull", seats=["Аня", "Борис", "Вика"], sim=True, seed=0, data_dir=data_dir,
                 host="127.0.0.1", port=0, pace_ms=5)
    return TableService(s, choose_backends(s))


def _state(app, token) -> int:
    client = app.test_client()
    with client.session_transaction() as sess:
        sess["seat"] = token
    return client.get("/api/seat/state").status_code


def test_a_seat_token_is_live_when_the_restarted_dashboard_first_answers(fast_dir, monkeypatch):
    first = _service(fast_dir).start()
    try:
        seat, token = first.table.join(first.table.seat_codes()[0])
        assert first.table.played_by(seat) == "phone"  # taken over from the bots
    finally:
        first.stop()  # SIGTERM: the orderly stop

    made = parts.dashboard_server
    at_serve: dict = {}

    def dashboard_server(table, host, port):
        served = made(table, host, port)  # answering from here on
        at_serve["seat"] = table.seat_for_token(token)
        at_serve["by"] = table.played_by(seat)
        at_serve["status"] = _state(served.server.app, token)
        return served

    monkeypatch.setattr(parts, "dashboard_server", dashboard_server)
    again = _service(fast_dir).start()
    try:
        assert at_serve == {"seat": seat, "by": "phone", "status": 200}
        again.run_bots()
        assert again.table.seat_for_token(token) == seat
    finally:
        again.stop()
