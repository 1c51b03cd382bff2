"""Who plays each seat, on the pages (companion.table.control): the snapshot and the ``control``
event carry it in words; a phone joining a seat the bots play takes it over; a phone on a seat
the operator handed (back) to the bots is refused — its taps would play alongside them; the
operator's move field sends what was typed with the seat (``{"action", "seat"}``).

Real code path: the Flask app and the stream hub over a :class:`companion.table.Table`."""

from __future__ import annotations

from tests.dashboard.helpers import operator_client, seat_client


def _bots(table):
    table.bots, table.bots_playing = True, lambda: True  # as the simulated table's service sets them


def test_the_snapshot_says_who_plays_each_seat_and_a_phone_takes_a_bots_seat(counting_env):
    table, app = counting_env
    _bots(table)
    hub = app.extensions["companion"]["hub"]
    assert [s["by"] for s in hub.snapshot(0)["control"]["seats"]] == ["bots", "bots"]
    phone, csrf = seat_client(app, table, 1)
    control = hub.snapshot(1)["control"]
    assert [s["by"] for s in control["seats"]] == ["bots", "phone"]
    assert control["seats"][1]["words"] == {"ru": "играет телефон игрока (место взято у ботов)",
                                            "en": "its phone plays it (taken over from the bots)"}
    # its own move is taken (the bots leave the seat to it)
    r = phone.post("/api/seat/action", json={"action": "1 add 1"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code in (200, 409) and r.get_json()["reason"] != "bots_play_seat", r.get_json()


def test_a_phone_on_a_seat_handed_back_to_the_bots_is_refused_in_words(counting_env):
    table, app = counting_env
    _bots(table)
    phone, csrf = seat_client(app, table, 0)
    op, op_csrf = operator_client(app, table)
    r = op.post("/api/operator/action", json={"action": "bot", "seat": 1}, headers={"X-CSRF-Token": op_csrf})
    assert r.status_code == 200 and r.get_json()["accepted"], r.get_json()
    assert table.played_by(0) == "bots"
    r = phone.post("/api/seat/action", json={"action": "0 add 1"}, headers={"X-CSRF-Token": csrf})
    body = r.get_json()
    assert r.status_code == 409 and body["reason"] == "bots_play_seat", body
    assert "боты" in body["message"] and "коду" in body["message"], body["message"]
    assert table.referee.version == 0  # nothing played alongside the bots


def test_the_operators_move_field_sends_the_move_with_its_seat(counting_env):
    table, app = counting_env
    _bots(table)
    op, csrf = operator_client(app, table)
    h = {"X-CSRF-Token": csrf}
    assert op.post("/api/operator/action", json={"action": "table console 1", "seat": 2}, headers=h).get_json()["accepted"]
    assert table.seat_control() == {0: "console"}
    r = op.post("/api/operator/action", json={"action": "add 2", "seat": 1}, headers=h)
    assert r.status_code == 200 and r.get_json()["action"] == "0 add 2", r.get_json()
    r = op.post("/api/operator/action", json={"action": "bot", "seat": True}, headers=h)
    assert r.status_code == 400
    page = op.get("/operator").get_data(as_text=True)
    assert "data-seat-op=\"bot\"" in page and "Отдать ботам" in page


def test_a_table_without_bots_has_no_hand_back_button(counting_env):
    table, app = counting_env
    op, _csrf = operator_client(app, table)
    assert "data-seat-op=\"bot\"" not in op.get("/operator").get_data(as_text=True)


def test_a_phone_that_plays_a_seat_the_console_took_takes_it_back(counting_env):
    """A seat taken onto the console whose player acts from the phone again is the player's once
    more: the pages stop saying «играет оператор с пульта» beside the phone's own move."""
    table, app = counting_env
    op, csrf = operator_client(app, table)
    assert op.post("/api/operator/action", json={"action": "console", "seat": 2},
                   headers={"X-CSRF-Token": csrf}).get_json()["accepted"]
    assert table.seat_control() == {1: "console"} and table.played_by(1) == "console"
    phone, pcsrf = seat_client(app, table, 1)
    r = phone.post("/api/seat/action", json={"action": "1 add 1"}, headers={"X-CSRF-Token": pcsrf})
    assert r.status_code in (200, 409) and r.get_json()["reason"] not in ("bots_play_seat",), r.get_json()
    assert table.seat_control() == {} and table.played_by(1) != "console"
    hub = app.extensions["companion"]["hub"]
    assert hub.snapshot(1)["control"]["seats"][1]["by"] != "console"
