"""The operator PIN and the seat codes as people type them: in groups, and in full-width digits
(a phone keyboard set to Chinese or Japanese gives «１２３４５６»): NFKC makes them the digits they
look like, so the right PIN is taken — on the table and through the login form."""

from __future__ import annotations

import re

from companion.dashboard import create_app
from companion.table import Table

PIN = "123456"
WIDE = "１２３４５６"


def test_a_pin_in_full_width_digits_is_those_digits(fast_dir):
    table = Table(fast_dir, pin=PIN)
    try:
        assert table.check_pin(WIDE) is not None
        assert table.check_pin("１２３ ４５６") is not None  # in groups, full-width space too
        assert table.check_pin("１２３４５７") is None  # a wrong PIN stays wrong
        assert table.check_pin("١٢٣٤٥٦") is None  # Arabic-Indic digits are not NFKC digits: refused
        table.new_game("doubt", ["Аня", "Борис"])
        code = table.seat_codes()[1]
        wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in code)
        assert wide != code and table.join(wide)[0] == 1
    finally:
        table.close()


def test_the_login_form_takes_a_full_width_pin(fast_dir):
    table = Table(fast_dir, pin=PIN)
    app = create_app(table, testing=True)
    try:
        c = app.test_client()
        token = re.search(rb'name="csrf_token" value="([^"]+)"', c.get("/operator").data).group(1).decode()
        r = c.post("/operator/login", data={"pin": WIDE, "csrf_token": token})
        assert r.status_code == 302 and r.headers["Location"].endswith("/operator"), r.data[-500:]
        assert c.get("/api/operator/state").status_code == 200
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()
