"""This game's words on the pages, by key — its views, events, values, verbs, its board
(``static/board.js``) — and its house-rule options' labels: English message ids,
translated where they are shown (``docs/architecture.md``, "The page's words")."""

from __future__ import annotations

from companion.games.spec import N_, Word

#: ``{key: word}``, the key as the page script looks it up (``GameSpec.page_words``)
PAGE_WORDS: dict[str, Word] = {
    # view keys, fields and the board's captions
    "in_game": N_("In game"), "pile": N_("Pile"), "claim": N_("Claim"), "claim_name": N_("Claim"),
    "placements": N_("Placements"), "last_check": N_("Last check"), "out_order": N_("Out, in order"),
    "game_no": N_("Game no."), "games": N_("Games"), "answer": N_("Answer"),
    "last_cards": N_("Last cards"), "size": N_("Size"), "kinds": N_("Kinds"),
    # phases
    "phase_answer": N_("answer"), "phase_check": N_("the check"),
    # verbs
    "v_add": N_("Add"), "v_reveal": N_("Reveal"), "v_check": N_("Check"), "v_claim": N_("Claim"),
    "v_answer": N_("Answer"),
    # «place» lays cards here (skull's «v_place» places a note): the page looks up v_<game id>_<verb> first
    "v_doubt_place": N_("Lay cards"),
    # the game's own words stay Russian on an English page too, with their meaning beside them
    "v_believe": N_("Верю · I believe"), "v_disbelieve": N_("Не верю · I doubt it"),
    "v_doubt": N_("Не верю · I doubt it"), "v_trust": N_("Верю · I believe"),
    # the board's marks
    "b_answers": N_("Must answer"),
    # terms a view key, an event kind and a value share (the page looks up t_<term>)
    "t_acorn": N_("acorn"), "t_added": N_("added"), "t_answered": N_("answered"),
    "t_answerer": N_("answerer"), "t_believe": N_("believe"), "t_believe_right": N_("believe right"),
    "t_believe_wrong": N_("believe wrong"), "t_berry": N_("berry"), "t_checked": N_("checked"),
    "t_doubt": N_("doubt"), "t_doubt_right": N_("doubt right"), "t_doubt_wrong": N_("doubt wrong"),
    "t_forest": N_("forest"), "t_hare": N_("hare"), "t_hedgehog": N_("hedgehog"), "t_leaf": N_("leaf"),
    "t_loser": N_("loser"), "t_loser_name": N_("loser name"), "t_losses": N_("losses"),
    "t_match_over": N_("match over"), "t_mushroom": N_("mushroom"), "t_owl": N_("owl"),
    "t_per_game": N_("per game"), "t_placed": N_("placed"), "t_placer": N_("placer"),
    "t_player_out": N_("player out"), "t_squirrel": N_("squirrel"), "t_taker": N_("taker"),
    "t_answer": N_("answer"), "t_check": N_("check"), "t_true": N_("claim true"),
}

#: ``{option name: label}`` on the new-game form
OPTION_LABELS: dict[str, Word] = {
    "max_cards": N_("Most cards in one move"), "first_dealer": N_("First dealer (seat number)"),
    "games": N_("Games in the match"),
}
