"""This game's words on the pages, by key — its views, events, values, verbs, its board
(``static/board.js``) — and its house-rule options' labels: English message ids,
translated where they are shown (``docs/architecture.md``, "The page's words")."""

from __future__ import annotations

from companion.games.spec import N_, Word

#: ``{key: word}``, the key as the page script looks it up (``GameSpec.page_words``)
PAGE_WORDS: dict[str, Word] = {
    # view keys, fields and the board's captions
    "scores": N_("Scores"), "token": N_("Token"), "points": N_("Points"),
    # phases
    "phase_kept": N_("last cards shown"),
    # verbs
    "v_hoi": N_("HOY!"), "v_kept": N_("Cards kept to the end"),
    # terms a view key, an event kind and a value share (the page looks up t_<term>)
    "t_rotate": N_("in turn (left of the last first leader)"), "t_free": N_("chosen at the table"),
    "t_card_played": N_("card played"), "t_cards_each": N_("cards each"), "t_cards_kept": N_("cards kept"),
    "t_cards_left": N_("cards left"), "t_deal_over": N_("deal over"), "t_deal_scores": N_("deal scores"),
    "t_half": N_("half"), "t_hand_counts": N_("hand counts"), "t_hoy": N_("hoy"), "t_hoys": N_("hoys"),
    "t_kept_seat": N_("kept seat"), "t_play_declared": N_("play declared"),
    "t_simplified_scoring": N_("simplified scoring"), "t_stock": N_("stock"), "t_totals": N_("totals"),
    "t_trick_started": N_("trick started"), "t_trick_won": N_("trick won"), "t_tricks": N_("tricks"),
    "t_unseen": N_("unseen"), "t_voided_deals": N_("voided deals"), "t_winner_names": N_("winner names"),
    "t_your_turn": N_("your turn"), "t_face": N_("face"), "t_scores": N_("scores"),
    "t_points": N_("points"),
}

#: ``{option name: label}`` on the new-game form
OPTION_LABELS: dict[str, Word] = {
    "deals": N_("Deals"), "simplified_scoring": N_("Simplified scoring"),
    "infinity_points": N_("Points of the Infinity card"), "deck_check": N_("Check the deck"),
    "deal_leader": N_("Who leads a deal"),
}
