"""A phone whose game the operator ended is told why, in the run and after a restart; /join's
code field agrees with the server.

Reports:

* after ``POST /api/operator/end`` a phone that had joined a seat got the generic 403 «Нет
  доступа: войдите как оператор (или присоединитесь к месту) заново.» from the seat API, before
  and after a restart, and /join showed no notice — ``Table.end_game`` dropped the seat tokens
  without retiring them (``Sessions.retire_seats``/``retire_finished`` do for a new game and for a
  game over at a restart), and ``table.json`` kept none of them;
* a blank code posted to /join answered «Неверный код» and counted as a wrong guess;
* the code field took 12 characters while the server's limit (``seat.MAX_CODE``) says 32.
"""

from __future__ import annotations

import re

from companion.dashboard import create_app, seat
from companion.dashboard.reasons import SEAT_ENDED, SEAT_RETIRED
from companion.i18n import M, render
from companion.table import Table
from tests.dashboard.helpers import csrf_of, operator_client, seat_client
from tests.wording import speaks

ENDED_NOTICE = ("The operator ended the game, so this phone left its seat. When the next game starts, join it "
                "with your seat's new code from the operator, or scan the new QR code.")


def _russian(app, msgid: str) -> str:
    with app.test_request_context("/"):
        from flask_babel import force_locale, gettext

        with force_locale("ru"):
            return gettext(msgid)


def _told_ended(app, phone) -> None:
    r = phone.get("/api/seat/state")
    assert r.status_code == 403
    speaks(M(SEAT_ENDED))
    assert r.get_json()["message"] == render(M(SEAT_ENDED), "ru") != render(M(SEAT_RETIRED), "ru")
    assert phone.get("/seat").headers["Location"].endswith("/join")
    page = phone.get("/join").get_data(as_text=True)
    notice = _russian(app, ENDED_NOTICE)
    assert notice != ENDED_NOTICE and 'id="join-notice"' in page and notice in page
    assert 'id="join-notice"' not in phone.get("/join").get_data(as_text=True)  # said once


def test_a_phone_whose_game_the_operator_ended_is_told_why(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    phone, _ = seat_client(app, table, 1)
    assert phone.get("/api/seat/state").status_code == 200
    cookie = phone.get_cookie("session").value
    op, csrf = operator_client(app, table)
    assert op.post("/api/operator/end", json={}, headers={"X-CSRF-Token": csrf}).status_code == 200
    _told_ended(app, phone)  # in the running table
    app.extensions["companion"]["hub"].close()
    table.close()

    again = Table(fast_dir, pin="246810")  # a restart: no game, the ended one is not resumed
    assert again.referee is None
    app2 = create_app(again, testing=True)
    try:
        phone = app2.test_client()
        phone.set_cookie("session", cookie)
        _told_ended(app2, phone)
        again.new_game("counting", ["Аня", "Борис"])  # the next game: its new code works at once
        phone.set_cookie("session", cookie)
        # with a game running, the login is from an earlier game (not one waiting for "the next")
        assert phone.get("/api/seat/state").get_json()["message"] == render(M(SEAT_RETIRED), "ru")
        assert render(M(SEAT_RETIRED), "ru") in phone.get("/join").get_data(as_text=True)
        phone.set_cookie("session", cookie)
        csrf = csrf_of(phone, "/join")
        assert phone.post("/join", data={"code": again.seat_codes()[1], "csrf_token": csrf}).status_code == 302
        assert phone.get("/api/seat/state").status_code == 200
    finally:
        app2.extensions["companion"]["hub"].close()
        again.close()


def test_a_blank_code_asks_for_the_code_and_is_not_a_wrong_guess(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    try:
        phone = app.test_client()
        csrf = csrf_of(phone, "/join")
        wrong = _russian(app, "Wrong code. Ask the operator for your seat's code.")
        prompt = _russian(app, "Type your seat's code from the operator, or scan its QR code.")
        assert prompt != "Type your seat's code from the operator, or scan its QR code."
        limiter = app.extensions["companion"]["limiter"]
        for blank in ("", "   ", " - "):
            r = phone.post("/join", data={"code": blank, "csrf_token": csrf})
            page = r.get_data(as_text=True)
            assert r.status_code == 400 and prompt in page and wrong not in page
        assert not limiter._fails and not limiter._global  # none counted toward the lockout
        r = phone.post("/join", data={"code": "1", "csrf_token": csrf})  # a typed wrong code still is one
        assert r.status_code == 403 and wrong in r.get_data(as_text=True)
        assert sum(len(q) for q in limiter._fails.values()) == 1
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()


def test_the_code_field_takes_what_the_server_takes(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    try:
        page = app.test_client().get("/join").get_data(as_text=True)
        field = re.search(r'<input name="code"[^>]*>', page)
        assert field and f'maxlength="{seat.MAX_CODE}"' in field.group(0)
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()
