"""The board's check of each received message (companion.club.topics.parse_incoming): what it keeps,
and what it ignores as malformed or foreign, saying why."""

from __future__ import annotations

import json

import pytest

from companion.club.topics import MAX_PAYLOAD, Refused, Topics, game_key, parse_incoming

T = Topics("vecher", "t1")


def raw(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False).encode()


EVENT = {"v": 1, "table": "t1", "game": "20261128-200000-000001-skull", "game_id": "skull", "seq": 3,
         "entry": {"v": 3, "items": []}, "turn": [1], "over": False}


def test_each_kind_of_message_is_read_with_its_table():
    m = parse_incoming("vecher", T.of("events"), raw(EVENT))
    assert (m.table, m.kind, m.game, m.payload["seq"]) == ("t1", "events", None, 3)
    m = parse_incoming("vecher", T.of("snapshot"), raw({"v": 1, "table": "t1", "game": None, "seq": 0, "model": {}}))
    assert m.kind == "snapshot"
    m = parse_incoming("vecher", T.of("online"), raw({"v": 1, "table": "t1", "state": "offline"}))
    assert m.payload["state"] == "offline"
    key = EVENT["game"]
    m = parse_incoming("vecher", T.result(key), raw({"v": 1, "table": "t1", "game": key, "game_id": "skull", "seq": 9,
                                                     "rows": [{"name": "Аня", "win": True}]}))
    assert (m.kind, m.game) == ("result", key)
    assert parse_incoming("vecher", T.of("snapshot"), b"") is None  # a cleared retained topic


@pytest.mark.parametrize("topic, payload, why", [
    ("companion/other/tables/t1/events", raw(EVENT), "another club"),
    ("elsewhere/vecher/tables/t1/events", raw(EVENT), "foreign topic"),
    ("companion/vecher/tables/t1/secrets", raw(EVENT), "no such message kind"),
    ("companion/vecher/tables/t2/events", raw(EVENT), "names table 't1', not its topic's 't2'"),
    (T.of("events"), b"\xff\xfe", "not UTF-8 JSON"),
    (T.of("events"), b"[1, 2]", "not a JSON object"),
    (T.of("events"), raw({**EVENT, "v": 2}), "format version 2"),
    (T.of("events"), raw({**EVENT, "seq": 0}), "'seq' must be a whole number >= 1"),
    (T.of("events"), raw({**EVENT, "seq": True}), "'seq'"),
    (T.of("events"), raw({k: v for k, v in EVENT.items() if k != "entry"}), "'entry'"),
    (T.of("snapshot"), raw({"v": 1, "table": "t1", "game": None, "seq": -1, "model": {}}), "'seq'"),
    (T.of("online"), raw({"v": 1, "table": "t1", "state": "maybe"}), "'state'"),
    (T.result("g1"), raw({"v": 1, "table": "t1", "game": "g2", "seq": 1, "game_id": "x", "rows": []}), "topic's game"),
    (T.result("g1"), raw({"v": 1, "table": "t1", "game": "g1", "seq": 1, "game_id": "x", "rows": [{"n": 1}]}), "'rows'"),
    (T.of("events"), b"{" + b" " * MAX_PAYLOAD + b"}", "over the limit"),
])
def test_a_malformed_or_foreign_message_is_refused_with_why(topic, payload, why):
    with pytest.raises(Refused) as e:
        parse_incoming("vecher", topic, payload)
    assert why in str(e.value)


def test_a_game_key_is_its_log_name_or_a_hash_for_a_name_that_is_no_topic_level():
    assert game_key("20261128-200000-000001-skull.sqlite") == "20261128-200000-000001-skull"
    odd = game_key("my game #2.sqlite")
    assert odd.startswith("g-") and len(odd) == 18 and odd == game_key("my game #2.sqlite")
