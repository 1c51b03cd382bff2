"""This game's words on the pages, by key — its views, events, values, verbs, its board
(``static/board.js``) — and its house-rule options' labels: English message ids,
translated where they are shown (``docs/architecture.md``, "The page's words")."""

from __future__ import annotations

from companion.games.spec import N_, Word

#: ``{key: word}``, the key as the page script looks it up (``GameSpec.page_words``)
PAGE_WORDS: dict[str, Word] = {
    # view keys, fields and the board's captions
    "prizes": N_("Prizes"), "prize": N_("Prize"),
    # phases
    "phase_spread": N_("chips on prizes"), "phase_draw": N_("the draw"), "phase_playoff": N_("play-off"),
    # verbs
    "v_cards": N_("Player's cards"), "v_take": N_("Take"),
    # terms a view key, an event kind and a value share (the page looks up t_<term>)
    "t_prizes_won": N_("prizes won"), "t_stakes_paid": N_("stakes paid"), "t_fines": N_("fines"),
    "t_amounts": N_("amounts"), "t_attack": N_("attack"), "t_banker_deck": N_("banker deck"),
    "t_box": N_("box"), "t_box_carried_in": N_("box carried in"), "t_cards_read": N_("cards read"),
    "t_chips_total": N_("chips total"), "t_current": N_("current"), "t_current_seats": N_("current seats"),
    "t_dealer_deck": N_("dealer deck"), "t_defender": N_("defender"), "t_draw": N_("draw"),
    "t_draws": N_("draws"), "t_expect": N_("expect"), "t_fine_paid": N_("fine paid"), "t_led": N_("led"),
    "t_players": N_("players"), "t_playoff": N_("playoff"), "t_playoff_stalled": N_("playoff stalled"),
    "t_playoff_variant": N_("playoff variant"), "t_prize": N_("prize"),
    "t_prize_replaced": N_("prize replaced"), "t_prize_turned": N_("prize turned"),
    "t_prize_won": N_("prize won"), "t_short": N_("short"), "t_spread": N_("spread"),
    "t_stake_paid": N_("stake paid"), "t_stall": N_("stall"), "t_taken": N_("taken"), "t_to": N_("to"),
    "t_to_spread": N_("to spread"), "t_variant": N_("variant"), "t_prizes_to_box": N_("prizes to box"),
}

#: ``{option name: label}`` on the new-game form
OPTION_LABELS: dict[str, Word] = {
    "banker": N_("Banker (seat number)"), "dealer": N_("Dealer (seat number)"),
    "officials_play": N_("Banker and dealer play too"), "chips": N_("Chips per player"),
    "entry_stake": N_("Entry stake"), "card_stake": N_("Stake per card"), "box": N_("Box at the start"),
    "playoff": N_("Play-off variant"), "fine_per_card": N_("Fine per card"),
    "stall_limit": N_("Moves without progress before a stall"),
}
