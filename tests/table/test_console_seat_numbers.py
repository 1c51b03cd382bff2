"""The operator's seat directives count seats from 1, as every screen does («Место 1» is
``table console 1``), in what they take and in what they say; a ``table as N …`` for a seat not
on the console says in the operator's language why and how to take it (#23, tester's items 2, 3).

Real code path: a real :class:`~companion.table.Table` and the operator page's action box
(``POST /api/operator/action``), the refusal's words from the message catalogue.
"""

from __future__ import annotations

from companion.dashboard.reasons import REASONS, facts_words
from companion.i18n import render
from companion.table import Table
from tests.dashboard.helpers import operator_client

SEATS = ["Аня", "Борис", "Вика"]


def test_seat_numbers_on_the_console_count_from_one(tmp_path):
    table = Table(tmp_path)
    try:
        table.new_game("doubt", SEATS)
        assert table.submit("table console 1", "operator").accepted
        assert table.seat_control() == {0: "console"}  # Место 1 is the engine's seat 0
        assert table.submit("table console 3", "operator").accepted
        assert table.seat_control() == {0: "console", 2: "console"}
        for bad in ("0", "4"):
            out = table.submit(f"table console {bad}", "operator")
            assert not out.accepted and out.reason == "unknown_seat", out
            assert "seats 1-3" in out.detail and out.facts["seats"] == 3
        seat = table.referee.game.current_seats()[0]
        table.hand_seat(seat, "console")
        move = table.views()[3][seat][0]
        out = table.submit(f"table as {seat + 1} {move.split(' ', 1)[1]}", "operator")
        assert out.accepted, out
        assert table.referee.log.records()[-1].action == move  # the log keeps the engine's numbering
    finally:
        table.close()


def test_a_seat_not_on_the_console_is_refused_with_the_way_to_take_it(tmp_path):
    from companion.dashboard import create_app

    table = Table(tmp_path, pin="314159")
    try:
        table.new_game("doubt", SEATS)
        out = table.submit("table as 2 believe", "operator")
        assert out.reason == "seat_not_on_console"
        assert out.facts == {"seat": 2, "player": "Борис"}  # the seat as people count it
        msg = facts_words(out.reason, out.facts)
        assert msg is not None and msg.id != REASONS["seat_not_on_console"]
        ru, en = render(msg, "ru"), render(msg, "en")
        assert ru != en and "Борис" in ru and "table console 2" in ru and "table console 2" in en
        assert "Запись не принята" not in ru
        # on the operator page: the refusal's message is that sentence, in the page's language
        app = create_app(table, testing=True)
        client, csrf = operator_client(app, table)
        r = client.post("/api/operator/action", json={"action": "table as 2 believe"},
                        headers={"X-CSRF-Token": csrf})
        assert r.status_code == 409
        body = r.get_json()
        assert body["reason"] == "seat_not_on_console" and body["message"] == ru, body
        r = client.post("/api/operator/action", json={"action": "table console 7"}, headers={"X-CSRF-Token": csrf})
        body = r.get_json()
        assert body["reason"] == "unknown_seat" and "1" in body["message"] and "3" in body["message"], body
    finally:
        table.close()
