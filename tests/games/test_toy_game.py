"""A game is one package: the toy Nim (``tests/games/nim/``), registered from its package alone,
is played by its bots, served by the dashboard (new-game form, seat page, history, refusals, its
own board script drawing its table on the public page) and run by the console (``companion run
--sim --game nim``) with no other file touched (docs/architecture.md, "Adding a game")."""

from __future__ import annotations

import json
import os
import re

import pytest

from companion.games import registry
from companion.games.simulator import play_random_game
from companion.games.base import Event
from companion.i18n import M, render

from tests.browser import CHROMIUM, open_details
from tests.dashboard.helpers import boot_of, operator_client, seat_client, wait_version
from tests.games.nim import SPEC


@pytest.fixture
def nim():
    registry.register(SPEC)
    yield SPEC
    registry.unregister("nim")


def test_the_bots_play_it_to_the_end(nim):
    game, actions = play_random_game("nim", 3, {"pile": 12}, seed=4)
    assert game.is_over() and game.result()["winner"] == int(actions[-1][0].split()[0])
    assert sum(int(text.split()[2]) for text, _ in actions) == 12
    assert {source for _, source in actions} == {"button"}


def test_the_dashboard_serves_it(nim, fast_dir):
    from companion.dashboard import create_app
    from companion.table import Table

    table = Table(fast_dir, pin="246810")
    app = create_app(table, testing=True)
    hub = app.extensions["companion"]["hub"]
    try:
        op, csrf = operator_client(app, table)
        form = op.get("/operator").get_data(as_text=True)
        assert 'value="nim"' in form and "Nim" in form  # offered on the new-game form by its title
        # its options under its own labels, and named by them when the form is refused
        assert "Фишек в куче" in form and "Больше всего за ход" in form
        r = op.post("/operator/new", data={"game": "nim", "seats": "Аня, Борис", "csrf_token": csrf,
                                           "opt_nim_pile": "много"})
        assert r.status_code == 400
        assert render(M("«%(option)s» must be %(kind)s.", option="Фишек в куче", kind=M("a whole number")),
                      "ru") in r.get_data(as_text=True)
        r = op.post("/operator/new", data={"game": "nim", "seats": "Аня, Борис", "csrf_token": csrf,
                                           "opt_nim_pile": "5", "opt_nim_most": "2"})
        assert r.status_code == 302, r.get_data(as_text=True)
        assert table.game_info()["id"] == "nim"
        seat, seat_csrf = seat_client(app, table, 0)
        boot = boot_of(seat.get("/seat").data)
        model = boot["snapshot"]["model"]
        assert [a["text"] for a in model["actions"]] == ["0 take 1", "0 take 2"]
        assert model["schema"]["verbs"]["take"] == [
            {"name": "count", "kind": "count", "type": "int", "many": False, "optional": False}]
        assert boot["words"]["game_nim"] == "Nim"
        # its page words: «Куча» for its pile, its own beside doubt's «Стопка» for the same view key
        assert boot["words"]["nim:pile"] == "Куча" and boot["words"]["pile"] == render(M("Pile"), "ru")
        assert boot["words"]["opt_most"] == "Больше всего за ход"
        j = seat.post("/api/seat/action", json={"action": "0 take 2"}, headers={"X-CSRF-Token": seat_csrf}).json
        took = SPEC.presenter.event(Event("took", {"seat": 0, "count": 2, "pile": 3}), ["Аня", "Борис"])
        assert j["accepted"] and j["told"] == [took["ru"]]  # the game's own words, in the page's language
        j = seat.post("/api/seat/action", json={"action": "0 take 1"}, headers={"X-CSRF-Token": seat_csrf}).json
        assert not j["accepted"] and j["reason"] == "not_your_turn" and j["message"] == render(M("%(player)s must act now.", player="Борис"), "ru")
        wait_version(hub, 1)
        public = op.get("/api/state").json["model"]
        assert public["history"][-1]["items"][0]["text"] == took
        assert public["view"]["pile"] == 3
    finally:
        hub.close()
        table.close()


@pytest.mark.ui
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no {CHROMIUM}")
@pytest.mark.parametrize("lang, pile, most", [("ru", "Куча", "Больше всего за ход"),
                                              ("en", "Heap", "Most chips in one take")])
def test_the_page_draws_its_own_board_in_its_words(nim, fast_dir, browser, lang, pile, most):
    """In a real browser: the public page loads the board script Nim's package ships
    (``SPEC.board_script``, served at ``/games/nim/board.js``) and draws the heap with it, named
    with the word the game declared (``SPEC.page_words``, not doubt's «Стопка» for the same key),
    live as the game moves; the option in the view's house rules, which the board does not draw,
    stays under «Подробнее» with its label (``SPEC.option_labels``)."""
    from companion.dashboard import DashboardServer
    from companion.table import Table

    table = Table(fast_dir, pin="246810")
    table.new_game("nim", ["Аня", "Борис"], {"pile": 5, "most": 2})
    srv = DashboardServer(table, port=0).start()
    try:
        ctx = browser.new_context()
        ctx.add_cookies([{"name": "lang", "value": lang, "url": srv.url}])
        page = ctx.new_page()
        scripts = []
        page.on("response", lambda r: scripts.append((r.url, r.status)) if "/games/" in r.url else None)
        page.goto(srv.url + "/")
        heap = page.locator(".board-nim .nim-heap .chips")
        heap.wait_for()
        assert scripts == [(srv.url + "/games/nim/board.js", 200)]
        assert page.locator(".board-generic").count() == 0
        assert heap.locator("small").inner_text() == pile and heap.locator("b").inner_text() == "5"
        seats = page.locator(".board-nim .rseat")
        assert seats.count() == 2 and "turn" in (seats.nth(0).get_attribute("class") or "")
        assert table.submit("0 take 2", "dashboard").accepted
        page.wait_for_function("() => document.querySelector('.board-nim .nim-heap .chips b').textContent === '3'")
        assert "turn" in (seats.nth(1).get_attribute("class") or "")
        open_details(page)
        details = page.locator("details.info").inner_text()
        assert f"{most}\n2" in details, details  # the option's name above its value
        assert pile not in details  # the heap is the board's
        assert render(M("Pile"), lang) not in page.locator("#app").inner_text()
        ctx.close()
    finally:
        srv.stop()
        table.close()


def _run(argv: list[str]) -> int:
    """``companion run`` in this process (its ``_main``: ``main`` leaves the process with
    ``os._exit`` when a thread is still alive at the end, which here would end pytest)."""
    from companion.cli import build_parser
    from companion.commands import run

    return run._main(build_parser().parse_args(argv))


def test_the_console_runs_it(nim, tmp_path, capsys):
    code = _run(["run", "--sim", "--game", "nim", "--seed", "3", "--json", "--data-dir", str(tmp_path),
                 "--option", "pile=7", "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["game"] == "nim" and summary["over"] is True
    assert sum(summary["result"]["taken"]) == 7
    # watched: the console tells each take in the game's own words, then the winner
    code = _run(["run", "--sim", "--game", "nim", "--seed", "3", "--until-end", "--new", "--port", "0",
                 "--pace-ms", "0", "--data-dir", str(tmp_path), "--option", "pile=7", "--lang", "en"])
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = [line.split("] ", 1)[1] for line in out.splitlines() if line.startswith("[")]
    takes = [line for line in lines if " takes " in line]
    assert takes and takes[-1].endswith(", 0 left") and lines[-2].startswith("Winner: ")
    assert "0 camera reads" in lines[-1]
    assert re.match(r"simulated game: \d+\.\d s in this run;", lines[-1]) and "(0.0 %)" in lines[-1], lines[-1]
    # in Russian the run's figures have the Russian decimal sign: «имитация: 0,4 с …, повторов 0 (0,0 %)»
    code = _run(["run", "--sim", "--game", "nim", "--seed", "3", "--until-end", "--new", "--port", "0",
                 "--pace-ms", "0", "--data-dir", str(tmp_path), "--option", "pile=7", "--lang", "ru"])
    out, err = capsys.readouterr()
    assert code == 0, err
    last = [line.split("] ", 1)[1] for line in out.splitlines() if line.startswith("[")][-1]
    assert re.match(r"имитация: \d+,\d с в этом запуске,", last) and "(0,0 %)" in last, last
