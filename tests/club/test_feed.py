"""A table log read as the club's public messages (companion.club.feed): the same public page the
table shows, each record once with its seq, undo and results, and nothing hidden (checked by the
log-based audit, companion.club.audit, which can fail: see the last test)."""

from __future__ import annotations

import json

import pytest

from companion.club import audit
from companion.club.feed import PublicFeed
from companion.club.topics import dumps
from companion.dashboard import model as M
from companion.dashboard.hub import Hub
from companion.table import Table
from tests.club.helpers import Bots

GAMES = [("skull", ["Аня", "Борис", "Вика"]), ("doubt", ["Аня", "Борис", "Вика"]),
         ("hoggenheimer", ["Аня", "Борис", "Вика", "Гена"]), ("infinity", ["Аня", "Борис", "Вика"]),
         ("lottery", ["Аня", "Борис", "Вика", "Гена", "Дима"])]


def played(fast_dir, game_id, names, seed=1, n=None):
    table = Table(fast_dir / game_id, pin="123456")
    table.new_game(game_id, names)
    bots = Bots(table, game_id, names, seed)
    bots.play(n)
    return table, bots


def without_epoch(model: dict) -> dict:
    return {k: v for k, v in model.items() if k != "epoch"}


@pytest.mark.parametrize("game_id, names", GAMES)
def test_the_snapshot_is_the_tables_own_public_page_model(fast_dir, game_id, names):
    table, bots = played(fast_dir, game_id, names, n=25)
    hub = Hub(table)
    feed = PublicFeed(table.referee.log.path, "t1")
    steps = feed.poll()
    assert [s.seq for s in steps] == list(range(1, 26))
    assert without_epoch(feed.model()) == without_epoch(hub.model(M.PUBLIC))
    bots.play(5)
    assert [s.seq for s in feed.poll()] == list(range(26, 31))
    hub2 = Hub(table)
    assert without_epoch(feed.model()) == without_epoch(hub2.model(M.PUBLIC))
    hub.close(), hub2.close(), feed.close(), table.close()


def test_an_undo_is_one_more_record_and_the_undone_action_leaves_the_history(fast_dir):
    table, bots = played(fast_dir, "skull", ["Аня", "Борис", "Вика"], n=12)
    assert table.undo().accepted
    feed = PublicFeed(table.referee.log.path, "t1")
    steps = feed.poll()
    assert [s.seq for s in steps] == list(range(1, 14))
    assert steps[-1].event["entry"]["items"][0]["kind"] == "undo"
    hub = Hub(table)
    assert without_epoch(feed.model()) == without_epoch(hub.model(M.PUBLIC))
    assert 12 not in [h["v"] for h in feed.model()["history"]]
    hub.close(), feed.close(), table.close()


def test_a_finished_game_gives_its_result_and_an_undo_withdraws_it(fast_dir):
    table, bots = played(fast_dir, "infinity", ["Аня", "Борис", "Вика"])
    feed = PublicFeed(table.referee.log.path, "t1")
    steps = feed.poll()
    results = [s.result for s in steps if s.result]
    assert len(results) == 1 and results[0]["seq"] == steps[-1].seq
    scores = table.referee.game.result()["scores"]
    assert {r["name"]: r["points"] for r in results[0]["rows"]} == scores
    assert table.undo().accepted
    (undo,) = feed.poll()
    assert undo.result == {"v": 1, "table": "t1", "game": feed.key, "seq": undo.seq, "withdrawn": True}
    assert feed.result is None and not feed.over
    feed.close(), table.close()


def test_skulls_bank_serials_stay_home_though_the_tables_page_lists_them(fast_dir):
    table, bots = played(fast_dir, "skull", ["Аня", "Борис", "Вика"], seed=2)
    bank = table.referee.game.result()["bank"]
    assert bank and table.referee.game.view(None)["bank"]["serials"] == bank  # the table's own page
    records = table.referee.log.records()
    flipped = {r.action.split()[-1] for r in records if r.action.startswith("table flip ")}
    feed = PublicFeed(table.referee.log.path, "t1")
    steps = feed.poll()
    sent = b"".join(dumps(s.event) + dumps(s.result or {}) for s in steps) + dumps(feed.snapshot())
    never_face_up = [s for s in bank if s not in flipped]
    assert never_face_up and not any(s.encode() in sent for s in never_face_up)
    # a note turned face up earlier is named by that turn's line, never by its deposit
    deposits = {r.seq: r.action.split()[-1] for r in records if r.action.startswith("table deposit ")}
    for step in steps:
        if step.seq in deposits:
            assert deposits[step.seq].encode() not in dumps(step.event)
    assert "serials" not in feed.snapshot()["model"]["view"]["bank"]
    assert feed.snapshot()["model"]["view"]["bank"]["count"] == len(bank)
    assert steps[-1].result["rows"][table.referee.game.winner]["bank_notes"] == len(bank)
    feed.close(), table.close()


@pytest.mark.parametrize("game_id, names", GAMES)
@pytest.mark.parametrize("seed", [1, 5])
def test_no_published_byte_holds_a_hidden_fact_of_the_log(fast_dir, game_id, names, seed):
    table, bots = played(fast_dir, game_id, names, seed=seed)
    path = table.referee.log.path
    feed = PublicFeed(path, "t1")
    hidden = audit.hidden_facts(path)
    if game_id == "skull":
        assert hidden.ever, "the game has hidden facts to keep (else the check proves nothing)"
    else:
        # the card engines learn a card only once it lies face up: their logs hold nothing hidden
        # (the check below then guards the day an engine learns one)
        assert hidden.ever == set()
    found = {}
    while steps := feed.poll(limit=1):
        step = steps[0]
        for payload in (step.event, step.result, feed.snapshot()):
            if payload:
                leak = audit.leaks(dumps(payload), hidden.hidden(step.seq))
                if leak:
                    found[step.seq] = leak
    assert found == {}
    feed.close(), table.close()


def test_the_audit_finds_a_private_view_sent_out(fast_dir):
    table, bots = played(fast_dir, "skull", ["Аня", "Борис", "Вика"], n=10)
    hidden = audit.hidden_facts(table.referee.log.path)
    private = json.dumps(table.referee.game.view(0), ensure_ascii=False)
    assert audit.leaks(private, hidden.hidden(10))
    deposit = next(r for r in table.referee.log.records() if " deposit " in r.action) if any(
        " deposit " in r.action for r in table.referee.log.records()) else None
    if deposit is not None:
        assert audit.leaks(deposit.action, hidden.hidden(deposit.seq))
    table.close()


def test_the_audit_reads_a_card_in_either_language_s_letters():
    """A Russian page writes the queen of hearts «Д♥»: the audit reads it as QH, as it reads "Q♥"."""
    hidden = frozenset({"QH", "AS"})
    assert audit.leaks("Вика берёт Д♥", hidden) == {"QH"}
    assert audit.leaks("Vic takes Q♥", hidden) == {"QH"}
    assert audit.leaks("Т♠, 10♣", hidden) == {"AS"}
    assert audit.leaks("as it was", hidden) == set()  # a word, not a card
