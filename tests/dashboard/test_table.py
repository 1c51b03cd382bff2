"""The Table session: games, resume, access codes, side channels, fan-out."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.table import NoGame, Table


def test_new_game_submit_undo_and_fanout(tmp_path, counting):
    table = Table(tmp_path, pin="123456")
    seen = []
    table.subscribe(lambda kind, payload: seen.append((kind, payload)))
    with pytest.raises(NoGame):
        table.submit("0 add 1", "button")
    table.new_game("counting", ["Аня", "Борис"], {"limit": 5})
    assert seen[-1] == ("game", None)
    out = table.submit("0 add 2", "button")
    assert out.accepted
    kind, update = seen[-1]
    assert kind == "action" and update.version == 1 and update.views[None] == {"total": 2}
    assert update.legal[1] == ["1 add 1", "1 add 2", "1 add 3"] and update.legal[0] == []
    assert table.submit_for_seat(0, "1 add 1").reason == "not_your_seat"
    assert table.submit_for_seat(0, "table add 1").reason == "not_your_seat"
    assert table.submit_for_seat(0, "add 1").reason == "bad_syntax"  # no actor: not understood
    assert table.submit_for_seat(1, "1 add 1").accepted
    assert table.undo().accepted and table.referee.game.total == 2
    assert table.manual_entry("1 add 3").accepted
    assert [r.source for r in table.referee.log.records()][-1] == "manual"
    # a bad form leaves the running game alone
    with pytest.raises(IllegalAction):
        table.new_game("counting", ["Solo"])
    assert table.referee.game.total == 5
    table.close()


def test_resume_keeps_game_and_seat_tokens(tmp_path, counting):
    table = Table(tmp_path, pin="111111")
    table.new_game("counting", ["A", "B", "C"], {"limit": 20})
    codes = table.seat_codes()
    assert len(set(codes.values())) == 3 and all(len(c) == 6 for c in codes.values())
    assert table.join("000") is None and table.join(None) is None
    seat, token = table.join(codes[2])
    assert seat == 2 and table.seat_for_token(token) == 2
    table.submit("0 add 3", "button")
    table.close()
    again = Table(tmp_path)
    assert again.referee is not None and again.referee.game.total == 3
    assert again.seat_for_token(token) == 2 and again.seat_codes() == codes
    assert again.pin != "" and again.check_pin("111111") is None
    again.end_game()
    assert again.referee is None
    with pytest.raises(NoGame):
        again.end_game()
    again.close()
    assert Table(tmp_path).referee is None  # an ended game is not resumed


def test_pin_status_pending_prompts(tmp_path, counting):
    table = Table(tmp_path, pin="424242")
    seen = []
    table.subscribe(lambda kind, payload: seen.append(kind))
    assert table.check_pin("000000") is None
    tok = table.check_pin("424242")
    assert table.is_operator(tok) and not table.is_operator("x") and not table.is_operator(None)
    table.set_status("camera", {"state": "ok", "detail": "sim"})
    assert table.status()["camera"]["state"] == "ok" and table.status()["buttons"]["state"] == "absent"
    with pytest.raises(ValueError):
        table.set_status("camera", {"detail": "no state"})
    with pytest.raises(ValueError):
        table.set_pending(0, 3)  # no game: no seats
    table.new_game("counting", ["A", "B"])
    table.set_pending(1, 3)
    assert table.pending() == {1: 3}
    table.submit("0 add 1", "button")
    assert table.pending() == {}
    pid = table.add_prompt("Покажите записки игрока 2", seat=1)
    assert table.prompts()[0]["seat"] == 1
    assert table.clear_prompt(pid) and not table.clear_prompt(pid)
    with pytest.raises(ValueError):
        table.add_prompt("", kind="scan")
    assert {"status", "pending", "prompts", "action", "game"} <= set(seen)
    table.close()


def test_bad_pin_argument(tmp_path):
    with pytest.raises(ValueError):
        Table(tmp_path, pin="12ab")


def _play_a_whole_lottery(table) -> None:
    """A new four-seat lottery at ``table``, played to its end by the simulated table's bots."""
    from companion.games.simulator import get_sim_class

    table.new_game("lottery", ["Аня", "Борис", "Вика", "Гена"])
    sim = get_sim_class("lottery")(table.referee.game, 3)
    while not table.referee.game.is_over():
        text, source = sim.next_action()
        assert table.submit(text, source).accepted
        sim.applied(text)


def test_last_result_carries_a_finished_game_into_the_next(tmp_path):
    """The lottery's box carries over (RULINGS §5): the table finds the newest finished lottery's
    result — the current game when it is over, else an older table log — and nothing for a game
    that never finished."""
    table = Table(tmp_path, pin="246802")
    try:
        assert table.last_result("lottery") is None
        _play_a_whole_lottery(table)
        box = table.referee.game.result()["box"]
        assert table.last_result("lottery")["box"] == box  # the current game, over
        table.new_game("lottery", ["Аня", "Борис", "Вика", "Гена"], {"box": box})
        assert table.last_result("lottery")["box"] == box  # now from the older log
        assert table.last_result("skull") is None
    finally:
        table.close()


def test_the_console_offers_the_carried_box(tmp_path):
    """After a lottery ends, the console's «Начать другую игру» form offers the box it left as
    «касса в начале» (RULINGS §5: the box carries over), not 0."""
    import re

    from companion.dashboard import create_app
    from tests.dashboard.helpers import operator_client

    table = Table(tmp_path, pin="246802")
    app = create_app(table, testing=True)
    try:
        _play_a_whole_lottery(table)
        box = table.referee.game.result()["box"]
        assert box > 0
        c, _csrf = operator_client(app, table)
        page = c.get("/operator").get_data(as_text=True)
        m = re.search(r'name="opt_lottery_box"[^>]*value="(\d+)"', page) or re.search(
            r'value="(\d+)"[^>]*name="opt_lottery_box"', page)
        assert m and int(m.group(1)) == box, page[page.find("opt_lottery_box") - 200:page.find("opt_lottery_box") + 200]
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()


def test_a_seat_declares_its_play_but_does_not_set_the_face(tmp_path):
    """In the trick game a seat declares its play (``0 play ?``); the card's face is the camera's
    or the operator's to give. A phone or pad that sends ``0 play 500`` is refused with
    ``read_by_table`` and nothing changes; the declaration itself is accepted."""
    from companion.games.simulator import get_sim_class

    table = Table(tmp_path, pin="246802")
    try:
        table.new_game("infinity", ["Аня", "Борис", "Вика"])
        sim = get_sim_class("infinity")(table.referee.game, 3)
        game = table.referee.game
        while not (game.s["phase"] == "play" and game.current_seats()):
            text, source = sim.next_action()
            assert table.submit(text, source).accepted
            sim.applied(text)
        seat = game.current_seats()[0]
        v0 = table.referee.version
        out = table.submit_for_seat(seat, f"{seat} play 500")
        assert not out.accepted and out.reason == "read_by_table" and "card" in out.detail
        assert table.referee.version == v0
        assert table.submit_for_seat(seat, f"{seat} play ?").accepted  # the declaration
        assert table.submit("table face 500", "manual").reason != "read_by_table"  # the table gives faces
    finally:
        table.close()


def test_a_seats_own_decisions_are_never_taken_for_observations(tmp_path):
    """Every legal seat action of whole simulated games passes the seat channel's face check
    (the lottery's card plays name their cards: a decision, not a face to read)."""
    from companion.games.simulator import get_sim_class

    table = Table(tmp_path, pin="246802")
    try:
        for gid, names in (("lottery", ["Аня", "Борис", "Вика", "Гена"]), ("doubt", ["Аня", "Борис", "Вика"]),
                           ("hoggenheimer", ["Аня", "Борис", "Вика"])):
            table.new_game(gid, names)
            game = table.referee.game
            sim = get_sim_class(gid)(game, 5)
            for _ in range(400):
                if game.is_over():
                    break
                for seat in range(len(names)):
                    for a in game.legal_actions(seat):
                        text = a.text()
                        if "?" not in text:
                            assert Table._observed_by_seat(table.referee, seat, text) is None, (gid, text)
                text, source = sim.next_action()
                assert table.submit(text, source).accepted
                sim.applied(text)
    finally:
        table.close()


def test_a_new_lottery_from_the_command_line_carries_the_box(tmp_path):
    """``companion run --game lottery --new`` after a finished lottery started with ``box: 0``
    (only the console's form carried it; a second fresh user): the service carries it too, and
    the console is told."""
    from companion.service import TableService, choose_backends
    from companion.settings import Settings

    table = Table(tmp_path, pin="246802")
    try:
        _play_a_whole_lottery(table)
        box = table.referee.game.result()["box"]
    finally:
        table.close()
    assert box > 0
    s = Settings(game="lottery", seats=["Аня", "Борис", "Вика", "Гена"], sim=False, data_dir=tmp_path,
                 host="127.0.0.1", port=0)
    svc = TableService(s, choose_backends(s), dashboard=False, new=True).start()
    try:
        assert svc.table.referee.game.options.box == box
        assert any(str(box) in n.words("ru") and "касса" in n.words("ru") for n in svc.table.notices)
    finally:
        svc.stop()
