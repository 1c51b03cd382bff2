"""The club board's pages and JSON (companion.club.web) over a record made of real tables' messages
(no broker needed here: the messages go through the board's own check, Board.handle)."""

from __future__ import annotations

import json
import re

import pytest

from companion.club.board import Board
from companion.club.feed import PublicFeed
from companion.club.topics import Topics, dumps
from companion.club.web import create_app
from companion.dashboard.i18n import game_title
from companion.dashboard.security import Limiter
from companion.i18n import M, render
from companion.table import Table
from tests.club.helpers import Bots

PIN = "246810"


def feed_board(board: Board, table: Table, table_id: str) -> None:
    """Everything ``table`` would publish, through the board's check."""
    t = Topics("vecher", table_id)
    board.handle(t.of("online"), dumps({"v": 1, "table": table_id, "state": "online", "ts": "2026-01-01T20:00:00"}))
    for path in sorted((table.data_dir / "games").glob("*.sqlite")):
        feed = PublicFeed(path, table_id)
        for step in feed.poll():
            board.handle(t.of("events"), dumps(step.event))
            if step.result:
                board.handle(t.result(feed.key), dumps(step.result))
        board.handle(t.of("snapshot"), dumps(feed.snapshot()))
        feed.close()


@pytest.fixture
def app(fast_dir):
    board = Board("mqtt://board:x@127.0.0.1:1/vecher", fast_dir / "board")  # not started: no broker
    tables = []
    for tid, game, names, seed in (("t1", "skull", ["Аня", "Борис", "Вика"], 1),
                                   ("t2", "infinity", ["аня", "Гена", "Дима"], 2),
                                   ("t3", "hoggenheimer", ["Боря", "Вика", "Ёж", "Гена"], 3)):
        table = Table(fast_dir / tid, pin="123456")
        table.new_game(game, names)
        Bots(table, game, names, seed).play()
        feed_board(board, table, tid)
        tables.append(table)
    app = create_app(board, PIN, testing=True, limiter=Limiter(max_failures=3))
    yield app, board, tables
    for t in tables:
        t.close()
    board.stop()


def test_api_tables_tells_each_tables_game_players_turn_and_silence(app):
    app, board, tables = app
    data = app.test_client().get("/api/tables").get_json()
    assert [t["table"] for t in data["tables"]] == ["t1", "t2", "t3"]
    t2 = data["tables"][1]
    assert t2["game"]["id"] == "infinity" and t2["game"]["seats"] == ["аня", "Гена", "Дима"]
    assert t2["game"]["over"] is True and t2["silent"] is False and t2["seq"] == tables[1].referee.version
    board.handle(Topics("vecher", "t2").of("online"), dumps({"v": 1, "table": "t2", "state": "offline"}))
    assert app.test_client().get("/api/tables").get_json()["tables"][1]["silent"] is True


def test_api_standings_add_up_to_the_games_own_results(app):
    app, board, tables = app
    rows = {r["name"]: r for r in app.test_client().get("/api/standings").get_json()["standings"]}
    skull, infinity, hog = (t.referee.game.result() for t in tables)
    assert rows["Аня"]["games"] == 2  # «Аня» and «аня» are one player
    assert rows["Аня"]["points"] == infinity["scores"]["аня"]
    assert rows["Гена"]["chips"] == hog["net"]["Гена"] and rows["Гена"]["points"] == infinity["scores"]["Гена"]
    assert rows["Ёж"]["chips"] == hog["net"]["Ёж"]
    winner = skull["winner_name"]
    assert rows[winner]["banks"] == 1 and rows[winner]["bank_value"] == {"RUB": skull["face_value"]}
    assert sum(r["wins"] for r in rows.values()) == 1 + len(infinity["winners"]) + len(hog["winners"])


def test_two_spellings_merge_with_the_board_pin(app):
    app, board, tables = app
    c = app.test_client()
    r = c.post("/api/merge", json={"name": "Боря", "into": "Борис", "pin": "0000"})
    assert r.status_code == 403 and r.get_json()["message"] == render(M("Wrong board PIN."), "ru")  # the page's language
    r = c.post("/api/merge", json={"name": "Боря", "into": "Борис", "pin": PIN})
    assert r.status_code == 200
    rows = {x["name"]: x for x in r.get_json()["standings"]}
    assert "Боря" not in rows and rows["Борис"]["games"] == 2 and rows["Борис"]["spellings"] == ["Борис", "Боря"]
    assert c.post("/api/merge", json={"name": "Борис", "into": "Боря", "pin": PIN}).status_code == 409  # a loop
    assert c.post("/api/unmerge", json={"name": "Боря", "pin": PIN}).status_code == 200
    assert "Боря" in {x["name"] for x in c.get("/api/standings").get_json()["standings"]}
    assert c.post("/api/merge", data="name=x&into=y", content_type="application/x-www-form-urlencoded").status_code == 400


def test_wrong_pins_are_limited(app):
    app, board, tables = app
    c = app.test_client()
    for _ in range(3):
        assert c.post("/api/night", json={"pin": "1"}).status_code == 403
    r = c.post("/api/night", json={"pin": PIN})
    told = render(M("Too many wrong PINs: try again in %(s)s s.", s="§"), "ru").split("§")[0]
    assert r.status_code == 429 and r.get_json()["message"].startswith(told), r.get_json()


def test_a_new_night_starts_the_standings_again(app):
    app, board, tables = app
    c = app.test_client()
    assert c.get("/api/standings").get_json()["standings"]
    assert c.post("/api/night", json={"pin": PIN}).status_code == 200
    assert c.get("/api/standings").get_json()["standings"] == []


def boot_of(html: str) -> dict:
    return json.loads(re.search(r'<script id="boot" type="application/json">(.*?)</script>', html, re.S).group(1))


def test_a_tables_page_is_the_tables_own_public_page_fed_by_the_board(app):
    app, board, tables = app
    c = app.test_client()
    html = c.get("/t/t1").get_data(as_text=True)
    assert "/static/app.js" in html and "/static/app.css" in html  # the tables' own rendering
    boot = boot_of(html)
    assert boot["kind"] == "public" and boot["stream"] == "/t/t1/stream"
    assert boot["snapshot"]["model"]["game"]["id"] == "skull"
    assert boot["snapshot"]["model"]["version"] == tables[0].referee.version
    embed = boot_of(c.get("/t/t1?embed=1").get_data(as_text=True))
    assert embed["stream"] is None  # the board page hands it the snapshots
    assert c.get("/t/nowhere").status_code == 404
    assert c.get("/api/tables/nowhere").get_json()["error"] == "not_found"
    frames = c.get("/t/t1?embed=1").headers
    assert frames["X-Frame-Options"] == "SAMEORIGIN" and "frame-ancestors 'self'" in frames["Content-Security-Policy"]


def test_the_board_speaks_russian_first_and_english_on_request(app):
    app, board, tables = app
    c = app.test_client()
    html = c.get("/").get_data(as_text=True)
    standings = render(M("Standings of the night"), "ru")
    assert standings in html and render(M("Merge two spellings"), "ru") in html
    words = boot_of(html)["words"]
    assert words["club_standings"] == standings and words["game_skull"] == game_title("skull", "ru")
    assert words["games"] == "Партий"  # the dashboard's own word is not overridden by the board's
    c.get("/lang/en")
    html = c.get("/").get_data(as_text=True)
    assert "Standings of the night" in html and boot_of(html)["words"]["club_wins"] == "Wins"


def test_the_events_record_and_healthz(app):
    app, board, tables = app
    c = app.test_client()
    events = c.get("/api/tables/t3/events").get_json()["events"]
    assert [e["seq"] for e in events] == list(range(1, tables[2].referee.version + 1))
    assert c.get("/healthz").get_json()["received"] > 0
