"""This game's words on the pages, by key — its views, events, values, verbs, its board
(``static/board.js``) and bet grid (``static/betgrid.js``) — and its
house-rule options' labels: English message ids, translated where they are shown
(``docs/architecture.md``, "The page's words")."""

from __future__ import annotations

from companion.games.spec import N_, Word
from companion.i18n import MN

#: ``{key: word}``, the key as the page script looks it up (``GameSpec.page_words``)
PAGE_WORDS: dict[str, Word] = {
    # view keys, fields and the board's captions
    "odds": N_("Odds"), "chance": N_("chance"), "bets": N_("Bets"), "layout": N_("Layout"),
    "joker": N_("Joker"), "bet_id": N_("Bet number"), "stake": N_("Stake"), "payout": N_("Payout"),
    "exposure": N_("Banker's exposure"), "limits": N_("Limits"), "chain": N_("Turned cards"),
    "deals_total": N_("Deals"), "staked": N_("Staked"), "probability": N_("Chance"),
    "up_of": N_("%(n)s of %(k)s face up"), "shape": N_("Shape"), "last_settlement": N_("Last settlement"),
    # the odds legend: «1 карта → 1:1», «8 карт → 8:1», each count with its noun's plural form
    "n_cards": N_("cards"),
    **{f"n_cards_{k}": MN("%(n)s card", "%(n)s cards", k) for k in (1, 2, 4, 8)},
    # the bet grid on the seat page: what to tap, why a selection is no bet, the button that places it
    "bet_hint": N_("Tap your bet's cards; a suit's sign takes its row, a rank its column"),
    "bet_diagonal": N_("A diagonal is not a bet: touching cards share a side"),
    "bet_apart": N_("These two cards do not touch: not a bet"),
    "bet_no_shape": N_("%(n)s cards selected: there is no such bet"),
    "bet_uncovered": N_("The bank cannot cover it now"),
    "bet_room": N_("The bank covers a stake up to %(n)s here"), "bet_place": N_("Place the bet"),
    # phases
    "phase_betting": N_("bets"), "phase_turning": N_("turning cards"), "phase_chain": N_("turning cards"),
    # verbs
    "v_turn": N_("Card turned"), "v_bet": N_("Bet"), "v_withdraw": N_("Withdraw"),
    "v_close": N_("Close bets"),
    # terms a view key, an event kind and a value share (the page looks up t_<term>)
    "t_withdraw": N_("withdraw a bet"), "t_banker_chips": N_("banker chips"),
    "t_banker_net": N_("banker net"), "t_banker_results": N_("banker results"), "t_bet": N_("bet"),
    "t_bet_withdrawn": N_("bet withdrawn"), "t_bets_closed": N_("bets closed"),
    "t_card_turned": N_("card turned"), "t_close": N_("close"), "t_column": N_("column"),
    "t_counted": N_("counted"), "t_joker_first": N_("joker first"),
    "t_joker_first_deals": N_("joker first deals"), "t_max_payout": N_("max payout"),
    "t_max_stake": N_("max stake"), "t_min_stake": N_("min stake"),
    "t_bank_room": N_("the bank can still pay"), "t_new_deal": N_("new deal"), "t_pair": N_("pair"),
    "t_row": N_("row"), "t_settled": N_("settled"), "t_square": N_("square"),
}

#: ``{option name: label}`` on the new-game form
OPTION_LABELS: dict[str, Word] = {
    "starting_chips": N_("Chips at the start"), "min_stake": N_("Minimum stake"),
    "max_stake": N_("Maximum stake"), "first_banker": N_("First banker (seat number)"),
    "rounds": N_("Rounds"), "bank_must_cover": N_("The bank must cover the bets"),
    "joker_first_same_banker": N_("Joker first: same banker again"),
}
