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
    "over": _l("Game over"), "result": _l("Result"), "status": _l("Table status"),
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
    # common verbs
    "v_bid": _l("Bid"), "v_raise": _l("Raise"), "v_pass": _l("Pass"), "v_agree": _l("Agree"),
    "v_believe": _l("Верю"), "v_disbelieve": _l("Не верю"), "v_doubt": _l("Не верю"),
    "v_trust": _l("Верю"), "v_place": _l("Place a note"), "v_add": _l("Add"), "v_play": _l("Play"),
    "v_take": _l("Take"), "v_hoi": _l("ХОЙ!"), "v_void": _l("Void the round"), "v_flip": _l("Flip"),
    "v_reveal": _l("Reveal"), "v_pick": _l("Pick"), "v_bet": _l("Bet"), "v_leave": _l("Leave"),
    "v_deal": _l("Deal"), "v_check": _l("Check"), "v_claim": _l("Claim"), "v_more": _l("More"),
    "v_deposit": _l("Deposit to the bank"), "v_scan": _l("Scan"), "v_undo": _l("Undo"),
}


def js_words() -> dict[str, str]:
    """The script's words in the request's language."""
    return {k: str(v) for k, v in _WORDS.items()}


__all__ = ["LANGUAGES", "DEFAULT", "COOKIE", "select_locale", "js_words", "_"]
