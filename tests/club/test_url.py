"""The club address: what a table and the board are started with (companion.club.url)."""

from __future__ import annotations

import pytest

from companion.club.url import ClubError, parse
from tests.wording import speaks


def test_a_table_address_gives_broker_club_credentials_and_table_id():
    u = parse("mqtt://t3:s%40cret@192.168.1.10:1884/vecher")
    assert (u.scheme, u.host, u.port, u.club, u.user, u.password, u.table) == (
        "mqtt", "192.168.1.10", 1884, "vecher", "t3", "s@cret", "t3")
    assert not u.tls
    assert "s@cret" not in u.shown() and "s@cret" not in repr(u)
    assert u.shown() == "mqtt://t3@192.168.1.10:1884/vecher"


def test_default_ports_tls_and_an_explicit_table_id(tmp_path):
    assert parse("mqtt://t1@h/c").port == 1883
    ca = tmp_path / "ca.crt"
    ca.write_text("x")
    u = parse(f"mqtts://u:p@h/c?table=kitchen&ca={ca}")
    assert (u.port, u.tls, u.table, u.ca) == (8883, True, "kitchen", ca)
    board = parse("mqtt://board:p@h/c", table_required=False)
    assert board.table == "board"
    assert parse("mqtt://h/c", table_required=False).table is None


@pytest.mark.parametrize("text, says", [
    ("", "empty"),
    ("http://t1:p@h/c", "mqtt://"),
    ("mqtt://t1:p@h", "names no club"),
    ("mqtt://t1:p@h:99999/c", "bad port"),
    ("mqtt://:p@/c", "no broker host"),
    ("mqtt://h/c", "names no table"),
    ("mqtt://t1:p@h/a/b", "club name"),
    ("mqtt://t+1:p@h/c", "table id"),
    ("mqtt://t1:p@h/c?tls=1", "unknown keys"),
    ("mqtt://t1:p@h/c?ca=/etc/hostname", "mqtts"),
    ("mqtts://t1:p@h/c?ca=/nowhere/ca.crt", "is not there"),
])
def test_a_bad_address_is_refused_saying_which_part_in_both_languages(text, says):
    with pytest.raises(ClubError) as e:
        parse(text)
    assert says in str(e.value)
    speaks(e.value.message)  # a message the catalogue words in Russian too, every fact in it
