"""A refusal whose fix needs the table's facts says them: the player and both counts for a wrong
number of cards («Аня: сдано 3 карты, а введено 2»), the limit a stake or bid broke, the seat that
must act, the card or suit the rules want. The engine puts the facts in ``IllegalAction.facts``;
``companion.dashboard.reasons`` words them in the page's language (the English ``detail`` stays
for logs)."""

from __future__ import annotations

import pytest

from companion.dashboard import create_app
from companion.dashboard.reasons import REASONS, WITH_FACTS, reason_message
from companion.i18n import M, render
from companion.games import new_game, registry
from companion.table import Table
from tests.dashboard.helpers import operator_client, seat_client
from tests.gamekit import rejects


def words(g, action, reason):
    """``(ru, en)``: the refusal of ``action`` in words, as the dashboard shows it."""
    exc = rejects(g, action, reason)
    ru, en = (reason_message(exc.reason, lang, g.GAME_ID, g.options, exc.facts) for lang in ("ru", "en"))
    plain = plain_sentences(g.GAME_ID)[reason]
    assert ru != plain[1] and en != plain[0], (reason, ru, en)  # facts, not the plain line
    return ru, en


def plain_sentences(game_id: str) -> dict:
    """The table's plain sentences and the game's own (its presenter's ``refusals``), ``{code:
    (English, Russian)}``."""
    ids = {**REASONS, **registry.get(game_id).presenter.refusals}
    return {code: (render(M(i), "en"), render(M(i), "ru")) for code, i in ids.items()}


# ------------------------------------------------------------------------------- wrong_count
def test_lottery_wrong_count_names_the_player_and_both_counts():
    g = new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    g.apply("0 spread 4,3,2,1")
    assert words(g, "table cards 2 QH,10S", "wrong_count") == (
        "Аня: сдано 3 карты, а введено 2.", "Аня was dealt 3 cards, but 2 were entered.")
    ru, _ = words(g, "table cards 3 AD,5S,7H,8H", "wrong_count")
    assert ru == "Борис: сдано 3 карты, а введено 4."


def test_infinity_wrong_count_names_the_player_and_both_counts():
    g = new_game("infinity", ["Аня", "Борис", "Вера", "Глеб"],
                 {"deck": {"100": 3, "200": 3, "300": 3, "500": 2, "INF": 1}, "deck_check": False,
                  "deals": 1, "infinity_points": 1000})
    for a in ("table deal 0", "0 play 100", "1 play 100", "2 play 200", "3 play 300", "0 play 500",
              "1 play 200", "0 play 100", "1 play 300", "2 play 300", "3 play 200", "2 play 500"):
        g.apply(a)
    assert g.view(None)["hand_counts"] == [0, 0, 0, 1]
    assert words(g, "table kept 3 INF,500", "wrong_count") == (
        "Глеб: на руках 1 карта, а введено 2.", "Глеб holds 1 card, but 2 were entered.")
    assert words(g, "table kept 0 INF", "wrong_seat")[0] == "Карты остались у другого игрока — Глеб."


# ------------------------------------------------------------------------------- the other games
def test_joker_game_refusals_name_limits_players_and_places():
    g = new_game("hoggenheimer", ["Аня", "Борис", "Вера"], {"starting_chips": 10, "max_stake": 20})
    assert words(g, "1 bet 0 QH", "stake_below_min")[0] == "Ставка меньше минимальной: не меньше 1 фишки."
    assert words(g, "1 bet 21 QH", "stake_above_max")[1] == "The stake is above the table maximum of 20 chips."
    assert words(g, "1 bet 15 QH", "insufficient_chips")[0] == "Борис: 10 фишек — меньше ставки 15."
    # the banker (10 chips) can cover 10 // 4 = 2 chips on a 2×2 square
    assert words(g, "1 bet 5 QH,KH,QS,KS", "bank_exposure")[0] == (
        "Банк не покроет такую выплату: на эту ставку сейчас можно поставить не больше 2 фишек.")
    assert words(g, "1 close", "not_banker")[0] == "Ставки закрывает только банкомет — Аня."
    assert words(g, "1 withdraw 9", "no_such_bet")[0] == "Открытой ставки №9 нет."
    g.apply("1 bet 2 QH")
    assert words(g, "2 withdraw 1", "not_your_bet")[0] == "Ставка №1 принадлежит другому игроку — Борис."
    g.apply("0 close")
    assert words(g, "table turn QH KH", "wrong_slot") == (
        "Q♥ положена на место K♥; её место — ряд черви ♥, колонка Q.",
        "Q♥ was put on K♥'s place; its place is the hearts ♥ row, column Q.")


def test_doubt_refusals_name_counts_and_the_dealer():
    g = new_game("doubt", ["Аня", "Борис", "Вера"], {"max_cards": 4})
    dealer = g.dealer
    other = (dealer + 1) % 3
    ru, en = words(g, f"{other} deal", "not_dealer")
    assert g.seats[dealer] in ru and g.seats[dealer] in en
    g.apply(f"{dealer} deal")
    lead = g.turn
    kind = g.deck["kinds"][0]["id"]
    assert words(g, f"{lead} place 5 {kind}", "bad_count")[0] == "За один ход кладут от 1 до 4 карт."
    g.apply(f"{lead} place 2 {kind}")
    g.apply(f"{g.turn} doubt")
    assert words(g, f"table reveal {kind}", "reveal_count_mismatch")[0] == (
        "В последнем ходе 2 карты: укажите ровно столько, а указано 1.")


def test_skull_refusals_name_the_bid_limits_and_players():
    from tests.games.skull.skull_helpers import Table as SkullTable

    t = SkullTable(3, dealer=None)
    g = t.g
    from tests.games.skull.skull_helpers import note_set

    g.apply(f"table register 0 {','.join(note_set(0))} ?")
    assert words(g, "table dealer 0", "registration_incomplete")[0] == (
        "Первого дилера выбирают, когда купюры всех зарегистрированы; ещё нет: Борис и Вера.")
    assert words(g, f"table register 0 {','.join(note_set(0))} ?", "already_registered")[0] == (
        "Аня: купюры уже зарегистрированы.")
    t = SkullTable(3, dealer=0)
    g = t.g
    t.stage1()
    assert words(g, "0 bid 4", "bid_too_high")[0] == "На столе всего 3 купюры: ставка не может быть больше."
    g.apply("0 bid 1")
    assert words(g, "1 bid 1", "bid_too_low")[0] == "Ставка должна быть больше текущей: не меньше 2."
    g.apply("1 agree")
    g.apply("2 agree")
    assert words(g, "1 pass", "must_raise")[0] == "Все согласились — новый дилер обязан повысить ставку: больше 1."


def test_lottery_spread_and_card_refusals():
    g = new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    assert words(g, "0 spread 4,3,2,2", "wrong_total")[0] == "Раскладка даёт 11, а разложить нужно 10 фишек."
    assert words(g, "0 spread 4,3,3", "bad_spread")[0] == (
        "Раскладка: 4 суммы по порядку мест призов, каждая 0 или больше.")
    ru, _ = words(g, "0 spread 4,4,1,1", "amounts_must_differ")
    assert ru == "Призы получились бы 4, 4, 1, 1 — суммы должны различаться."
    g.apply("0 spread 4,3,2,1")
    assert words(g, "table cards 0 QH,10S,2C", "not_a_player")[0].startswith("Банкир:")
    g.apply("table cards 2 QH,10S,2C")
    assert words(g, "table cards 2 QH,10S,2C", "already_read")[0] == "Аня: карты этой раздачи уже распознаны."
    assert words(g, "table cards 3 QH,5S,7H", "card_already_dealt")[0] == "Q♥ уже роздана в этой колоде."


def test_every_sentence_with_facts_speaks_both_languages_and_falls_back_without_them():
    table = {code: (render(M(i), "en"), render(M(i), "ru")) for code, i in REASONS.items()}
    cases = [(None, code, table) for code in WITH_FACTS] + [
        (spec.id, code, plain_sentences(spec.id)) for spec in registry.specs()
        for code in spec.presenter.refusals_with_facts]
    assert len(cases) > 40
    for game_id, code, plain in cases:
        assert code in plain, code
        # without facts (an old log's rejection, a facts key missing) the plain sentence is shown
        assert reason_message(code, "ru", game_id, None, {}) == plain[code][1]
        assert reason_message(code, "en", game_id, None, {"unrelated": 1}) == plain[code][0]


# ------------------------------------------------------------------------------- on the dashboard
@pytest.fixture
def dash(fast_dir):
    made = []

    def make(game, seats, options=None):
        table = Table(fast_dir / str(len(made)), pin="246810")
        table.new_game(game, seats, options)
        app = create_app(table, testing=True)
        made.append((table, app))
        return table, app

    yield make
    for table, app in made:
        app.extensions["companion"]["hub"].close()
        table.close()


def test_the_operator_reads_the_counts_in_the_page_language(dash):
    table, app = dash("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    assert table.submit("0 spread 4,3,2,1", "dashboard").accepted
    c, csrf = operator_client(app, table)
    r = c.post("/api/operator/manual", json={"action": "table cards 2 QH,10S"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 409 and r.json["reason"] == "wrong_count"
    assert r.json["message"] == "Аня: сдано 3 карты, а введено 2."
    assert "dealt 3" in r.json["detail"]  # the English detail stays for logs
    c.get("/lang/en")
    r = c.post("/api/operator/manual", json={"action": "table cards 2 QH,10S"}, headers={"X-CSRF-Token": csrf})
    assert r.json["message"] == "Аня was dealt 3 cards, but 2 were entered."


def test_a_seat_reads_the_table_limit(dash):
    table, app = dash("hoggenheimer", ["Аня", "Борис", "Вера"])
    c, csrf = seat_client(app, table, 1)
    r = c.post("/api/seat/action", json={"action": "1 bet 25 QH"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 409 and r.json["message"] == "Ставка больше максимальной: не больше 20 фишек."
