"""A refusal whose fix needs the table's facts says them: the player and both counts for a wrong
number of cards («Аня: сдано 3 карты, а введено 2»), the limit a stake or bid broke, the seat that
must act, the card or suit the rules want. The engine puts the facts in ``IllegalAction.facts``;
``companion.dashboard.reasons`` words them in the page's language (the English ``detail`` stays
for logs).

The engine-side checks assert the message id and its facts (:mod:`tests.wording`); the sentences
are the catalogue's. The dashboard checks at the end keep one rendered sentence per language."""

from __future__ import annotations


from companion.dashboard.reasons import REASONS, WITH_FACTS, reason_message, reason_words
from companion.i18n import M, render
from companion.games import new_game, registry
from tests.dashboard.helpers import operator_client, seat_client
from tests.wording import refusal, said


def words(g, action, reason):
    """``(id, facts)``: the refusal of ``action``, as the dashboard words it (facts, not the
    table's plain sentence for ``reason``)."""
    msg = refusal(g, action, reason)
    assert render(msg, "en") != plain_sentences(g.GAME_ID)[reason][0], (reason, msg)  # facts, not the plain line
    return said(msg)


def plain_sentences(game_id: str) -> dict:
    """The table's plain sentences and the game's own (its presenter's ``refusals``), ``{code:
    (English, Russian)}``."""
    ids = {**REASONS, **registry.get(game_id).presenter.refusals}
    return {code: (render(M(i), "en"), render(M(i), "ru")) for code, i in ids.items()}


# ------------------------------------------------------------------------------- wrong_count
DEALT = "%(player)s was dealt %(n)s card, but %(entered)s were entered."


def test_lottery_wrong_count_names_the_player_and_both_counts():
    g = new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    g.apply("0 spread 4,3,2,1")
    assert words(g, "table cards 2 QH,10S", "wrong_count") == (DEALT, {"player": "Аня", "n": 3, "entered": 2})
    assert words(g, "table cards 3 AD,5S,7H,8H", "wrong_count") == (DEALT, {"player": "Борис", "n": 3, "entered": 4})


def test_infinity_wrong_count_names_the_player_and_both_counts():
    g = new_game("infinity", ["Аня", "Борис", "Вера", "Глеб"],
                 {"deck": {"100": 3, "200": 3, "300": 3, "500": 2, "INF": 1}, "deck_check": False,
                  "deals": 1, "infinity_points": 1000})
    for a in ("table deal 0", "0 play 100", "1 play 100", "2 play 200", "3 play 300", "0 play 500",
              "1 play 200", "0 play 100", "1 play 300", "2 play 300", "3 play 200", "2 play 500"):
        g.apply(a)
    assert g.view(None)["hand_counts"] == [0, 0, 0, 1]
    assert words(g, "table kept 3 INF,500", "wrong_count") == (
        "%(player)s holds %(cards)s, but %(entered)s were entered.", {"player": "Глеб", "cards": "1 card", "entered": 2})
    assert words(g, "table kept 0 INF", "wrong_seat") == (
        "%(player)s is the last player holding cards.", {"player": "Глеб"})


# ------------------------------------------------------------------------------- the other games
def test_joker_game_refusals_name_limits_players_and_places():
    g = new_game("hoggenheimer", ["Аня", "Борис", "Вера"], {"starting_chips": 10, "max_stake": 20})
    assert words(g, "1 bet 0 QH", "stake_below_min") == (
        "The stake is below the table minimum of %(chips)s.", {"chips": "genitive|1 chip"})
    assert words(g, "1 bet 21 QH", "stake_above_max") == (
        "The stake is above the table maximum of %(chips)s.", {"chips": "genitive|20 chips"})
    assert words(g, "1 bet 15 QH", "insufficient_chips") == (
        "%(player)s has %(chips)s, less than the stake of %(stake)s.", {"player": "Борис", "chips": "10 chips", "stake": 15})
    # the banker (10 chips) can cover 10 // 4 = 2 chips on a 2×2 square
    assert words(g, "1 bet 5 QH,KH,QS,KS", "bank_exposure") == (
        "The bank cannot cover that payout: at most %(chips)s on this bet now.", {"chips": "genitive|2 chips"})
    assert words(g, "1 close", "not_banker") == ("Only the banker, %(player)s, closes the bets.", {"player": "Аня"})
    assert words(g, "1 withdraw 9", "no_such_bet") == ("There is no open bet no. %(bet)s.", {"bet": 9})
    g.apply("1 bet 2 QH")
    assert words(g, "2 withdraw 1", "not_your_bet") == ("Bet no. %(bet)s is %(player)s's.", {"bet": 1, "player": "Борис"})
    g.apply("0 close")
    assert words(g, "table turn QH KH", "wrong_slot") == (
        "%(card)s was put on %(slot)s's place; its place is the %(suit)s row, column %(rank)s.",
        {"card": "Q♥", "slot": "K♥", "suit": "hearts ♥", "rank": "Q"})


def test_doubt_refusals_name_counts_and_the_dealer():
    g = new_game("doubt", ["Аня", "Борис", "Вера"], {"max_cards": 4})
    dealer = g.dealer
    other = (dealer + 1) % 3
    assert words(g, f"{other} deal", "not_dealer") == (
        "The dealer, %(player)s, reports the deal.", {"player": g.seats[dealer]})
    g.apply(f"{dealer} deal")
    lead = g.turn
    kind = g.deck["kinds"][0]["id"]
    assert words(g, f"{lead} place 5 {kind}", "bad_count") == ("One move lays 1 to %(n)s card.", {"n": 4})
    g.apply(f"{lead} place 2 {kind}")
    g.apply(f"{g.turn} doubt")
    assert words(g, f"table reveal {kind}", "reveal_count_mismatch") == (
        "The last move laid %(cards)s: list exactly that many, not %(given)s.", {"cards": "2 cards", "given": 1})


def test_skull_refusals_name_the_bid_limits_and_players():
    from tests.games.skull.skull_helpers import Table as SkullTable

    t = SkullTable(3, dealer=None)
    g = t.g
    from tests.games.skull.skull_helpers import note_set

    g.apply(f"table register 0 {','.join(note_set(0))} ?")
    assert words(g, "table dealer 0", "registration_incomplete") == (
        "The first dealer is chosen once every player's notes are registered; still missing: %(missing)s.",
        {"missing": "Борис and Вера"})
    assert words(g, f"table register 0 {','.join(note_set(0))} ?", "already_registered") == (
        "%(player)s's notes are already registered.", {"player": "Аня"})
    t = SkullTable(3, dealer=0)
    g = t.g
    t.stage1()
    assert words(g, "0 bid 4", "bid_too_high") == ("There are only %(notes)s on the table: bid no more.", {"notes": "3 notes"})
    g.apply("0 bid 1")
    assert words(g, "1 bid 1", "bid_too_low") == (
        "The bid must be higher than the current bid: at least %(least)s.", {"least": 2})
    g.apply("1 agree")
    g.apply("2 agree")
    assert words(g, "1 pass", "must_raise") == ("Everybody agreed: the new dealer must raise above %(bid)s.", {"bid": 1})


def test_lottery_spread_and_card_refusals():
    g = new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    assert words(g, "0 spread 4,3,2,2", "wrong_total") == (
        "The spread adds up to %(total)s; %(pool)s are to be spread.", {"total": 11, "pool": "object|10 chips"})
    assert words(g, "0 spread 4,3,3", "bad_spread") == (
        "The spread is %(n)s amounts, one per prize place in order, each 0 or more.", {"n": 4})
    assert words(g, "0 spread 4,4,1,1", "amounts_must_differ") == (
        "The prizes would carry %(prizes)s: make every amount different.", {"prizes": "4, 4, 1, 1"})
    g.apply("0 spread 4,3,2,1")
    assert words(g, "table cards 0 QH,10S,2C", "not_a_player") == (
        "%(player)s holds no cards in this game (banker or dealer).", {"player": "Банкир"})
    g.apply("table cards 2 QH,10S,2C")
    assert words(g, "table cards 2 QH,10S,2C", "already_read") == (
        "%(player)s's cards for this deal are already read.", {"player": "Аня"})
    assert words(g, "table cards 3 QH,5S,7H", "card_already_dealt") == ("%(card)s of this deck is already dealt.", {"card": "Q♥"})


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
def test_the_operator_reads_the_counts_in_the_page_language(dash):
    table, app = dash("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    assert table.submit("0 spread 4,3,2,1", "dashboard").accepted
    c, csrf = operator_client(app, table)
    r = c.post("/api/operator/manual", json={"action": "table cards 2 QH,10S"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 409 and r.json["reason"] == "wrong_count"
    # the one rendered check of a refusal with facts, per language (the rest assert ids and facts)
    assert r.json["message"] == "Аня: сдано 3 карты, а введено 2."
    assert "dealt 3" in r.json["detail"]  # the English detail stays for logs
    c.get("/lang/en")
    r = c.post("/api/operator/manual", json={"action": "table cards 2 QH,10S"}, headers={"X-CSRF-Token": csrf})
    assert r.json["message"] == "Аня was dealt 3 cards, but 2 were entered."


def test_a_seat_reads_the_table_limit(dash):
    table, app = dash("hoggenheimer", ["Аня", "Борис", "Вера"])
    c, csrf = seat_client(app, table, 1)
    r = c.post("/api/seat/action", json={"action": "1 bet 25 QH"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 409 and r.json["reason"] == "stake_above_max"
    # the limit, in the page's language: the sentence with the facts the engine gives
    told = reason_words("stake_above_max", "hoggenheimer", None, {"max_stake": 20})
    assert said(told) == ("The stake is above the table maximum of %(chips)s.", {"chips": "genitive|20 chips"})
    assert r.json["message"] == render(told, "ru")
