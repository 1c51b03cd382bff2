"""A card typed twice in one manual entry is told as typed twice, not as «уже роздана» (a card
dealt before): the lottery's `table cards` entry (seed 004 ¶8: three cards per player, one deck
holding each card once)."""

from __future__ import annotations

from companion.games.cardnames import card_label
from companion.i18n import M, render

SEATS = ["Банкир", "Сдающий", "Аня", "Борис"]


def test_a_card_typed_twice_says_so_in_both_languages(console):
    table, c, h = console("lottery", SEATS)
    assert table.referee.submit("0 spread 4,3,2,1", "button").accepted
    before = len(table.referee.log.records())
    j = c.post("/api/operator/manual", json={"action": "table cards 2 Q♥,Q♥,10♠"}, headers=h).json
    assert j["reason"] == "duplicate_card", j
    twice = M("%(card)s is typed twice in this entry: each card is entered once.", card=card_label("QH"))
    assert j["message"] == render(twice, "ru")
    assert "роздан" not in j["message"]
    c.set_cookie("lang", "en")
    j = c.post("/api/operator/manual", json={"action": "table cards 2 qh,QH,10s"}, headers=h).json
    assert j["reason"] == "duplicate_card", j
    assert j["message"] == render(twice, "en")
    assert len(table.referee.log.records()) == before  # nothing logged


def test_a_card_dealt_in_an_earlier_entry_is_still_already_dealt(console):
    table, c, h = console("lottery", SEATS)
    assert table.referee.submit("0 spread 4,3,2,1", "button").accepted
    assert c.post("/api/operator/manual", json={"action": "table cards 2 Q♥,10♠,2♣"}, headers=h).status_code == 200
    j = c.post("/api/operator/manual", json={"action": "table cards 3 A♦,5♠,Q♥"}, headers=h).json
    assert j["reason"] == "card_already_dealt"
    assert j["message"] == render(M("%(card)s of this deck is already dealt.", card=card_label("QH")), "ru")

