"""One scenario test per rule of skull with banknotes: seed ``000_*`` paragraphs (quoted in Russian)
and RULINGS §0–1. ``docs/rules/skull.md`` links each rule to its test here."""

from __future__ import annotations

import json

import pytest

from companion.errors import IllegalAction
from companion.games.skull import (
    REASONS, SkullGame, SkullOptions, canonical_serial, note_role, validate_note_set,
)

from skull_helpers import note_set, rose, skull  # tests/games/skull/skull_helpers.py (path set by conftest)


# ------------------------------------------------------------------------------ set-up
def test_role_from_last_digit_parity():
    """RULINGS §1: "even = rose, odd = skull"; option ``skull_parity`` swaps; the rightmost digit
    counts even when letters follow it (US-style serials)."""
    assert note_role("АК2444841") == "skull"
    assert note_role("АК2444842") == "rose"
    assert note_role("АК2444842", "even") == "skull"
    assert note_role("MB12345678A") == "rose"
    assert note_role("MB12345677A") == "skull"


def test_canonical_serial_form(table):
    """Actions carry canonical serials: uppercase, no spaces (RUB "Ак 2444841" → "АК2444841")."""
    assert canonical_serial("Ак 2444841") == "АК2444841"
    assert canonical_serial(" mb 1234-5678 a") == "MB12345678A"
    t = table(2, dealer=None)
    t.reject("table register 0 ак2444842,АК2444844,АК2444846,АК2444841 ?", "bad_serial")


def test_registration_composition(table):
    """Seed "До начала игры": "каждый игрок получает по 4 купюры (3 + 1)"; RULINGS §1: the set must
    match the composition (options notes_per_player, skulls_per_player)."""
    t = table(2, dealer=None)
    t.reject("table register 0 РЗ0000002,РЗ0000004,ЧР0000001 ?", "wrong_note_count")
    t.reject("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,РЗ0000008 ?", "wrong_skull_count")
    t.reject("table register 0 РЗ0000002,РЗ0000004,ЧР0000001,ЧР0000003 ?", "wrong_skull_count")
    t.play("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 ?")
    t.reject("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 ?", "already_registered")
    # "По согласованию возможны другие варианты": 5 notes with 2 skulls.
    t5 = table(2, dealer=None, notes_per_player=5, skulls_per_player=2)
    t5.play("table register 1 РЗ1000002,РЗ1000004,РЗ1000006,ЧР1000001,ЧР1000003 ?")


def test_duplicate_serial_at_the_table(table):
    """RULINGS §1: "no serial may appear twice at the table"."""
    t = table(2, dealer=None)
    t.play("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 ?")
    t.reject("table register 1 РЗ0000002,РЗ1000004,РЗ1000006,ЧР1000001 ?", "serial_taken")
    t.reject("table register 1 РЗ1000004,РЗ1000004,РЗ1000006,ЧР1000001 ?", "duplicate_serial")


def test_validate_note_set_reports_every_problem():
    """The public check the banknote reader calls before sending a registration."""
    assert validate_note_set(("РЗ0000002", "РЗ0000004", "РЗ0000006", "ЧР0000001")) == []
    codes = [c for c, _ in validate_note_set(("РЗ0000002", "РЗ0000002", "x y"), {}, taken={"РЗ0000002"})]
    assert codes == ["bad_serial", "duplicate_serial", "serial_taken", "wrong_note_count"]
    codes = [c for c, _ in validate_note_set(("РЗ0000002", "РЗ0000004", "РЗ0000006", "РЗ0000008"), SkullOptions())]
    assert codes == ["wrong_skull_count"]
    assert all(code in REASONS for code in codes)


def test_denominations_recorded_and_checked(table):
    """Face values are optional at registration; the bank's total is shown at the end (RULINGS §1)."""
    t = table(2, dealer=None)
    t.reject("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 100,100", "bad_denominations")
    t.reject("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 100,100,0,100", "bad_denominations")
    t.play("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 100,500,100,50")
    assert t.g.denominations["РЗ0000004"] == 500


def test_dealer_chosen_after_registration(table):
    """Seed: "выбирается дилер - первый игрок (баттон), который начнет Этап 2"."""
    t = table(2, dealer=None)
    t.play("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 ?")
    t.reject("table dealer 0", "registration_incomplete")
    t.play("table register 1 РЗ1000002,РЗ1000004,РЗ1000006,ЧР1000001 ?")
    t.reject("table dealer 5", "unknown_seat")
    ev = t.play("table dealer 1")
    assert t.g.phase == "stage1" and t.g.dealer == 1 and "round_start" in t.kinds(ev)


def test_players_two_to_eight():
    """RULINGS §1: "Players: 2–8"."""
    with pytest.raises(IllegalAction, match="bad_seats"):
        SkullGame(["Аня"])
    with pytest.raises(IllegalAction, match="bad_seats"):
        SkullGame([f"P{i}" for i in range(9)])
    SkullGame([f"P{i}" for i in range(8)])


def test_options_validated():
    """Every house rule is a named option with a default; impossible values are refused."""
    assert SkullOptions().to_dict() == {"notes_per_player": 4, "skulls_per_player": 1, "skull_parity": "odd",
                                        "leaver_counts_as": "pass", "last_skull_out": True, "currency": "RUB"}
    for bad in ({"skulls_per_player": 4}, {"skull_parity": "red"}, {"leaver_counts_as": "stay"}, {"x": 1},
                {"currency": "rub"}, {"currency": "RUR "}, {"currency": "РУБ"}, {"currency": 643},
                {"currency": "RUR"}, {"currency": "KZT"}):  # no serial format known: no check at all
        with pytest.raises(IllegalAction, match="bad_option"):
            SkullGame(["A", "B"], bad)
    for known in ("RUB", "EUR", "USD", "INR", "KRW", "JPY"):
        assert SkullGame(["A", "B"], {"currency": known}).options.currency == known


# ------------------------------------------------------------------------------ stages 1 and 2
def test_stage1_everyone_places_one_note_in_any_order(table):
    """Seed "Этап 1": "Все игроки выкладывают перед собой по одной купюре ... номером вниз"."""
    t = table(3)
    assert t.g.current_seats() == [0, 1, 2]
    t.play("2 place")
    t.reject("2 place", "already_placed")
    t.reject("1 bid 1", "wrong_phase")
    t.play("0 place")
    ev = t.play("1 place")
    assert t.g.phase == "stage2" and "stage2" in t.kinds(ev)
    assert t.g.current_seats() == [0]  # "Начиная с дилера"


def test_stage2_clockwise_add_or_bid(table):
    """Seed "Этап 2": "Начиная с дилера, игроки ходят по очереди, по часовой стрелке — добавить
    купюру ... или сделать ставку"."""
    t = table(3, dealer=1)
    t.stage1()
    t.reject("0 place", "not_your_turn")
    t.play("1 place")
    assert t.g.current_seats() == [2]
    t.play("2 place", "0 place")
    assert t.g.stack == [2, 2, 2] and t.g.table_total() == 6
    t.play("1 bid 2")
    assert t.g.phase == "auction"


def test_must_bid_when_out_of_notes(table):
    """Seed: "Если игрок выложил все купюры, и ход снова вернулся к нему, он обязан сделать ставку"."""
    t = table(2, notes_per_player=2)
    t.stage1()
    t.play("0 place", "1 place")
    assert t.g.hand(0) == 0
    t.reject("0 place", "must_bid")
    assert all(a.VERB == "bid" for a in t.g.legal_actions(0))
    t.play("0 bid 1")


def test_bid_limits(table):
    """Seed "Ограничения ставки": "минимальная ставка - 1 купюра; ставка не должна превышать общее
    число купюр, размещенных на столе"."""
    t = table(3)
    t.stage1()
    t.reject("0 bid 0", "bid_too_low")
    t.reject("0 bid 4", "bid_too_high")
    t.play("0 bid 3")
    t.reject("1 bid 3", "bid_too_low")


def test_bidder_becomes_dealer(table):
    """Seed: "Игрок, сделавший ставку становится дилером и запускает торги"; "Купюры больше не
    выкладываются до окончания раунда"."""
    t = table(3, dealer=0)
    t.stage1()
    t.play("0 place", "1 bid 2")
    assert t.g.dealer == 1 and t.g.current_seats() == [2]
    t.reject("2 place", "wrong_phase")


# ------------------------------------------------------------------------------ auction
def test_auction_agree_raise_pass_clockwise(table):
    """Seed Варианты 1–3: agree and pass the turn left; raise and restart the circle; pass and stay
    out of the auction for the rest of the round. The dealer does not answer his own bid."""
    t = table(4)
    t.stage1()
    t.play("0 bid 1")
    assert t.g.current_seats() == [1]
    t.reject("0 agree", "dealer_cannot_answer")
    t.reject("2 agree", "not_your_turn")
    t.play("1 agree", "2 pass")
    t.play("3 bid 2")  # raise: seat 3 is the dealer, the circle restarts from him
    assert t.g.dealer == 3 and t.g.agreed == [] and t.g.passed == [2]
    assert t.g.current_seats() == [0]  # seat 2 passed and is skipped
    t.play("0 agree")
    assert t.g.current_seats() == [1]
    ev = t.play("1 agree")
    assert t.g.phase == "reveal" and "reveal_start" in t.kinds(ev)


def test_all_agreed_button_passes_and_must_raise(table):
    """Seed: "Если все игроки согласились и ход вернулся к дилеру, тогда дилер ... передает право хода
    и баттон ближайшему слева игроку, который становится новым дилером и обязан повысить ставку"."""
    t = table(3)
    t.stage1()
    ev = t.play("0 bid 1", "1 agree", "2 agree")
    assert "must_raise" in t.kinds(ev) and t.g.current_seats() == [1]
    t.reject("1 agree", "must_raise")
    t.reject("1 pass", "must_raise")
    t.reject("1 bid 1", "bid_too_low")
    t.play("1 bid 2")
    assert t.g.dealer == 1 and t.g.current_seats() == [2]


def test_forced_pass_at_the_maximum(table):
    """RULINGS §1: all agreed but "the bid already equals all notes on the table": the next player
    must pass instead, and the reveal starts."""
    t = table(3)
    t.stage1()
    ev = t.play("0 bid 3", "1 agree", "2 agree")
    assert "forced_pass" in t.kinds(ev)
    assert t.g.phase == "reveal" and t.g.dealer == 0 and t.g.passed == [1] and t.g.agreed == [2]


def test_reveal_starts_when_turn_back_and_someone_passed(table):
    """Seed "Этап 3 начинается, если ... очередь хода вернулась к дилеру ... за столом есть хотя бы
    один несогласный игрок"."""
    t = table(3)
    t.stage1()
    t.play("0 bid 1", "1 pass")
    assert t.g.phase == "auction"
    t.play("2 agree")
    assert t.g.phase == "reveal"


# ------------------------------------------------------------------------------ reveal
def _to_reveal(t, dealer_stack: int = 1, bid: int = 1):
    """Stage 1, then the dealer (seat 0) adds notes and bids; seat 1 agrees, seat 2 passes."""
    t.stage1()
    for _ in range(dealer_stack - 1):
        t.play("0 place", "1 place", "2 place")
    t.play(f"0 bid {bid}", "1 agree", "2 pass")
    assert t.g.phase == "reveal"


def test_reveal_own_stack_first_top_down(table):
    """Seed: "сначала дилер переворачивает ВСЕ СВОИ купюры; только после этого - он начинает
    открывать купюры соперников"; "по одной купюре, начиная с верхней"."""
    t = table(3)
    _to_reveal(t, dealer_stack=2, bid=3)
    t.reject(f"table flip 1 {rose(1)}", "own_stack_first")
    t.play(f"table flip 0 {rose(0, 1)}")
    t.reject(f"table flip 0 {rose(0, 1)}", "already_revealed")
    t.play(f"table flip 0 {rose(0)}")
    t.reject(f"table flip 0 {rose(0, 2)}", "no_face_down_note")
    t.play(f"table flip 2 {rose(2)}")
    assert t.g.phase == "settlement" and t.g.outcome == "success"


def test_success_at_bid_roses_even_within_own_stack(table):
    """RULINGS §1: "The attempt succeeds as soon as `bid` roses are face up (so a bid below the
    dealer's own stack flips only that many of his own)"."""
    t = table(3)
    _to_reveal(t, dealer_stack=3, bid=2)
    t.play(f"table flip 0 {rose(0, 2)}")
    ev = t.play(f"table flip 0 {rose(0, 1)}")
    assert t.g.outcome == "success" and "outcome" in t.kinds(ev)
    assert t.g.stack[0] - len(t.g.faceup[0]) == 1  # one of his notes stays face down


def test_stop_at_first_skull(table):
    """Seed: "переворачивать купюры можно пока не увидим купюру с черепом, на этом перевороты
    заканчиваются, даже если еще не открылось количество купюр сделанной ставки"."""
    t = table(3)
    _to_reveal(t, dealer_stack=1, bid=3)
    t.play(f"table flip 0 {rose(0)}")
    ev = t.play(f"table flip 1 {skull(1)}")
    assert t.g.phase == "settlement" and t.g.outcome == "failure" and t.g.skull_owner == 1
    assert [e.data for e in ev if e.kind == "flip"][0]["role"] == "skull"
    t.reject(f"table flip 2 {rose(2)}", "wrong_phase")


def test_opponents_in_any_order(table):
    """Seed: "соперники выбираются в любом порядке (хоть все у каждого, хоть у каждого по одной)"."""
    t = table(3)
    t.stage1()
    t.play("0 place", "1 place", "2 place", "0 bid 5", "1 pass", "2 agree")
    t.play(f"table flip 0 {rose(0, 1)}", f"table flip 0 {rose(0)}")
    t.play(f"table flip 2 {rose(2, 1)}", f"table flip 1 {rose(1, 1)}", f"table flip 2 {rose(2)}")
    assert t.g.outcome == "success"


def test_bid_during_reveal_rejected(table):
    """Bad input: a bid (or agree, pass, place) while the reveal is on → ``reveal_in_progress``."""
    t = table(3)
    _to_reveal(t)
    for line in ("1 bid 2", "1 agree", "2 pass", "0 place"):
        t.reject(line, "reveal_in_progress")


def test_unregistered_serial_rejected(table):
    """Bad input: a serial never registered at this table → ``unregistered_serial`` (rescan)."""
    t = table(3)
    _to_reveal(t)
    t.reject("table flip 0 ЖЖ9999998", "unregistered_serial")
    t.reject("table flip 0 zz 99", "bad_syntax")
    t.reject("table flip 0 z-9", "bad_serial")


def test_foreign_note_halts_round(table):
    """RULINGS §1: "a revealed note that is not one of its owner's registered notes halts the round
    as a foreign note"; only the operator's void (or a leave) goes on from there."""
    t = table(3)
    _to_reveal(t)
    ev = t.play(f"table flip 0 {rose(1)}")
    assert t.g.phase == "halted" and "foreign_note" in t.kinds(ev)
    assert t.g.view(None)["halt"] == {"seat": 0, "why": "other_owner"}  # whose note: not public
    assert t.g.snapshot()["halt"]["owner"] == 1 and t.g.snapshot()["halt"]["serial"] == rose(1)
    from companion.games.skull import describe_event
    from companion.i18n import render
    msg = [describe_event(e, t.g.seats) for e in ev if e.kind == "foreign_note"][0]
    for lang in ("ru", "en"):  # whose note it is, and the note, stay untold
        words = render(msg, lang)
        assert "Борис" not in words and rose(1) not in words and "registered to Борис" not in words, words
    t.reject(f"table flip 0 {rose(0)}", "round_halted")
    t.reject("1 bid 2", "round_halted")
    ev = t.play("table void")
    assert t.g.phase == "stage1" and t.g.stack == [0, 0, 0] and not t.g.bank


# ------------------------------------------------------------------------------ settlement
def test_failure_dealer_and_agreers_pay_skull_owner_chooses(table):
    """Seed "Итоги"/"ПРИ НЕУДАЧНОЙ ПОПЫТКЕ": the dealer and those who agreed lose; "Хозяин черепа
    решает какую купюру неудачника отправлять в банк"."""
    t = table(4)
    t.stage1()
    t.play("0 bid 2", "1 agree", "2 pass", "3 agree")
    t.play(f"table flip 0 {rose(0)}", f"table flip 2 {skull(2)}")
    assert t.g.owed == [0, 1, 3] and t.g.chooser == 2
    t.reject(f"table deposit 2 {rose(2)}", "not_a_loser")
    t.reject(f"table deposit 1 {rose(0)}", "not_own_note")
    t.play(f"table deposit 1 {rose(1, 2)}")
    t.reject(f"table deposit 1 {rose(1, 1)}", "not_a_loser")


def test_skull_owner_among_losers_picks_his_own(table):
    """Seed: "Если один из неудачников - хозяин черепа, он сам решает, какую из своих купюр поместить в
    банк"; RULINGS §1 "a loser who owns that skull picks his own, unseen"."""
    t = table(3)
    t.stage1()
    t.play("0 bid 2", "1 agree", "2 pass")
    t.play(f"table flip 0 {rose(0)}", f"table flip 1 {skull(1)}")
    assert t.g.chooser == 1 and 1 in t.g.owed and t.g.skull_owner == 1


def test_success_passers_pay_dealer_chooses(table):
    """Seed "УСПЕШНАЯ ПОПЫТКА": "Несогласные передают свои купюры в банк ... купюры для банка выбирает
    дилер-победитель"."""
    t = table(4)
    t.stage1()
    t.play("0 bid 1", "1 pass", "2 agree", "3 pass", f"table flip 0 {rose(0)}")
    assert t.g.outcome == "success" and t.g.owed == [1, 3] and t.g.chooser == 0


def test_deposit_is_private(table):
    """Seed: "только потерявший купюру знает, какую купюру он потерял"; RULINGS §1: "the public view
    shows only 'one note to the bank'; the engine (and that player's private view) know which"."""
    t = table(3)
    t.stage1()
    t.play("0 bid 1", "1 pass", "2 agree", f"table flip 0 {rose(0)}")
    ev = t.play(f"table deposit 1 {skull(1)}")
    public = [e for e in ev if e.private_to is None]
    assert skull(1) not in json.dumps([e.data for e in public])
    assert [e for e in ev if e.private_to == 1][0].data["serial"] == skull(1)
    assert skull(1) not in json.dumps(t.g.view(None), ensure_ascii=False)
    assert skull(1) not in json.dumps(t.g.view(0), ensure_ascii=False)
    assert t.g.view(1)["you"]["lost"] == [skull(1)]
    assert t.g.view(None)["bank"] == {"count": 1}
    assert t.g.snapshot()["bank"][0]["serial"] == skull(1)


def test_face_down_notes_never_in_public_view(table):
    """Guide, hidden information: the public view carries counts of face-down notes only, never a
    serial or role; a seat's own view lists its own notes."""
    t = table(3)
    t.stage1()
    pub = json.dumps(t.g.view(None), ensure_ascii=False)
    for s in range(3):
        for x in note_set(s):
            assert x not in pub
    assert t.g.view(None)["seats"][0]["face_down"] == 1
    mine = [n["serial"] for n in t.g.view(0)["you"]["notes"]]
    assert mine == list(note_set(0)) and rose(1) not in json.dumps(t.g.view(0))


# ------------------------------------------------------------------------------ elimination, dealer
def test_no_notes_out(table):
    """Seed "Прочее": "если после подсчетов игрок лишился своей последней купюры, он выбывает"."""
    t = table(3, notes_per_player=2, last_skull_out=False)
    t.stage1()
    t.play("0 bid 1", "1 pass", "2 pass", f"table flip 0 {rose(0)}",
           f"table deposit 1 {rose(1)}", f"table deposit 2 {rose(2)}")
    # seats 1 and 2 keep one skull each (the option is off); next round seat 1 loses it.
    assert t.g.status == ["active", "active", "active"]
    t.stage1()
    t.play("1 bid 1", "2 agree", "0 pass", f"table flip 1 {skull(1)}")
    t.play(f"table deposit 1 {skull(1)}")  # the round ends when every loser has paid
    ev = t.play(f"table deposit 2 {skull(2)}")
    assert t.g.status == ["active", "out", "out"] and t.kinds(ev).count("out") == 2
    assert t.g.is_over() and t.g.winner == 0


def test_last_note_skull_goes_to_bank(table):
    """Seed "Прочее": "Если после подсчетов у игрока осталась одна купюра, но эта купюра череп, он
    передает ее в банк и выбывает" — automatic (option ``last_skull_out``, default on)."""
    t = table(3, notes_per_player=2)
    t.stage1()
    t.play("0 bid 1", "1 pass", "2 agree", f"table flip 0 {rose(0)}")
    ev = t.play(f"table deposit 1 {rose(1)}")
    assert t.g.status[1] == "out" and skull(1) in [b["serial"] for b in t.g.bank]
    auto = [e for e in ev if e.kind == "note_to_bank" and e.data.get("auto")]
    assert auto and skull(1) not in json.dumps([e.data for e in ev if e.private_to is None])


def test_next_dealer_after_success_is_left_of_dealer(table):
    """Seed "Кто дилер в следующем раунде": "если дилер не вытянул череп, дилером ... становится
    игрок, ближайший слева"."""
    t = table(3)
    t.stage1()
    t.play("0 place", "1 bid 1", "2 pass", "0 agree", f"table flip 1 {rose(1)}", f"table deposit 2 {rose(2)}")
    assert t.g.round == 2 and t.g.dealer == 2


def test_next_dealer_after_other_skull_is_its_owner(table):
    """Seed: "если дилер вытянул чужой череп, то дилером становится хозяин черепа"."""
    t = table(4)
    t.stage1()
    t.play("0 bid 2", "1 pass", "2 agree", "3 agree", f"table flip 0 {rose(0)}", f"table flip 3 {skull(3)}")
    t.play(f"table deposit 0 {rose(0)}", f"table deposit 2 {rose(2)}", f"table deposit 3 {rose(3)}")
    assert t.g.round == 2 and t.g.dealer == 3


def test_next_dealer_after_own_skull_is_left(table):
    """Seed: "если дилер вытянул свой череп, дилером становится игрок ближайший слева"."""
    t = table(3)
    t.stage1()
    t.play("0 bid 1", "1 pass", "2 agree", f"table flip 0 {skull(0)}")
    t.play(f"table deposit 0 {rose(0)}", f"table deposit 2 {rose(2)}")
    assert t.g.dealer == 1


def test_simultaneous_elimination_leaves_last_player(table):
    """Seed "Прочее" + "Последний игрок забирает банк": the dealer and the skull owner (who agreed)
    both lose their rose, keep only a skull, and are out together; the passer wins."""
    t = table(3, notes_per_player=2)
    t.stage1()
    t.play("0 bid 2", "1 pass", "2 agree", f"table flip 0 {rose(0)}", f"table flip 2 {skull(2)}")
    t.play(f"table deposit 0 {rose(0)}", f"table deposit 2 {rose(2)}")
    assert t.g.status[2] == "out" and t.g.status[0] == "out"
    assert t.g.is_over() and t.g.winner == 1


def test_next_dealer_skull_owner_out_goes_clockwise(table):
    """RULINGS §1 next dealer: the skull owner is out → the next remaining player after him."""
    t = table(4, notes_per_player=2)
    t.stage1()
    t.play("0 bid 2", "1 pass", "2 agree", "3 pass", f"table flip 0 {rose(0)}", f"table flip 2 {skull(2)}")
    t.play(f"table deposit 0 {rose(0)}", f"table deposit 2 {rose(2)}")
    assert t.g.status == ["out", "active", "out", "active"]
    assert t.g.dealer == 3


# ------------------------------------------------------------------------------ leaving, void, end
def test_leaver_counts_as_pass_by_default(table):
    """Seed "Примечание" + RULINGS §1: the leaver's note stays on the table until settlement and
    counts as a pass (default); he loses one note if the passers lose, then takes the rest back."""
    t = table(3)
    t.stage1()
    t.play("table leave 2")
    assert t.g.status[2] == "leaving" and t.g.stack[2] == 1
    t.reject("2 bid 1", "seat_out")
    t.play("0 bid 2", "1 agree")
    assert t.g.phase == "reveal" and 2 in t.g.passed
    t.play(f"table flip 0 {rose(0)}", f"table flip 2 {rose(2)}")
    assert t.g.owed == [2]
    ev = t.play(f"table deposit 2 {rose(2, 1)}")
    assert t.g.status[2] == "left" and "left" in t.kinds(ev)
    assert len(t.g.owned[2]) == 3 and t.g.dealer == 1  # he went home with his 3 notes


def test_leaver_counts_as_agree_option(table):
    """Option ``leaver_counts_as="agree"``: the leaver sides with the dealer and pays on failure."""
    t = table(4, leaver_counts_as="agree")
    t.stage1()
    t.play("table leave 3", "0 bid 2", "1 agree", "2 pass")
    assert 3 in t.g.agreed and t.g.phase == "reveal"
    t.play(f"table flip 0 {rose(0)}", f"table flip 3 {skull(3)}")
    assert t.g.owed == [0, 1, 3]


def test_dealer_leaving_before_reveal_voids_round(table):
    """RULINGS §1: "If the current dealer leaves before the reveal, the round is void"."""
    t = table(3)
    t.stage1()
    t.play("0 place", "1 bid 2")
    ev = t.play("table leave 1")
    assert "round_void" in t.kinds(ev) and t.g.status[1] == "left"
    assert t.g.phase == "stage1" and t.g.round == 2 and t.g.dealer == 2


def test_leaver_before_placing_leaves_at_once(table):
    """A player who leaves with no note on the table simply leaves with his notes."""
    t = table(3)
    t.play("0 place", "1 place")
    ev = t.play("table leave 2")
    assert t.g.status[2] == "left" and t.g.phase == "stage2" and "left" in t.kinds(ev)


def test_last_opponent_leaving_ends_game(table):
    """When a leave leaves a single player, the round is void and that player takes the bank."""
    t = table(2)
    t.stage1()
    t.play("0 bid 1", "1 pass", f"table flip 0 {rose(0)}", f"table deposit 1 {rose(1)}")
    t.stage1()
    t.play("table leave 0")
    assert t.g.is_over() and t.g.winner == 1 and t.g.result()["bank"] == [rose(1)]


def test_operator_void_returns_everything(table):
    """RULINGS §0: "an operator 'void the round' action (everything returned, no payments)" — even
    deposits already made in this round go back."""
    t = table(3)
    t.stage1()
    t.play("0 bid 1", "1 pass", "2 pass", f"table flip 0 {rose(0)}", f"table deposit 1 {rose(1)}")
    assert len(t.g.bank) == 1
    ev = t.play("table void")
    assert not t.g.bank and sorted(t.g.owned[1]) == sorted(note_set(1))
    assert "round_void" in t.kinds(ev) and t.g.dealer == 0 and t.g.round == 2
    with pytest.raises(IllegalAction, match="nothing_to_void"):
        table(3, dealer=None).g.apply("table void")


def test_end_of_game_bank_handed_over_with_face_value(table):
    """Seed: "Последний игрок забирает банк"; RULINGS §1: "The engine shows the bank's serials and its
    face value"."""
    t = table(2, notes_per_player=2, denominations=True)
    t.stage1()
    ev = t.play("0 bid 1", "1 pass", f"table flip 0 {rose(0)}", f"table deposit 1 {rose(1)}")
    assert t.g.is_over() and t.g.winner == 0
    res = t.g.result()
    assert res["bank"] == [rose(1), skull(1)] and res["face_value"] == 200 and res["currency"] == "RUB"
    assert t.g.view(None)["bank"]["serials"] == [rose(1), skull(1)]
    assert ev[-1].kind == "game_over"
    t.reject("0 place", "game_over")
    assert t.g.legal_actions(0) == [] and t.g.legal_actions(None) == []


def test_unknown_seat_rejected(table):
    """Bad input: an unknown seat → ``unknown_seat`` (as actor or as target)."""
    t = table(3)
    t.reject("7 place", "unknown_seat")
    t.reject("table leave 9", "unknown_seat")
    t.reject("table flip 9 РЗ0000002", "unknown_seat")


def test_table_and_seat_actors_not_mixed(table):
    """Observations belong to the table, decisions to seats."""
    t = table(3)
    t.reject("table place", "bad_syntax")
    t.reject("0 flip 1 РЗ1000002", "bad_syntax")


def test_action_text_round_trips(table):
    """Every action verb has a text form that round-trips through ``parse_action``."""
    lines = ["table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 100,100,100,100",
             "table register 1 РЗ1000002,РЗ1000004,РЗ1000006,ЧР1000001 ?", "table dealer 2", "1 place",
             "2 bid 3", "0 agree", "1 pass", "table flip 2 РЗ2000002", "table deposit 1 ЧР1000001",
             "table leave 0", "table void"]
    for line in lines:
        a = SkullGame.parse_action(line)
        assert a.text() == line and SkullGame.parse_action(a.text()) == a
    assert {SkullGame.parse_action(x).VERB for x in lines} == {a.VERB for a in SkullGame.ACTIONS}


def test_registration_is_public_as_counts_only(table):
    """Issue 2: the public view never carries a face-down note's serial. The set-up scan shows the
    composition face up (seed "купюры выдаются в открытую"), so the public event says how many roses
    and skulls; the serials (soon face down in the hand) go to their owner's private event only."""
    t = table(2, dealer=None)
    events = t.g.apply("table register 0 РЗ0000002,РЗ0000004,РЗ0000006,ЧР0000001 ?")
    public = [e for e in events if e.private_to is None]
    assert [(e.kind, e.data) for e in public] == [("registered", {"seat": 0, "roses": 3, "skulls": 1})]
    assert "РЗ0000002" not in json.dumps([e.data for e in public])
    private = [e for e in events if e.private_to == 0]
    assert private and private[0].data["serials"] == ["РЗ0000002", "РЗ0000004", "РЗ0000006", "ЧР0000001"]
