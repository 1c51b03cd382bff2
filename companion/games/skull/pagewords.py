"""This game's words on the pages, by key — its views, events, values, verbs, its board
(``static/board.js``) — and its house-rule options' labels: English message ids,
translated where they are shown (``docs/architecture.md``, "The page's words")."""

from __future__ import annotations

from companion.games.spec import N_, Word

#: ``{key: word}``, the key as the page script looks it up (``GameSpec.page_words``)
PAGE_WORDS: dict[str, Word] = {
    # view keys, fields and the board's captions
    "status": N_("Status"), "notes": N_("Notes"), "leaver": N_("Player who leaves"),
    # the board: who holds the bid (a name after a colon: names are not declined)
    "bid_holder": N_("held by: %(name)s"),
    "stack": N_("Stack"), "passed": N_("Passed"), "agreed": N_("Agreed"), "on_table": N_("On the table"),
    "bank_value": N_("Bank value"), "registered": N_("Registered"),
    "table_notes": N_("Notes on the table"), "must_raise": N_("Must raise"), "roses": N_("Roses"),
    "skull_owner": N_("Skull's owner"), "chooser": N_("Chooses"), "owed": N_("Owe the bank"),
    "halt": N_("Halted"), "why": N_("Why"), "last_round": N_("Last round"), "serial": N_("Serial"),
    "serials": N_("Serials"), "denominations": N_("Face values"), "face_value": N_("Face value"),
    "currency": N_("Currency"),
    # what the seat does at the table now (the view's ``table_task``: the pad looks up task_<task>)
    "task_flip": N_("Your move: turn the notes over one by one, your own first — the camera reads them (or the operator enters them)"),
    "task_choose": N_("You choose which of the loser's notes goes to the bank — show it to the camera (or tell the operator)"),
    # the dealer once his own notes are face up (table_task "flip_others")
    "task_flip_others": N_("Your move: turn the other players' notes over one by one — the camera reads them (or the "
                           "operator enters them)"),
    # the same at a table that reads with no camera (its camera "unused": companion dashboard)
    "task_flip_nocam": N_("Your move: turn the notes over one by one, your own first — the operator enters them"),
    "task_choose_nocam": N_("You choose which of the loser's notes goes to the bank — tell the operator"),
    "task_flip_others_nocam": N_("Your move: turn the other players' notes over one by one — the operator enters them"),
    # values
    "val_other_owner": N_("the note is registered to another player"),
    "val_in_bank": N_("the note is already in the bank"), "val_active": N_("in play"),
    "val_rose": N_("rose"), "val_skull": N_("skull"), "val_success": N_("success"),
    "val_failure": N_("failure"),
    # phases
    "phase_setup": N_("set-up"), "phase_stage1": N_("stage 1"), "phase_stage2": N_("stage 2"),
    "phase_auction": N_("auction"), "phase_settlement": N_("settlement"), "phase_halted": N_("halted"),
    # verbs
    "v_place": N_("Place a note"), "v_dealer": N_("First dealer"), "v_bid": N_("Bid"),
    "v_raise": N_("Raise"), "v_pass": N_("Pass"), "v_agree": N_("Agree"), "v_flip": N_("Flip"),
    "v_leave": N_("Leave"), "v_deposit": N_("Deposit to the bank"), "v_register": N_("Register notes"),
    # the board's marks
    "b_to_speak": N_("To speak"), "b_owes": N_("Pays the bank"),
    # a player taken out whose notes lie on the table until the settlement (status "leaving")
    "val_leaving": N_("leaving"),
    # the settlement's centre line: who chooses the note for the bank (a name after a colon)
    "chooser_line": N_("Chooses the note for the bank: %(name)s"),
    # terms a view key, an event kind and a value share (the page looks up t_<term>)
    "t_face_value_unknown": N_("face value unknown"), "t_odd": N_("odd"), "t_even": N_("even"),
    "t_pass": N_("pass"), "t_roles": N_("roles"), "t_round_end": N_("round end"), "t_skull": N_("skull"),
    "t_rose": N_("rose"), "t_your_note_to_bank": N_("your note to bank"), "t_your_notes": N_("your notes"),
    "t_agree": N_("agree"), "t_bid": N_("bid"), "t_flip": N_("flip"), "t_deposit": N_("deposit"),
    "t_register": N_("register"), "t_leave": N_("leave"), "t_round_start": N_("round start"),
    "t_reveal_start": N_("reveal start"), "t_stage2": N_("stage2"), "t_note_to_bank": N_("note to bank"),
    "t_halted": N_("halted"), "t_registered": N_("registered"),
}

#: ``{option name: label}`` on the new-game form
OPTION_LABELS: dict[str, Word] = {
    "notes_per_player": N_("Notes per player"), "skulls_per_player": N_("Skulls per player"),
    "skull_parity": N_("A skull's last digit"), "leaver_counts_as": N_("A player who leaves counts as"),
    "last_skull_out": N_("Last skull: out at once"), "currency": N_("Currency of the notes"),
}
