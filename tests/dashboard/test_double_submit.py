"""One tap, one effect: a double tap or two operators at once never change the game twice
(found by a first-time user: a double-tapped «Отменить» undid two players' placements, a
double-tapped bet placed two bets). Every request goes through the real Flask app, the real
table and referee, and the real SQLite table log."""

from __future__ import annotations

import threading

import pytest

from companion.dashboard import create_app
from companion.table import Table
from tests.dashboard.helpers import operator_client, seat_client
from companion.i18n import M, render

A = "АК2444842,АК2444844,АК2444846,АК2444841"
B = "ВЕ1000002,ВЕ1000004,ВЕ1000006,ВЕ1000001"
C = "ЕК3000002,ЕК3000004,ЕК3000006,ЕК3000001"


@pytest.fixture
def skull(fast_dir):
    """A skull table in stage 1 (notes registered, dealer chosen), its app, and a client per
    seat and the operator."""
    table = Table(fast_dir, pin="246802")
    table.new_game("skull", ["Аня", "Борис", "Вика"])
    for line in (f"table register 0 {A} ?", f"table register 1 {B} ?", f"table register 2 {C} ?",
                 "table dealer 0"):
        assert table.submit(line, "manual").accepted, line
    app = create_app(table, testing=True)
    try:
        yield table, app
    finally:
        table.close()


def _post(client, csrf, url, body):
    r = client.post(url, json=body, headers={"X-CSRF-Token": csrf})
    return r.status_code, r.get_json()


def _log(table) -> list[str]:
    return [r.action for r in table.referee.log.records()]


def test_a_double_tapped_undo_undoes_one_action(skull):
    table, app = skull
    seats = [seat_client(app, table, s) for s in range(3)]
    for s, (c, csrf) in enumerate(seats):
        assert _post(c, csrf, "/api/seat/action", {"action": f"{s} place", "seen": table.referee.version})[0] == 200
    seen = table.referee.version
    op, csrf = operator_client(app, table)
    first = _post(op, csrf, "/api/operator/undo", {"seen": seen})
    second = _post(op, csrf, "/api/operator/undo", {"seen": seen})
    assert first[0] == 200 and first[1]["accepted"]
    # the answer names what was taken back (to the operator only)
    assert first[1]["detail"] == "2 place"
    assert second[0] == 409 and second[1]["reason"] == "stale"
    assert "изменился" in second[1]["message"]
    assert _log(table)[-3:] == ["1 place", "2 place", "table undo"]
    # with the page's new version the operator can undo again
    assert _post(op, csrf, "/api/operator/undo", {"seen": table.referee.version})[1]["accepted"]


def test_two_operators_undoing_at_once_undo_one_action(skull):
    table, app = skull
    for s in range(3):
        assert table.submit(f"{s} place", "dashboard").accepted
    seen = table.referee.version
    ops = [operator_client(app, table) for _ in range(2)]
    results = [None, None]
    go = threading.Barrier(2)

    def press(k):
        c, csrf = ops[k]
        go.wait()
        results[k] = _post(c, csrf, "/api/operator/undo", {"seen": seen})

    threads = [threading.Thread(target=press, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(code for code, _ in results) == [200, 409], results
    assert _log(table).count("table undo") == 1


def test_a_double_tapped_seat_action_counts_once(skull):
    table, app = skull
    c, csrf = seat_client(app, table, 1)
    seen = table.referee.version
    first = _post(c, csrf, "/api/seat/action", {"action": "1 place", "seen": seen})
    second = _post(c, csrf, "/api/seat/action", {"action": "1 place", "seen": seen})
    assert first[0] == 200
    # the second tap is told as a repeat, not as a refusal of the move the player made
    assert second[0] == 409 and second[1]["reason"] == "repeated"
    assert second[1]["message"] == render(M("Already accepted: this press repeated the one before it."), "ru")
    assert _log(table).count("1 place") == 1


def test_a_double_tapped_bet_places_one_bet(fast_dir):
    """The joker game: the same bet twice in one tap pair is one bet; a second, different bet
    sent before the page updated is a bet of its own."""
    table = Table(fast_dir, pin="246802")
    try:
        table.new_game("hoggenheimer", ["Аня", "Борис", "Вика"])
        app = create_app(table, testing=True)
        c, csrf = seat_client(app, table, 1)
        with table.referee.lock:
            bets = [a.text() for a in table.referee.game.legal_actions(1) if a.text().split()[1] == "bet"]
        assert len(bets) >= 2, bets
        one, other = bets[0], bets[-1]
        seen = table.referee.version
        assert _post(c, csrf, "/api/seat/action", {"action": one, "seen": seen})[0] == 200
        code, body = _post(c, csrf, "/api/seat/action", {"action": one, "seen": seen})
        assert (code, body["reason"]) == (409, "repeated")
        assert _post(c, csrf, "/api/seat/action", {"action": other, "seen": seen})[0] == 200
        assert _log(table).count(one) == 1 and other in _log(table)
    finally:
        table.close()


def test_without_seen_the_old_behaviour_stays(skull):
    """Button pads and scripts send no version: nothing is refused for that."""
    table, app = skull
    c, csrf = seat_client(app, table, 0)
    assert _post(c, csrf, "/api/seat/action", {"action": "0 place"})[0] == 200
    op, ocsrf = operator_client(app, table)
    assert _post(op, ocsrf, "/api/operator/undo", {})[0] == 200
    assert _post(c, csrf, "/api/seat/action", {"action": "0 place"})[0] == 200
    bad = _post(c, csrf, "/api/seat/action", {"action": "1 place", "seen": "soon"})
    assert bad[0] == 400


def test_the_operator_cannot_make_a_players_decision(skull):
    table, app = skull
    op, csrf = operator_client(app, table)
    before = _log(table)
    code, body = _post(op, csrf, "/api/operator/manual", {"action": "1 place"})
    assert (code, body["reason"]) == (409, "seat_decision")
    assert "игрока" in body["message"]
    assert _log(table) == before


def test_an_unknown_prompt_is_refused_before_the_entry(skull):
    table, app = skull
    op, csrf = operator_client(app, table)
    for s in range(3):
        assert table.submit(f"{s} place", "dashboard").accepted
    before = _log(table)
    code, body = _post(op, csrf, "/api/operator/manual", {"action": "table void", "prompt": "nope"})
    assert (code, body["reason"]) == (409, "prompt_closed")
    assert _log(table) == before


def test_a_list_typed_with_spaces_after_commas_is_one_list(fast_dir):
    """``table register 0 А, Б, В, Г ?`` through the API reads as the console's typed list."""
    table = Table(fast_dir, pin="246802")
    try:
        table.new_game("skull", ["Аня", "Борис"])
        spaced = A.replace(",", ", ")
        out = table.submit(f"table register 0 {spaced} ?", "manual")
        assert out.accepted, out
        assert _log(table)[-1] == f"table register 0 {A} ?"
    finally:
        table.close()


def test_the_counting_badge_only_for_the_seat_that_may_bid(skull):
    table, app = skull
    for s in range(3):
        assert table.submit(f"{s} place", "dashboard").accepted
    # stage 2: the dealer (Аня) bids first; Вика may not count a bid, nor Аня 999
    vika, vcsrf = seat_client(app, table, 2)
    code, body = _post(vika, vcsrf, "/api/seat/pending", {"count": 3})
    assert (code, body["reason"]) == (409, "bad_pending")
    anya, acsrf = seat_client(app, table, 0)
    assert _post(anya, acsrf, "/api/seat/pending", {"count": 999})[0] == 409
    assert table.pending() == {}
    assert _post(anya, acsrf, "/api/seat/pending", {"count": 2})[0] == 200
    assert table.pending() == {0: 2}
    assert _post(vika, vcsrf, "/api/seat/pending", {"count": None})[0] == 200  # clearing is always fine
