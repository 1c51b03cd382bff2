"""The club board's words, Russian first, English second, through the dashboard's mechanism:
Flask-Babel with English message ids from the one catalogue (``web/translations``, ``make
catalogue``), so the game names and the words of the tables' public pages are the dashboard's.
The board's script gets its words from :func:`js_words`.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

_WORDS = {
    "club": _l("Club"), "board": _l("Club board"), "tables": _l("Tables"), "table": _l("Table"),
    "standings": _l("Standings of the night"), "player": _l("Player"), "games_played": _l("Games played"),
    "wins": _l("Wins"), "banks": _l("Skull banks"), "bank_notes": _l("notes"), "points_6100": _l("6100 points"),
    "chips": _l("Chips"), "at_tables": _l("Tables"), "no_tables": _l("No table has reported yet."),
    "no_results": _l("No game has finished tonight yet."), "no_game": _l("No game at this table"),
    "turn": _l("Turn"), "over": _l("Game over"), "silent": _l("Silent"), "online": _l("Live"),
    "silent_since": _l("no word since %(time)s"), "broker_lost": _l("No connection to the club's broker: reconnecting…"),
    "open": _l("Open"), "merge": _l("Merge two spellings"), "merge_name": _l("Spelling"),
    "merge_into": _l("Counts as"), "pin": _l("Board PIN"), "merge_do": _l("Merge"), "unmerge": _l("Undo"),
    "merged": _l("Merged spellings"), "new_night": _l("Start a new night"), "also": _l("also"),
    "done": _l("Done"), "failed": _l("Not done"), "rank": _l("#"), "ended": _l("Ended by the operator"),
}


def js_words() -> dict[str, str]:
    """The board script's words in the request's language, with the dashboard's (game names, the
    public page's words) under them."""
    from companion.dashboard import i18n

    words = dict(i18n.js_words())
    words.update({f"club_{k}": str(v) for k, v in _WORDS.items()})
    return words
