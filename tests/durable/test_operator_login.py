"""The operator's login survives a restart of the same table, like the seat logins; it ends when
the PIN changes, and the login page then says why. The PIN is kept in the data folder (made once,
mode 0600) unless one is given. Real Flask app, real Table, a real data folder; a restart is a new
Table and app on the same folder with the browser's cookie carried over."""

from __future__ import annotations

import stat
from dataclasses import replace

import pytest

from companion.cli import build_parser
from companion.dashboard import create_app
from companion.settings import Settings
from companion.table import PIN_FILE, SECRET_FILE, Table
from tests.dashboard.helpers import operator_client, seat_client
from tests.durable.kills import drop
from companion.i18n import M, render
from companion.dashboard.security import LOGIN_LOST
from markupsafe import escape

SEATS = ["Аня", "Борис", "Вика"]


def _restart(folder, client, **table_kwargs):
    """A new Table and app on ``folder``, and a client carrying ``client``'s session cookie."""
    table = Table(folder, **table_kwargs)
    app = create_app(table, testing=True)
    again = app.test_client()
    cookie = client.get_cookie("session")
    if cookie is not None:
        again.set_cookie("session", cookie.value)
    return table, app, again


def test_the_pin_is_made_once_and_kept_in_the_data_folder(tmp_path):
    first = Table(tmp_path)
    pin = first.pin
    first.close()
    path = tmp_path / PIN_FILE
    assert path.read_text(encoding="ascii") == pin + "\n" and len(pin) == 6 and pin.isdigit()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # the bug: a new PIN at every start (073811, then 899709 with the same data folder)
    for _ in range(3):
        again = Table(tmp_path)
        assert again.pin == pin and again.pin_file == path and again.notices == []
        again.close()
    # --pin wins for that run and leaves the kept PIN alone
    given = Table(tmp_path, pin="471108")
    assert given.pin == "471108" and given.pin_file is None
    given.close()
    assert Table(tmp_path).pin == pin
    # an operator's own PIN written into the file
    path.write_text("2468013\n", encoding="ascii")
    assert Table(tmp_path).pin == "2468013"
    # a PIN an older version took (4 digits) is too short now: a new one, said in one line
    path.write_text("2468\n", encoding="ascii")
    short = Table(tmp_path)
    assert len(short.pin) == 6 and short.pin != "2468" and path.read_text(encoding="ascii").strip() == short.pin
    assert len(short.notices) == 1 and "4 digits" in str(short.notices[0]) and "4 цифр" in short.notices[0].ru
    # --new-pin, or deleting the file, makes a new one
    renewed = Table(tmp_path, new_pin=True)
    assert renewed.pin != short.pin and path.read_text(encoding="ascii").strip() == renewed.pin
    assert len(renewed.notices) == 1 and "--new-pin" in str(renewed.notices[0])
    path.unlink()
    fresh = Table(tmp_path)
    assert fresh.pin != renewed.pin and path.read_text(encoding="ascii").strip() == fresh.pin
    # a damaged file: a new PIN, said in one line
    path.write_bytes(b"")
    damaged = Table(tmp_path)
    assert damaged.pin.isdigit() and len(damaged.notices) == 1 and PIN_FILE in str(damaged.notices[0])
    with pytest.raises(ValueError, match="not both"):
        Table(tmp_path, pin="123456", new_pin=True)



@pytest.mark.parametrize("kept,ru,en", [
    ("7", "ПИН из 1 цифры,", "held a PIN of 1 digit,"),
    ("24", "ПИН из 2 цифр,", "held a PIN of 2 digits,"),
    ("2468", "ПИН из 4 цифр,", "held a PIN of 4 digits,"),
    ("24680", "ПИН из 5 цифр,", "held a PIN of 5 digits,"),
])
def test_a_too_short_kept_pin_is_counted_in_agreement(tmp_path, kept, ru, en):
    """The notice of a kept PIN too short for now says its digits as its number wants: «из 1
    цифры» (the bug: «из 1 цифр»), «из 2 цифр», «из 5 цифр»; "of 1 digit", "of 4 digits"."""
    path = tmp_path / PIN_FILE
    path.write_text(kept + "\n", encoding="ascii")
    table = Table(tmp_path)
    try:
        assert table.pin != kept and len(table.notices) == 1
        notice = table.notices[0]
        assert notice.ru == (f"в {path} {ru} а теперь нужно не меньше 6: сделан новый ПИН оператора"), notice.ru
        assert notice.en == (f"{path} {en} fewer than the 6 a PIN needs now: a new operator PIN was made"), notice.en
    finally:
        table.close()
    # the forms a count of more digits would take, as the catalogue has them («из 21 цифры»)
    for n, form in ((11, "из 11 цифр,"), (21, "из 21 цифры,"), (22, "из 22 цифр,"), (25, "из 25 цифр,")):
        assert form in render(replace(notice.message, facts={**notice.message.facts, "n": n}), "ru")

def test_settings_leave_the_pin_to_the_data_folder(tmp_path):
    assert Settings().pin == ""  # `companion run` without --pin: the kept PIN
    args = build_parser().parse_args(["run", "--new-pin", "--resume", "x.sqlite"])
    assert args.new_pin and args.resume == "x.sqlite"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--pin", "123456", "--new-pin"])
    with pytest.raises(SystemExit):
        build_parser().parse_args(["dashboard", "--new", "--resume", "x.sqlite"])


def test_operator_and_seat_logins_survive_a_restart(tmp_path):
    table = Table(tmp_path)
    table.new_game("skull", SEATS, None)
    app = create_app(table, testing=True)
    op, _csrf = operator_client(app, table)
    phone, _ = seat_client(app, table, 1)
    assert op.get("/api/operator/state").status_code == 200
    drop(table)  # killed: nothing closed
    del table, app
    table, app, op2 = _restart(tmp_path, op)
    try:
        # the bug: 403 here, and the console page fell back to the bare PIN form
        assert op2.get("/api/operator/state").status_code == 200
        page = op2.get("/operator")
        assert page.status_code == 200 and b'id="new-game"' in page.data and b"login-lost" not in page.data
        _t, _a, phone2 = _restart(tmp_path, phone)
        assert phone2.get("/api/seat/state").status_code == 200
        _t.close()
    finally:
        table.close()


def test_a_new_pin_ends_the_login_and_the_page_says_why(tmp_path):
    table = Table(tmp_path)
    app = create_app(table, testing=True)
    op, _csrf = operator_client(app, table)
    old_pin = table.pin
    table.close()
    table, app, op2 = _restart(tmp_path, op, new_pin=True)
    try:
        assert table.pin != old_pin
        assert op2.get("/api/operator/state").status_code == 403
        page = op2.get("/operator")
        text = page.data.decode()
        lost = str(escape(render(M(LOGIN_LOST["pin"]), "ru")))
        assert 'id="login-lost"' in text and lost in text, text
        assert 'name="pin"' in text  # the form to log in again is there
        en = op2.get("/lang/en?next=/operator", follow_redirects=True).data.decode()
        assert "The operator PIN has changed" in en
        # logging in with the new PIN works, and the sentence is gone
        op3, _ = operator_client(app, table)
        assert op3.get("/api/operator/state").status_code == 200
        # --pin given for one run is a PIN change too
        _t, _a, op4 = _restart(tmp_path, op3, pin="975310")
        assert op4.get("/api/operator/state").status_code == 403
        assert lost in op4.get("/operator").data.decode()
        _t.close()
    finally:
        table.close()


def test_a_new_secret_key_says_why_the_login_ended(tmp_path):
    table = Table(tmp_path)
    app = create_app(table, testing=True)
    op, _csrf = operator_client(app, table)
    table.close()
    (tmp_path / SECRET_FILE).write_bytes(b"")  # damaged: a new key is made
    table, app, op2 = _restart(tmp_path, op)
    try:
        assert op2.get("/api/operator/state").status_code == 403
        text = op2.get("/operator").data.decode()
        assert 'id="login-lost"' in text and "secret.key" in text
        # a browser that never logged in sees the plain form
        assert "login-lost" not in app.test_client().get("/operator").data.decode()
    finally:
        table.close()


def test_forged_or_malformed_operator_tokens_are_refused(tmp_path):
    table = Table(tmp_path, pin="123456")
    token = table.check_pin("123456")
    version, nonce, issued, mac = token.split(".")
    assert table.is_operator(token)
    flipped = mac[:-1] + ("1" if mac[-1] == "0" else "0")
    for bad in (None, "", "x", f"{nonce}.", f".{mac}", f"{nonce}.{mac}", f"o1.{nonce}.{issued}.{flipped}",
                f"o1.{nonce}x.{issued}.{mac}", f"o1.{nonce}.{int(issued) + 1}.{mac}", f"{token}.x",
                f"o2.{nonce}.{issued}.{mac}", "ü.ü.ü.ü", 12):
        assert not table.is_operator(bad), bad
    other = Table(tmp_path / "other", pin="123456")  # another table (its own secret.key)
    assert not other.is_operator(token)
    table.close()
    other.close()
