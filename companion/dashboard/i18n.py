"""Languages: Russian by default, English switchable (Flask-Babel; catalogues in web/translations).

Message ids are English; ``web/translations/ru/LC_MESSAGES/messages.po`` holds the Russian.
The page scripts get their words from :func:`js_words` (the same catalogue), so one .po file
translates the templates and the live-rendered parts alike.
"""

from __future__ import annotations

from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

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
    "turn": _l("Turn"), "dealer": _l("Dealer"), "you": _l("You"), "pending": _l("counting"),
    "history": _l("History"), "no_game": _l("No game yet. The operator starts one."),
    "over": _l("Game over"), "result": _l("Result"), "hw_status": _l("Table status"), "status": _l("Status"),
    "buttons": _l("Button box"), "camera": _l("Camera"), "ocr": _l("OCR"),
    "state_ok": _l("working"), "state_warn": _l("check"), "state_error": _l("fault"),
    "state_absent": _l("not connected"), "state_sim": _l("simulated"),
    "live": _l("live"), "offline": _l("reconnecting…"), "your_actions": _l("Your actions"),
    "wait": _l("Waiting for other players"), "rejected": _l("Not accepted"),
    "accepted": _l("Accepted"), "send": _l("OK"), "table_actions": _l("Table actions"),
    "prompts": _l("Prompts"), "manual": _l("Enter by hand"), "private": _l("only you see this"),
    "table_action": _l("Table"), "undo": _l("Last action undone"), "seat": _l("Seat"),
    "odds": _l("odds"), "chance": _l("chance"), "bets": _l("Bets"), "layout": _l("Layout"),
    "joker": _l("Joker"), "action": _l("Action"), "bank": _l("Bank"), "notes": _l("notes"),
    "info": _l("Game"), "yes": _l("yes"), "no": _l("no"), "source_manual": _l("entered by hand"),
    # common view keys
    "phase": _l("Phase"), "round": _l("Round"), "bid": _l("Bid"), "stack": _l("Stack"),
    "stacks": _l("Stacks"), "hand": _l("Hand"), "cards": _l("Cards"), "score": _l("Score"),
    "scores": _l("Scores"), "name": _l("Name"), "in_game": _l("In game"), "passed": _l("Passed"),
    "agreed": _l("Agreed"), "pile": _l("Pile"), "claim": _l("Claim"), "claim_name": _l("Claim"),
    "placements": _l("Placements"), "count": _l("Count"), "discard": _l("Discard"),
    "last_check": _l("Last check"), "out_order": _l("Out, in order"), "deck": _l("Deck"),
    "game_no": _l("Game no."), "games": _l("Games"), "answer": _l("Answer"), "winner": _l("Winner"),
    "stake": _l("Stake"), "payout": _l("Payout"), "trick": _l("Trick"), "token": _l("Token (фишка)"),
    "bidder": _l("Bidder"), "revealed": _l("Revealed"), "on_table": _l("On the table"),
    "lost": _l("Lost"), "out": _l("Out"), "last_cards": _l("Last cards"), "size": _l("Size"),
    "kinds": _l("Kinds"), "prizes": _l("Prizes"), "points": _l("Points"), "deal": _l("Deal"),
    "banker": _l("Banker"), "chips": _l("Chips"), "bank_value": _l("Bank value"),
    "registered": _l("Registered"), "face_down": _l("Face down"), "face_up": _l("Face up"),
    "table_notes": _l("Notes on the table"), "must_raise": _l("Must raise"), "roses": _l("Roses"),
    "outcome": _l("Outcome"), "skull_owner": _l("Skull's owner"), "chooser": _l("Chooses"),
    "owed": _l("Owe the bank"), "halt": _l("Halted"), "last_round": _l("Last round"),
    "options": _l("House rules"), "serial": _l("Serial"), "role": _l("Role"), "serials": _l("Serials"), "denominations": _l("Face values"), "card": _l("Card"),
    "face_value": _l("Face value"), "currency": _l("Currency"), "exposure": _l("Banker's exposure"),
    "limits": _l("Limits"), "chain": _l("Turned cards"), "deals_total": _l("Deals"), "staked": _l("Staked"),
    "probability": _l("Chance"), "shape": _l("Shape"), "aside": _l("Aside"), "last_settlement": _l("Last settlement"),
    # common values and phases
    "val_active": _l("in play"), "val_out": _l("out"), "val_left": _l("left"), "val_rose": _l("rose"),
    "val_skull": _l("skull"), "val_success": _l("success"), "val_failure": _l("failure"),
    "phase_setup": _l("set-up"), "phase_stage1": _l("stage 1"), "phase_stage2": _l("stage 2"),
    "phase_auction": _l("auction"), "phase_reveal": _l("reveal"), "phase_settlement": _l("settlement"),
    "phase_over": _l("game over"), "phase_deal": _l("deal"), "phase_play": _l("play"),
    "phase_betting": _l("bets"), "phase_turning": _l("turning cards"), "phase_chain": _l("turning cards"),
    "b_passed": _l("passed"), "b_agreed": _l("agrees"), "shape_card": _l("card"), "shape_pair": _l("pair"), "shape_square": _l("square"),
    "shape_column": _l("column"), "shape_row": _l("row"), "n_cards": _l("cards"),
    # common verbs
    "v_bid": _l("Bid"), "v_raise": _l("Raise"), "v_pass": _l("Pass"), "v_agree": _l("Agree"),
    "v_believe": _l("Верю"), "v_disbelieve": _l("Не верю"), "v_doubt": _l("Не верю"),
    "v_trust": _l("Верю"), "v_place": _l("Place a note"), "v_add": _l("Add"), "v_play": _l("Play"),
    "v_take": _l("Take"), "v_hoi": _l("ХОЙ!"), "v_void": _l("Void the round"), "v_flip": _l("Flip"),
    "v_reveal": _l("Reveal"), "v_pick": _l("Pick"), "v_bet": _l("Bet"), "v_leave": _l("Leave"),
    "v_deal": _l("Deal"), "v_check": _l("Check"), "v_claim": _l("Claim"), "v_more": _l("More"),
    "v_deposit": _l("Deposit to the bank"), "v_scan": _l("Scan"), "v_undo": _l("Undo"),
    "v_register": _l("Register notes"), "v_dealer": _l("First dealer"), "v_withdraw": _l("Withdraw"),
    "v_close": _l("Close bets"), "v_turn": _l("Card turned"), "v_answer": _l("Answer"),
}


_CACHE: dict[str, dict[str, str]] = {}


def js_words() -> dict[str, str]:
    """The script's words in the request's language (translated once per language)."""
    from flask_babel import get_locale

    lang = str(get_locale() or DEFAULT)
    words = _CACHE.get(lang)
    if words is None:
        words = _CACHE[lang] = {k: str(v) for k, v in _WORDS.items()}
    return words


__all__ = ["LANGUAGES", "DEFAULT", "COOKIE", "select_locale", "js_words", "_"]
