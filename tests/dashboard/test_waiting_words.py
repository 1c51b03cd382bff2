"""A seat's phone says what the table is really waiting for (companion.dashboard.waiting): the
other players by name, or the table's own task — the operator choosing skull's first dealer, the
camera (or the operator) reading the card a player of 6100 declared — never «Ждём других
игроков» when no other player has anything to do. Checked on the page model the hub sends each
seat, then on a real phone page (headless Chromium). The words are checked as message ids with
their facts (:func:`says`), rendered in both languages through the catalogue."""

from __future__ import annotations

import pytest

from companion.dashboard import model as M
from companion.dashboard.hub import Hub
from companion.games.words import CAMERA, OPERATOR, awaiting
from companion.i18n import Message, both
from companion.i18n import M as Msg
from companion.table import Table

SKULL_SETUP = ("table register 0 АК2444842,АК2444844,АК2444846,АК2444841 ?",
               "table register 1 ВЕ1000002,ВЕ1000004,ВЕ1000006,ВЕ1000001 ?")


def says(msg: Message) -> dict:
    """``{"ru", "en"}``: ``msg`` as the page model carries it."""
    return both(msg)


@pytest.fixture
def table(fast_dir):
    t = Table(fast_dir, pin="314159")
    yield t
    t.close()


def models(table):
    """Every seat's page model, as the hub builds it."""
    hub = Hub(table)
    try:
        return {s: hub.model(s) for s in range(len(table.referee.game.seats))}
    finally:
        hub.close()


def test_skull_setup_waits_for_the_operator_to_pick_the_first_dealer(table):
    table.new_game("skull", ["Аня", "Борис"])
    # registration: the camera reads each player's notes; a phone says whose are still missing
    m = models(table)
    assert m[0]["waiting"] == says(awaiting(CAMERA, Msg("your notes are not registered yet — show them to the camera, serial up")))
    for line in SKULL_SETUP:
        assert table.submit(line, "manual").accepted
    m = models(table)
    for seat in (0, 1):
        assert m[seat]["actions"] == []
        assert m[seat]["waiting"] == says(Msg("Waiting for the operator to choose the first dealer"))
    assert "waiting" not in hub_model(table, M.PUBLIC)  # the public page has no pad


def hub_model(table, viewer):
    hub = Hub(table)
    try:
        return hub.model(viewer)
    finally:
        hub.close()


def test_infinity_declared_card_waits_for_the_camera_or_the_operator(table):
    table.new_game("infinity", ["Аня", "Борис", "Вика"])
    assert table.submit("table deal 0", "manual").accepted
    m = models(table)
    # Аня leads: her pad has the declaration; the others wait for her, by name
    assert m[0]["actions"] and "waiting" not in m[0]
    assert m[1]["waiting"] == says(Msg("Waiting for another player: %(name)s", name="Аня"))
    assert table.submit("0 play ?", "dashboard").accepted  # «Сыграть»: the face is read next
    m = models(table)
    assert m[0]["waiting"] == says(awaiting(CAMERA, Msg("your card is not read yet")))
    for seat in (1, 2):  # the others: whose card, by name; never «another player»
        assert m[seat]["waiting"] == says(awaiting(CAMERA, Msg("the card %(name)s played is not read yet", name="Аня")))


def test_other_players_are_named_and_the_table_tasks_of_each_game_are_said(table):
    from companion.dashboard.waiting import waiting_words
    from companion.games import new_game
    from companion.games.simulator import get_sim_class

    seen = {}
    names = ["Аня", "Борис", "Вика", "Гоша"]
    for gid in ("skull", "doubt", "hoggenheimer", "infinity", "lottery"):
        g = new_game(gid, names, None)
        sim = get_sim_class(gid)(g, 2)
        for _ in range(400):
            if g.is_over():
                break
            legal = {None: [a.text() for a in g.legal_actions(None)]}
            legal.update({s: [a.text() for a in g.legal_actions(s)] for s in range(4)})
            for s in range(4):
                w = waiting_words(gid, s, g.view(s), legal, names)
                if legal[s]:
                    assert w is None  # the pad shows what to do
                    continue
                assert w is not None and w != says(Msg("Waiting for other players")), (gid, g.view(None).get("phase"))
                if not any(legal[x] for x in range(4)):
                    # nobody else acts: the words are the table's, never «other players»
                    assert "игрок" not in w["ru"] and "player" not in w["en"], w
                seen.setdefault(gid, set()).add(w["en"].split(":")[0])
            text, _ = sim.next_action()
            g.apply(text)
            sim.applied(text)
    # every game has a moment the table alone is awaited
    for gid in seen:
        assert seen[gid] & {CAMERA, OPERATOR, "Your move"}, (gid, seen[gid])


def test_a_table_without_a_camera_waits_for_the_operator_alone(table):
    """A table that reads with no camera (``companion dashboard`` sets the camera ``unused``) never
    asks a phone to show its notes to a camera: the operator enters them (a new user's finding:
    «покажите их камере номером вверх» beside the chip «Камера: не используется»)."""
    from companion.dashboard.waiting import NO_CAMERA, operator_only, waiting_words
    from companion.games import new_game
    from companion.games.simulator import get_sim_class

    table.set_status("camera", {"state": "unused", "why": "dashboard_only"})
    table.new_game("skull", ["Аня", "Борис"])
    m = models(table)
    assert m[0]["waiting"] == says(awaiting(OPERATOR, Msg("your notes are not registered yet — the operator enters them")))
    assert "камер" not in m[0]["waiting"]["ru"] and "camera" not in m[0]["waiting"]["en"]
    table.set_status("camera", {"state": "error", "detail": "no camera"})  # missing, may come back: as before
    assert models(table)[0]["waiting"] == says(awaiting(CAMERA, Msg(
        "your notes are not registered yet — show them to the camera, serial up")))
    # every game's waiting words without a camera name none, whatever the table waits for
    names = ["Аня", "Борис", "Вика", "Гоша"]
    for gid in ("skull", "doubt", "hoggenheimer", "infinity", "lottery"):
        g = new_game(gid, names, None)
        sim = get_sim_class(gid)(g, 2)
        for _ in range(300):
            if g.is_over():
                break
            legal = {None: [a.text() for a in g.legal_actions(None)]}
            legal.update({s: [a.text() for a in g.legal_actions(s)] for s in range(4)})
            for s in range(4):
                w = waiting_words(gid, s, g.view(s), legal, names, camera=False)
                assert w is None or ("камер" not in w["ru"] and "camera" not in w["en"]), (gid, w)
            text, _ = sim.next_action()
            g.apply(text)
            sim.applied(text)
    assert all(operator_only(Msg(k)).id == v for k, v in NO_CAMERA.items())
