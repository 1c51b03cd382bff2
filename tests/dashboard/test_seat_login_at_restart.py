"""A phone's seat login outlives a restart of ``companion run --sim`` from the moment the dashboard
answers (README: seat logins survive restarts).

A report: after a SIGTERM and a new start on the same data folder, a phone that had joined seat 1
got ``403 join a seat first`` once, about 20 s after the start, then 200 again. The start's order
was checked: :class:`companion.table.Table` loads the seat tokens from ``table.json`` in its
constructor (``_resume_last``), before :class:`companion.service.TableService` makes the dashboard
server (``parts.dashboard_server``), and nothing in the start replaces them afterwards. This test
holds the start at the moment the server is made and asks the seat's API there and after the start.

Nothing in a run takes a live token away and gives it back (a token leaves only with «Покинуть
место», the operator's sign-out, a new or ended game). The one restart that ends a phone's login
is a restart after its game was over: the start begins a new game with new codes. That 403 is
right; the phone is now told why (the seat API's words, the notice on /join), as after a new game
started in the run, instead of a bare «join a seat first» and an empty join page.
"""

from __future__ import annotations

from pathlib import Path

from babel.support import Translations

from companion import parts
from companion.dashboard import create_app
from companion.dashboard.reasons import SEAT_RETIRED
from companion.i18n import M, render
from companion.service import TableService, choose_backends
from companion.settings import Settings
from companion.table import Table
from tests.dashboard.helpers import csrf_of
from tests.wording import speaks

OVER_NOTICE = ("This phone's game was over when the table was restarted, so the phone left its seat. Join again "
               "with your seat's new code from the operator, or scan the new QR code.")


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


def _russian(msgid: str) -> str:
    root = Path(__file__).resolve().parents[2] / "web" / "translations"
    return Translations.load(str(root), ["ru"]).gettext(msgid)


def test_a_phone_whose_game_was_over_at_the_restart_is_told_why(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    phone = app.test_client()
    csrf = csrf_of(phone, "/join")
    assert phone.post("/join", data={"code": table.seat_codes()[0], "csrf_token": csrf}).status_code == 302
    assert table.submit("0 add 10", "dashboard").accepted  # the game is over
    assert phone.get("/api/seat/state").status_code == 200  # an ended game keeps its phones
    cookie = phone.get_cookie("session").value
    app.extensions["companion"]["hub"].close()
    table.close()

    again = Table(fast_dir, pin="246810")  # a restart: the game named current is over, nothing to resume
    assert again.referee is None
    again.new_game("counting", ["Аня", "Борис"])  # as companion run's start does then (new codes)
    app2 = create_app(again, testing=True)
    try:
        phone = app2.test_client()
        phone.set_cookie("session", cookie)
        r = phone.get("/api/seat/state")
        assert r.status_code == 403  # right: a new game, new codes
        speaks(M(SEAT_RETIRED))
        assert r.get_json()["message"] == render(M(SEAT_RETIRED), "ru")  # why, and the way on
        assert phone.get("/seat").headers["Location"].endswith("/join")
        page = phone.get("/join").get_data(as_text=True)
        notice = _russian(OVER_NOTICE)
        assert notice != OVER_NOTICE and 'id="join-notice"' in page and notice in page
        assert 'id="join-notice"' not in phone.get("/join").get_data(as_text=True)  # said once
        code = again.seat_codes()[0]
        csrf = csrf_of(phone, "/join")
        assert phone.post("/join", data={"code": code, "csrf_token": csrf}).status_code == 302
        assert phone.get("/api/seat/state").status_code == 200  # the new code works at once
    finally:
        app2.extensions["companion"]["hub"].close()
        again.close()
