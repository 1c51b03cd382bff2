"""Skull: who the page calls the dealer at each moment, against the history's round header
(«— Раунд 2, начинает Вера —») and the reveal line («Вскрытие: вскрывает Борис (высшая ставка)…»):
the player with the button who starts the round and the highest bidder who reveals are named by
their roles, not both «дилер». The lines are checked in English, their message ids with the facts
(who deals, who raises); their Russian is the catalogue's and the golden page snapshots'.

* The round header names the dealer the round starts with; a bid takes the button (seed «Игрок,
  сделавший ставку становится дилером»), so the reveal line may name another, newer dealer — the
  history tells each change («… ставит 1 и берёт баттон»).
* At the end of a round and the start of the next the page shows one dealer: the new round's
  (seed «Кто дилер в следующем раунде»), in the header, on the «Дилер» badge (``view.dealer``),
  while «Прошлый раунд» keeps the dealer who revealed.
* When everybody agreed the button passes at once to the player who must raise (RULINGS §1): the
  badge moves with it, as the history's line says (it stayed on the old dealer until the raise).
"""

from __future__ import annotations

import pytest

from companion.dashboard.model import history_entry, narrator, view_for, PUBLIC
from companion.table import Table
from tests.games.skull.skull_helpers import note_set, rose, skull


@pytest.fixture
def table(fast_dir):
    t = Table(fast_dir, pin="246810")
    t.new_game("skull", ["Аня", "Борис", "Вера"], {})
    for s in range(3):
        assert t.submit(f"table register {s} {','.join(note_set(s))} ?", "manual").accepted
    assert t.submit("table dealer 0", "operator").accepted
    yield t
    t.close()


def page(table, outcome, lang="en"):
    """``(badge, lines)``: the seat the public page marks «Дилер», and the lines the accepted
    ``outcome`` adds to its history, top first (as the page lists them), in ``lang``: English, the
    message ids with their facts (the Russian of each line is the catalogue's)."""
    epoch, version, views, legal, turn, over, result = table.views()
    info = table.game_info()
    entry = history_entry(PUBLIC, version, outcome, narrator(info["id"], info["seats"]))
    model = view_for(PUBLIC, epoch=epoch, version=version, game_info=info, views=views, legal=legal,
                     turn=turn, over=over, result=result, history=[entry])
    return model["view"]["dealer"], [it["text"][lang] for it in reversed(entry["items"])], model["view"]


def play(table, *actions):
    out = None
    for a in actions:
        out = table.submit(a, "camera" if a.startswith("table") else "dashboard")
        assert out.accepted, (a, out.reason, out.detail)
    return out


def test_round_end_and_next_round_name_the_new_dealer(table):
    play(table, "0 place", "1 place", "2 place", "0 bid 1", "1 bid 2", "2 pass")
    badge, lines, _ = page(table, play(table, "0 pass"))
    assert badge == 1 and lines == ["Reveal: the highest bidder Борис must turn up 2 rose(s)", "Аня passes"]
    play(table, f"table flip 1 {rose(1, 0)}")
    badge, lines, _ = page(table, play(table, f"table flip 0 {rose(0, 0)}"))
    assert badge == 1 and lines[0].startswith("Success! Борис turned up 2 roses.")
    play(table, f"table deposit 2 {rose(2, 1)}")
    badge, lines, view = page(table, play(table, f"table deposit 0 {rose(0, 1)}"))
    # Борис drew no skull: the player on his left, Вера, deals round 2 — header and badge agree
    assert lines[0] == "— Round 2, Вера starts —" and badge == 2
    assert view["last_round"]["dealer"] == 1  # «Прошлый раунд»: the dealer who revealed


def test_a_skull_of_another_player_makes_its_owner_the_next_dealer(table):
    play(table, "0 place", "1 place", "2 place", "0 bid 2", "1 pass", "2 pass")
    play(table, f"table flip 0 {rose(0, 0)}")
    badge, lines, _ = page(table, play(table, f"table flip 2 {skull(2, 0)}"))
    assert badge == 0 and lines[0].startswith("Вера's skull!")
    badge, lines, _ = page(table, play(table, f"table deposit 0 {rose(0, 1)}"))
    assert lines[0] == "— Round 2, Вера starts —" and badge == 2


def test_when_everybody_agreed_the_badge_moves_with_the_button(table):
    play(table, "0 place", "1 place", "2 place", "0 bid 1", "1 agree")
    badge, lines, view = page(table, play(table, "2 agree"))
    assert lines[0] == "Everybody agreed: Борис takes the button and must raise above 1"
    assert badge == 1 and view["must_raise"] == 1
    badge, lines, _ = page(table, play(table, "1 bid 2"))
    assert badge == 1 and lines == ["Борис raises to 2 and takes the button"]
