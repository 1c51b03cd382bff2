"""Languages: Russian by default, English switchable (Flask-Babel; catalogues in web/translations).

Message ids are English; ``web/translations/ru/LC_MESSAGES/messages.po`` holds the Russian.
The page scripts get their words from :func:`js_words` (the same catalogue), so one .po file
translates the templates and the live-rendered parts alike.
"""

from __future__ import annotations

from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext
from flask_babel import pgettext

from companion.games import registry
from companion.i18n import render

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
COOKIE = "lang"


def select_locale() -> str:
    """The ``lang`` cookie if it names a supported language, else Russian."""
    lang = request.cookies.get(COOKIE, "")
    return lang if lang in LANGUAGES else DEFAULT


# Words the page scripts need: UI labels, common view keys and common action verbs of the five
# games. Unknown keys and verbs are shown as they are (underscores as spaces).
_WORDS = {
    # UI
    "turn": _l("Turn"), "dealer": _l("Dealer"), "you": _l("You"), "pending": _l("Counting"),
    "history": _l("History"), "no_game": _l("No game yet. The operator starts one."),
    "no_game_operator": _l("No game yet: start one below."),
    "over": _l("Game over"), "result": _l("Result"), "hw_status": _l("Table status"), "status": _l("Status"),
    "buttons": _l("Button box"), "camera": _l("Camera"), "ocr": _l("OCR"),
    "state_ok": _l("working"), "state_warn": _l("check"), "state_error": _l("fault"),
    "state_absent": _l("not connected"), "state_sim": _l("simulated"), "state_unused": _l("not used"),
    "live": _l("Live"), "offline": _l("Reconnecting…"),
    "no_answer": _l("No answer from the table: look at the table, then repeat if it is needed"), "your_actions": _l("Your actions"),
    "wait": _l("Waiting for other players"),
    "task_flip": _l("Your move: turn the notes over one by one, your own first — the camera reads them (or the operator enters them)"),
    "task_choose": _l("You choose which of the loser's notes goes to the bank — show it to the camera (or tell the operator)"), "seat_hint": _l("number from 1 or name"), "how_many": _l("%(n)s of them"),
    "amounts_hint": _l("Type the amounts as numbers, separated by spaces or commas."),
    "quoted": _l("«%(text)s»"),  # a quoted word: «…» in Russian, “…” on an English page
    "sep_spaced": _l("separated by spaces or commas"), "sep_lines": _l("one a line or separated by commas"),
    "amount_negative": _l("«%(field)s»: an amount cannot be negative (%(value)s): type 0 or more."),
    "your_turn_table": _l("Your move: play it on the table — the camera reads it (or the operator enters it)"), "rejected": _l("Not accepted"),
    "accepted": _l("Accepted"), "send": _l("OK"), "table_actions": _l("Table actions"),
    "prompts": _l("Prompts"), "manual": _l("Enter by hand"), "private": _l("only you see this"),
    "table_action": _l("Table"), "undo": _l("Last action undone"), "seat": _l("Seat"),
    "undone": _l("Undone: %(action)s"),
    # a seat handed over from the console (`table console N`, `table bot N`; N from 1)
    "seat_console": _l("seat %(n)s (%(name)s) is played from the console"),
    "seat_bot": _l("seat %(n)s (%(name)s) is played by the bots"),
    "all_console": _l("every seat is played from the console"), "all_bot": _l("every seat is played by the bots"),
    "odds": _l("Odds"), "chance": _l("chance"), "bets": _l("Bets"), "layout": _l("Layout"),
    "joker": _l("Joker"), "action": _l("Action"), "bank": _l("Bank"), "notes": _l("Notes"),
    "info": _l("Game"), "yes": _l("yes"), "no": _l("no"), "source_manual": _l("entered by hand"),
    "blank_unknown": _l("leave empty if unknown"), "required_field": _l("required"),
    "confirm_leave": _l("Take %(name)s out of the game? This cannot be undone by the player."),
    "leave_button": _l("Take out of the game"),
    # skull's board: who holds the bid (a name after a colon: names are not declined)
    "bid_holder": _l("held by: %(name)s"),
    # the console's «Сейчас» line: whose turn, the table waiting for the operator's entry, or nothing to do
    "now_turn": _l("Turn: %(names)s"), "now_yours": _l("the table waits for your entry below"),
    "now_nothing": _l("nothing to do now"), "now_next_game": _l("start another game below"),
    # action fields without a view word of their own (the manual entry's «Fill in …» message)
    "owner": _l("Player"), "leaver": _l("Player who leaves"), "bet_id": _l("Bet number"),
    # common view keys
    "phase": _l("Phase"), "round": _l("Round"), "bid": _l("Bid"), "stack": _l("Stack"),
    "stacks": _l("Stacks"), "hand": _l("Hand"), "cards": _l("Cards"), "score": _l("Score"),
    "scores": _l("Scores"), "name": _l("Name"), "in_game": _l("In game"), "passed": _l("Passed"),
    "agreed": _l("Agreed"), "pile": _l("Pile"), "claim": _l("Claim"), "claim_name": _l("Claim"),
    "placements": _l("Placements"), "count": _l("Count"), "discard": _l("Discard"),
    "last_check": _l("Last check"), "out_order": _l("Out, in order"), "deck": _l("Deck"),
    "game_no": _l("Game no."), "games": _l("Games"), "answer": _l("Answer"), "winner": _l("Winner"),
    "stake": _l("Stake"), "payout": _l("Payout"), "trick": _l("Trick"), "token": _l("Token"),
    "bidder": _l("Bidder"), "revealed": _l("Revealed"), "on_table": _l("On the table"),
    "lost": _l("Lost"), "out": _l("Out"), "last_cards": _l("Last cards"), "size": _l("Size"),
    "kinds": _l("Kinds"), "prizes": _l("Prizes"), "points": _l("Points"), "deal": _l("Deal"),
    "banker": _l("Banker"), "chips": _l("Chips"), "bank_value": _l("Bank value"),
    "registered": _l("Registered"), "face_down": _l("Face down"), "face_up": _l("Face up"),
    "table_notes": _l("Notes on the table"), "must_raise": _l("Must raise"), "roses": _l("Roses"),
    "outcome": _l("Outcome"), "skull_owner": _l("Skull's owner"), "chooser": _l("Chooses"),
    "owed": _l("Owe the bank"), "halt": _l("Halted"), "why": _l("Why"),
    "val_other_owner": _l("the note is registered to another player"),
    "val_in_bank": _l("the note is already in the bank"), "last_round": _l("Last round"),
    "options": _l("House rules"), "serial": _l("Serial"), "role": _l("Role"), "serials": _l("Serials"), "denominations": _l("Face values"), "card": _l("Card"),
    "face_value": _l("Face value"), "currency": _l("Currency"), "exposure": _l("Banker's exposure"),
    "limits": _l("Limits"), "chain": _l("Turned cards"), "deals_total": _l("Deals"), "staked": _l("Staked"),
    "probability": _l("Chance"), "up_of": _l("%(n)s of %(k)s face up"), "turned": _l("Turned up"),
    "prize": _l("Prize"), "shape": _l("Shape"), "aside": _l("Aside"), "last_settlement": _l("Last settlement"),
    # common values and phases
    "val_active": _l("in play"), "val_out": _l("out"), "val_left": _l("left"), "val_rose": _l("rose"),
    "val_skull": _l("skull"), "val_success": _l("success"), "val_failure": _l("failure"),
    "phase_setup": _l("set-up"), "phase_stage1": _l("stage 1"), "phase_stage2": _l("stage 2"),
    "phase_auction": _l("auction"), "phase_reveal": _l("reveal"), "phase_settlement": _l("settlement"),
    "phase_over": _l("game over"), "phase_deal": _l("deal"), "phase_play": _l("play"),
    "phase_betting": _l("bets"), "phase_turning": _l("turning cards"), "phase_chain": _l("turning cards"),
    "phase_halted": _l("halted"), "phase_lead": _l("first lay"), "phase_answer": _l("answer"),
    "phase_check": _l("the check"), "phase_kept": _l("last cards shown"), "phase_spread": _l("chips on prizes"),
    "phase_draw": _l("the draw"), "phase_playoff": _l("play-off"),
    "b_passed": _l("Passed"), "b_agreed": _l("Agrees"), "n_cards": _l("cards"),
    # common verbs
    "v_bid": _l("Bid"), "v_raise": _l("Raise"), "v_pass": _l("Pass"), "v_agree": _l("Agree"),
    # the game's own words stay Russian on an English page too, with their meaning beside them
    "v_believe": _l("Верю · I believe"), "v_disbelieve": _l("Не верю · I doubt it"),
    "v_doubt": _l("Не верю · I doubt it"), "v_trust": _l("Верю · I believe"), "v_place": _l("Place a note"), "v_doubt_place": _l("Lay cards"), "v_add": _l("Add"), "v_play": _l("Play"),
    "v_take": _l("Take"), "v_hoi": _l("HOY!"), "v_void": _l("Void the round"), "v_flip": _l("Flip"),
    "v_reveal": _l("Reveal"), "v_pick": _l("Pick"), "v_bet": _l("Bet"), "v_leave": _l("Leave"),
    "v_deal": _l("Deal"), "v_check": _l("Check"), "v_claim": _l("Claim"), "v_more": _l("More"),
    "v_deposit": _l("Deposit to the bank"), "v_scan": _l("Scan"), "v_undo": _l("Undo"),
    "v_cards": _l("Player's cards"),
    "v_register": _l("Register notes"), "v_dealer": _l("First dealer"), "v_withdraw": _l("Withdraw"),
    "v_close": _l("Close bets"), "v_turn": _l("Card turned"), "v_answer": _l("Answer"),
    "v_kept": _l("Cards kept to the end"),
}


# Terms of the five games' views, events, values and verbs, for the generic renderer: the page
# script looks a key up as itself, then as ``t_<term>`` (``e_round_end`` -> ``t_round_end``), so
# one word serves a view key, an event kind and a value alike. English shows the term itself.
_TERMS = {
    "rotate": _l("in turn (left of the last first leader)"), "free": _l("chosen at the table"),
    "withdraw": _l("withdraw a bet"), "prizes_won": _l("prizes won"), "stakes_paid": _l("stakes paid"), "fines": _l("fines"),
    "acorn": _l("acorn"), "added": _l("added"), "amounts": _l("amounts"), "answered": _l("answered"),
    "answerer": _l("answerer"), "attack": _l("attack"), "balances": _l("balances"),
    "banker_chips": _l("banker chips"), "banker_deck": _l("banker deck"), "banker_net": _l("banker net"),
    "banker_results": _l("banker results"), "believe": _l("believe"), "believe_right": _l("believe right"),
    "believe_wrong": _l("believe wrong"), "berry": _l("berry"), "bet": _l("bet"),
    "bet_withdrawn": _l("bet withdrawn"), "bets_closed": _l("bets closed"), "box": _l("box"),
    "box_carried_in": _l("box carried in"), "card_played": _l("card played"),
    "card_turned": _l("card turned"), "cards_each": _l("cards each"), "cards_kept": _l("cards kept"),
    "cards_left": _l("cards left"), "cards_read": _l("cards read"), "checked": _l("checked"),
    "chips_total": _l("chips total"), "close": _l("close"), "column": _l("column"), "counted": _l("counted"),
    "covered": _l("covered"), "current": _l("current"), "current_seats": _l("current seats"),
    "deal_over": _l("deal over"), "deal_scores": _l("deal scores"), "dealer_deck": _l("dealer deck"),
    "deals": _l("deals"), "dealt": _l("dealt"), "defender": _l("defender"), "doubt": _l("doubt"),
    "doubt_right": _l("doubt right"), "doubt_wrong": _l("doubt wrong"), "draw": _l("draw"),
    "draws": _l("draws"), "expect": _l("expect"), "face_value_unknown": _l("face value unknown"),
    "fine_paid": _l("fine paid"), "forest": _l("forest"), "game": _l("game"), "game_over": _l("game over"),
    "half": _l("half"), "hand_counts": _l("hand counts"), "hands": _l("hands"), "hare": _l("hare"),
    "hedgehog": _l("hedgehog"), "hoy": _l("hoy"), "hoys": _l("hoys"), "id": _l("id"),
    "joker_first": _l("joker first"), "joker_first_deals": _l("joker first deals"),
    "kept_seat": _l("kept seat"), "kind": _l("kind"), "last_winner": _l("last winner"), "lead": _l("lead"),
    "leader": _l("leader"), "leaf": _l("leaf"), "led": _l("led"), "loser": _l("loser"),
    "loser_name": _l("loser name"), "losses": _l("losses"), "match_over": _l("match over"),
    "max_payout": _l("max payout"), "max_stake": _l("max stake"), "min_stake": _l("min stake"),
    "bank_room": _l("the bank can still pay"),
    "mushroom": _l("mushroom"), "net": _l("net"), "new_deal": _l("new deal"),
    "next_dealer": _l("next dealer"), "odd": _l("odd"), "even": _l("even"), "order": _l("order"),
    "owl": _l("owl"), "pair": _l("pair"), "pass": _l("pass"), "per_game": _l("per game"),
    "placed": _l("placed"), "placer": _l("placer"), "play_declared": _l("play declared"),
    "player_out": _l("player out"), "players": _l("players"), "playoff": _l("playoff"),
    "playoff_stalled": _l("playoff stalled"), "playoff_variant": _l("playoff variant"), "prize": _l("prize"),
    "prize_replaced": _l("prize replaced"), "prize_turned": _l("prize turned"), "prize_won": _l("prize won"),
    "roles": _l("roles"), "round_end": _l("round end"), "rounds": _l("rounds"), "row": _l("row"),
    "settled": _l("settled"), "short": _l("short"),
    "simplified_scoring": _l("simplified scoring"), "skull": _l("skull"), "rose": _l("rose"),
    "slot": _l("slot"), "spread": _l("spread"), "square": _l("square"), "squirrel": _l("squirrel"),
    "stake_paid": _l("stake paid"), "stakes": _l("stakes"), "stall": _l("stall"), "stock": _l("stock"),
    "taken": _l("taken"), "taker": _l("taker"), "to": _l("to"), "to_act": _l("to act"),
    "to_spread": _l("to spread"), "totals": _l("totals"), "trick_started": _l("trick started"),
    "trick_won": _l("trick won"), "tricks": _l("tricks"), "turned": _l("turned"), "unseen": _l("unseen"),
    "variant": _l("variant"), "verbs": _l("verbs"), "voided_deals": _l("voided deals"), "voids": _l("voids"),
    "winner_names": _l("winner names"), "winners": _l("winners"), "won": _l("won"),
    "your_note_to_bank": _l("your note to bank"), "your_notes": _l("your notes"),
    "your_turn": _l("your turn"), "dealer": _l("dealer"), "deal": _l("deal"), "answer": _l("answer"),
    "check": _l("check"), "card": _l("card"), "cards": _l("cards"), "agree": _l("agree"), "bid": _l("bid"),
    "flip": _l("flip"), "deposit": _l("deposit"), "place": _l("place"), "register": _l("register"),
    "leave": _l("leave"), "round_start": _l("round start"), "round_won": _l("round won"),
    "round_lost": _l("round lost"), "outcome": _l("outcome"), "reveal_start": _l("reveal start"), "add": _l("add"), "true": _l("claim true"), "face": _l("face"),
    "prizes_to_box": _l("prizes to box"),
    "stage2": _l("stage2"), "eliminated": _l("eliminated"), "note_to_bank": _l("note to bank"),
    "halted": _l("halted"), "round_void": _l("round void"), "registered": _l("registered"),
    "undo": _l("undo"), "chips": _l("chips"), "scores": _l("scores"), "points": _l("points"),
    "winner": _l("winner"), "result": _l("result"),
}

# House-rule option labels on the new-game form (``opt_<name>``); game names (``game_<id>``) are the
# specs' titles.
_OPTIONS = {
    "notes_per_player": _l("Notes per player"),
    "skulls_per_player": _l("Skulls per player"),
    "skull_parity": _l("A skull's last digit"),
    "leaver_counts_as": _l("A player who leaves counts as"),
    "last_skull_out": _l("Last skull: out at once"),
    "currency": _l("Currency of the notes"),
    "max_cards": _l("Most cards in one move"),
    "first_dealer": _l("First dealer (seat number)"),
    "games": _l("Games in the match"),
    "starting_chips": _l("Chips at the start"),
    "min_stake": _l("Minimum stake"),
    "max_stake": _l("Maximum stake"),
    "first_banker": _l("First banker (seat number)"),
    "rounds": _l("Rounds"),
    "bank_must_cover": _l("The bank must cover the bets"),
    "joker_first_same_banker": _l("Joker first: same banker again"),
    "deals": _l("Deals"),
    "simplified_scoring": _l("Simplified scoring"),
    "infinity_points": _l("Points of the Infinity card"),
    "deck_check": _l("Check the deck"),
    "deal_leader": _l("Who leads a deal"),
    "banker": _l("Banker (seat number)"),
    "dealer": _l("Dealer (seat number)"),
    "officials_play": _l("Banker and dealer play too"),
    "chips": _l("Chips per player"),
    "entry_stake": _l("Entry stake"),
    "card_stake": _l("Stake per card"),
    "box": _l("Box at the start"),
    "playoff": _l("Play-off variant"),
    "fine_per_card": _l("Fine per card"),
    "stall_limit": _l("Moves without progress before a stall"),
}

# The joker game's bet grid on the seat page (web/static/app.js ``renderBetGrid``): what to tap,
# why a selection is no bet, and the button that places it.
_WORDS.update({
    "bet_hint": _l("Tap your bet's cards; a suit's sign takes its row, a rank its column"),
    "bet_diagonal": _l("A diagonal is not a bet: touching cards share a side"),
    "bet_apart": _l("These two cards do not touch: not a bet"),
    "bet_no_shape": _l("%(n)s cards selected: there is no such bet"),
    "bet_uncovered": _l("The bank cannot cover it now"),
    "bet_room": _l("The bank covers a stake up to %(n)s here"),
    "bet_place": _l("Place the bet"),
})

# the seats' phones (web/static/devices.js, companion/dashboard/devices.py; helper night9)
_WORDS.update({
    "dev_title": _l("Phones on seats"), "dev_none": _l("No phone has joined yet."),
    "dev_first": _l("joined at %(t)s"), "dev_last": _l("seen at %(t)s"), "dev_online": _l("online"),
    "dev_unknown": _l("unknown browser"), "dev_revoke": _l("Sign out"),
    "dev_revoke_ask": _l("Sign this phone out of its seat? To play on it again it will need the seat's code."),
    "dev_revoked": _l("The phone is signed out."),
    "dev_many": _l("%(n)s phones hold this seat"),
    "dev_joined": _l("Another phone joined your seat (%(label)s, at %(t)s). If it is not yours, tell the operator."),
    "dev_signed_out": _l("The operator signed this phone out of its seat. To play on it again, enter the seat's code."),
    "dev_join_again": _l("Join again"),
})

# the camera set-up view and the table's voice (web/static/setup.js; helper night9)
_WORDS.update({
    "voice_title": _l("Table voice"),
    "voice_on": _l("Speak"),
    "voice_lang": _l("Voice language"),
    "voice_lang_ru": _l("Russian"),
    "voice_lang_en": _l("English"),
    "voice_volume": _l("Volume"),
    "voice_pace": _l("Pace, words a minute"),
    "voice_turn": _l("Say whose turn after (s; 0: never)"),
    "voice_save": _l("Save"),
    "voice_test": _l("Test the voice"),
    "voice_saved": _l("Saved."),
    "voice_queued": _l("Speaking…"),
    "cam_title": _l("Camera set-up"),
    "cam_hint": _l("Aim and focus the camera: green boxes are cards or notes big enough to read, orange ones are "
                   "too small; blue marks what the readers read, red what they were not sure of."),
    "cam_show": _l("Show the camera"),
    "cam_hide": _l("Hide the camera"),
    "cam_none": _l("No camera frame yet."),
    "cam_blurred": _l("Out of focus: turn the lens ring until the edges are sharp."),
    "cam_dark": _l("Too dark: add light over the table."),
    "cam_bright": _l("Too bright: dim the light over the table."),
    "cam_glare": _l("Glare: move the lamp so it does not reflect off the cards and notes."),
    "cam_small": _l("Some cards or notes are too small: bring the camera closer (at least %(n)s px on the short side)."),
    "cam_nothing": _l("No card or note in view."),
    "cam_good": _l("The camera is set up well."),
    "cam_figures": _l("Focus %(f)s, brightness %(b)s, glare %(g)s"),
})

# The boards that draw each game's table and the table display /tv (web/static/boards/*.js,
# web/static/js/tv.js): the «Подробнее» fold, auction and answer marks, the display's captions.
_WORDS.update({
    "details": _l("Details"), "b_to_speak": _l("To speak"), "b_reveals": _l("Reveals"),
    "b_answers": _l("Must answer"), "total": _l("Total"), "tv_turn": _l("Whose turn"),
    "tv_last": _l("Last event"), "tv_result": _l("Result"), "tv_chips": _l("Chips over the rounds"),
    "tv_points": _l("Points over the deals"),
})

# the joker game's odds legend (web/static/boards/hoggenheimer.js): «1 карта → 1:1», «2 карты → 2:1»,
# «8 карт → 8:1» — each count with its noun's plural form (ngettext), never «1 cards»
_WORDS.update({f"n_cards_{k}": lazy_ngettext("%(n)s card", "%(n)s cards", k, n=k) for k in (1, 2, 4, 8)})

_CACHE: dict[tuple, dict[str, str]] = {}


def sentence(text) -> str:
    """``text`` in sentence case, as every label on the pages is (a button, a field's name, a
    heading, a badge): its first letter a capital, the rest as it is — «место» → «Место»,
    ``"odd"`` → ``"Odd"``, «ХОЙ!» stays. A game term serves as a value too («этап: ставки»), so
    its catalogue word stays lower case and a label is made of it here (and by the page script's
    ``label``)."""
    text = str(text)
    return text[:1].upper() + text[1:]


def option_label(name: str) -> str:
    """A house-rule option's label in the request's language (the option name when unknown)."""
    word = _OPTIONS.get(name)
    return str(word) if word is not None else name.replace("_", " ")


def game_name(game_id: str) -> str:
    """A game's name in the request's language: its spec's ``title`` through the catalogue (the id
    when no such game is registered)."""
    spec = registry.find(game_id)
    return _(spec.title) if spec is not None else game_id


def game_title(game_id: str, lang: str = DEFAULT) -> str:
    """A game's name in ``lang`` outside a request (the consoles of ``companion run`` and
    ``companion dashboard``): the pages' own names (:func:`companion.games.registry.title`),
    «Череп и розы (на купюрах)» for ``skull``; the id when unknown."""
    return render(registry.title(game_id), lang)


def term(value: str) -> str:
    """A game term (an option's choice such as ``odd``) in the request's language, else itself."""
    word = _TERMS.get(value)
    return str(word) if word is not None else str(value)


def field_word(name: str) -> str:
    """An action field's name in the request's language (``"serials"`` → «Номера купюр»), the
    same word the page script shows as the field's placeholder: a UI word, else the game term
    (``"slot"`` → «место», ``"leader"`` → «ведущий»), else the name with spaces for underscores.
    Every field of the five games' actions has a word (``tests/dashboard/test_manual_entry_games.py``).
    A field's name is a label: in sentence case («Место», not «место»)."""
    word = _WORDS.get(name)
    if word is None:
        word = _TERMS.get(name)
    return sentence(word if word is not None else name.replace("_", " "))


def _game_words() -> dict[str, str]:
    """Words one game says differently from the others, as ``"<game id>:<key>"`` (each spec's
    ``terms``, translated with the game id as the message context): the page script looks them up
    first on that game's pages. Call it with a request's locale in force. The joker game's banker
    is «банкомет», the seed's word (seed 002), while the lottery's stays «банкир» (seed 004): the
    same view key ``banker``, two words. Skull's notes lie «номером вниз» (seed 000, as its history
    says), not «рубашкой вверх»: a banknote has no card back. One term per game, as its seed and its
    history say it: the lottery's and doubt's dealer is «сдающий» (seed 004; doubt's options and
    refusals), skull's «дилер» (seed 000); the joker game's deal is a «сдача» (seed 002: «Сдача
    расклада»), 6100's a «партия» (seed 003: «оговоренное количество партий»), doubt's game of the
    match a «партия»."""
    return {f"{spec.id}:{key}": pgettext(spec.id, msgid) for spec in registry.specs()
            for key, msgid in spec.terms.items()}


def js_words() -> dict[str, str]:
    """The script's words in the request's language (translated once per language)."""
    from flask_babel import get_locale

    lang = str(get_locale() or DEFAULT)
    key = (lang, registry.ids())  # a game registered later brings its words
    words = _CACHE.get(key)
    if words is None:
        words = {k: str(v) for k, v in _WORDS.items()}
        words.update({f"t_{k}": str(v) for k, v in _TERMS.items()})
        words.update({f"opt_{k}": str(v) for k, v in _OPTIONS.items()})
        words.update({f"game_{spec.id}": _(spec.title) for spec in registry.specs()})
        words.update(_game_words())
        _CACHE[key] = words
    return words


__all__ = ["LANGUAGES", "DEFAULT", "COOKIE", "select_locale", "js_words", "field_word", "option_label",
           "game_name", "game_title", "term", "sentence", "_"]
